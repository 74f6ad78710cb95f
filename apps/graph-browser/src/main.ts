/**
 * Process entry of one graph-browser worker, forked by the viewer manager through the launcher
 * bin/graph-browser.js with the configuration in DOCFORGE_WORKER_CONFIG and an IPC channel
 * (protocol/schemas/viewer/v2/worker-{config,message,command}.schema.json). Sends `ready` once
 * listening, `activity` at most every 10 s, `token` for each `issue_token`; exits 0 on `shutdown` or
 * when the manager's channel closes, and after `fatal` exits 1. Logs go through pino to fd 2
 * (the manager points it at its per-user log file); stdout is unused.
 */
import { pino } from 'pino';
import { readDocforgeConfig, toDocforgeError } from '@docforge/core';
import { describeValidationErrors, validateGraphBrowserWorkerCommand, type GraphBrowserWorkerMessage } from '@docforge/protocol';
import { parseWorkerConfig, WORKER_CONFIG_ENV } from './config.js';
import { startWorker, type RunningWorker } from './server.js';

/** Every DOCFORGE_* setting, read once when the worker starts. */
const config = readDocforgeConfig();
const logger = pino({ name: 'docforge-graph-browser', level: config.logLevel ?? 'info' }, pino.destination({ fd: 2, sync: true }));

/** Sends one message to the manager; resolves once it is written (or at once without a channel). */
function send(message: GraphBrowserWorkerMessage): Promise<void> {
  return new Promise((resolve) => {
    if (typeof process.send !== 'function' || !process.connected) return resolve();
    process.send(message, undefined, {}, () => resolve());
  });
}

/**
 * Stopping the worker on `shutdown`, SIGTERM, SIGINT, or when the manager's channel closes. A stop
 * that comes while the worker is still starting exits at once: nothing listens yet, and a manager
 * that is gone can never stop or list this worker (issue 30 item 19).
 */
class Lifecycle {
  private worker: RunningWorker | null = null;
  private stopping = false;

  /** The worker is listening: a later stop closes it first. */
  started(worker: RunningWorker): void {
    this.worker = worker;
  }

  stop(why: string): void {
    if (this.stopping) return;
    this.stopping = true;
    logger.info({ why }, 'graph-browser worker stopping');
    const exit = (): void => {
      if (process.connected) process.disconnect();
      process.exit(process.exitCode ?? 0);
    };
    if (this.worker === null) return exit();
    void this.worker.close().finally(exit);
  }
}

async function main(): Promise<void> {
  if (typeof process.send !== 'function') {
    logger.error('docforge-graph-browser runs only as a child of the viewer manager (fork with an IPC channel).');
    process.exit(2);
  }
  // First the handlers, then the channel's state: a manager killed before this line emitted its
  // 'disconnect' already, which no later handler would see.
  const life = new Lifecycle();
  process.on('disconnect', () => life.stop('manager channel closed'));
  process.on('SIGTERM', () => life.stop('SIGTERM'));
  process.on('SIGINT', () => life.stop('SIGINT'));
  if (!process.connected) return life.stop('manager channel closed before start');
  let worker: RunningWorker;
  try {
    const workerConfig = parseWorkerConfig(config.workerConfigText);
    delete process.env[WORKER_CONFIG_ENV];
    worker = await startWorker({ config: workerConfig, logger: logger.child({ worker_id: workerConfig.worker_id }), onActivity: (atMs) => void send({ type: 'activity', at_ms: atMs }) });
  } catch (error) {
    const wire = toDocforgeError(error);
    logger.error({ code: wire.code, err: error }, 'graph-browser worker cannot start');
    await send({ type: 'fatal', code: wire.code, message: wire.message.slice(0, 4096) });
    // Set before the disconnect: the channel's 'disconnect' stops the worker, with this status.
    process.exitCode = 1;
    if (process.connected) process.disconnect();
    return;
  }
  life.started(worker);
  process.on('message', (message: unknown) => {
    if (!validateGraphBrowserWorkerCommand(message)) {
      logger.warn({ errors: describeValidationErrors(validateGraphBrowserWorkerCommand.errors) }, 'ignored an invalid manager message');
      return;
    }
    if (message.type === 'shutdown') return life.stop('shutdown');
    const issued = worker.issueToken();
    void send({ type: 'token', request_id: message.request_id, ...issued });
  });
  logger.info({ port: worker.port }, 'graph-browser worker listening on 127.0.0.1');
  await send({ type: 'ready', port: worker.port, cookie_name: worker.cookieName });
}

await main();
