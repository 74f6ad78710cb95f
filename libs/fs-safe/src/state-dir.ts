import { lstatSync, mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { DocforgeError, errors } from '@docforge/core';

/** Why a state directory path cannot be used: the first offending component, root-relative. */
export interface StateDirProblem {
  /** Root-relative POSIX path of the offending component (or of the whole path). */
  path: string;
  /** Human-readable reason, e.g. `is a symbolic link`. */
  why: string;
}

function relOf(root: string, abs: string): string {
  return path.relative(root, abs).split(path.sep).join('/');
}

/**
 * Checks, without creating or following anything, that `dir` lies lexically inside `root` and that
 * every component of it below `root` that exists is a real directory (not a symbolic link, not a
 * file). Components that do not exist yet are fine: {@link ensureStateDir} creates them as real
 * directories. The root itself may be reached through links; only what lies below it is checked.
 * @param root absolute project root
 * @param dir absolute directory to check (the state directory or a directory below it)
 * @returns null when the path is usable, else the first problem
 */
export function stateDirProblem(root: string, dir: string): StateDirProblem | null {
  const rel = path.relative(root, dir);
  if (rel === '' || rel === '..' || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel)) {
    return { path: relOf(root, dir), why: 'is not below the project root' };
  }
  let current = root;
  for (const segment of rel.split(path.sep)) {
    current = path.join(current, segment);
    let st;
    try {
      st = lstatSync(current);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return null; // the rest does not exist yet and holds no link
      throw error;
    }
    if (st.isSymbolicLink()) return { path: relOf(root, current), why: 'is a symbolic link' };
    if (!st.isDirectory()) return { path: relOf(root, current), why: 'is not a directory' };
  }
  return null;
}

function refusal(root: string, dir: string, problem: StateDirProblem, written: string): DocforgeError {
  return errors.pathOutsideRoot(
    `The state directory ${dir} must be a real directory inside the project root ${root}, reached through no symbolic link, but "${problem.path}" ${problem.why}; ${written}`,
    { path: problem.path },
  );
}

/**
 * Refuses a state directory path that {@link stateDirProblem} rejects. Creates nothing.
 * @throws DocforgeError `path_outside_root` naming the offending component (nothing was written)
 */
export function assertStateDir(root: string, dir: string): void {
  const problem = stateDirProblem(root, dir);
  if (problem !== null) throw refusal(root, dir, problem, 'nothing was written.');
}

/**
 * Refuses a project root that is gone: deleted or moved after the process bound it, or replaced
 * by a file. A missing root is the cause to name, not the ENOENT of a mkdir below it.
 * @throws DocforgeError `project_root_invalid`
 */
function assertRootPresent(root: string, cause?: unknown): void {
  let problem: string | null = null;
  try {
    if (!statSync(root).isDirectory()) problem = 'is no longer a directory';
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error;
    problem = 'no longer exists (it was deleted or moved after this process bound it)';
  }
  if (problem !== null) throw errors.projectRootInvalid(root, problem, {}, { cause });
}

/**
 * Creates `dir` (and its missing parents below `root`) as real directories, after proving with
 * {@link stateDirProblem} that no existing component is a link or a file: nothing is created
 * through a link. Each directory is created on its own (never `recursive`) and checked again
 * with lstat, so a link swapped in meanwhile is refused rather than followed.
 * @param root absolute project root
 * @param dir absolute directory (the state directory or one below it: `index/`, `locks/`, …)
 * @throws DocforgeError `path_outside_root` naming the offending component; `project_root_invalid`
 *   when the project root itself no longer exists or is no directory (deleted or moved after
 *   start: issue 30, item 22); Node errno errors (`EACCES`, `ENOSPC`, …) when a directory cannot
 *   be created
 */
export function ensureStateDir(root: string, dir: string): void {
  assertRootPresent(root);
  assertStateDir(root, dir);
  const rel = path.relative(root, dir);
  let current = root;
  for (const segment of rel.split(path.sep)) {
    current = path.join(current, segment);
    try {
      mkdirSync(current);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') assertRootPresent(root, error);
      if (code !== 'EEXIST') throw error;
    }
    const st = lstatSync(current);
    if (st.isSymbolicLink() || !st.isDirectory()) {
      throw refusal(root, dir, { path: relOf(root, current), why: st.isSymbolicLink() ? 'became a symbolic link while it was created' : 'is not a directory' }, 'nothing was written through it.');
    }
  }
}
