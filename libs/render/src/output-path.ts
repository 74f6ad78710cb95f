/**
 * Where a render output (or a changeset preview) may be written (attacker-trial fix). The
 * descriptor validates outputs lexically only (relative, no `..`, `.html`, not in the state dir,
 * unique); the file system is checked here, when a view is rendered, previewed or its status read,
 * so a bad output fails that view alone. An output is written only at its plain path: no component
 * below the project root may be a symbolic link (a link is never written through, so no source can
 * be overwritten), every existing folder on the way must be a directory, the output itself must be
 * absent or a regular file, and it must not lie in a content root, a code root (a root of `.`
 * excepted: the whole project), the descriptor or the state dir.
 */
import { lstatSync, mkdirSync, realpathSync, type Stats } from 'node:fs';
import path from 'node:path';
import { errors, type DocforgeError } from '@docforge/core';
import type { Descriptor } from '@docforge/project';

/** Why an output path is refused (also the render-status reason of that view). */
export type OutputProblemCode = 'output_symlink' | 'output_not_file' | 'output_parent_not_directory' | 'output_in_sources';

/** A refused output path. */
export interface OutputProblem {
  reason_code: OutputProblemCode;
  /** One sentence naming the offending component. */
  reason: string;
}

/** lstat of `p`, or null when it does not exist. @throws Node errno errors other than ENOENT */
export function lstatOrNull(p: string): Stats | null {
  try {
    return lstatSync(p);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return null;
    throw error;
  }
}

function under(rel: string, dir: string): boolean {
  return dir !== '.' && (rel === dir || rel.startsWith(`${dir}/`));
}

/**
 * The problem of writing `rel` (a project-relative POSIX path) as a render output, or null when it
 * may be written at `<real root>/<rel>`. lstat only; never follows a link.
 */
export function outputProblem(descriptor: Descriptor, rel: string): OutputProblem | null {
  const descriptorRel = path.relative(descriptor.root, descriptor.path).split(path.sep).join('/');
  const roots = [...descriptor.sources.content_roots, ...descriptor.sources.code_roots, descriptor.state.dir];
  if (rel === descriptorRel || roots.some((root) => under(rel, root))) {
    return { reason_code: 'output_in_sources', reason: `it lies in a content root, a code root, the descriptor or the state dir (${[descriptorRel, ...roots.filter((r) => r !== '.')].join(', ')}); outputs never overwrite sources` };
  }
  const segments = rel.split('/');
  const rootReal = realpathSync(descriptor.root);
  for (let i = 1; i <= segments.length; i += 1) {
    const prefix = segments.slice(0, i).join('/');
    const st = lstatOrNull(path.join(rootReal, ...segments.slice(0, i)));
    if (st === null) return null;
    if (st.isSymbolicLink()) return { reason_code: 'output_symlink', reason: `"${prefix}" is a symbolic link; render outputs are never written through a link (remove the link)` };
    if (i < segments.length && !st.isDirectory()) return { reason_code: 'output_parent_not_directory', reason: `"${prefix}" is not a directory` };
    if (i === segments.length && !st.isFile()) return { reason_code: 'output_not_file', reason: `"${prefix}" exists and is not a regular file` };
  }
  return null;
}

/**
 * The absolute path a render output of `viewId` is written to (its plain path below the real root).
 * @throws DocforgeError `render_output_invalid` (see {@link outputProblem}); nothing is written
 */
export function outputTarget(descriptor: Descriptor, viewId: string, rel: string): string {
  const problem = outputProblem(descriptor, rel);
  if (problem !== null) throw outputError(viewId, rel, problem);
  return path.join(realpathSync(descriptor.root), ...rel.split('/'));
}

/** The `render_output_invalid` error of a refused output. */
export function outputError(viewId: string, rel: string, problem: OutputProblem): DocforgeError {
  return errors.renderOutputInvalid(viewId, rel, problem.reason, { reason_code: problem.reason_code });
}

/**
 * Creates the missing folders of an output checked by {@link outputTarget}, one at a time below the
 * real root (never `recursive`), and re-checks the whole path with lstat afterwards, so a link
 * swapped in meanwhile is refused rather than followed.
 * @throws DocforgeError `render_output_invalid`
 */
export function prepareOutputDirs(descriptor: Descriptor, viewId: string, rel: string): void {
  const rootReal = realpathSync(descriptor.root);
  const segments = rel.split('/');
  for (let i = 1; i < segments.length; i += 1) {
    const dir = path.join(rootReal, ...segments.slice(0, i));
    if (lstatOrNull(dir) === null) {
      try {
        mkdirSync(dir);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
    }
  }
  const problem = outputProblem(descriptor, rel);
  if (problem !== null) throw outputError(viewId, rel, problem);
}
