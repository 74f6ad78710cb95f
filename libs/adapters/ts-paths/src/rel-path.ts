/** Project-relative POSIX path helpers shared by module resolution and tsconfig path aliases. */
import { posix } from 'node:path';

/** Joins a project-relative directory ('' for the root) and a relative path. */
export function joinRelative(dir: string, rel: string): string {
  return dir === '' ? rel : `${dir}/${rel}`;
}

/** Normalizes a project-relative path; '' for the root, null when it escapes the root. */
export function normalizeRelative(path: string): string | null {
  const normal = posix.normalize(path);
  if (normal === '.' || normal === './') return '';
  if (normal === '..' || normal.startsWith('../') || normal.startsWith('/')) return null;
  return normal.replace(/^\.\//, '').replace(/\/$/, '');
}

/**
 * The directories a package.json may lie in for the given files: the root ('') and every directory
 * holding a file outside node_modules, with its ancestors; sorted.
 */
export function packageDirectories(paths: Iterable<string>): string[] {
  const dirs = new Set<string>(['']);
  for (const path of paths) {
    if (path.includes('node_modules/')) continue;
    for (let dir = posix.dirname(path); dir !== '.' && dir !== '' && !dirs.has(dir); dir = posix.dirname(dir)) dirs.add(dir);
  }
  return [...dirs].sort();
}
