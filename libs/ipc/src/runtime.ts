/**
 * Where the per-user viewer manager lives (DESIGN.md section 6): a 0700 runtime directory holding
 * the socket, the lock and the log file. Both the manager and its clients derive the same paths.
 */
import { chmodSync, lstatSync, mkdirSync, realpathSync, type Stats } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { errors, readDocforgeConfig, type DocforgeError, type Environment } from '@docforge/core';

/** The paths of one user's viewer manager. */
export interface ViewerRuntimePaths {
  /** The 0700 runtime directory. */
  dir: string;
  /** The manager's Unix socket. */
  socket: string;
  /** The single-manager lock directory (fs-safe lock with dead-owner takeover). */
  lock: string;
  /** The per-user log file of the manager and its workers (pino NDJSON). */
  log: string;
}

/**
 * Resolves the runtime directory: `$DOCFORGE_VIEWER_RUNTIME_DIR` when set (tests use temp dirs),
 * else `$XDG_RUNTIME_DIR/docforge`, else `~/.cache/docforge/run`. Pure: creates nothing. A relative
 * `$XDG_RUNTIME_DIR` is ignored, as the XDG Base Directory specification says; a relative
 * `$DOCFORGE_VIEWER_RUNTIME_DIR` is refused, since the manager and its clients run from different
 * working folders and would each resolve it to a different socket.
 * @throws DocforgeError `viewer_runtime_unsafe` (`details.reason_code: "not_absolute"`) when
 *   `$DOCFORGE_VIEWER_RUNTIME_DIR` is set to a relative path
 */
export function viewerRuntimePaths(env: Environment = process.env): ViewerRuntimePaths {
  const { viewerRuntimeDir: override, xdgRuntimeDir: xdg } = readDocforgeConfig(env);
  if (override !== null && !path.isAbsolute(override)) {
    throw errors.viewerRuntimeUnsafe(override, 'DOCFORGE_VIEWER_RUNTIME_DIR must be an absolute path', { reason_code: 'not_absolute' });
  }
  const dir = override ?? (xdg && path.isAbsolute(xdg) ? path.join(xdg, 'docforge') : path.join(homedir(), '.cache', 'docforge', 'run'));
  return { dir, socket: path.join(dir, 'viewer.sock'), lock: path.join(dir, 'viewer-manager.lock'), log: path.join(dir, 'viewer.log') };
}

/**
 * Creates the runtime directory (mode 0700) when missing and tightens an existing one of this
 * user to 0700, after checking that no other user controls where it lies ({@link verifyRuntimeDir}:
 * the viewer manager never creates its socket in a folder another user can write).
 * @throws DocforgeError `viewer_runtime_unsafe` when the path is not a directory (or a symbolic link), belongs to another user or lies under a folder another user controls
 */
export function ensureRuntimeDir(paths: ViewerRuntimePaths): void {
  verifyAncestors(paths.dir);
  mkdirSync(paths.dir, { recursive: true, mode: 0o700 });
  const st = lstatSync(paths.dir);
  const uid = process.getuid?.();
  if (st.isDirectory() && uid !== undefined && st.uid === uid && (st.mode & 0o777) !== 0o700) chmodSync(paths.dir, 0o700);
  verifyRuntimeDir(paths);
}

/**
 * Checks, before anything is sent to (or created in) the viewer runtime, that only this user or
 * root controls it (issue 30 item 20): every existing ancestor of the runtime folder, along the
 * path as written and along its real path, is owned by this user or root and is not writable by
 * group or others unless it is sticky (as /tmp); the runtime folder, when it exists, is a real
 * folder owned by this user and not writable by group or others; the socket, when it exists, is a
 * socket owned by this user. With the folder so proven, no other user can have bound or replaced
 * the socket, so its peer runs as this user (on Linux the socket file's owner is the uid that
 * bound it). No-op where there are no uids (Windows).
 * @throws DocforgeError `viewer_runtime_unsafe` naming the path and the check (`details.reason_code`)
 */
export function verifyRuntimeDir(paths: ViewerRuntimePaths): void {
  const uid = process.getuid?.();
  if (uid === undefined) return;
  verifyAncestors(paths.dir);
  const dir = lstatOrNull(paths.dir);
  if (dir === null) return;
  if (!dir.isDirectory()) throw unsafe(paths.dir, 'it is not a real folder (a symbolic link or a file)', 'not_a_directory', dir);
  if (dir.uid !== uid) throw unsafe(paths.dir, `it is owned by uid ${dir.uid}, not by this user (uid ${uid})`, 'foreign_owner', dir);
  if ((dir.mode & 0o022) !== 0) throw unsafe(paths.dir, `group or others can write into it (mode ${modeText(dir)})`, 'writable_by_others', dir);
  const socket = lstatOrNull(paths.socket);
  if (socket === null) return;
  if (!socket.isSocket()) throw unsafe(paths.socket, 'it is not a socket', 'not_a_socket', socket);
  if (socket.uid !== uid) throw unsafe(paths.socket, `the socket is owned by uid ${socket.uid}, not by this user (uid ${uid})`, 'foreign_owner', socket);
}

/** Checks every existing ancestor of `dir`, as written and along its real path (see {@link verifyRuntimeDir}). */
function verifyAncestors(dir: string): void {
  const uid = process.getuid?.();
  if (uid === undefined) return;
  const chains = [ancestorsOf(dir)];
  const existing = chains[0]!.find((p) => lstatOrNull(p) !== null);
  if (existing !== undefined) chains.push([realpathSync(existing), ...ancestorsOf(realpathSync(existing))]);
  for (const chain of chains) {
    for (const entry of chain) {
      const st = lstatOrNull(entry);
      if (st === null) continue;
      if (st.uid !== uid && st.uid !== 0) throw unsafe(entry, `this ancestor of the runtime folder is owned by uid ${st.uid}, neither this user (uid ${uid}) nor root`, 'foreign_ancestor', st);
      if (st.isDirectory() && (st.mode & 0o022) !== 0 && (st.mode & 0o1000) === 0) {
        throw unsafe(entry, `group or others can write into this ancestor of the runtime folder (mode ${modeText(st)}, not sticky)`, 'writable_ancestor', st);
      }
    }
  }
}

/** The proper ancestors of an absolute path, nearest first, up to the file system root. */
function ancestorsOf(p: string): string[] {
  const out: string[] = [];
  let current = path.dirname(p);
  for (;;) {
    out.push(current);
    const parent = path.dirname(current);
    if (parent === current) return out;
    current = parent;
  }
}

function lstatOrNull(p: string): Stats | null {
  try {
    return lstatSync(p);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR') return null;
    throw error;
  }
}

function modeText(st: Stats): string {
  return (st.mode & 0o7777).toString(8).padStart(4, '0');
}

function unsafe(p: string, problem: string, reasonCode: string, st: Stats): DocforgeError {
  return errors.viewerRuntimeUnsafe(p, problem, { reason_code: reasonCode, owner_uid: st.uid, mode: modeText(st) });
}
