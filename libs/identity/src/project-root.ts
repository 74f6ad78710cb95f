import { lstatSync, realpathSync } from 'node:fs';
import { errors } from '@docforge/core';

/**
 * The longest real project root DocForge serves, in characters (issue 30, item 8): every response
 * carries the root, and the smallest allowed `[limits].max_output_chars` is measured with a root
 * of this length, so a longer one could not answer within it.
 */
export const MAX_PROJECT_ROOT_CHARS = 255;

/**
 * Resolves a project root with realpath after checking it names an existing directory.
 * @returns the real absolute path
 * @throws DocforgeError `project_root_invalid` (details.root as given) when it does not exist or is
 *   not a directory, or when its real path is longer than {@link MAX_PROJECT_ROOT_CHARS}
 *   (details `limit_chars`, `root_chars`)
 */
export function resolveProjectRoot(root: string): string {
  let real: string;
  try {
    real = realpathSync(root);
  } catch (error) {
    throw errors.projectRootInvalid(root, 'does not exist', {}, { cause: error });
  }
  if (!lstatSync(real).isDirectory()) throw errors.projectRootInvalid(root, 'is not a directory');
  if (real.length > MAX_PROJECT_ROOT_CHARS) {
    throw errors.projectRootInvalid(root, `has a real path of ${real.length} characters; DocForge serves project roots of at most ${MAX_PROJECT_ROOT_CHARS} characters`, { limit_chars: MAX_PROJECT_ROOT_CHARS, root_chars: real.length });
  }
  return real;
}
