/**
 * Builds and starts one graph-browser worker: fastify on 127.0.0.1 with an ephemeral port over one
 * exact index snapshot (DESIGN.md sections 1 and 6). Each concern is a fastify plugin: the security
 * plugin's guards run as `onRequest` hooks before everything it encloses (the API routes, the UI
 * served by @fastify/static without directory listing, and the 404).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyReply } from 'fastify';
import fastifyStatic from '@fastify/static';
import type { Logger } from 'pino';
import { resolveServedIndex } from '@docforge/store';
import type { GraphBrowserWorkerConfig } from './config.js';
import { Snapshot } from './snapshot.js';
import { SessionStore, type IssuedToken } from './session.js';
import { security } from './security.js';
import { apiRoutes } from './routes/api.js';
import { sourceScope, type SourceScope } from './source.js';
import { frameworkErrors, notFoundHandler, rawClientError, workerErrorHandler } from './http-errors.js';

const PACKAGE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** Where the built UI lives (apps/graph-browser/dist/web, built by esbuild from web/). */
export const BUILT_UI_DIR = path.join(PACKAGE_DIR, 'dist', 'web');
/** The minimal committed page that proves the API end to end, served while no built UI exists. */
export const MINIMAL_UI_DIR = path.join(PACKAGE_DIR, 'web', 'minimal');

/** The directory the worker serves: the built UI when it has an index.html, else the minimal page. */
export function uiDirectory(): string {
  return existsSync(path.join(BUILT_UI_DIR, 'index.html')) ? BUILT_UI_DIR : MINIMAL_UI_DIR;
}

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

/** A worker's fastify instance over its opened snapshot, ready but not listening (`inject()` serves it without a port). */
export interface PreparedWorker {
  readonly app: FastifyInstance;
  readonly sessions: SessionStore;
  /** Closes the app and the index (idempotent). */
  close(): Promise<void>;
}

/**
 * Opens the snapshot (rejecting a replaced file, and Logic under no-AST, before any read) and builds
 * the worker's fastify instance without listening; `port` names the port the Host and Origin checks accept.
 * @throws DocforgeError from resolveServedIndex (`project_root_invalid`, `descriptor_invalid`, `invalid_arguments`) unless
 *   the config names the index file the root's current.json publishes; `snapshot_replaced`, `policy_violation`, `index_unavailable`
 */
export async function prepareWorker(options: StartWorkerOptions, port: () => number): Promise<PreparedWorker> {
  // Defence in depth: the manager checked it already; serve only the current publication of a real project (real paths).
  const served = resolveServedIndex(options.config.project_root, options.config.index_path, options.config.signature);
  const config: GraphBrowserWorkerConfig = { ...options.config, project_root: served.root, index_path: served.indexPath };
  const snapshot = Snapshot.open(config);
  const sessions = new SessionStore(config.worker_id);
  let app: FastifyInstance;
  try {
    app = await buildApp({ ...options, snapshot, scope: sourceScope(served), sessions, port });
  } catch (error) {
    snapshot.close();
    throw error;
  }
  let closed: Promise<void> | null = null;
  return { app, sessions, close: () => (closed ??= app.close().finally(() => snapshot.close())) };
}

/**
 * Opens the snapshot, then listens on 127.0.0.1 with an OS-chosen port.
 * @throws DocforgeError as {@link prepareWorker}; a listen error
 */
export async function startWorker(options: StartWorkerOptions): Promise<RunningWorker> {
  let port = 0;
  const worker = await prepareWorker(options, () => port);
  try {
    await worker.app.listen({ host: '127.0.0.1', port: 0 });
  } catch (error) {
    await worker.close();
    throw error;
  }
  const address = worker.app.server.address();
  port = typeof address === 'object' && address !== null ? address.port : 0;
  return { app: worker.app, port, cookieName: worker.sessions.cookieName, issueToken: () => worker.sessions.issue(), close: () => worker.close() };
}

/** What {@link buildApp} assembles. */
interface AppParts extends StartWorkerOptions {
  snapshot: Snapshot;
  scope: SourceScope;
  sessions: SessionStore;
  port: () => number;
}

/** Fastify with the worker's error shapes, the security plugin, and inside it the API, the UI files and the 404. */
async function buildApp(parts: AppParts): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: parts.logger as FastifyBaseLogger,
    // No per-request log lines: a token-bearing URL never reaches the log file.
    logController: new LogController({ disableRequestLogging: true }),
    routerOptions: { maxParamLength: 4096 },
    // A request without Host reaches the security hook, which answers in the worker's JSON shape (check `host`).
    http: { requireHostHeader: false },
    bodyLimit: 1024,
    return503OnClosing: true,
    // The routes' schemas validate the query string as parsed: no coercion, no removal, every failure
    // (the formatter reports the first in the checks' order), lengths in UTF-16 code units.
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false, useDefaults: true, allErrors: true, verbose: true, unicodeRegExp: false } },
    frameworkErrors: (error, request, reply) => frameworkErrors(error, request, reply as unknown as FastifyReply),
    clientErrorHandler: (error: NodeJS.ErrnoException, socket) => rawClientError(error, socket),
  });
  app.setErrorHandler(workerErrorHandler);
  await app.register(security, {
    sessions: parts.sessions,
    port: parts.port,
    onActivity: parts.onActivity ?? (() => undefined),
    routes: async (viewer) => {
      await viewer.register(apiRoutes, { snapshot: parts.snapshot, scope: parts.scope });
      await viewer.register(fastifyStatic, { root: parts.uiDir ?? uiDirectory(), prefix: '/', list: false, dotfiles: 'deny', index: ['index.html'], redirect: false, wildcard: true });
      viewer.setNotFoundHandler(notFoundHandler);
    },
  });
  await app.ready();
  return app;
}
