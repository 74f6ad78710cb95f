/**
 * One-time tokens and session cookies of one worker (DESIGN.md section 6): every
 * `docforge_visualize` call gets a fresh token minted here through the manager; the token is
 * traded once at `GET /?token=` for an HttpOnly, SameSite=Strict cookie whose name is unique per
 * worker (cookies are not isolated by port, so two workers on one host never read each other's).
 * Only SHA-256 digests of tokens and session values are kept.
 */
import { createHash, randomBytes } from 'node:crypto';

/** How long an issued token may be traded, in milliseconds. */
export const TOKEN_TTL_MS = 5 * 60 * 1000;
/** Most untraded tokens kept; the oldest is forgotten first. */
export const MAX_PENDING_TOKENS = 256;
/** Most live sessions kept; the oldest is forgotten first (its browser tab must open a fresh URL). */
export const MAX_SESSIONS = 256;

/** A freshly issued token and the path that trades it. */
export interface IssuedToken {
  /** 32 random bytes, base64url without padding (43 characters). */
  token: string;
  /** `/?token=<token>`. */
  url_path: string;
  /** Epoch milliseconds after which the token is refused. */
  expires_at_ms: number;
}

/** Outcome of {@link SessionStore.trade}: the new session value, or why the token was refused. */
export type TradeResult = { ok: true; session: string } | { ok: false; reason: 'unknown' | 'expired' | 'used' };

function digest(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

function randomValue(): string {
  return randomBytes(32).toString('base64url');
}

/** Tokens and sessions of one worker; `now` is injectable for tests. */
export class SessionStore {
  /** The worker's unique cookie name: `docforge_<worker id>_<8 random hex>`. */
  readonly cookieName: string;
  readonly #pending = new Map<string, number>();
  readonly #used = new Map<string, true>();
  readonly #sessions = new Map<string, true>();
  readonly #now: () => number;

  constructor(workerId: string, now: () => number = Date.now) {
    this.cookieName = `docforge_${workerId.replace(/[^A-Za-z0-9]/g, '_')}_${randomBytes(4).toString('hex')}`;
    this.#now = now;
  }

  /** Mints a one-time token valid for {@link TOKEN_TTL_MS}. */
  issue(): IssuedToken {
    const token = randomValue();
    const expires = this.#now() + TOKEN_TTL_MS;
    bounded(this.#pending, MAX_PENDING_TOKENS);
    this.#pending.set(digest(token), expires);
    return { token, url_path: `/?token=${token}`, expires_at_ms: expires };
  }

  /** Trades a token once for a new session value; a used, expired or unknown token is refused. */
  trade(token: string): TradeResult {
    const key = digest(token);
    const expires = this.#pending.get(key);
    if (expires === undefined) return { ok: false, reason: this.#used.has(key) ? 'used' : 'unknown' };
    this.#pending.delete(key);
    bounded(this.#used, MAX_PENDING_TOKENS);
    this.#used.set(key, true);
    if (this.#now() > expires) return { ok: false, reason: 'expired' };
    const session = randomValue();
    bounded(this.#sessions, MAX_SESSIONS);
    this.#sessions.set(digest(session), true);
    return { ok: true, session };
  }

  /** Whether `value` is a live session of this worker. */
  valid(value: string): boolean {
    return this.#sessions.has(digest(value));
  }

  /** The `Set-Cookie` header value that stores a session. */
  setCookie(session: string): string {
    return `${this.cookieName}=${session}; Path=/; HttpOnly; SameSite=Strict`;
  }
}

/** Drops the oldest entries of an insertion-ordered map until one more fits under `max`. */
function bounded<V>(map: Map<string, V>, max: number): void {
  while (map.size >= max) {
    const oldest = map.keys().next();
    if (oldest.done === true) return;
    map.delete(oldest.value);
  }
}

/** The value of cookie `name` in a Cookie header, or null (first occurrence wins). */
export function cookieValue(header: string | undefined, name: string): string | null {
  if (header === undefined) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}
