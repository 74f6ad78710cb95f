import { createHash } from 'node:crypto';
import canonicalizeModule from 'canonicalize';

const canonicalizeFn = canonicalizeModule as unknown as (value: unknown) => string | undefined;

/** SHA-256 hex digest of a string (UTF-8) or bytes. */
export function sha256(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/**
 * RFC 8785 canonical JSON of a JSON value (via the `canonicalize` package).
 * @throws TypeError when the value has no JSON representation (undefined, functions, cycles).
 */
export function canonicalJson(value: unknown): string {
  const text = canonicalizeFn(value);
  if (text === undefined) throw new TypeError('value has no canonical JSON representation');
  return text;
}

/** SHA-256 hex of the canonical JSON of a value. */
export function hashJson(value: unknown): string {
  return sha256(canonicalJson(value));
}

/** SHA-256 hex over a domain string, a NUL separator and the canonical JSON of a value. */
export function domainHash(domain: string, value: unknown): string {
  return sha256(`${domain}\u0000${canonicalJson(value)}`);
}
