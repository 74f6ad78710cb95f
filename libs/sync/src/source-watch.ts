/**
 * The source watcher of a long-lived process (issue 14 item 5): one inotify watch per directory the
 * last identity walk read (Node's `fs.watch`, not recursive, never keeping the process alive). While
 * it is healthy and has seen no event since the start of a walk whose directories were all watched
 * already, that walk's cheap identity still stands, so a sync may answer `current` without walking.
 *
 * Why this is sound: the kernel queues an inotify event inside the write, rename, unlink or chmod
 * call itself, so a change made before a request was sent is queued before the request is read.
 * {@link SourceWatch.unchangedIdentity} first lets the event loop poll twice, which delivers every
 * queued event, and only then looks at the flag. Any event (relevant or not), any watcher error, a
 * directory set that changed during the walk, or more than {@link MAX_WATCHED_DIRECTORIES}
 * directories makes the next sync walk. (`@parcel/watcher` was not used: it batches events on a
 * timer, so a change just before a request could still be undelivered when the request is answered.)
 *
 * Partial walks: the watcher also records each event's path (watched directory plus the file name
 * the kernel gives). Every change after a walk began lands in that set, so the walk's entries
 * still hold for every path outside it: {@link SourceWatch.beginPartialWalk} hands the set to a
 * sync, which re-lstats only those paths (partial-walk.ts). An event without a file name, one
 * naming the watched directory itself (its deletion or move), or more than
 * {@link MAX_PARTIAL_PATHS} distinct paths leave no usable set, and the next sync walks fully.
 * So do more than {@link partialEventBound} events: when the kernel's inotify queue overflows
 * (`max_queued_events`), libuv drops the overflow silently, but a queue that overflowed after a walk
 * began held `max_queued_events` events, all delivered after that, so counting every event
 * delivered since the walk began detects it (the source watcher is the process's only inotify user).
 */
import { lstatSync, readFileSync, watch, type FSWatcher } from 'node:fs';
import path from 'node:path';

/** Beyond this many directories the process does not watch (inotify watches are a per-user kernel budget). */
export const MAX_WATCHED_DIRECTORIES = 4096;

/** Beyond this many distinct changed paths since a walk began, the next sync walks fully. */
export const MAX_PARTIAL_PATHS = 256;

/**
 * Beyond this many events since a walk began the next sync walks fully: 4096, or half the kernel's
 * `fs.inotify.max_queued_events` when that is lower, so a silently overflowed queue is noticed.
 */
export function partialEventBound(): number {
  let queued = 16384;
  try {
    queued = Number.parseInt(readFileSync('/proc/sys/fs/inotify/max_queued_events', 'utf8'), 10);
  } catch {
    // Not Linux, or /proc unreadable: the kernel default.
  }
  return Number.isFinite(queued) ? Math.max(0, Math.min(4096, Math.floor(queued / 2))) : 0;
}

/** What a finished identity walk tells the watcher. */
export interface WalkedIdentity {
  /** The cheap source identity the walk computed. */
  identity: string;
  /** Project-relative directories the walk read (`''` is the root). */
  directories: readonly string[];
  /** Whether the identity may depend on files outside these directories (symbolic links, extra identity files, a project-owned adapter). */
  outside: boolean;
}

/** Watches the directories of the last identity walk; see the module comment for the rule. */
export class SourceWatch {
  readonly #root: string;
  /** Per watched directory: its watcher and the `dev:ino:birthtime` the directory had when the watch began. */
  readonly #watchers = new Map<string, { watcher: FSWatcher; inode: string | null }>();
  /** Set by any event or error; cleared only when a walk starts. */
  #dirty = true;
  /** The identity of the last walk whose directories were all watched before it began (none failed since), else null. */
  #identity: string | null = null;
  /** Project-relative paths of the events since the last walk began; null when one carried no usable name, or too many. */
  #changed: Set<string> | null = null;
  /**
   * Watched directories an event named as changed themselves (deleted, created, moved: by their
   * parent's watch or their own): their watches, and those of every watched directory under them,
   * may follow a directory no longer at that path, so the next walk watches them again.
   */
  readonly #suspect = new Set<string>();
  /** Events delivered since the last walk began (see {@link partialEventBound}). */
  #events = 0;
  readonly #eventBound = partialEventBound();

  /** @param root the real absolute project root */
  constructor(root: string) {
    this.#root = root;
  }

  /** Call right before an identity walk starts: events from now on invalidate that walk. */
  beginWalk(): void {
    this.#dirty = false;
    this.#identity = null;
    this.#changed = new Set();
    this.#events = 0;
  }

