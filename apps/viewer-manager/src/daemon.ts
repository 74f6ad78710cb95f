/**
 * The per-user viewer manager daemon (DESIGN.md sections 1 and 6): holds the single-manager lock
 * in the 0700 runtime directory, listens on the Unix socket, answers protocol v2 requests through
 * the supervisor, reclaims idle workers, logs through pino to the per-user log file, and exits
 * after a `shutdown` request, SIGTERM, or an idle period with no worker and no connection.
 */
import { chmodSync, closeSync, openSync, rmSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
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
  const server = createServer((socket) => {
    sockets.add(socket);
    lastBusyMs = Date.now();
    socket.on('close', () => {
      sockets.delete(socket);
      lastBusyMs = Date.now();
    });
    serveConnection(socket, { pid: process.pid, started_at: startedAt, capabilities: [] }, handlers, (type) => logger.debug({ type }, 'request'));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(paths.socket, () => resolve());
  });
  chmodSync(paths.socket, 0o600);
  logger.info({ socket: paths.socket, idle_timeout_ms: options.idleTimeoutMs, worker_bin: options.workerBin }, 'manager listening');

  const tickMs = Math.max(50, Math.min(60_000, Math.floor(options.idleTimeoutMs / 4)));
  const ticker = setInterval(() => {
    void supervisor.reclaimIdle().then(() => {
      if (supervisor.liveCount() > 0 || sockets.size > 0) lastBusyMs = Date.now();
      else if (Date.now() - lastBusyMs >= options.idleTimeoutMs) void shutdown('idle, no workers');
    });
  }, tickMs);
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
  return done;
}
