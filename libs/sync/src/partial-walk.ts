/**
 * The watcher-driven partial walk (issue 14): when the source watcher (source-watch.ts) names every
 * path that changed since the last walk began, only those paths are lstat'ed again and the last
 * walk's entries are updated in memory by the walk's own rules for one path
 * (`sourcePathClassifier` of @docforge/project). Whatever one path cannot settle (a directory, a
 * symbolic link, a walk finding, the descriptor, any error) answers null: the caller walks fully.
 * The result equals what a full walk would return at that moment (tests: partial-walk.test.ts).
 */
import type { SourcePathClass, SourceWalk, SourceEntry } from '@docforge/project';
import { DESCRIPTOR_FILE } from '@docforge/project';

/** Index of `rel` in the path-sorted `entries`, or `-(insertion point) - 1` when absent. */
function search(entries: readonly SourceEntry[], rel: string): number {
  let low = 0;
  let high = entries.length - 1;
  while (low <= high) {
    const mid = (low + high) >>> 1;
    const at = (entries[mid] as SourceEntry).path;
    if (at < rel) low = mid + 1;
    else if (at > rel) high = mid - 1;
    else return mid;
  }
  return -low - 1;
}

/** Whether the path-sorted `directories` hold one under `rel` (those sharing the prefix `rel/` are contiguous). */
function holdsDirectory(directories: readonly string[], rel: string): boolean {
  const prefix = `${rel}/`;
  let low = 0;
  let high = directories.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if ((directories[mid] as string) < prefix) low = mid + 1;
    else high = mid;
  }
  return low < directories.length && (directories[low] as string).startsWith(prefix);
}

/**
 * The walk `base` updated for the changed project-relative `paths` (each in a directory `base`
 * read, or in one of `dependencyDirectories`), classifying each with `classify`; issues,
 * directories and links are kept (every case that could change them answers null). A path in a
 * directory watched only for build dependencies (the walk never read it, so nothing there is a
 * source) is skipped: the caller re-checks every dependency itself. A path that is, or lies above,
 * a directory the walk read answers null (its deletion or move changes what lies below). `base`
 * is not modified.
 * @returns the updated walk (entries sorted by path like `walkSources`), or null when a full walk is needed
 */
export function partialWalk(
  base: SourceWalk, paths: readonly string[], classify: (rel: string) => SourcePathClass, dependencyDirectories: ReadonlySet<string> = new Set(),
): SourceWalk | null {
  if (base.links > 0) return null;
  const directories = new Set(base.directories);
  let entries: SourceEntry[] | null = null;
  for (const rel of paths) {
    const slash = rel.lastIndexOf('/');
    const parent = slash < 0 ? '' : rel.slice(0, slash);
    if (rel === DESCRIPTOR_FILE || directories.has(rel) || holdsDirectory(base.directories, rel)) return null;
    // A path a walk finding names (or lies under) may change that finding.
    if (base.issues.some((issue) => issue.path !== null && (issue.path === rel || issue.path.startsWith(`${rel}/`) || rel.startsWith(`${issue.path}/`)))) return null;
    // A non-ASCII name may differ from another only by Unicode normal form: the full walk reports that (walk-names.ts).
    if (/[^\u0000-\u007f]/.test(rel)) return null;
    if (!directories.has(parent)) {
      if (dependencyDirectories.has(parent)) continue;
      return null;
    }
    const found = classify(rel);
    if (found.kind === 'unsure') return null;
    entries ??= [...base.entries];
    const at = search(entries, rel);
    if (found.kind === 'entry') {
      if (at >= 0) entries[at] = found.entry;
      else entries.splice(-at - 1, 0, found.entry);
    } else if (at >= 0) {
      entries.splice(at, 1);
    }
  }
  return { entries: entries ?? [...base.entries], issues: base.issues, directories: base.directories, links: base.links };
}
