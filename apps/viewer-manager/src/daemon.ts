/**
 * The per-user viewer manager daemon (DESIGN.md sections 1 and 6): holds the single-manager lock
 * in the 0700 runtime directory, listens on the Unix socket, answers protocol v2 requests through
 * the supervisor, reclaims idle workers, logs through pino to the per-user log file, and exits
 * after a `shutdown` request, SIGTERM, or an idle period with no worker and no connection.
 */
import { chmodSync, closeSync, lstatSync, openSync, rmSync, watch } from 'node:fs';
import { basename } from 'node:path';
import { createServer, type Server, type Socket } from 'node:net';
import { readDocforgeConfig, type Environment } from '@docforge/core';
import { acquireLock, type LockHandle } from '@docforge/fs-safe';
import { ensureRuntimeDir, serveConnection, viewerRuntimePaths, type RequestHandlers, type ViewerRuntimePaths } from '@docforge/ipc';
import { pino, type Logger } from 'pino';
import { Supervisor } from './supervisor.js';

/** Default idle reclaim: one hour without browser activity (contract: Visualization boundary). */
export const DEFAULT_IDLE_TIMEOUT_MS = 60 * 60 * 1000;
/** Default time a worker may take to report ready. */
export const DEFAULT_WORKER_START_TIMEOUT_MS = 20_000;

/** Settings of one daemon run, read from the environment by {@link daemonOptionsFromEnv}. */
export interface DaemonOptions {
  paths: ViewerRuntimePaths;
  workerBin: string;
  /** `DOCFORGE_VIEWER_IDLE_MS`: idle reclaim timeout in milliseconds (default one hour). */
  idleTimeoutMs: number;
  /** `DOCFORGE_VIEWER_WORKER_START_MS`: worker start timeout in milliseconds. */
  startTimeoutMs: number;
}

/** Daemon options from the environment (see {@link DaemonOptions}) and the worker launcher path. */
export function daemonOptionsFromEnv(workerBin: string, env: Environment = process.env): DaemonOptions {
  const config = readDocforgeConfig(env);
  return {
    paths: viewerRuntimePaths(env),
    workerBin,
    idleTimeoutMs: config.viewerIdleMs ?? DEFAULT_IDLE_TIMEOUT_MS,
    startTimeoutMs: config.viewerWorkerStartMs ?? DEFAULT_WORKER_START_TIMEOUT_MS,
  };
}

/**
 * Runs the daemon until it stops. Resolves `false` at once when another live manager holds the
 * lock (a concurrent start lost the race: the other one serves), `true` after a clean stop.
 */
