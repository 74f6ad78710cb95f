/**
 * Builds and starts one graph-browser worker: fastify on 127.0.0.1 with an ephemeral port over one
 * exact index snapshot (DESIGN.md sections 1 and 6). The security guards run as root hooks before
 * any route; the UI is served by @fastify/static without directory listing.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Duplex } from 'node:stream';
import { fileURLToPath } from 'node:url';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyReply } from 'fastify';
import fastifyStatic from '@fastify/static';
import type { Logger } from 'pino';
import { DocforgeError, errors, type ErrorCode } from '@docforge/core';
import { resolveServedIndex } from '@docforge/store';
import type { GraphBrowserWorkerConfig } from './config.js';
import { Snapshot } from './snapshot.js';
import { SessionStore, type IssuedToken } from './session.js';
import { installSecurity } from './security.js';
import { registerApi } from './api.js';
import { sourceScope } from './source.js';

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
  source_changed: 409,
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
 * @throws DocforgeError from resolveServedIndex (`project_root_invalid`, `descriptor_invalid`, `invalid_arguments`) unless
 *   the config names the index file the root's current.json publishes; `snapshot_replaced`, `policy_violation`, `index_unavailable`; a listen error
 */
export async function startWorker(options: StartWorkerOptions): Promise<RunningWorker> {
  const { logger } = options;
  // Defence in depth: the manager checked it already; serve only the current publication of a real project (real paths).
  const served = resolveServedIndex(options.config.project_root, options.config.index_path, options.config.signature);
  const config: GraphBrowserWorkerConfig = { ...options.config, project_root: served.root, index_path: served.indexPath };
  const snapshot = Snapshot.open(config);
  const sessions = new SessionStore(config.worker_id);
  const app = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    // No per-request log lines: a token-bearing URL never reaches the log file.
    logController: new LogController({ disableRequestLogging: true }),
    routerOptions: { maxParamLength: 4096 },
    // A request without Host reaches the security hook, which answers in the worker's JSON shape (check `host`).
    http: { requireHostHeader: false },
    bodyLimit: 1024,
    return503OnClosing: true,
    // Errors fastify answers before routing (undecodable URL, overlong parameter) and those node's
    // HTTP parser raises (oversized headers, timeouts, malformed requests) get the worker's shape too.
    frameworkErrors: (error, _request, reply) => {
      const status = typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 400;
      void (reply as unknown as FastifyReply).code(status).header('content-type', 'application/json; charset=utf-8').header('x-content-type-options', 'nosniff').send({ error: errors.invalidArguments(frameworkMessage(error)).toWire() });
    },
    clientErrorHandler: (error: NodeJS.ErrnoException, socket) => rawClientError(error, socket),
  });
  let port = 0;
  installSecurity(app, { sessions, port: () => port, onActivity: options.onActivity ?? (() => undefined) });
  app.setErrorHandler((error, request, reply) => {
    // @fastify/static refuses a path leaving its root (`..`) or naming a dotfile with 403.
    const wire = error instanceof DocforgeError ? error
      : clientStatus(error) === 403 ? errors.viewerAccessDenied('path', 'The path names no file the viewer serves.') : fastifyError(error);
    const status = error instanceof DocforgeError ? (STATUS[wire.code] ?? 500) : clientStatus(error) ?? STATUS[wire.code] ?? 500;
    if (status === 500) request.log.error({ err: error, url: request.routeOptions.url }, 'graph-browser request failed');
    return reply.code(status).send({ error: wire.toWire() });
  });
  app.setNotFoundHandler((request, reply) => {
    const error = request.url.startsWith('/api/')
      ? errors.invalidArguments('No such viewer endpoint.', { path: request.routeOptions.url ?? null })
      : errors.invalidArguments('No such file in the viewer.');
    return reply.code(404).send({ error: error.toWire() });
  });
  registerApi(app, snapshot, sourceScope(served));
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

/** The 4xx status a fastify error carries (body too large: 413, unsupported media type: 415, …), or null. */
function clientStatus(error: unknown): number | null {
  const status = typeof error === 'object' && error !== null && 'statusCode' in error ? Number(error.statusCode) : NaN;
  return status >= 400 && status < 500 ? status : null;
}

/** A fastify error (bad URL, parse failure, …) as a DocforgeError: a 4xx becomes invalid_arguments. */
function fastifyError(error: unknown): DocforgeError {
  if (clientStatus(error) !== null) return errors.invalidArguments(frameworkMessage(error));
  return errors.internalError();
}

/** A short message for a framework error, without echoing the (possibly token-bearing) URL. */
function frameworkMessage(error: unknown): string {
  const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : '';
  if (code === 'FST_ERR_BAD_URL') return 'The request URL is not valid percent-encoded UTF-8.';
  if (code === 'FST_ERR_MAX_PARAM_LENGTH') return 'A path segment of the request URL is too long.';
  return error instanceof Error ? error.message.slice(0, 500) : 'Bad request.';
}

/**
 * Answers a request node's HTTP parser refused before fastify saw it (fastify's own handler would
 * send `{"error":"Bad Request",...}`): the worker's `{ error: { code, message, remediation, details } }`
 * with 408 (timeout), 431 (headers too large) or 400, then closes the connection.
 */
function rawClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, label, message] = error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
    ? [408, 'Request Timeout', 'The request was not received in time.']
    : error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large', 'The request headers are too large.']
      : [400, 'Bad Request', 'The request is not valid HTTP.'];
  const body = JSON.stringify({ error: errors.invalidArguments(message, { http_status: status }).toWire() });
  if (socket.writable) {
    socket.write(`HTTP/1.1 ${status} ${label}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/json; charset=utf-8\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n${body}`);
  }
  socket.destroy(error);
}
