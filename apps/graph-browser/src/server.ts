/**
 * Builds and starts one graph-browser worker: fastify on 127.0.0.1 with an ephemeral port over one
 * exact index snapshot (DESIGN.md sections 1 and 6). The security guards run as root hooks before
 * any route; the UI is served by @fastify/static without directory listing.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import type { Logger } from 'pino';
import { DocforgeError, errors, type ErrorCode } from '@docforge/core';
import type { GraphBrowserWorkerConfig } from './config.js';
import { Snapshot } from './snapshot.js';
import { SessionStore, type IssuedToken } from './session.js';
import { installSecurity } from './security.js';
import { registerApi } from './api.js';

const PACKAGE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** Where the built UI lives (apps/graph-browser/dist/web, built by esbuild from web/). */
export const BUILT_UI_DIR = path.join(PACKAGE_DIR, 'dist', 'web');
/** The minimal committed page that proves the API end to end, served while no built UI exists. */
export const MINIMAL_UI_DIR = path.join(PACKAGE_DIR, 'web', 'minimal');

/** The directory the worker serves: the built UI when it has an index.html, else the minimal page. */
export function uiDirectory(): string {
  return existsSync(path.join(BUILT_UI_DIR, 'index.html')) ? BUILT_UI_DIR : MINIMAL_UI_DIR;
}

/** HTTP status of each error code a request can end with (anything else is 500). */
const STATUS: Partial<Record<ErrorCode, number>> = {
  invalid_arguments: 400,
  node_not_found: 404,
  logic_not_found: 404,
  adapter_policy_forbids_logic: 403,
  path_outside_root: 403,
  viewer_access_denied: 403,
  snapshot_replaced: 409,
};

/** A running worker. */
export interface RunningWorker {
  readonly app: FastifyInstance;
  readonly port: number;
  readonly cookieName: string;
  /** Mints a one-time token (the manager's `issue_token`). */
  issueToken(): IssuedToken;
  /** Closes the listener and the index (idempotent). */
  close(): Promise<void>;
}

/** Options of {@link startWorker}. */
export interface StartWorkerOptions {
  config: GraphBrowserWorkerConfig;
  logger: Logger;
  /** Called at most every 10 s with the time of an authenticated browser request. */
  onActivity?: (atMs: number) => void;
  /** Directory of the UI to serve (default {@link uiDirectory}). */
  uiDir?: string;
}

/**
 * Opens the snapshot (rejecting a replaced file, and Logic under no-AST, before any read), then
 * listens on 127.0.0.1 with an OS-chosen port.
 * @throws DocforgeError `snapshot_replaced`, `policy_violation`, `index_unavailable`; a listen error
 */
export async function startWorker(options: StartWorkerOptions): Promise<RunningWorker> {
  const { config, logger } = options;
  const snapshot = Snapshot.open(config);
  const sessions = new SessionStore(config.worker_id);
  const app = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    // No per-request log lines: a token-bearing URL never reaches the log file.
    logController: new LogController({ disableRequestLogging: true }),
    routerOptions: { maxParamLength: 4096 },
    bodyLimit: 1024,
    return503OnClosing: true,
  });
  let port = 0;
  installSecurity(app, { sessions, port: () => port, onActivity: options.onActivity ?? (() => undefined) });
  app.setErrorHandler((error, request, reply) => {
    const wire = error instanceof DocforgeError ? error : fastifyError(error);
    const status = STATUS[wire.code] ?? 500;
    if (status === 500) request.log.error({ err: error, url: request.routeOptions.url }, 'graph-browser request failed');
    return reply.code(status).send({ error: wire.toWire() });
  });
  app.setNotFoundHandler((request, reply) => {
    const error = request.url.startsWith('/api/')
      ? errors.invalidArguments('No such viewer endpoint.', { path: request.routeOptions.url ?? null })
      : errors.invalidArguments('No such file in the viewer.');
    return reply.code(404).send({ error: error.toWire() });
  });
  registerApi(app, snapshot);
  await app.register(fastifyStatic, { root: options.uiDir ?? uiDirectory(), prefix: '/', list: false, dotfiles: 'deny', index: ['index.html'], redirect: false, wildcard: true });
  try {
    await app.listen({ host: '127.0.0.1', port: 0 });
  } catch (error) {
    snapshot.close();
    throw error;
  }
  const address = app.server.address();
  port = typeof address === 'object' && address !== null ? address.port : 0;
  let closed: Promise<void> | null = null;
  return {
    app,
    port,
    cookieName: sessions.cookieName,
    issueToken: () => sessions.issue(),
    close(): Promise<void> {
      closed ??= app.close().finally(() => snapshot.close());
      return closed;
    },
  };
}

/** A fastify error (bad URL, parse failure, …) as a DocforgeError: a 4xx becomes invalid_arguments. */
function fastifyError(error: unknown): DocforgeError {
  const status = typeof error === 'object' && error !== null && 'statusCode' in error ? Number(error.statusCode) : 500;
  if (status >= 400 && status < 500) return errors.invalidArguments(error instanceof Error ? error.message : 'Bad request.');
  return errors.internalError();
}
