/**
 * How the worker answers a failure: every non-2xx answer is a registered DocForge error in the
 * shape of protocol/schemas/viewer/v2/api/error.schema.json, `{ error: { code, message,
 * remediation, details } }`, whether a route threw it, a request failed its schema (the routes'
 * formatter already made it an `invalid_arguments` error), fastify refused the URL before routing,
 * or node's HTTP parser refused the bytes.
 */
import type { Duplex } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DocforgeError, errors, type ErrorCode } from '@docforge/core';

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

/** The worker's error handler: a DocforgeError keeps its code; a fastify 4xx becomes `invalid_arguments`; anything else `internal_error` (logged). */
export function workerErrorHandler(error: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  // @fastify/static refuses a path leaving its root (`..`) or naming a dotfile with 403.
  const wire = error instanceof DocforgeError ? error
    : clientStatus(error) === 403 ? errors.viewerAccessDenied('path', 'The path names no file the viewer serves.') : fastifyError(error);
  const status = error instanceof DocforgeError ? (STATUS[wire.code] ?? 500) : clientStatus(error) ?? STATUS[wire.code] ?? 500;
  if (status === 500) request.log.error({ err: error, url: request.routeOptions.url }, 'graph-browser request failed');
  return reply.code(status).send({ error: wire.toWire() });
}

/** The worker's 404: an unknown endpoint under /api/, else an unknown file. */
export function notFoundHandler(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const error = request.url.startsWith('/api/')
    ? errors.invalidArguments('No such viewer endpoint.', { path: request.routeOptions.url ?? null })
    : errors.invalidArguments('No such file in the viewer.');
  return reply.code(404).send({ error: error.toWire() });
}

/**
 * Fastify's `frameworkErrors`: errors fastify answers before routing (undecodable URL, overlong
 * parameter) and those node's HTTP parser raises get the worker's shape too.
 */
export function frameworkErrors(error: Error & { statusCode?: number }, _request: FastifyRequest, reply: FastifyReply): void {
  const status = typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 400;
  void reply.code(status).header('content-type', 'application/json; charset=utf-8').header('x-content-type-options', 'nosniff').send({ error: errors.invalidArguments(frameworkMessage(error)).toWire() });
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
export function rawClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
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
