/**
 * Page cursors of the changeset reads (contract: list, inspection, validation and diff accept
 * `limit` and `cursor`): base64url of canonical JSON `{v: 1, op, binding, position, sum}`, where
 * `binding` pins what the pages belong to (for one changeset: its id and exact hash, so pages keep
 * the exact hash and operation order) and `sum` is a SHA-256 over a domain string and the rest.
 */
import { canonicalJson, domainHash, errors } from '@docforge/core';

const DOMAIN = 'docforge.changeset-cursor.v1';

interface CursorBody {
  v: 1;
  op: string;
  binding: string;
  position: number;
  /** A second coordinate (the chunk of an individually oversized diff entry); absent when 0. */
  sub?: number;
}

/** Encodes a cursor for `op` bound to `binding`, continuing at `position`. */
export function encodeCursor(op: string, binding: string, position: number, sub = 0): string {
  const body: CursorBody = sub === 0 ? { v: 1, op, binding, position } : { v: 1, op, binding, position, sub };
  return Buffer.from(canonicalJson({ ...body, sum: domainHash(DOMAIN, body) }), 'utf8').toString('base64url');
}

/**
 * Decodes a cursor of `op` and returns its position (0 without a cursor).
 * @throws DocforgeError `invalid_cursor` for a malformed or tampered cursor; `stale_cursor` when it
 *   belongs to another tool or binding (e.g. the changeset hash changed since the first page)
 */
export function decodeCursor(cursor: string | undefined, op: string, binding: string): number {
  return decodeCursorAt(cursor, op, binding).position;
}

/**
 * Like {@link decodeCursor}, also returning the second coordinate `sub` (0 when absent).
 * @throws DocforgeError `invalid_cursor` or `stale_cursor` as {@link decodeCursor}
 */
export function decodeCursorAt(cursor: string | undefined, op: string, binding: string): { position: number; sub: number } {
  if (cursor === undefined) return { position: 0, sub: 0 };
  let parsed: CursorBody & { sum?: unknown };
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as CursorBody & { sum?: unknown };
  } catch {
    throw errors.invalidCursor('malformed', 'The cursor is not a DocForge changeset cursor.');
  }
  const { sum, ...body } = parsed;
  if (typeof body !== 'object' || body === null || body.v !== 1 || typeof body.position !== 'number' || !Number.isInteger(body.position) || body.position < 0 || (body.sub !== undefined && (typeof body.sub !== 'number' || !Number.isInteger(body.sub) || body.sub < 1)) || sum !== domainHash(DOMAIN, body)) {
    throw errors.invalidCursor('checksum_mismatch', 'The cursor is malformed or was altered.');
  }
  if (body.op !== op || body.binding !== binding) {
    throw errors.staleCursor('The cursor belongs to another request or to an earlier version of the changeset; restart at the first page.', { reason: 'binding_changed' });
  }
  return { position: body.position, sub: body.sub ?? 0 };
}
