/**
 * Standby copies of the published index file (issue 14 item 4: a one-file edit must not copy the
 * whole index on its way to publication). A delta build writes a private copy of the previous
 * publication's file and publishes that copy as the next generation; the published file itself is
 * never altered (DESIGN.md section 4). Copying costs what the index weighs (about 0.4 to 1.7 s for
 * the 367 MB file of 100,000 documentation nodes on the 2-core VM), so a long-lived process makes
 * the copy in idle time, right after a publication: the build worker starts an asynchronous,
 * kernel-side copy (`copyFile`, which uses `copy_file_range` on Linux) and its fsync, and the next
 * delta build takes the finished copy instead of copying on its critical path. The edit then writes
 * and fsyncs only the pages its delta changes, a cost that grows with the change.
 *
 * A standby is used only when it is exactly what a fresh copy would be:
 * - it was copied by this thread from the file of the publication the build starts from, whose
 *   `index_file`, `index_ino` and `index_size` still match (a published file is immutable);
 * - the copy and its fsync finished without error;
 * - the copy is still the regular file this thread wrote: same inode, size, mtime and ctime
 *   (ctime cannot be set back by anyone who rewrote it).
 * Anything else discards it and the build copies as before. Standby files are named
 * `.standby-<pid>-<threadId>-<random>.sqlite` in `index/`; they are never published under that name, never
 * opened by a reader, and removed when stale, when their process is gone (publication.ts
 * `collectOldGenerations`) or when their manager closes.
 */
import { constants as fsConstants, lstatSync, readdirSync, rmSync } from 'node:fs';
import { copyFile, lstat, open } from 'node:fs/promises';
import path from 'node:path';
import { threadId } from 'node:worker_threads';
import type { StateLayout } from '@docforge/fs-safe';

/** The publication fields a standby copies from (the five-field signature's file part). */
export interface StandbySource {
  index_file: string;
  index_ino: string;
  index_size: number;
}

/** The state of a finished copy, as lstat'ed after its fsync. */
interface CopiedState {
  ino: bigint;
  size: bigint;
  mtimeNs: bigint;
  ctimeNs: bigint;
}

interface Standby {
  /** Absolute path of the copy. */
  file: string;
  /** The index directory it lives in. */
  indexDir: string;
  source: StandbySource;
  /** Settles with the copy's state, or null when copying failed (the file is then removed). */
  ready: Promise<CopiedState | null>;
}

/** File names of standby copies: `.standby-<pid>-<threadId>-<random>.sqlite` (the build worker thread that owns it). */
export const STANDBY_FILE_PATTERN = /^\.standby-(\d+)-(\d+)-[a-z0-9]+\.sqlite$/;

function sameSource(a: StandbySource, b: StandbySource): boolean {
  return a.index_file === b.index_file && a.index_ino === b.index_ino && a.index_size === b.index_size;
}

/** Whether `file` is the regular file `source` names: its inode and size (a published file never changes). */
function sourceIntact(file: string, source: StandbySource): boolean {
  try {
    const st = lstatSync(file, { bigint: true });
    return st.isFile() && String(st.ino) === source.index_ino && Number(st.size) === source.index_size;
  } catch {
    return false;
  }
}

async function copyAndSync(from: string, to: string, source: StandbySource): Promise<CopiedState | null> {
  try {
    await copyFile(from, to, fsConstants.COPYFILE_EXCL);
    // The source must still be the published file after the copy (a published file is immutable,
    // so this only fails when something outside DocForge replaced it meanwhile).
    if (!sourceIntact(from, source)) throw new Error('source changed');
    const handle = await open(to, 'r+');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
    const st = await lstat(to, { bigint: true });
    if (!st.isFile() || Number(st.size) !== source.index_size) throw new Error('copy differs');
    return { ino: st.ino, size: st.size, mtimeNs: st.mtimeNs, ctimeNs: st.ctimeNs };
  } catch {
    rmSync(to, { force: true });
    return null;
  }
}

