/**
 * The confined-directory child process (issue 30, item 16): the only place canonical application
 * creates, writes, renames, restores, links, removes or makes anything. Node's `fs` has no
 * `openat`, so this process stands in for one: before every operation it walks from the project
 * root to the named folder one component at a time, `lstat`ing each component (a symbolic link or
 * a non-directory is refused) and `chdir`ing into it, then checks with `stat('.')` that the folder
 * it now stands in is the one it `lstat`ed (chdir follows links: a swap between the two is caught)
 * and, for an already verified folder, that its (dev, ino) is the one recorded when it was first
 * opened. The operation itself then uses one single-component name relative to that working
 * directory (`O_NOFOLLOW | O_CREAT | O_EXCL` for temp files, a rename within the folder), so a
 * folder swapped for a symbolic link meanwhile can never redirect it: the kernel holds the
 * verified folder as the working directory, wherever the path now points. After a mutating
 * operation the folder's path is walked again (lstat only): a folder moved or replaced during the
 * operation is reported (`moved_after`), and the caller rolls back.
 *
 * Started with `fork` by {@link ConfinedDirs} (confined-dirs.ts); messages are the
 * {@link DirRequest} / {@link DirResponse} shapes. It exits when its parent's channel closes.
 */
import { randomBytes } from 'node:crypto';
import {
  closeSync, constants as C, fchmodSync, fchownSync, fstatSync, fsyncSync, lstatSync, mkdirSync, openSync, readdirSync, renameSync, rmdirSync, statSync, symlinkSync, unlinkSync, writeFileSync, writeSync, type BigIntStats,
} from 'node:fs';
import { readOpenFile } from './read-fd.js';
import type { DirRequest, DirResponse, DirChildInit } from './dir-protocol.js';

class DirFault extends Error {
  constructor(readonly code: string, message: string) {
    super(message);
  }
}

const idOf = (st: BigIntStats): string => `${st.dev}:${st.ino}`;

function splitRel(rel: string): string[] {
  return rel === '' ? [] : rel.split('/');
}

/** Whether `name` is one plain component (no separator, not `.` or `..`, no NUL). */
function checkName(name: string): void {
  if (name === '' || name === '.' || name === '..' || name.includes('/') || name.includes('\0')) throw new DirFault('bad_name', `${JSON.stringify(name)} is not a single path component`);
}

/**
 * Walks from the root to `rel`, chdir-ing one verified component at a time.
 * @returns the (dev, ino) identity of the folder now the working directory
 */
