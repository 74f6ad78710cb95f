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

async function main(): Promise<void> {
  if (typeof process.send !== 'function') {
    logger.error('docforge-graph-browser runs only as a child of the viewer manager (fork with an IPC channel).');
    process.exit(2);
  }
  let worker: RunningWorker;
  try {
    const workerConfig = parseWorkerConfig(config.workerConfigText);
    delete process.env[WORKER_CONFIG_ENV];
    worker = await startWorker({ config: workerConfig, logger: logger.child({ worker_id: workerConfig.worker_id }), onActivity: (atMs) => void send({ type: 'activity', at_ms: atMs }) });
  } catch (error) {
    const wire = toDocforgeError(error);
    logger.error({ code: wire.code, err: error }, 'graph-browser worker cannot start');
    await send({ type: 'fatal', code: wire.code, message: wire.message.slice(0, 4096) });
    if (process.connected) process.disconnect();
    process.exitCode = 1;
    return;
  }
  let stopping = false;
  const stop = (why: string): void => {
    if (stopping) return;
    stopping = true;
    logger.info({ why }, 'graph-browser worker stopping');
    void worker.close().finally(() => {
      if (process.connected) process.disconnect();
      process.exit(0);
    });
  };
  process.on('message', (message: unknown) => {
    if (!validateGraphBrowserWorkerCommand(message)) {
      logger.warn({ errors: describeValidationErrors(validateGraphBrowserWorkerCommand.errors) }, 'ignored an invalid manager message');
      return;
    }
    if (message.type === 'shutdown') return stop('shutdown');
    const issued = worker.issueToken();
    void send({ type: 'token', request_id: message.request_id, ...issued });
  });
  process.on('disconnect', () => stop('manager channel closed'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  logger.info({ port: worker.port }, 'graph-browser worker listening on 127.0.0.1');
  await send({ type: 'ready', port: worker.port, cookie_name: worker.cookieName });
}

await main();