/**
 * The standby copy of one build worker thread (at most one at a time): owned by that worker's build
 * caches (build-caches.ts), which live as long as the thread.
 */
export class StandbyCopy {
  private standby: Standby | null = null;

  /**
   * Starts copying the file of `source` (a current publication of `layout`) into a new standby copy,
   * discarding the previous standby. Returns at once; the copy and its fsync run in libuv's thread
   * pool, so builds started meanwhile are not held up. Does nothing when a standby of the same file
   * already exists or the file is not intact. Never throws.
   */
  prepare(layout: StateLayout, source: StandbySource): void {
    if (this.standby !== null && this.standby.indexDir === layout.indexDir && sameSource(this.standby.source, source)) return;
    this.discard();
    const from = path.join(layout.indexDir, source.index_file);
    if (!sourceIntact(from, source)) return;
    const file = path.join(layout.indexDir, `.standby-${process.pid}-${threadId}-${Math.random().toString(36).slice(2, 10)}.sqlite`);
    this.standby = { file, indexDir: layout.indexDir, source: { ...source }, ready: copyAndSync(from, file, source) };
  }

  /**
   * Takes the standby copy of the file of `source` for a delta build, waiting for the copy to finish
   * when it is still running. The caller owns the returned file (it is no longer a standby); null
   * means there is none that is exact (see the module comment), and the caller copies. Never throws.
   */
  async take(layout: StateLayout, source: StandbySource): Promise<string | null> {
    const taken = this.standby;
    if (taken === null) return null;
    if (taken.indexDir !== layout.indexDir || !sameSource(taken.source, source)) {
      this.discard();
      return null;
    }
    this.standby = null;
    const copied = await taken.ready;
    if (copied === null) return null;
    if (copyUnchanged(taken.file, copied) && sourceIntact(path.join(layout.indexDir, source.index_file), source)) return taken.file;
    rmSync(taken.file, { force: true });
    return null;
  }

  /** Settles once the standby copy (if any) is ready; true when one is ready to be taken. Never rejects. */
  async ready(): Promise<boolean> {
    const current = this.standby;
    if (current === null) return false;
    return (await current.ready) !== null && this.standby === current;
  }

  /** Removes the standby copy, finished or not (a copy still running removes itself on failure or is removed here once done). */
  discard(): void {
    const dropped = this.standby;
    this.standby = null;
    if (dropped === null) return;
    rmSync(dropped.file, { force: true });
    // A copy still running may recreate the file: remove it again once it settles.
    void dropped.ready.then(() => rmSync(dropped.file, { force: true }));
  }
}

/** Whether `file` is still the regular file its copy left: same inode, size, mtime and ctime. False when gone. */
function copyUnchanged(file: string, copied: CopiedState): boolean {
  try {
    const st = lstatSync(file, { bigint: true });
    return st.isFile() && st.ino === copied.ino && st.size === copied.size && st.mtimeNs === copied.mtimeNs && st.ctimeNs === copied.ctimeNs;
  } catch {
    // Gone or unreadable: not the copy any more, and the caller copies as before.
    return false;
  }
}

/**
 * Removes the standby copies that the worker threads `threadIds` of this process own in
 * `indexDir` (a manager closing its pool; the threads may be gone already). Never throws.
 */
export function removeStandbyFiles(indexDir: string, threadIds: readonly number[]): void {
  let names: string[];
  try {
    names = readdirSync(indexDir);
  } catch {
    return;
  }
  for (const name of names) {
    const match = STANDBY_FILE_PATTERN.exec(name);
    if (match === null || Number(match[1]) !== process.pid || !threadIds.includes(Number(match[2]))) continue;
    try {
      if (lstatSync(path.join(indexDir, name)).isFile()) rmSync(path.join(indexDir, name), { force: true });
    } catch {
      // gone, or not a file of ours
    }
  }
}
