/**
 * Version-1 pagination cursors (contract: MCP boundary, "Version-1 cursors ..." paragraph;
 * DESIGN.md section 5 "Cursors"). A cursor is the base64url (no padding) of the canonical JSON
 * `{v:1, op, project, adapter, generation, params, collection, position, sum}`, where `params` is
 * the {@link paramsHash} of the operation parameters and `sum` is a domain-separated SHA-256
 * corruption checksum over everything else.
 *
 * Cursors are opaque and fail closed, but they are NOT authenticated authorization tokens: anyone
 * can mint a cursor with a valid checksum. The checksum catches corruption and truncation; the
 * binding check catches cursors from another request; callers must still bounds-check the decoded
 * position (see {@link cursorOffset}).
 */
import { Buffer } from 'node:buffer';
import { errors, canonicalJson, decodeCursorText, domainHash, type DocforgeError } from '@docforge/core';

/** Domain string of the cursor checksum. */
export const CURSOR_DOMAIN = 'docforge.cursor.v1';
/** Domain string of {@link paramsHash}. */
export const CURSOR_PARAMS_DOMAIN = 'docforge.cursor.params.v1';
/** Longest accepted cursor, in characters; longer input is rejected before decoding. */
export const MAX_CURSOR_LENGTH = 8192;

/** What a cursor is bound to: the request it continues and the exact collection it pages through. */
export interface CursorBinding {
  /** Operation (tool) name, e.g. `docforge_get_context`. */
  op: string;
  /** Bound project identity. */
  project: string;
  /** Adapter version string. */
  adapter: string;
  /** Source/index generation number (non-negative safe integer). */
  generation: number;
  /** Operation parameters other than `cursor` and `limit` (any JSON value); only its hash is stored. */
  params: unknown;
  /** Hash identifying the complete ordered collection being paged. */
  collection: string;
}

/**
 * A position inside the collection: a non-negative integer offset, a string key, or a JSON object
 * (e.g. a keyset `{ after_id, offset }`).
 */
export type CursorPosition = number | string | { [key: string]: unknown };

/** The part of a verified cursor a caller resumes from. */
export interface DecodedCursor {
  position: CursorPosition;
}

/** Why a cursor was rejected as `invalid_cursor` (`details.reason`). */
export type InvalidCursorReason =
  | 'not_a_string'
  | 'empty'
  | 'too_long'
  | 'not_base64url'
  | 'not_utf8'
  | 'not_json'
  | 'not_an_object'
  | 'not_canonical'
  | 'unsupported_version'
  | 'missing_fields'
  | 'unexpected_fields'
  | 'malformed_fields'
  | 'checksum_mismatch'
  | 'cursor_for_other_request'
  | 'position_out_of_range';

const FIELDS = ['v', 'op', 'project', 'adapter', 'generation', 'params', 'collection', 'position', 'sum'] as const;
const FIELD_SET: ReadonlySet<string> = new Set(FIELDS);
const HEX64 = /^[0-9a-f]{64}$/;
const MAX_JSON_DEPTH = 32;

interface CursorBody {
  v: 1;
  op: string;
  project: string;
  adapter: string;
  generation: number;
  params: string;
  collection: string;
  position: CursorPosition;
}

function invalid(reason: InvalidCursorReason, message: string, extra: Record<string, unknown> = {}): DocforgeError {
  return errors.invalidCursor(reason, message, extra);
}

/** Whether a value is plain JSON: null, booleans, finite numbers, strings, arrays and plain objects. */
function isJsonValue(value: unknown, depth = 0): boolean {
  if (depth > MAX_JSON_DEPTH) return false;
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (Array.isArray(value)) return value.every((item) => isJsonValue(item, depth + 1));
  if (typeof value === 'object') {
    const proto = Object.getPrototypeOf(value) as unknown;
    if (proto !== Object.prototype && proto !== null) return false;
    return Object.values(value).every((item) => isJsonValue(item, depth + 1));
  }
  return false;
}

function isPosition(value: unknown): value is CursorPosition {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0;
  if (typeof value === 'string') return true;
  return value !== null && typeof value === 'object' && !Array.isArray(value) && isJsonValue(value);
}

