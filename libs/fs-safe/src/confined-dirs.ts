/**
 * Writes confined by verified folder handles (issue 30, item 16). Node's `fs` has no `openat`:
 * every path-based write re-resolves its folders, so a folder swapped for a symbolic link between
 * the check and the write redirects the write outside the project. A {@link ConfinedDirs} runs
 * each operation in a dedicated child process (dir-child.ts) that walks to the folder one
 * component at a time without following links, `chdir`s into it, verifies its (dev, ino), and
 * then acts on one single-component name relative to that working directory.
 *
 * A {@link DirHandle} is a folder verified once: its path relative to the real root and its
 * identity. Every later operation on the handle checks that the same folder is still at that path
 * before it acts and after (a moved or replaced folder fails with {@link ConfinedDirError} code
 * `moved` / `moved_after`; nothing is ever written into another folder).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { DirChildInit, DirRequest, DirResponse } from './dir-protocol.js';

/** A verified folder: its POSIX path relative to the real root (`''`: the root) and its `"<dev>:<ino>"`. */
export interface DirHandle {
  readonly rel: string;
  readonly id: string;
}

/** What an entry of a folder is ({@link ConfinedDirs.entry}): kind, identity, permission bits, owner, group and hard-link count (lstat). */
export interface DirEntryInfo {
  type: 'file' | 'dir' | 'link' | 'other';
  id: string;
  mode: number;
  uid: number;
  gid: number;
  links: number;
}

/**
 * Why the regular file `info` cannot be replaced by {@link ConfinedDirs.write} keeping who may
 * read it (applier trial F2), or null: `hard_link` (more than one name; a rename would leave the
 * others on the old bytes) or `owner` (this process can neither be nor give the file's owner and group).
 */
export function replaceProblem(info: DirEntryInfo): { code: 'hard_link' | 'owner'; reason: string } | null {
  if (info.type !== 'file') return null;
  if (info.links > 1) return { code: 'hard_link', reason: `has ${info.links} hard links; DocForge replaces a file by rename, which would leave the other names holding the old bytes, so it never writes such a file (make it a single file, or a symbolic link)` };
  const uid = process.geteuid?.() ?? 0;
  const inGroup = info.gid === (process.getegid?.() ?? 0) || (process.getgroups?.() ?? []).includes(info.gid);
  if (uid !== 0 && (info.uid !== uid || !inGroup)) return { code: 'owner', reason: `is owned by ${info.uid}:${info.gid}, which this process (uid ${uid}) cannot give to the rewritten file; it never writes a file under another owner or group` };
  return null;
}

/** A failed confined operation: `code` is `moved`, `moved_after`, `link`, `missing`, `not_dir`, `not_file`, `bad_name`, `hard_link`, `owner`, `child_exited` or an errno code. */
export class ConfinedDirError extends Error {
  constructor(readonly code: string, message: string) {
    super(message);
    this.name = 'ConfinedDirError';
  }
}

/** Options of {@link ConfinedDirs.start}. */
export interface ConfinedDirsOptions {
  /** Test only: the marker file the `kill` point of {@link ConfinedDirs.write} writes (`"<parent pid> <child pid>"`) before it blocks. */
  marker?: string | null;
}

type Pending = { resolve: (value: unknown) => void; reject: (error: Error) => void };

/** Omit distributed over the request union. */
type Body<R> = R extends unknown ? Omit<R, 'seq'> : never;

/** One confined-directory child process bound to one real project root. */
export class ConfinedDirs {
  /** The real project root every handle is relative to. */
  readonly root: string;
  private readonly child: ChildProcess;
  private readonly pending = new Map<number, Pending>();
  private seq = 0;
  private exited: string | null = null;

  private constructor(root: string, child: ChildProcess) {
    this.root = root;
    this.child = child;
    child.on('message', (message: DirResponse) => this.settle(message));
    child.on('exit', (code, signal) => {
      this.exited = `the confined-directory process exited (${signal ?? `code ${String(code)}`})`;
      for (const p of this.pending.values()) p.reject(new ConfinedDirError('child_exited', this.exited));
      this.pending.clear();
    });
  }

