/**
 * The one bounded folder walk of the descriptor checks (the state-dir scan, the code-removal scan):
 * listings only, no file is read, symbolic links are not followed, unreadable folders are passed over.
 */
import { readdirSync, type Dirent } from 'node:fs';
import { join } from 'node:path';

/** A visitor's answer for one entry: descend into this folder carrying `tag`, stop the whole walk, or go on (undefined). */
export type WalkStep<T> = { descend: T } | 'stop' | undefined;

/**
 * Visits the entries below each start folder, breadth first, at most `maxEntries` entries in all.
 * @param root absolute project root; `starts` project-relative POSIX folders (`.` the root) with the tag their entries get
 * @param visit called once per entry with its project-relative path, the entry and its folder's tag
 * @returns `done` (all visited), `stopped` (a visitor said so) or `bounded` (past `maxEntries`)
 */
export function walkFolders<T>(root: string, starts: readonly { rel: string; tag: T }[], maxEntries: number, visit: (rel: string, entry: Dirent, tag: T) => WalkStep<T>): 'done' | 'stopped' | 'bounded' {
  const queue = [...starts];
  let budget = maxEntries;
  for (let next = 0; next < queue.length; next += 1) {
    const { rel: dir, tag } = queue[next]!;
    let entries: Dirent[];
    try {
      entries = readdirSync(join(root, dir), { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      if ((budget -= 1) < 0) return 'bounded';
      const rel = dir === '.' ? entry.name : `${dir}/${entry.name}`;
      const step = visit(rel, entry, tag);
      if (step === 'stop') return 'stopped';
      if (step !== undefined && entry.isDirectory()) queue.push({ rel, tag: step.descend });
    }
  }
  return 'done';
}