function isGeneration(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

function checkBinding(binding: CursorBinding, role: string): void {
  if (binding === null || typeof binding !== 'object') throw new TypeError(`${role} cursor binding must be an object`);
  for (const key of ['op', 'project', 'adapter', 'collection'] as const) {
    if (typeof binding[key] !== 'string' || binding[key] === '') throw new TypeError(`${role} cursor binding ${key} must be a nonempty string`);
  }
  if (!isGeneration(binding.generation)) throw new TypeError(`${role} cursor binding generation must be a non-negative safe integer`);
  if (!isJsonValue(binding.params)) throw new TypeError(`${role} cursor binding params must be a JSON value`);
}

/**
 * SHA-256 hex of the operation parameters' canonical JSON, domain-separated with
 * {@link CURSOR_PARAMS_DOMAIN}. Parameter object key order does not matter.
 * @throws TypeError when `params` is not a plain JSON value
 */
export function paramsHash(params: unknown): string {
  if (!isJsonValue(params)) throw new TypeError('cursor params must be a JSON value');
  return domainHash(CURSOR_PARAMS_DOMAIN, params);
}

/**
 * Encodes a version-1 cursor.
 * @param binding the request and collection the cursor continues
 * @param position where the next page starts; a number must be a non-negative safe integer
 * @returns base64url text without padding, at most {@link MAX_CURSOR_LENGTH} characters
 * @throws TypeError for a malformed binding or position; RangeError when the cursor would exceed
 *   {@link MAX_CURSOR_LENGTH} (it could then never be decoded)
 */
export function encodeCursor(binding: CursorBinding, position: CursorPosition): string {
  checkBinding(binding, 'encoded');
  if (!isPosition(position)) throw new TypeError('cursor position must be a non-negative safe integer, a string or a JSON object');
  const body: CursorBody = {
    v: 1,
    op: binding.op,
    project: binding.project,
    adapter: binding.adapter,
    generation: binding.generation,
    params: paramsHash(binding.params),
    collection: binding.collection,
    position,
  };
  const cursor = Buffer.from(canonicalJson({ ...body, sum: domainHash(CURSOR_DOMAIN, body) }), 'utf8').toString('base64url');
  if (cursor.length > MAX_CURSOR_LENGTH) throw new RangeError(`cursor would be ${cursor.length} characters, above ${MAX_CURSOR_LENGTH}`);
  return cursor;
}

/** Parses and verifies the structure and checksum of a cursor, independent of any binding. */
function parseCursor(cursor: unknown): CursorBody {
  // The outer form (canonical base64url, UTF-8, a canonical JSON object) is checked by the one decoder the changeset cursors share.
  const record = decodeCursorText(cursor, MAX_CURSOR_LENGTH);
  if (!Object.prototype.hasOwnProperty.call(record, 'v') || record.v !== 1) {
    throw invalid('unsupported_version', 'The cursor version is not 1.');
  }
  const keys = Object.keys(record);
  if (keys.some((key) => !FIELD_SET.has(key))) throw invalid('unexpected_fields', 'The cursor has fields outside version 1.');
  if (keys.length !== FIELDS.length) throw invalid('missing_fields', 'The cursor lacks version-1 fields.');
  const { op, project, adapter, generation, params, collection, position, sum } = record;
  if (
    typeof op !== 'string' ||
    typeof project !== 'string' ||
    typeof adapter !== 'string' ||
    typeof collection !== 'string' ||
    !isGeneration(generation) ||
    typeof params !== 'string' ||
    !HEX64.test(params) ||
    typeof sum !== 'string' ||
    !HEX64.test(sum) ||
    !isPosition(position)
  ) {
    throw invalid('malformed_fields', 'The cursor fields have the wrong types.');
  }
  const body: CursorBody = { v: 1, op, project, adapter, generation, params, collection, position };
  if (domainHash(CURSOR_DOMAIN, body) !== sum) throw invalid('checksum_mismatch', 'The cursor checksum does not match; it is corrupted.');
  return body;
}

/**
 * Decodes and verifies a cursor against the binding of the current request, failing closed.
 * Order: structure and checksum, then request identity, then freshness.
 * @returns the position to resume from (a fresh value; bounds-check it before use)
 * @throws DocforgeError `invalid_cursor` with `details.reason` ({@link InvalidCursorReason}) for a
 *   non-string, empty, over-long, non-base64url, non-UTF-8, non-JSON, non-canonical, wrong-version,
 *   incomplete, malformed or checksum-failing cursor, and with reason `cursor_for_other_request`
 *   (plus `details.field`) when op, project, adapter or params differ
 * @throws DocforgeError `stale_cursor` (remediation `restart_pagination`) with details
 *   `{ reason: 'generation_changed' | 'collection_changed', expected_generation, cursor_generation }`
 *   when the generation or collection hash changed; pagination never silently restarts
 * @throws TypeError when `expected` itself is malformed (a programming error)
 */
export function decodeCursor(cursor: string, expected: CursorBinding): DecodedCursor {
  checkBinding(expected, 'expected');
  const body = parseCursor(cursor);
  const mismatched = (['op', 'project', 'adapter'] as const).find((key) => body[key] !== expected[key]) ??
    (body.params !== paramsHash(expected.params) ? 'params' : undefined);
  if (mismatched !== undefined) {
    throw invalid('cursor_for_other_request', `The cursor belongs to another request (different ${mismatched}).`, { field: mismatched });
  }
  if (body.generation !== expected.generation || body.collection !== expected.collection) {
    const reason = body.generation !== expected.generation ? 'generation_changed' : 'collection_changed';
    throw errors.staleCursor(
      reason === 'generation_changed'
        ? `The cursor belongs to generation ${body.generation}, but the index is at generation ${expected.generation}; restart pagination.`
        : 'The cursor belongs to a different result collection; restart pagination.',
      { reason, expected_generation: expected.generation, cursor_generation: body.generation },
    );
  }
  return { position: body.position };
}

/**
 * Checks that a decoded position is an integer offset within `[0, total]`. Cursors are checksummed,
 * not authenticated, so a caller must never index with an unchecked position.
 * @returns the offset
 * @throws DocforgeError `invalid_cursor` with reason `position_out_of_range`
 */
export function cursorOffset(position: CursorPosition, total: number): number {
  if (typeof position !== 'number' || !Number.isSafeInteger(position) || position < 0 || position > total) {
    throw invalid('position_out_of_range', 'The cursor position is outside the collection.');
  }
  return position;
}
