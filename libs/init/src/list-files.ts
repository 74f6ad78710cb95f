/**
 * The one bounded folder walk of `docforge init`'s scans (generated copies, build folders that
 * hold code): listings only, no file is read.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Most files a scan lists (a bound on init's cost in huge trees); past it the scan proposes nothing. */
export const MAX_SCANNED_FILES = 200_000;

/**
 * Project-relative POSIX paths, sorted, of the files below `dirs` (project-relative, `''` the
 * root) whose name `keep` accepts, not descending into folders `skipDir(rel, name)` refuses;
 * unreadable folders are passed over.
 * @param root absolute project root
 * @returns the paths, or null when more than {@link MAX_SCANNED_FILES} files are kept
 */
export function listFiles(root: string, dirs: readonly string[], skipDir: (rel: string, name: string) => boolean, keep: (name: string) => boolean): string[] | null {
  const found: string[] = [];
  const stack = [...dirs];
  while (stack.length > 0) {
    const dir = stack.pop()!;
    let entries;
    try {
      entries = readdirSync(join(root, dir), { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      const rel = dir === '' ? entry.name : `${dir}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!skipDir(rel, entry.name)) stack.push(rel);
      } else if (entry.isFile() && keep(entry.name)) {
        if (found.length >= MAX_SCANNED_FILES) return null;
        found.push(rel);
      }
    }
  }
  return found.sort();
}
