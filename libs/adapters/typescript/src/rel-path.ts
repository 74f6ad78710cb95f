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
