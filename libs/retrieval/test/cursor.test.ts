// Pins version-1 cursors: canonical round trip, fail-closed decoding of every corruption, binding mismatches and stale generations.
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Buffer } from 'node:buffer';
import { DocforgeError, canonicalJson, domainHash, hashJson } from '@docforge/core';
import { CURSOR_DOMAIN, MAX_CURSOR_LENGTH, cursorOffset, decodeCursor, encodeCursor, paramsHash } from '../src/cursor.js';
import type { CursorBinding } from '../src/cursor.js';

/** SHA-256 hex by node:crypto: expectations never use the implementation's own hash. */
function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** RFC 8785 canonical JSON of plain JSON values (undefined members dropped), written independently of @docforge/core. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

const BINDING: CursorBinding = {
  op: 'docforge_get_context',
  project: 'fastify-docs',
  adapter: 'typescript@1.0.0+docforge@0.1.0',
  generation: 17,
  params: { node_id: 'code:lib/route.js#route', relations: ['calls', 'imports'], depth: 2, query: 'héllo wörld ✓' },
  collection: hashJson(['code:lib/route.js#route', 'code:lib/reply.js#Reply']),
};

function decodeJson(cursor: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Record<string, unknown>;
}

/** Re-encodes a cursor body with a correct checksum, as a forger (or a buggy client) could. */
function forge(body: Record<string, unknown>): string {
  const { sum: _sum, ...rest } = body;
  return Buffer.from(canonicalJson({ ...rest, sum: domainHash(CURSOR_DOMAIN, rest) }), 'utf8').toString('base64url');
}

function expectError(fn: () => unknown, code: string, reason?: string): DocforgeError {
  let caught: unknown;
  try {
    fn();
  } catch (error) {
    caught = error;
  }
  assert.ok(caught instanceof DocforgeError, `expected DocforgeError ${code}, got ${String(caught)}`);
  assert.equal(caught.code, code);
  if (reason !== undefined) assert.equal(caught.details.reason, reason);
  return caught;
}

test('round trip returns the exact position for offsets, strings and keyset objects', () => {
  for (const position of [0, 40, 'code:lib/reply.js#Reply', { after_id: 'doc:intro', offset: 3, done: false }]) {
    const cursor = encodeCursor(BINDING, position);
    assert.match(cursor, /^[A-Za-z0-9_-]+$/, 'unpadded base64url');
    assert.deepEqual(decodeCursor(cursor, BINDING), { position });
  }
});

test('a cursor is canonical JSON of the documented fields with a domain-separated checksum', () => {
  const cursor = encodeCursor(BINDING, 40);
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const body = decodeJson(cursor);
  assert.equal(text, canonical(body));
  assert.deepEqual(Object.keys(body).sort(), ['adapter', 'collection', 'generation', 'op', 'params', 'position', 'project', 'sum', 'v']);
  assert.equal(body.v, 1);
  assert.equal(body.params, paramsHash(BINDING.params));
  assert.ok(!text.includes('héllo'), 'parameters are bound by hash, not copied');
  const { sum, ...rest } = body;
  assert.equal(sum, sha256Hex(`docforge.cursor.v1\u0000${canonical(rest)}`));
  assert.equal(encodeCursor(BINDING, 40), cursor, 'deterministic');
});

test('paramsHash ignores key order but not values', () => {
  assert.equal(paramsHash({ a: 1, b: [1, 2] }), paramsHash({ b: [1, 2], a: 1 }));
  assert.notEqual(paramsHash({ a: 1, b: [1, 2] }), paramsHash({ a: 1, b: [2, 1] }));
  assert.notEqual(paramsHash({ a: 1 }), hashJson({ a: 1 }), 'domain-separated');
  assert.throws(() => paramsHash({ a: Number.NaN }), TypeError);
  assert.throws(() => paramsHash(new Date(0)), TypeError);
});

