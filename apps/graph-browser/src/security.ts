/**
 * The worker's request guards as root-level fastify hooks, so they run before routing, for static
 * files, API routes and unknown paths alike (DESIGN.md section 6; contract: Visualization boundary:
 * "token-bound, read-only, same-origin"):
 * 1. GET and HEAD only (405 with `Allow`);
 * 2. the Host header must be this worker's loopback address and port (DNS rebinding);
 * 3. a present Origin must be this worker's own origin (an absent Origin on a GET is allowed);
 * 4. `GET /?token=` trades a one-time token for the session cookie, then 303 to the same URL
 *    without the token; every other request needs a live session cookie (401 missing, 403 wrong);
 * and on every answer a strict Content-Security-Policy with no inline script, nosniff,
 * no-referrer, no framing and no caching of API answers.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errors, type DocforgeError } from '@docforge/core';
import { cookieValue, type SessionStore } from './session.js';

/** The Content-Security-Policy of every answer: same-origin only, no inline script, no framing. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "worker-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Seconds between two activity reports to the manager (at most one per interval). */
export const ACTIVITY_INTERVAL_MS = 10_000;

/** What the guards need from the worker. */
export interface SecurityOptions {
  sessions: SessionStore;
  /** The listening port (known once listening). */
  port: () => number;
  /** Called with the request time for an authenticated request, at most every {@link ACTIVITY_INTERVAL_MS}. */
  onActivity: (atMs: number) => void;
}

/** Sends a structured refusal. */
function refuse(reply: FastifyReply, status: number, error: DocforgeError): FastifyReply {
  return reply.code(status).header('content-type', 'application/json; charset=utf-8').send({ error: error.toWire() });
}

/** Installs the guards and security headers on the root instance (call before registering routes). */
export function installSecurity(app: FastifyInstance, options: SecurityOptions): void {
  const { sessions } = options;
  let lastActivity = -Infinity;
  const noteActivity = (): void => {
    const now = Date.now();
    if (now - lastActivity >= ACTIVITY_INTERVAL_MS) {
      lastActivity = now;
      options.onActivity(now);
    }
  };

  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      reply.header('allow', 'GET, HEAD');
      return refuse(reply, 405, errors.viewerAccessDenied('method', `The viewer is read-only: ${request.method} is not allowed.`));
    }
    // Origin-form targets only (`/path?query`): an absolute-form target names another host.
    if (!request.raw.url?.startsWith('/')) {
      return refuse(reply, 400, errors.invalidArguments('The request target must be a path on this viewer (origin-form).'));
    }
    const port = options.port();
    const host = request.headers.host;
    if (host !== `127.0.0.1:${port}` && host !== `localhost:${port}`) {
      return refuse(reply, 403, errors.viewerAccessDenied('host', 'The Host header does not name this viewer (loopback address and port).'));
    }
    const origin = request.headers.origin;
    if (origin !== undefined && origin !== `http://127.0.0.1:${port}` && origin !== `http://localhost:${port}`) {
      return refuse(reply, 403, errors.viewerAccessDenied('origin', 'Requests from another origin are refused.'));
    }
    const url = new URL(request.url, `http://${host}`);
    if (url.searchParams.has('token')) {
      if (url.pathname !== '/' || request.method !== 'GET') return refuse(reply, 403, errors.viewerAccessDenied('token', 'A token is traded only by a GET of the viewer root.'));
      const trade = sessions.trade(url.searchParams.get('token') ?? '');
      if (!trade.ok) {
        return refuse(reply, 403, errors.viewerAccessDenied('token', `The viewer token is ${trade.reason === 'unknown' ? 'not valid' : trade.reason === 'used' ? 'already used' : 'expired'}; open a fresh URL from docforge_visualize.`));
      }
      noteActivity();
      url.searchParams.delete('token');
      const rest = url.searchParams.toString();
      reply.header('set-cookie', sessions.setCookie(trade.session)).header('cache-control', 'no-store');
      return reply.redirect(`/${rest === '' ? '' : `?${rest}`}`, 303);
    }
    const cookie = cookieValue(request.headers.cookie, sessions.cookieName);
    if (cookie === null) return refuse(reply, 401, errors.viewerAccessDenied('session', 'No viewer session: open the URL that docforge_visualize returned.'));
    if (!sessions.valid(cookie)) return refuse(reply, 403, errors.viewerAccessDenied('session', 'The viewer session is not valid: open a fresh URL from docforge_visualize.'));
    // The query parser passes undecodable percent-escapes through as text: refuse them as the router does in paths.
    if (!strictlyDecodable(url.search)) return refuse(reply, 400, errors.invalidArguments('The request URL is not valid percent-encoded UTF-8.'));
    noteActivity();
    return undefined;
  });

  app.addHook('onSend', async (request, reply, payload) => {
    reply.header('content-security-policy', CONTENT_SECURITY_POLICY);
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'no-referrer');
    reply.header('x-frame-options', 'DENY');
    reply.header('cross-origin-opener-policy', 'same-origin');
    reply.header('cross-origin-resource-policy', 'same-origin');
    if (request.url.startsWith('/api/')) reply.header('cache-control', 'no-store');
    return payload;
  });
}

/** Whether every percent-escape of a query string (`?a=b&c=d`, or '') decodes as UTF-8. */
function strictlyDecodable(search: string): boolean {
  try {
    for (const part of search.replace(/^\?/, '').split(/[&=]/)) decodeURIComponent(part.replace(/\+/g, ' '));
    return true;
  } catch {
    return false;
  }
}
