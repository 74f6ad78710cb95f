import { lstatSync, realpathSync } from 'node:fs';
import { errors } from '@docforge/core';

/**
 * Resolves a project root with realpath after checking it names an existing directory.
 * @returns the real absolute path
 * @throws DocforgeError `project_root_invalid` (details.root as given) when it does not exist or is
 *   not a directory
 */
export function resolveProjectRoot(root: string): string {
  let real: string;
  try {
    real = realpathSync(root);
  } catch (error) {
    throw errors.projectRootInvalid(root, 'does not exist', {}, { cause: error });
  }
  if (!lstatSync(real).isDirectory()) throw errors.projectRootInvalid(root, 'is not a directory');
  return real;
}