test('every replaced character of a real cursor fails with a structured invalid_cursor', () => {
  const cursor = encodeCursor(BINDING, { after_id: 'code:lib/route.js#route', offset: 12 });
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  let variants = 0;
  for (let i = 0; i < cursor.length; i += 1) {
    const original = cursor[i]!;
    const shifted = alphabet[(alphabet.indexOf(original) + 1 + (i % 63)) % 64]!;
    for (const replacement of [shifted, '=', '+', '/', '.']) {
      const broken = cursor.slice(0, i) + replacement + cursor.slice(i + 1);
      assert.notEqual(broken, cursor);
      expectError(() => decodeCursor(broken, BINDING), 'invalid_cursor');
      variants += 1;
    }
  }
  assert.equal(variants, cursor.length * 5);
});

test('every flipped bit of the decoded bytes fails with a structured invalid_cursor, never a silent success', () => {
  const cursor = encodeCursor(BINDING, 25);
  const bytes = Buffer.from(cursor, 'base64url');
  const reasons = new Set<unknown>();
  for (let i = 0; i < bytes.length; i += 1) {
    for (const mask of [0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80]) {
      const copy = Buffer.from(bytes);
      copy[i] = copy[i]! ^ mask;
      const error = expectError(() => decodeCursor(copy.toString('base64url'), BINDING), 'invalid_cursor');
      reasons.add(error.details.reason);
      assert.equal(error.remediation, 'restart_pagination');
    }
  }
  // Flips land in structure, in values (checksum) and in UTF-8 sequences.
  assert.ok(reasons.has('checksum_mismatch'));
  assert.ok(reasons.has('not_json'));
  assert.ok(reasons.has('not_canonical') || reasons.has('malformed_fields'));
});

test('truncated, padded, oversized and non-string cursors fail closed', () => {
  const cursor = encodeCursor(BINDING, 25);
  for (let length = 1; length < cursor.length; length += 7) {
    expectError(() => decodeCursor(cursor.slice(0, length), BINDING), 'invalid_cursor');
  }
  expectError(() => decodeCursor(`${cursor}==`, BINDING), 'invalid_cursor', 'not_base64url');
  expectError(() => decodeCursor('', BINDING), 'invalid_cursor', 'empty');
  expectError(() => decodeCursor('A'.repeat(MAX_CURSOR_LENGTH + 1), BINDING), 'invalid_cursor', 'too_long');
  expectError(() => decodeCursor(42 as unknown as string, BINDING), 'invalid_cursor', 'not_a_string');
  expectError(() => decodeCursor(null as unknown as string, BINDING), 'invalid_cursor', 'not_a_string');
});

test('structurally wrong cursors with a correct checksum still fail closed', () => {
  const body = decodeJson(encodeCursor(BINDING, 5));
  expectError(() => decodeCursor(forge({ ...body, v: 2 }), BINDING), 'invalid_cursor', 'unsupported_version');
  expectError(() => decodeCursor(forge({ ...body, extra: 1 }), BINDING), 'invalid_cursor', 'unexpected_fields');
  const { collection: _collection, ...missing } = body;
  expectError(() => decodeCursor(forge(missing), BINDING), 'invalid_cursor', 'missing_fields');
  expectError(() => decodeCursor(forge({ ...body, generation: '17' }), BINDING), 'invalid_cursor', 'malformed_fields');
  expectError(() => decodeCursor(forge({ ...body, position: -1 }), BINDING), 'invalid_cursor', 'malformed_fields');
  expectError(() => decodeCursor(forge({ ...body, position: [1] }), BINDING), 'invalid_cursor', 'malformed_fields');
  const pretty = Buffer.from(JSON.stringify(body, null, 1), 'utf8').toString('base64url');
  expectError(() => decodeCursor(pretty, BINDING), 'invalid_cursor', 'not_canonical');
  expectError(() => decodeCursor(Buffer.from('[1,2]').toString('base64url'), BINDING), 'invalid_cursor', 'not_an_object');
  expectError(() => decodeCursor(Buffer.from([0xff, 0xfe, 0x7b]).toString('base64url'), BINDING), 'invalid_cursor', 'not_utf8');
});

