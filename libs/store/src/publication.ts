import { lstatSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { processAlive, readStateText, withLock, type StateLayout } from '@docforge/fs-safe';
import { INDEX_FILE_PATTERN, MAX_CURRENT_BYTES, parsePublication, type Publication } from './publication-format.js';

/** The file identity of `current.json` when it was read: a replacement (new inode) or edit changes it. */
export interface PublicationStamp {
  /** Inode, decimal string. */
  ino: string;
  /** Size in bytes. */
  size: number;
  /** Modification time in nanoseconds, decimal string. */
  mtime_ns: string;
}

/**
 * One read of `current.json`: the publication (null when there is none or it is invalid) and the
 * file's identity at that read (null when absent), so a build reads it once and later only checks,
 * with one lstat, whether it is still the same file ({@link publicationUnchanged}).
 */
export interface PublicationRead {
  publication: Publication | null;
  stamp: PublicationStamp | null;
}

function stampOf(file: string): PublicationStamp | null {
  try {
    const st = lstatSync(file, { bigint: true });
    return { ino: String(st.ino), size: Number(st.size), mtime_ns: String(st.mtimeNs) };
  } catch {
    return null;
  }
}

/**
 * Reads `current.json` once, with its file identity. The publication is null when the file is
 * missing, not a regular file, oversized or fails {@link parsePublication}: an invalid
 * publication is simply "no publication". Never throws.
 */
export function readPublicationOnce(layout: StateLayout): PublicationRead {
  const stamp = stampOf(layout.currentFile);
  try {
    const st = lstatSync(layout.currentFile);
    if (!st.isFile() || st.size > MAX_CURRENT_BYTES) return { publication: null, stamp };
    const checked = parsePublication(readStateText(layout.currentFile, MAX_CURRENT_BYTES));
    return { publication: checked.ok ? checked.publication : null, stamp };
  } catch {
    return { publication: null, stamp };
  }
}

/** Reads `current.json` (see {@link readPublicationOnce}); null when there is no valid publication. */
export function readPublication(layout: StateLayout): Publication | null {
  return readPublicationOnce(layout).publication;
}

/** Whether `current.json` is still the file of an earlier read (same inode, size and mtime; or still absent). */
export function publicationUnchanged(layout: StateLayout, read: PublicationRead): boolean {
  const now = stampOf(layout.currentFile);
  if (now === null || read.stamp === null) return now === read.stamp;
  return now.ino === read.stamp.ino && now.size === read.stamp.size && now.mtime_ns === read.stamp.mtime_ns;
}

/**
 * Whether the published index file still exists with the recorded inode and size. Uses `lstat`
 * only and never opens SQLite (DESIGN.md section 4: health checks compare the signature).
 */
export function publicationFileIntact(layout: StateLayout, publication: Publication): boolean {
  try {
    const st = lstatSync(path.join(layout.indexDir, publication.index_file), { bigint: true });
    return st.isFile() && String(st.ino) === publication.index_ino && Number(st.size) === publication.index_size;
  } catch {
    return false;
  }
}

/** How long a publication waits for a live publisher before `lock_timeout`, in milliseconds. */
export const PUBLICATION_LOCK_TIMEOUT_MS = 10_000;

/**
 * Runs `fn` while holding the publication lock of the state directory (`<state>/locks/
 * index-publication.lock`, @docforge/fs-safe `withLock`): a lock left by a dead publisher
 * (e.g. SIGKILL during publication) is taken over at once.
 * @throws DocforgeError `lock_timeout` (details `lock: "index_publication"`) when a live publisher
 *   holds it for longer than {@link PUBLICATION_LOCK_TIMEOUT_MS}; whatever `fn` throws
 */
export function withPublicationLock<T>(layout: StateLayout, fn: () => T | Promise<T>): Promise<T> {
  return withLock(layout.publicationLock, fn, { timeoutMs: PUBLICATION_LOCK_TIMEOUT_MS, label: 'index_publication' });
}

/**
 * Deletes index files that are neither the current nor the previous publication, stale temp
 * files left by crashed builds (older than one minute), and process-owned files of processes that
 * are gone: a name matching `processOwned` (its first capture group is the owner's pid; the build
 * passes its standby copies' pattern) belongs to its process while that process lives.
 */
export function collectOldGenerations(layout: StateLayout, keep: ReadonlySet<string>, processOwned: RegExp | null = null): void {
  let names: string[];
  try {
    names = readdirSync(layout.indexDir);
  } catch {
    return;
  }
  const now = Date.now();
  for (const name of names) {
    const full = path.join(layout.indexDir, name);
    if (INDEX_FILE_PATTERN.test(name) && !keep.has(name)) {
      rmSync(full, { force: true });
    } else if (processOwned !== null && processOwned.test(name)) {
      // Whatever else stands under such a name (a directory) is left alone, as for temp files.
      try {
        if (!processAlive({ pid: Number(processOwned.exec(name)![1]), start: null }) && lstatSync(full).isFile()) rmSync(full, { force: true });
      } catch {
        // gone, or not ours to remove
      }
    } else if (name.endsWith('.tmp') || name.startsWith('.build-')) {
      try {
        if (now - lstatSync(full).mtimeMs > 60_000) rmSync(full, { force: true });
      } catch {
        // already gone
      }
    }
  }
}
