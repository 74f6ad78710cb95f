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
}

/** Encodes a cursor for `op` bound to `binding`, continuing at `position`. */
export function encodeCursor(op: string, binding: string, position: number): string {
  const body: CursorBody = { v: 1, op, binding, position };
  return Buffer.from(canonicalJson({ ...body, sum: domainHash(DOMAIN, body) }), 'utf8').toString('base64url');
}

/**
 * Decodes a cursor of `op` and returns its position (0 without a cursor).
 * @throws DocforgeError `invalid_cursor` for a malformed or tampered cursor; `stale_cursor` when it
 *   belongs to another tool or binding (e.g. the changeset hash changed since the first page)
 */
export function decodeCursor(cursor: string | undefined, op: string, binding: string): number {
  if (cursor === undefined) return 0;
  let parsed: CursorBody & { sum?: unknown };
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as CursorBody & { sum?: unknown };
  } catch {
    throw errors.invalidCursor('malformed', 'The cursor is not a DocForge changeset cursor.');
  }
  const { sum, ...body } = parsed;
  if (typeof body !== 'object' || body === null || body.v !== 1 || typeof body.position !== 'number' || !Number.isInteger(body.position) || body.position < 0 || sum !== domainHash(DOMAIN, body)) {
    throw errors.invalidCursor('checksum_mismatch', 'The cursor is malformed or was altered.');
  }
  if (body.op !== op || body.binding !== binding) {
    throw errors.staleCursor('The cursor belongs to another request or to an earlier version of the changeset; restart at the first page.', { reason: 'binding_changed' });
  }
  return body.position;
}