function enter(init: DirChildInit, rel: string, expect: string | null): string {
  process.chdir(init.root);
  if (idOf(statSync('.', { bigint: true })) !== init.rootId) throw new DirFault('moved', `the project root ${init.root} was moved or replaced`);
  let walked = '';
  for (const segment of splitRel(rel)) {
    checkName(segment);
    walked = walked === '' ? segment : `${walked}/${segment}`;
    let st: BigIntStats;
    try {
      st = lstatSync(segment, { bigint: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new DirFault('missing', `the folder ${walked} does not exist`);
      throw error;
    }
    if (st.isSymbolicLink()) throw new DirFault('link', `the folder ${walked} is a symbolic link`);
    if (!st.isDirectory()) throw new DirFault('not_dir', `${walked} is not a folder`);
    process.chdir(segment);
    if (idOf(statSync('.', { bigint: true })) !== idOf(st)) throw new DirFault('moved', `the folder ${walked} was replaced while it was entered`);
  }
  const id = idOf(statSync('.', { bigint: true }));
  if (expect !== null && id !== expect) throw new DirFault('moved', `the folder ${rel || '.'} is no longer the folder verified before (moved or replaced)`);
  return id;
}

/**
 * The identity at `rel` walked again from the root, or null (missing, a link, not a folder, or
 * swapped while walked). One component at a time relative to the working directory (lstat, chdir,
 * stat('.') compared), so the walk is linear in the depth: an lstat of the whole absolute path per
 * component made it quadratic, and an apply creating N folders cubic (break-it trial: 84 s at
 * depth 1000). Leaves the working directory anywhere; every request starts with {@link enter}.
 */
function locate(init: DirChildInit, rel: string): string | null {
  try {
    process.chdir(init.root);
    if (idOf(statSync('.', { bigint: true })) !== init.rootId) return null;
    for (const segment of splitRel(rel)) {
      const st = lstatSync(segment, { bigint: true });
      if (!st.isDirectory()) return null;
      process.chdir(segment);
      if (idOf(statSync('.', { bigint: true })) !== idOf(st)) return null;
    }
    return idOf(statSync('.', { bigint: true }));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR') return null;
    throw error;
  }
}

/** After a mutating operation: the folder must still be at its path. */
function after(init: DirChildInit, rel: string, id: string): void {
  if (locate(init, rel) !== id) throw new DirFault('moved_after', `the folder ${rel || '.'} was moved or replaced while it was written`);
}

function fsyncCwd(): void {
  const fd = openSync('.', C.O_RDONLY);
  try {
    fsyncSync(fd);
  } catch (error) {
    // Some filesystems refuse fsync on a directory; the rename itself is still atomic.
    if ((error as NodeJS.ErrnoException).code !== 'EINVAL' && (error as NodeJS.ErrnoException).code !== 'EISDIR') throw error;
  } finally {
    closeSync(fd);
  }
}

/** Blocks this process at a test kill point after writing the marker (parent and own pid). */
function killPoint(init: DirChildInit): void {
  if (init.marker === null) return;
  const tmp = `${init.marker}.${process.pid}.tmp`;
  writeFileSync(tmp, `${process.ppid} ${process.pid}`);
  renameSync(tmp, init.marker);
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 120_000);
}

/** The existing regular file `name` (lstat), or null when absent or not a regular file. */
function existingFile(name: string): BigIntStats | null {
  try {
    const st = lstatSync(name, { bigint: true });
    return st.isFile() ? st : null;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/**
 * Gives the temp file `fd` the mode, owner and group of the file it replaces (applier trial F2),
 * or `mode` for a new file when given. The temp file was created owner-only, so its bytes are never
 * readable by more users than the file's own mode allows.
 * @throws DirFault `owner` when the owner or group cannot be set (nothing renamed)
 */
function takeMode(fd: number, old: BigIntStats | null, mode: number | undefined): void {
  if (old === null) {
    if (mode !== undefined) fchmodSync(fd, mode & 0o7777);
    return;
  }
  const own = fstatSync(fd, { bigint: true });
  if (own.uid !== old.uid || own.gid !== old.gid) {
    try {
      fchownSync(fd, Number(old.uid), Number(old.gid));
    } catch (error) {
      throw new DirFault('owner', `cannot give the new bytes the file's owner ${old.uid}:${old.gid} (${(error as Error).message}); the file was not replaced`);
    }
  }
  fchmodSync(fd, Number(old.mode & 0o7777n));
}

/**
 * Writes `data` to a fresh temp sibling (O_EXCL, O_NOFOLLOW, owner-only), gives it the replaced
 * file's mode, owner and group (or `mode` for a new file), fsyncs it and renames it over `name`.
 * A file with other hard links is refused (`hard_link`): a rename would leave them holding the old bytes.
 */
function writeAt(init: DirChildInit, name: string, data: Uint8Array, kill: boolean, mode: number | undefined): void {
  const old = existingFile(name);
  if (old !== null && old.nlink > 1n) throw new DirFault('hard_link', `${name} has ${old.nlink} hard links; replacing it would leave the other names holding the old bytes`);
  const tmp = `.${name}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  const fd = openSync(tmp, C.O_WRONLY | C.O_CREAT | C.O_EXCL | C.O_NOFOLLOW, old === null && mode === undefined ? 0o644 : 0o600);
  try {
    try {
      let offset = 0;
      while (offset < data.length) offset += writeSync(fd, data, offset, data.length - offset);
      takeMode(fd, old, mode);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    if (kill) killPoint(init);
    renameSync(tmp, name);
  } catch (error) {
    try {
      unlinkSync(tmp);
    } catch (cleanup) {
      if ((cleanup as NodeJS.ErrnoException).code !== 'ENOENT') throw cleanup;
    }
    throw error;
  }
  fsyncCwd();
}

function readAt(name: string): Buffer | null {
  let fd: number;
  try {
    fd = openSync(name, C.O_RDONLY | C.O_NOFOLLOW | C.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return null;
    if (code === 'ELOOP') throw new DirFault('link', `${name} is a symbolic link`);
    throw error;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new DirFault('not_file', `${name} is not a regular file`);
    return readOpenFile(fd, st.size);
  } finally {
    closeSync(fd);
  }
}

function entryOf(name: string): { type: 'file' | 'dir' | 'link' | 'other'; id: string; mode: number; uid: number; gid: number; links: number } | null {
  try {
    const st = lstatSync(name, { bigint: true });
    const type = st.isSymbolicLink() ? 'link' : st.isDirectory() ? 'dir' : st.isFile() ? 'file' : 'other';
    return { type, id: idOf(st), mode: Number(st.mode & 0o7777n), uid: Number(st.uid), gid: Number(st.gid), links: Number(st.nlink) };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

function mkdirAt(name: string): string {
  try {
    mkdirSync(name, 0o777);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const st = lstatSync(name, { bigint: true });
  if (st.isSymbolicLink() || !st.isDirectory()) throw new DirFault('link', `${name} is not a real folder`);
  return idOf(st);
}

function unlinkAt(name: string): void {
  try {
    unlinkSync(name);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  fsyncCwd();
}

/** Runs one request in its verified folder. */
function run(init: DirChildInit, req: DirRequest): unknown {
  if (req.op === 'locate') return locate(init, req.dir);
  const id = enter(init, req.dir, req.expect);
  if (req.op === 'open') return id;
  if (req.op === 'list') return readdirSync('.');
  checkName(req.name);
  switch (req.op) {
    case 'read':
      return readAt(req.name);
    case 'entry':
      return entryOf(req.name);
    case 'mkdir': {
      const made = mkdirAt(req.name);
      after(init, req.dir, id);
      return made;
    }
    case 'write':
      writeAt(init, req.name, req.data, req.kill === true, req.mode);
      break;
    case 'unlink':
      unlinkAt(req.name);
      break;
    case 'rmdir':
      rmdirSync(req.name);
      break;
    case 'symlink':
      symlinkSync(req.text, req.name);
      break;
  }
  after(init, req.dir, id);
  return null;
}

function serve(init: DirChildInit): void {
  process.on('message', (message: DirRequest) => {
    let response: DirResponse;
    try {
      response = { seq: message.seq, ok: true, value: run(init, message) };
    } catch (error) {
      const code = error instanceof DirFault ? error.code : ((error as NodeJS.ErrnoException).code ?? 'error');
      response = { seq: message.seq, ok: false, code, message: (error as Error).message };
    }
    process.send!(response);
  });
}

process.once('message', (init: DirChildInit) => {
  try {
    process.chdir(init.root);
    serve({ ...init, rootId: idOf(statSync('.', { bigint: true })) });
    process.send!({ seq: 0, ok: true, value: null } satisfies DirResponse);
  } catch (error) {
    process.send!({ seq: 0, ok: false, code: 'root', message: (error as Error).message } satisfies DirResponse);
  }
});
process.on('disconnect', () => process.exit(0));
