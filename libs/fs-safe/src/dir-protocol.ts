/**
 * The messages between {@link ConfinedDirs} (confined-dirs.ts) and its child (dir-child.ts).
 * A folder is named by its POSIX path relative to the real project root (`''` is the root) and,
 * once verified, by its identity `"<dev>:<ino>"` (`expect`: the child refuses the operation when
 * the folder at that path is another one).
 */

/** The first message: the real project root, the test kill point's marker (null: none armed). */
export interface DirChildInit {
  root: string;
  marker: string | null;
  /** Set by the child itself from `stat('.')` after its first chdir into `root`. */
  rootId?: string;
}

interface InDir {
  seq: number;
  /** Folder path relative to the real root (`''`: the root). */
  dir: string;
  /** The folder's verified identity, or null to accept whatever real folder the walk reaches. */
  expect: string | null;
}

/** One request. */
export type DirRequest =
  | (InDir & { op: 'open' })
  | (InDir & { op: 'list' })
  | (InDir & { op: 'locate' })
  | (InDir & { op: 'read' | 'entry' | 'mkdir' | 'unlink' | 'rmdir'; name: string })
  | (InDir & { op: 'write'; name: string; data: Uint8Array; kill?: boolean; mode?: number })
  | (InDir & { op: 'symlink'; name: string; text: string });

/** One response: the value, or the failure's code (`moved`, `moved_after`, `link`, `missing`, `not_dir`, an errno code, ...). */
export type DirResponse = { seq: number; ok: true; value: unknown } | { seq: number; ok: false; code: string; message: string };
