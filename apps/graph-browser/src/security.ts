/**
 * The worker's request guards as one encapsulated fastify plugin: its `onRequest` hooks run, in
 * this order, before routing for everything registered inside it (static files, API routes and
 * unknown paths alike) (DESIGN.md section 6; contract: Visualization boundary: "token-bound,
 * read-only, same-origin"):
 * 1. GET and HEAD only (405 with `Allow`);
 * 2. an origin-form request target (`/path?query`);
 * 3. the Host header must be this worker's loopback address and port (DNS rebinding);
 * 4. a present Origin must be this worker's own origin (an absent Origin on a GET is allowed);
 * 5. `GET /?token=` trades a one-time token for the session cookie, then 303 to the same URL
 *    without the token; every other request needs a live session cookie (401 missing, 403 wrong);
 * 6. every percent-escape of the query string decodes as UTF-8;
 * then the authenticated request counts as activity. Its `onSend` hook puts a strict
 * Content-Security-Policy with no inline script, nosniff, no-referrer, no framing and no caching
 * of API answers on every answer.
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
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

/** Milliseconds between two activity reports to the manager (at most one per interval). */
export const ACTIVITY_INTERVAL_MS = 10_000;

/** What the guards need from the worker, and what they guard. */
export interface SecurityOptions {
  sessions: SessionStore;
  /** The listening port (known once listening). */
  port: () => number;
  /** Called with the request time for an authenticated request, at most every {@link ACTIVITY_INTERVAL_MS}. */
  onActivity: (atMs: number) => void;
  /** Everything the worker serves; registered inside the plugin, behind its hooks. */
  routes: FastifyPluginAsync;
}

/** An `onRequest` guard: answers a refusal (and so ends the request), or lets it pass. */
type Guard = (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply | undefined>;

/** Sends a structured refusal. */
function refuse(reply: FastifyReply, status: number, error: DocforgeError): FastifyReply {
  return reply.code(status).header('content-type', 'application/json; charset=utf-8').send({ error: error.toWire() });
}

/** The guards, their order, the security headers, then the guarded routes. */
export const security: FastifyPluginAsync<SecurityOptions> = async (viewer, options) => {
  const noteActivity = activityReporter(options.onActivity);
  const guards: Guard[] = [readOnly, originForm, sameHost(options.port), sameOrigin(options.port), session(options.sessions, noteActivity), decodableQuery];
  for (const guard of guards) viewer.addHook('onRequest', guard);
  viewer.addHook('onRequest', async () => noteActivity());
  viewer.addHook('onSend', async (request, reply, payload) => {
    reply.header('content-security-policy', CONTENT_SECURITY_POLICY);
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'no-referrer');
    reply.header('x-frame-options', 'DENY');
    reply.header('cross-origin-opener-policy', 'same-origin');
    reply.header('cross-origin-resource-policy', 'same-origin');
    if (request.url.startsWith('/api/')) reply.header('cache-control', 'no-store');
    return payload;
  });
  await viewer.register(options.routes);
};

/** Reports activity at most once per {@link ACTIVITY_INTERVAL_MS} (the state lives with one worker's plugin). */
function activityReporter(onActivity: (atMs: number) => void): () => void {
  let last = -Infinity;
  return () => {
    const now = Date.now();
    if (now - last < ACTIVITY_INTERVAL_MS) return;
    last = now;
    onActivity(now);
  };
}

/** 1. The viewer is read-only: GET and HEAD only. */
async function readOnly(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> {
  if (request.method === 'GET' || request.method === 'HEAD') return undefined;
  reply.header('allow', 'GET, HEAD');
  return refuse(reply, 405, errors.viewerAccessDenied('method', `The viewer is read-only: ${request.method} is not allowed.`));
}

/** 2. Origin-form targets only (`/path?query`): an absolute-form target names another host. */
async function originForm(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> {
  if (request.raw.url?.startsWith('/')) return undefined;
  return refuse(reply, 400, errors.invalidArguments('The request target must be a path on this viewer (origin-form).'));
}

/** 3. The Host header names this worker's loopback address and port (DNS rebinding). */
function sameHost(port: () => number): Guard {
  return async (request, reply) => {
    const host = request.headers.host;
    if (host === `127.0.0.1:${port()}` || host === `localhost:${port()}`) return undefined;
    return refuse(reply, 403, errors.viewerAccessDenied('host', 'The Host header does not name this viewer (loopback address and port).'));
  };
}

/** 4. A present Origin is this worker's own origin. */
function sameOrigin(port: () => number): Guard {
  return async (request, reply) => {
    const origin = request.headers.origin;
    if (origin === undefined || origin === `http://127.0.0.1:${port()}` || origin === `http://localhost:${port()}`) return undefined;
    return refuse(reply, 403, errors.viewerAccessDenied('origin', 'Requests from another origin are refused.'));
  };
}

/** 5. A token trade at `GET /?token=` (303 with the cookie), else a live session cookie. */
function session(sessions: SessionStore, noteActivity: () => void): Guard {
  return async (request, reply) => {
    const url = new URL(request.url, `http://${request.headers.host ?? ''}`);
    if (url.searchParams.has('token')) return tradeToken(request, reply, url, sessions, noteActivity);
    const cookie = cookieValue(request.headers.cookie, sessions.cookieName);
    if (cookie === null) return refuse(reply, 401, errors.viewerAccessDenied('session', 'No viewer session: open the URL that docforge_visualize returned.'));
    if (!sessions.valid(cookie)) return refuse(reply, 403, errors.viewerAccessDenied('session', 'The viewer session is not valid: open a fresh URL from docforge_visualize.'));
    return undefined;
  };
}

/** Trades the URL's one-time token for a session cookie and redirects to the URL without it. */
function tradeToken(request: FastifyRequest, reply: FastifyReply, url: URL, sessions: SessionStore, noteActivity: () => void): FastifyReply {
  if (url.pathname !== '/' || request.method !== 'GET') return refuse(reply, 403, errors.viewerAccessDenied('token', 'A token is traded only by a GET of the viewer root.'));
  const trade = sessions.trade(url.searchParams.get('token') ?? '');
  if (!trade.ok) {
    const why = trade.reason === 'unknown' ? 'not valid' : trade.reason === 'used' ? 'already used' : 'expired';
    return refuse(reply, 403, errors.viewerAccessDenied('token', `The viewer token is ${why}; open a fresh URL from docforge_visualize.`));
  }
  noteActivity();
  url.searchParams.delete('token');
  const rest = url.searchParams.toString();
  reply.header('set-cookie', sessions.setCookie(trade.session)).header('cache-control', 'no-store');
  return reply.redirect(`/${rest === '' ? '' : `?${rest}`}`, 303);
}

/** 6. The query parser passes undecodable percent-escapes through as text: refuse them as the router does in paths. */
async function decodableQuery(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> {
  if (strictlyDecodable(new URL(request.url, `http://${request.headers.host ?? ''}`).search)) return undefined;
  return refuse(reply, 400, errors.invalidArguments('The request URL is not valid percent-encoded UTF-8.'));
}

/** Whether every percent-escape of a query string (`?a=b&c=d`, or '') decodes as UTF-8. */
function strictlyDecodable(search: string): boolean {
  try {
    for (const part of search.replace(/^\?/, '').split(/[&=]/)) decodeURIComponent(part.replace(/\+/g, ' '));
    return true;
  } catch (error) {
    if (error instanceof URIError) return false;
    throw error;
  }
}
