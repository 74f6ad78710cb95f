/**
 * Where the per-user viewer manager lives (DESIGN.md section 6): a 0700 runtime directory holding
 * the socket, the lock and the log file. Both the manager and its clients derive the same paths.
 */
import { chmodSync, lstatSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { errors, readDocforgeConfig, type Environment } from '@docforge/core';

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
 * else `$XDG_RUNTIME_DIR/docforge`, else `~/.cache/docforge/run`. Pure: creates nothing.
 */
export function viewerRuntimePaths(env: Environment = process.env): ViewerRuntimePaths {
  const { viewerRuntimeDir: override, xdgRuntimeDir: xdg } = readDocforgeConfig(env);
  const dir = override && path.isAbsolute(override) ? override : xdg && path.isAbsolute(xdg) ? path.join(xdg, 'docforge') : path.join(homedir(), '.cache', 'docforge', 'run');
  return { dir, socket: path.join(dir, 'viewer.sock'), lock: path.join(dir, 'viewer-manager.lock'), log: path.join(dir, 'viewer.log') };
}

/**
 * Creates the runtime directory (mode 0700) when missing and tightens an existing one of this
 * user to 0700.
 * @throws DocforgeError `viewer_unavailable` when the path is not a directory (or a symbolic link) or belongs to another user
 */
export function ensureRuntimeDir(paths: ViewerRuntimePaths): void {
  mkdirSync(paths.dir, { recursive: true, mode: 0o700 });
  const st = lstatSync(paths.dir);
  if (!st.isDirectory()) throw errors.viewerUnavailable(`The viewer runtime directory ${paths.dir} is not a directory.`, { dir: paths.dir });
  const uid = process.getuid?.();
  if (uid !== undefined && st.uid !== uid) throw errors.viewerUnavailable(`The viewer runtime directory ${paths.dir} belongs to another user.`, { dir: paths.dir });
  if ((st.mode & 0o777) !== 0o700) chmodSync(paths.dir, 0o700);
}
