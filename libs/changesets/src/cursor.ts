/**
 * Page cursors of the changeset reads (contract: list, inspection, validation and diff accept
 * `limit` and `cursor`): base64url of canonical JSON `{v: 1, op, request, version, position, sum}`.
 * `op` is the tool, `request` what the pages are of (one changeset's id, or the listed statuses),
 * `version` the state they were cut from (the changeset's exact hash, and for validation and diff
 * the project base), so pages keep the exact hash and operation order; `sum` is a SHA-256 over a
 * domain string and the rest. The outer form is decoded by the one decoder the read tools' cursors
 * use (`decodeCursorText` of @docforge/core), and refusals follow theirs: a cursor of another tool
 * or request is `invalid_cursor` (`cursor_for_other_request`), one of an earlier version of the
 * same request is `stale_cursor`.
 */
import { canonicalJson, decodeCursorText, domainHash, errors } from '@docforge/core';

const DOMAIN = 'docforge.changeset-cursor.v1';

/** Longest accepted changeset cursor, in characters (the tools' input schemas allow 4096). */
export const MAX_CHANGESET_CURSOR_LENGTH = 4096;

/** What a changeset cursor continues. */
export interface ChangesetCursorBinding {
  /** What is paged: a changeset id, or the listing's statuses; another value is another request. */
  request: string;
  /** The state the pages were cut from (exact changeset hash, base); another value makes the cursor stale. */
  version: string;
}

interface CursorBody {
  v: 1;
  op: string;
  request: string;
  version: string;
  position: number;
  /** A second coordinate (the chunk of an individually oversized diff entry); absent when 0. */
  sub?: number;
}

const REQUIRED = ['op', 'position', 'request', 'sum', 'v', 'version'];

/** Encodes a cursor for `op` bound to `binding`, continuing at `position` (and chunk `sub`). */
export function encodeCursor(op: string, binding: ChangesetCursorBinding, position: number, sub = 0): string {
  const base = { v: 1 as const, op, request: binding.request, version: binding.version, position };
  const body: CursorBody = sub === 0 ? base : { ...base, sub };
  return Buffer.from(canonicalJson({ ...body, sum: domainHash(DOMAIN, body) }), 'utf8').toString('base64url');
}

/**
 * The length in characters of the longest cursor {@link encodeCursor} can make for `op` and
 * `binding` at a position up to `maxPosition` and a chunk up to `maxSub` (issue 30, item 9): a
 * page's budget reserves exactly this room for its real `next_cursor` (about 400 characters for a
 * changeset id and hash), so a page never exceeds the limit once its cursor is set.
 */
export function longestCursorLength(op: string, binding: ChangesetCursorBinding, maxPosition: number, maxSub = 0): number {
  // base64url of canonical JSON: the length grows with the digits of position and sub only.
  return encodeCursor(op, binding, Math.max(0, maxPosition), Math.max(0, maxSub)).length;
}

/**
 * Decodes a cursor of `op` and returns its position (0 without a cursor).
 * @throws DocforgeError `invalid_cursor` (`details.reason`: a `decodeCursorText` reason,
 *   `unsupported_version`, `missing_fields`, `unexpected_fields`, `malformed_fields`,
 *   `checksum_mismatch`, or `cursor_for_other_request` with `details.field` `op` or `request`);
 *   `stale_cursor` (`details.reason = "changeset_changed"`) for a cursor of the same request cut
 *   from another version (e.g. the changeset hash changed since the first page)
 */
export function decodeCursor(cursor: string | undefined, op: string, binding: ChangesetCursorBinding): number {
  return decodeCursorAt(cursor, op, binding).position;
}

function isCount(value: unknown, min: number): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= min;
}

/**
 * Like {@link decodeCursor}, also returning the second coordinate `sub` (0 when absent).
 * @throws DocforgeError `invalid_cursor` or `stale_cursor` as {@link decodeCursor}
 */
export function decodeCursorAt(cursor: string | undefined, op: string, binding: ChangesetCursorBinding): { position: number; sub: number } {
  if (cursor === undefined) return { position: 0, sub: 0 };
  const record = decodeCursorText(cursor, MAX_CHANGESET_CURSOR_LENGTH);
  if (record.v !== 1) throw errors.invalidCursor('unsupported_version', 'The cursor is not a version-1 DocForge changeset cursor.');
  const keys = Object.keys(record);
  if (keys.some((key) => !REQUIRED.includes(key) && key !== 'sub')) throw errors.invalidCursor('unexpected_fields', 'The cursor has fields a changeset cursor does not have.');
  if (REQUIRED.some((key) => !keys.includes(key))) throw errors.invalidCursor('missing_fields', 'The cursor lacks fields of a changeset cursor.');
  const { sum, ...rest } = record;
  const { op: cursorOp, request, version, position, sub } = rest;
  if (typeof cursorOp !== 'string' || typeof request !== 'string' || typeof version !== 'string' || typeof sum !== 'string' || !isCount(position, 0) || (sub !== undefined && !isCount(sub, 1))) {
    throw errors.invalidCursor('malformed_fields', 'The cursor fields have the wrong types.');
  }
  if (sum !== domainHash(DOMAIN, rest)) throw errors.invalidCursor('checksum_mismatch', 'The cursor checksum does not match; it is corrupted.');
  const other = cursorOp !== op ? 'op' : request !== binding.request ? 'request' : null;
  if (other !== null) {
    throw errors.invalidCursor('cursor_for_other_request', `The cursor belongs to another request (different ${other === 'op' ? 'tool' : op === 'docforge_list_changesets' ? 'statuses' : 'changeset'}).`, { field: other });
  }
  if (version !== binding.version) {
    throw errors.staleCursor('The cursor belongs to an earlier version of the changeset or project base; restart at the first page.', { reason: 'changeset_changed' });
  }
  return { position, sub: (sub as number | undefined) ?? 0 };
}
