/**
 * Idempotency records for API requests (REQ-PAY-002, ADR-002).
 *
 * Keys are scoped per merchant: two merchants may use the same key. A record stores the
 * fingerprint of the original request and its result for 24 hours. A replay with the same
 * fingerprint gets the stored result; a replay with a different body is rejected.
 */
import { createHash } from 'node:crypto';
import { ValidationError } from '../shared/errors';

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

interface IdempotencyRecord<T> {
  fingerprint: string;
  result: T;
  storedAt: number;
}

/** JSON with object keys sorted at every depth, so property order does not matter. */
function stableStringify(value: unknown): string {
  if (Array.isArray(value)) {
    return `[${value.map(stableStringify).join(',')}]`;
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${stableStringify(item)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** Stable SHA-256 fingerprint of a request body. */
export function fingerprint(body: Record<string, unknown>): string {
  return createHash('sha256').update(stableStringify(body)).digest('hex');
}

export class IdempotencyStore<T> {
  private readonly records = new Map<string, IdempotencyRecord<T>>();

  constructor(private readonly now: () => number = Date.now) {}

  /**
   * The stored result for `(merchantId, key)`, or undefined when there is none or it expired.
   * Throws `ValidationError` when the key was used with a different request body.
   */
  get(merchantId: string, key: string, requestFingerprint: string): T | undefined {
    const record = this.records.get(`${merchantId}\u0000${key}`);
    if (record === undefined || this.now() - record.storedAt > IDEMPOTENCY_TTL_MS) {
      return undefined;
    }
    if (record.fingerprint !== requestFingerprint) {
      throw new ValidationError(`idempotency key ${key} was already used with a different request`);
    }
    return record.result;
  }

  put(merchantId: string, key: string, requestFingerprint: string, result: T): void {
    this.records.set(`${merchantId}\u0000${key}`, { fingerprint: requestFingerprint, result, storedAt: this.now() });
  }

  /** Drop expired records; returns how many were removed. */
  prune(): number {
    let removed = 0;
    for (const [id, record] of this.records) {
      if (this.now() - record.storedAt > IDEMPOTENCY_TTL_MS) {
        this.records.delete(id);
        removed += 1;
      }
    }
    return removed;
  }
}