export async function runDaemon(options: DaemonOptions): Promise<boolean> {
  const { paths } = options;
  ensureRuntimeDir(paths);
  let lock: LockHandle;
  try {
    lock = await acquireLock(paths.lock, { timeoutMs: 300, label: 'viewer-manager' });
  } catch {
    return false;
  }
  const logFd = openSync(paths.log, 'a', 0o600);
  const logger: Logger = pino({ name: 'docforge-viewer-manager', base: { pid: process.pid } }, pino.destination({ dest: logFd, sync: true }));
  const startedAt = new Date().toISOString();
  const supervisor = new Supervisor({ workerBin: options.workerBin, logFd, idleTimeoutMs: options.idleTimeoutMs, startTimeoutMs: options.startTimeoutMs, logger });
  const sockets = new Set<Socket>();
  let lastBusyMs = Date.now();
  let stopping: Promise<string[]> | null = null;
  let resolveDone: (clean: boolean) => void = () => {};
  const done = new Promise<boolean>((resolve) => {
    resolveDone = resolve;
  });

  const shutdown = (why: string): Promise<string[]> => {
    stopping ??= (async () => {
      logger.info({ why }, 'manager stopping');
      clearInterval(ticker);
      server.close();
      server.unwatch();
      const stopped = await supervisor.stop({}, 'manager_shutdown');
      setImmediate(() => {
        for (const s of sockets) s.destroy();
        rmSync(paths.socket, { force: true });
        lock.release();
        logger.info({ stopped }, 'manager stopped');
        closeSync(logFd);
        resolveDone(true);
      });
      return stopped;
    })();
    return stopping;
  };

  const handlers: RequestHandlers = {
    ensure_worker: (p) => supervisor.ensure(p),
    issue_token: (p) => supervisor.issueToken(p.worker_id),
    worker_status: async (p) => ({ workers: supervisor.list(p.project_root) }),
    stop_worker: async (p) => ({ stopped: await supervisor.stop(p) }),
    list_workers: async () => ({ manager: { pid: process.pid, started_at: startedAt, idle_timeout_ms: options.idleTimeoutMs, socket: paths.socket }, workers: supervisor.list() }),
    shutdown: async () => ({ stopped: await shutdown('shutdown request') }),
  };

  // Only this manager holds the lock, so a socket file left behind is a dead manager's.
  rmSync(paths.socket, { force: true });
  const onConnection = (socket: Socket): void => {
    sockets.add(socket);
    lastBusyMs = Date.now();
    socket.on('close', () => {
      sockets.delete(socket);
      lastBusyMs = Date.now();
    });
    serveConnection(socket, { pid: process.pid, started_at: startedAt, capabilities: [] }, handlers, (type) => logger.debug({ type }, 'request'));
  };
  const server = await keepSocket(paths, onConnection, () => stopping !== null, logger);
  logger.info({ socket: paths.socket, idle_timeout_ms: options.idleTimeoutMs, worker_bin: options.workerBin }, 'manager listening');

  const tickMs = Math.max(50, Math.min(60_000, Math.floor(options.idleTimeoutMs / 4)));
  const ticker = setInterval(() => {
    server.check();
    void supervisor.reclaimIdle().then(() => {
      if (supervisor.liveCount() > 0 || sockets.size > 0) lastBusyMs = Date.now();
      else if (Date.now() - lastBusyMs >= options.idleTimeoutMs) void shutdown('idle, no workers');
    });
  }, tickMs);
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
  return done;
}

/** The manager's listening socket, kept bound at its path for the manager's life ({@link keepSocket}). */
interface KeptSocket {
  /** Stops accepting connections (open connections stay). */
  close(): void;
  /** Stops watching the runtime folder. */
  unwatch(): void;
  /** Binds the socket again when its file is gone or is not the one this manager bound. */
  check(): void;
}

/**
 * Listens on the manager's socket and keeps it reachable: when the socket file is deleted (a
 * cleaner of the runtime folder, a user's `rm`), the manager binds a new one at once (an inotify
 * watch of the runtime folder, and each idle tick as a fallback). Without this, a manager whose
 * socket was deleted kept the single-manager lock while no client could reach it, and every start
 * of a new manager lost the lock to it. Open connections stay on the old socket.
 * @param stopped whether the manager is stopping (then nothing is bound again)
 * @throws Error when the first bind fails (the caller's start fails)
 */
async function keepSocket(paths: ViewerRuntimePaths, onConnection: (socket: Socket) => void, stopped: () => boolean, logger: Logger): Promise<KeptSocket> {
  const bind = async (): Promise<{ server: Server; ino: number }> => {
    const server = createServer(onConnection);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(paths.socket, () => resolve());
    });
    chmodSync(paths.socket, 0o600);
    return { server, ino: lstatSync(paths.socket).ino };
  };
  let current = await bind();
  let rebinding = false;
  const check = (): void => {
    if (stopped() || rebinding) return;
    let ino: number | null = null;
    try {
      ino = lstatSync(paths.socket).ino;
    } catch {
      ino = null;
    }
    if (ino === current.ino) return;
    rebinding = true;
    logger.warn({ socket: paths.socket }, 'socket file gone or replaced: binding it again');
    // Closed first: closing a Unix socket server unlinks its path, which would remove the new file.
    current.server.close();
    rmSync(paths.socket, { force: true });
    void bind().then((next) => {
      current = next;
    }, (error: unknown) => logger.error({ err: error }, 'binding the socket again failed')).finally(() => {
      rebinding = false;
    });
  };
  const watcher = watch(paths.dir, (_event, name) => {
    if (name === null || name === basename(paths.socket)) check();
  });
  watcher.on('error', (error) => logger.warn({ err: error }, 'runtime folder watch failed; the idle tick still checks the socket'));
  return { close: () => current.server.close(), unwatch: () => watcher.close(), check };
}
