// Pins the changeset read cursors: they round-trip; anything that is not the canonical base64url of a canonical JSON object of exactly their fields with a matching checksum is invalid_cursor (JSON null, numbers, arrays, strings, nested nulls included, never an internal error); a cursor of another tool or request is invalid_cursor cursor_for_other_request; one of an earlier version of the same request is stale_cursor.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { canonicalJson, DocforgeError, domainHash } from '@docforge/core';
import { decodeCursor, decodeCursorAt, encodeCursor } from '../src/index.js';

const OP = 'docforge_get_changeset';
const BINDING = { request: 'cs-1', version: 'a'.repeat(64) };
const b64 = (text: string): string => Buffer.from(text, 'utf8').toString('base64url');

function fails(cursor: string, code: string, reason?: string, binding = BINDING, op = OP): DocforgeError {
  let caught: unknown;
  try {
    decodeCursor(cursor, op, binding);
  } catch (error) {
    caught = error;
  }
  assert.ok(caught instanceof DocforgeError, `${cursor}: ${String(caught)}`);
  assert.equal(caught.code, code, `${cursor}: ${caught.message}`);
  if (reason !== undefined) assert.equal(caught.details['reason'], reason, cursor);
  return caught;
}

test('cursors round-trip their position and chunk', () => {
  assert.equal(decodeCursor(undefined, OP, BINDING), 0);
  assert.equal(decodeCursor(encodeCursor(OP, BINDING, 7), OP, BINDING), 7);
  assert.deepEqual(decodeCursorAt(encodeCursor(OP, BINDING, 3, 2), OP, BINDING), { position: 3, sub: 2 });
});

test('values that are not a changeset cursor are invalid_cursor with a reason, whatever JSON they decode to', () => {
  for (const [text, reason] of [
    ['null', 'not_an_object'], ['0', 'not_an_object'], ['-1', 'not_an_object'], ['"x"', 'not_an_object'], ['[]', 'not_an_object'], ['[null]', 'not_an_object'], ['true', 'not_an_object'],
    ['nul', 'not_json'], ['{ }', 'not_canonical'], ['{}', 'unsupported_version'], ['{"v":null}', 'unsupported_version'], ['{"v":1}', 'missing_fields'],
    ['{"binding":null,"op":null,"position":null,"sum":null,"v":1}', 'unexpected_fields'],
    ['{"op":null,"position":null,"request":null,"sum":null,"v":1,"version":null}', 'malformed_fields'],
    ['{"op":"x","position":-1,"request":"r","sum":"s","v":1,"version":"v"}', 'malformed_fields'],
    ['{"op":"x","position":1,"request":"r","sub":0,"sum":"s","v":1,"version":"v"}', 'malformed_fields'],
    ['{"op":"x","position":1,"request":"r","sum":"s","v":1,"version":"v"}', 'checksum_mismatch'],
  ] as const) fails(b64(text), 'invalid_cursor', reason);
  for (const text of ['!!', 'ab=', 'ab cd']) fails(text, 'invalid_cursor', 'not_base64url');
  fails(Buffer.from([0xff, 0xfe]).toString('base64url'), 'invalid_cursor', 'not_utf8');
  fails('x'.repeat(5000), 'invalid_cursor', 'too_long');
});

test('a non-canonical base64url spelling of a valid cursor is refused like the read tools refuse it', () => {
  const cursor = encodeCursor(OP, BINDING, 1);
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  const respelled = cursor.length % 4 === 0 ? `${cursor}A` : cursor.slice(0, -1) + alphabet[alphabet.indexOf(cursor.at(-1)!) ^ 1];
  assert.deepEqual(Buffer.from(respelled, 'base64url'), Buffer.from(cursor, 'base64url'), 'the same bytes');
  fails(respelled, 'invalid_cursor', 'not_base64url');
});

test('another tool or request is invalid_cursor (cursor_for_other_request); another version of the same request is stale_cursor', () => {
  const cursor = encodeCursor(OP, BINDING, 1);
  assert.equal(fails(cursor, 'invalid_cursor', 'cursor_for_other_request', BINDING, 'docforge_list_changesets').details['field'], 'op');
  assert.equal(fails(cursor, 'invalid_cursor', 'cursor_for_other_request', { ...BINDING, request: 'cs-2' }).details['field'], 'request');
  assert.equal(fails(cursor, 'stale_cursor', 'changeset_changed', { ...BINDING, version: 'b'.repeat(64) }).remediation, 'restart_pagination');
  // A well-formed cursor with a valid checksum but an extra field is still refused.
  const body = { v: 1, op: OP, request: BINDING.request, version: BINDING.version, position: 1, extra: null };
  fails(b64(canonicalJson({ ...body, sum: domainHash('docforge.changeset-cursor.v1', body) })), 'invalid_cursor', 'unexpected_fields');
});