  /**
   * Starts a partial walk (a walk for this bookkeeping, like {@link beginWalk}) when the last walk,
   * of identity `base`, is trusted and every event since it began named its path: returns those
   * project-relative paths (possibly none), which the caller must re-check. Null, starting
   * nothing, when a full walk is needed. Call right after {@link unchangedIdentity} answered null,
   * so that every queued event has been delivered.
   */
  beginPartialWalk(base: string): string[] | null {
    if (this.#identity === null || this.#identity !== base || this.#changed === null || this.#watchers.size === 0) return null;
    const paths = [...this.#changed];
    this.beginWalk();
    return paths;
  }

  /**
   * Call after the walk: watches its directories. The walk's identity becomes trusted only when no
   * event arrived since {@link beginWalk} and every directory was watched before the walk began.
   */
  endWalk(walked: WalkedIdentity): void {
    const wanted = new Set(walked.directories);
    wanted.add('');
    if (walked.outside || wanted.size > MAX_WATCHED_DIRECTORIES) {
      this.close();
      return;
    }
    let added = false;
    // An inotify watch follows the directory's inode, not its path: a directory deleted and
    // recreated, or moved away and replaced, at the same path is watched again from scratch. Such a
    // directory was named by an event (its parent's or its own); the inode (with its birth time,
    // since a freed inode number is often reused at once) is checked as well.
    const suspect = [...this.#suspect];
    this.#suspect.clear();
    const underSuspect = (dir: string): boolean => suspect.some((s) => s === '' || dir === s || dir.startsWith(`${s}/`));
    for (const [dir, watched] of this.#watchers) {
      if (!wanted.has(dir) || underSuspect(dir) || watched.inode === null || directoryInode(path.join(this.#root, dir)) !== watched.inode) {
        watched.watcher.close();
        this.#watchers.delete(dir);
      }
    }
    for (const dir of wanted) {
      if (this.#watchers.has(dir)) continue;
      added = true;
      try {
        // The inode is read before the watch begins: a directory replaced in between shows a
        // different inode at the next walk and is watched again then.
        const absolute = path.join(this.#root, dir);
        const inode = directoryInode(absolute);
        const watcher = watch(absolute, { persistent: false }, (_event, name) => this.#record(dir, name));
        watcher.on('error', () => this.#fail());
        this.#watchers.set(dir, { watcher, inode });
      } catch {
        // ENOSPC (watch budget), EACCES, or the directory vanished: no trusted identity.
        this.#fail();
        return;
      }
    }
    if (!added) this.#identity = walked.identity;
  }

  /**
   * The identity of the last trusted walk when nothing changed since, after delivering every event
   * the kernel has queued; null when a walk is needed.
   */
  async unchangedIdentity(): Promise<string | null> {
    if (this.#identity === null) return null;
    // Two event-loop turns: the poll phase between them reads every queued inotify event.
    await new Promise<void>((resolve) => setImmediate(() => setImmediate(resolve)));
    return this.#dirty || this.#changed === null || this.#changed.size > 0 ? null : this.#identity;
  }

  /**
   * Whether directories are watched but no walk is trusted yet (the first walk of a process: its
   * directories were watched only after it read them): one more walk would become trusted unless
   * the directory set changes meanwhile.
   */
  awaitsTrustedWalk(): boolean {
    return this.#identity === null && this.#watchers.size > 0;
  }

  /** Stops watching; the next {@link endWalk} starts over. */
  close(): void {
    for (const { watcher } of this.#watchers.values()) watcher.close();
    this.#watchers.clear();
    this.#suspect.clear();
    this.#invalidate();
  }

  /** One event in the watched directory `dir`: its path joins the changed set (see the module comment). */
  #record(dir: string, name: string | Buffer | null): void {
    this.#dirty = true;
    this.#events += 1;
    if (typeof name === 'string' && name !== '') {
      const rel = dir === '' ? name : `${dir}/${name}`;
      if (this.#watchers.has(rel)) this.#suspect.add(rel);
      if (name === path.basename(dir === '' ? this.#root : dir)) this.#suspect.add(dir);
    } else {
      // Unnamed: it may concern the watched directory itself.
      this.#suspect.add(dir);
    }
    if (this.#changed === null) return;
    if (this.#events > this.#eventBound) {
      this.#changed = null;
      return;
    }
    // A watched directory deleted or moved reports its own base name; a name may be missing.
    if (typeof name !== 'string' || name === '' || name === path.basename(dir === '' ? this.#root : dir)) {
      this.#changed = null;
      return;
    }
    const rel = dir === '' ? name : `${dir}/${name}`;
    if (!this.#changed.has(rel) && this.#changed.size >= MAX_PARTIAL_PATHS) this.#changed = null;
    else this.#changed.add(rel);
  }

  #invalidate(): void {
    this.#dirty = true;
    this.#identity = null;
    this.#changed = null;
  }

  #fail(): void {
    this.close();
  }
}

/** `dev:ino:birthtime` of the directory at `absolute` (not following a final symbolic link), or null when it is not one. */
function directoryInode(absolute: string): string | null {
  try {
    const stat = lstatSync(absolute, { bigint: true });
    return stat.isDirectory() ? `${stat.dev}:${stat.ino}:${stat.birthtimeNs}` : null;
  } catch {
    return null;
  }
}
