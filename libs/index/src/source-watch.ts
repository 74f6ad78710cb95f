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
 */
import { watch, type FSWatcher } from 'node:fs';
import path from 'node:path';

/** Beyond this many directories the process does not watch (inotify watches are a per-user kernel budget). */
export const MAX_WATCHED_DIRECTORIES = 4096;

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
  readonly #watchers = new Map<string, FSWatcher>();
  /** Set by any event or error; cleared only when a walk starts. */
  #dirty = true;
  /** The identity of the last walk that started clean with every directory watched, else null. */
  #identity: string | null = null;

  /** @param root the real absolute project root */
  constructor(root: string) {
    this.#root = root;
  }

  /** Call right before an identity walk starts: events from now on invalidate that walk. */
  beginWalk(): void {
    this.#dirty = false;
    this.#identity = null;
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
    for (const [dir, watcher] of this.#watchers) {
      if (!wanted.has(dir)) {
        watcher.close();
        this.#watchers.delete(dir);
      }
    }
    for (const dir of wanted) {
      if (this.#watchers.has(dir)) continue;
      added = true;
      try {
        const watcher = watch(path.join(this.#root, dir), { persistent: false }, () => this.#invalidate());
        watcher.on('error', () => this.#fail());
        this.#watchers.set(dir, watcher);
      } catch {
        // ENOSPC (watch budget), EACCES, or the directory vanished: no trusted identity.
        this.#fail();
        return;
      }
    }
    if (!added && !this.#dirty) this.#identity = walked.identity;
  }

  /**
   * The identity of the last trusted walk when nothing changed since, after delivering every event
   * the kernel has queued; null when a walk is needed.
   */
  async unchangedIdentity(): Promise<string | null> {
    if (this.#identity === null) return null;
    // Two event-loop turns: the poll phase between them reads every queued inotify event.
    await new Promise<void>((resolve) => setImmediate(() => setImmediate(resolve)));
    return this.#dirty ? null : this.#identity;
  }

  /** Stops watching; the next {@link endWalk} starts over. */
  close(): void {
    for (const watcher of this.#watchers.values()) watcher.close();
    this.#watchers.clear();
    this.#invalidate();
  }

  #invalidate(): void {
    this.#dirty = true;
    this.#identity = null;
  }

  #fail(): void {
    this.close();
  }
}
