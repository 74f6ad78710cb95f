/**
 * The one decoder of cursor text (contract: "Version-1 cursors are canonical JSON encoded as
 * base64url"; DESIGN.md section 5), shared by the read tools' cursors (libs/retrieval) and the
 * changeset reads' cursors (libs/changesets) so both refuse the same malformed input the same way.
 * It checks the outer form only: unpadded canonical base64url, fatal UTF-8, a JSON object in its
 * canonical (RFC 8785) form. Fields, checksum and binding are each cursor kind's own.
 */
import { Buffer } from 'node:buffer';
import { errors } from './errors.js';
import { canonicalJson } from './hash.js';

/** Why {@link decodeCursorText} refused a cursor (`details.reason` of `invalid_cursor`). */
export type CursorTextReason = 'not_a_string' | 'empty' | 'too_long' | 'not_base64url' | 'not_utf8' | 'not_json' | 'not_an_object' | 'not_canonical';

const BASE64URL = /^[A-Za-z0-9_-]+$/;

/**
 * Decodes cursor text to its JSON object, failing closed.
 * @param cursor the value a caller passed as `cursor`
 * @param maxLength longest accepted cursor, in characters (checked before decoding)
 * @returns the decoded object (a fresh value; its fields are unchecked)
 * @throws DocforgeError `invalid_cursor` with `details.reason` ({@link CursorTextReason}) for a
 *   non-string, empty or over-long value, text that is not the one canonical unpadded base64url
 *   spelling of its bytes, bytes that are not UTF-8, text that is not JSON, JSON that is not an
 *   object (null, a number, a string, an array), or JSON that is not canonical
 */
export function decodeCursorText(cursor: unknown, maxLength: number): Record<string, unknown> {
  if (typeof cursor !== 'string') throw errors.invalidCursor('not_a_string', 'The cursor must be a string.');
  if (cursor.length === 0) throw errors.invalidCursor('empty', 'The cursor is empty.');
  if (cursor.length > maxLength) throw errors.invalidCursor('too_long', `The cursor exceeds ${maxLength} characters.`);
  if (!BASE64URL.test(cursor)) throw errors.invalidCursor('not_base64url', 'The cursor is not unpadded base64url text.');
  const bytes = Buffer.from(cursor, 'base64url');
  // Node decodes leniently (unused trailing bits, a dangling character); only the one canonical spelling of these bytes is accepted.
  if (bytes.toString('base64url') !== cursor) throw errors.invalidCursor('not_base64url', 'The cursor is not canonical base64url text.');
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw errors.invalidCursor('not_utf8', 'The cursor does not decode to UTF-8 text.');
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw errors.invalidCursor('not_json', 'The cursor does not decode to JSON.');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw errors.invalidCursor('not_an_object', 'The cursor does not decode to a JSON object.');
  let canonical: string | undefined;
  try {
    canonical = canonicalJson(value);
  } catch {
    // Out-of-range numbers parse to Infinity, which has no canonical form.
    canonical = undefined;
  }
  if (canonical !== text) throw errors.invalidCursor('not_canonical', 'The cursor JSON is not canonical.');
  return value as Record<string, unknown>;
}