  /**
   * Starts the child for the real path of `root`.
   * @throws ConfinedDirError when the child cannot enter the root
   */
  static async start(root: string, options: ConfinedDirsOptions = {}): Promise<ConfinedDirs> {
    const real = realpathSync(root);
    const entry = fileURLToPath(new URL('./dir-child.js', import.meta.url));
    const child = fork(entry, [], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'], serialization: 'advanced', execArgv: [] });
    const dirs = new ConfinedDirs(real, child);
    await dirs.send(0, { root: real, marker: options.marker ?? null } satisfies DirChildInit);
    return dirs;
  }

  private settle(message: DirResponse): void {
    const p = this.pending.get(message.seq);
    if (p === undefined) return;
    this.pending.delete(message.seq);
    if (message.ok) p.resolve(message.value);
    else p.reject(new ConfinedDirError(message.code, message.message));
  }

  private request(body: Body<DirRequest>): Promise<unknown> {
    this.seq += 1;
    return this.send(this.seq, { ...body, seq: this.seq });
  }

  private send(seq: number, message: DirRequest | DirChildInit): Promise<unknown> {
    if (this.exited !== null) return Promise.reject(new ConfinedDirError('child_exited', this.exited));
    return new Promise((resolve, reject) => {
      this.pending.set(seq, { resolve, reject });
      this.child.send(message, (error) => {
        if (error === null) return;
        this.pending.delete(seq);
        reject(new ConfinedDirError('child_exited', error.message));
      });
    });
  }

  /**
   * Opens the real folder at `rel` (POSIX, relative to the real root) walking one component at a
   * time without following links.
   * @throws ConfinedDirError `missing`, `link`, `not_dir`, `moved`
   */
  async open(rel: string): Promise<DirHandle> {
    return { rel, id: (await this.request({ op: 'open', dir: rel, expect: null })) as string };
  }

  /** The identity of the folder now at `rel` (lstat walk), or null when it is missing, a link or no folder. */
  async locate(rel: string): Promise<string | null> {
    return (await this.request({ op: 'locate', dir: rel, expect: null })) as string | null;
  }

  /** Whether the folder of `handle` is still at its path. */
  async stillThere(handle: DirHandle): Promise<boolean> {
    return (await this.locate(handle.rel)) === handle.id;
  }

  /** Makes (or accepts an existing real) folder `name` in `parent`; never follows a link. */
  async mkdir(parent: DirHandle, name: string): Promise<DirHandle> {
    const id = (await this.request({ op: 'mkdir', dir: parent.rel, expect: parent.id, name })) as string;
    return { rel: parent.rel === '' ? name : `${parent.rel}/${name}`, id };
  }

  /**
   * Writes `data` to `name` in the folder: a fresh temp sibling `.<name>.<pid>.<random>.tmp`
   * (O_CREAT|O_EXCL|O_NOFOLLOW, owner-only), given the mode, owner and group of the file it
   * replaces, fsynced, renamed over `name`, the folder fsynced.
   * @param kill test only: block at the kill point after the temp file is written
   * @param mode permission bits of a new file (absent: 0644 less the umask); an existing file keeps its own
   * @throws ConfinedDirError `hard_link` (the file has other names), `owner` (its owner or group cannot be kept); nothing replaced
   */
  async write(dir: DirHandle, name: string, data: string | Uint8Array, kill = false, mode?: number): Promise<void> {
    const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    await this.request({ op: 'write', dir: dir.rel, expect: dir.id, name, data: bytes, kill, ...(mode === undefined ? {} : { mode }) });
  }

  /** The bytes of the regular file `name` (opened with O_NOFOLLOW), or null when absent. */
  async read(dir: DirHandle, name: string): Promise<Buffer | null> {
    const value = (await this.request({ op: 'read', dir: dir.rel, expect: dir.id, name })) as Uint8Array | null;
    return value === null ? null : Buffer.from(value.buffer, value.byteOffset, value.byteLength);
  }

  /** What `name` is in the folder (lstat), or null when absent. */
  async entry(dir: DirHandle, name: string): Promise<DirEntryInfo | null> {
    return (await this.request({ op: 'entry', dir: dir.rel, expect: dir.id, name })) as DirEntryInfo | null;
  }

  /** The names in the folder. */
  async list(dir: DirHandle): Promise<string[]> {
    return (await this.request({ op: 'list', dir: dir.rel, expect: dir.id })) as string[];
  }

  /** Removes `name` (a file or a link itself; absent is fine). */
  async unlink(dir: DirHandle, name: string): Promise<void> {
    await this.request({ op: 'unlink', dir: dir.rel, expect: dir.id, name });
  }

  /** Removes the empty folder `name`. */
  async rmdir(dir: DirHandle, name: string): Promise<void> {
    await this.request({ op: 'rmdir', dir: dir.rel, expect: dir.id, name });
  }

  /** Creates the symbolic link `name` holding `text`. */
  async symlink(dir: DirHandle, name: string, text: string): Promise<void> {
    await this.request({ op: 'symlink', dir: dir.rel, expect: dir.id, name, text });
  }

  /** Ends the child (idempotent). */
  async close(): Promise<void> {
    if (this.exited !== null) return;
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.child.disconnect();
    await exited;
  }

  /** The child's pid (tests). */
  get pid(): number | undefined {
    return this.child.pid;
  }
}