test('a valid cursor for another op, project, adapter or params is cursor_for_other_request', () => {
  const cursor = encodeCursor(BINDING, 10);
  const others: [string, CursorBinding][] = [
    ['op', { ...BINDING, op: 'docforge_get_task_context' }],
    ['project', { ...BINDING, project: 'other-project' }],
    ['adapter', { ...BINDING, adapter: 'typescript@1.0.1+docforge@0.1.0' }],
    ['params', { ...BINDING, params: { ...(BINDING.params as object), depth: 3 } }],
  ];
  for (const [field, binding] of others) {
    const error = expectError(() => decodeCursor(cursor, binding), 'invalid_cursor', 'cursor_for_other_request');
    assert.equal(error.details.field, field);
  }
  // Another request wins over staleness: the cursor never belonged to this pagination.
  expectError(() => decodeCursor(cursor, { ...BINDING, op: 'docforge_search', generation: 18 }), 'invalid_cursor', 'cursor_for_other_request');
  // Parameter key order is irrelevant.
  const reordered = { ...BINDING, params: { query: 'héllo wörld ✓', depth: 2, relations: ['calls', 'imports'], node_id: 'code:lib/route.js#route' } };
  assert.deepEqual(decodeCursor(cursor, reordered), { position: 10 });
});

test('a changed generation or collection is stale_cursor with restart_pagination', () => {
  const cursor = encodeCursor(BINDING, 10);
  const stale = expectError(() => decodeCursor(cursor, { ...BINDING, generation: 18 }), 'stale_cursor', 'generation_changed');
  assert.equal(stale.remediation, 'restart_pagination');
  assert.equal(stale.details.expected_generation, 18);
  assert.equal(stale.details.cursor_generation, 17);
  assert.deepEqual(stale.toWire().remediation, 'restart_pagination');
  const older = expectError(() => decodeCursor(cursor, { ...BINDING, generation: 3 }), 'stale_cursor');
  assert.equal(older.details.cursor_generation, 17);
  const collection = expectError(() => decodeCursor(cursor, { ...BINDING, collection: hashJson(['other']) }), 'stale_cursor', 'collection_changed');
  assert.equal(collection.remediation, 'restart_pagination');
  assert.equal(collection.details.expected_generation, 17);
});

test('encoding rejects malformed bindings and positions, and cursors too long to decode', () => {
  assert.throws(() => encodeCursor({ ...BINDING, generation: -1 }, 0), TypeError);
  assert.throws(() => encodeCursor({ ...BINDING, generation: 1.5 }, 0), TypeError);
  assert.throws(() => encodeCursor({ ...BINDING, op: '' }, 0), TypeError);
  assert.throws(() => encodeCursor({ ...BINDING, params: { when: new Date(0) } }, 0), TypeError);
  assert.throws(() => encodeCursor(BINDING, -5), TypeError);
  assert.throws(() => encodeCursor(BINDING, Number.POSITIVE_INFINITY), TypeError);
  assert.throws(() => encodeCursor(BINDING, [1, 2] as unknown as number), TypeError);
  assert.throws(() => encodeCursor(BINDING, 'x'.repeat(MAX_CURSOR_LENGTH)), RangeError);
  // Large parameters are bound by hash, so they never bloat the cursor.
  const big = encodeCursor({ ...BINDING, params: { query: 'q'.repeat(10_000) } }, 0);
  assert.ok(big.length < 1024);
});

test('cursorOffset accepts only offsets inside the collection', () => {
  assert.equal(cursorOffset(0, 10), 0);
  assert.equal(cursorOffset(10, 10), 10);
  expectError(() => cursorOffset(11, 10), 'invalid_cursor', 'position_out_of_range');
  expectError(() => cursorOffset('code:x', 10), 'invalid_cursor', 'position_out_of_range');
  expectError(() => cursorOffset({ offset: 1 }, 10), 'invalid_cursor', 'position_out_of_range');
});
