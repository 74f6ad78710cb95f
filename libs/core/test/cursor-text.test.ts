// Pins the shared cursor-text decoder: only the canonical unpadded base64url of UTF-8 canonical JSON holding an object is returned; everything else (JSON null, numbers, strings, arrays, lenient spellings) is invalid_cursor with a reason, never a TypeError.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DocforgeError, decodeCursorText } from '../src/index.js';

const b64 = (text: string): string => Buffer.from(text, 'utf8').toString('base64url');

function reason(cursor: unknown): string {
  try {
    decodeCursorText(cursor, 100);
  } catch (error) {
    assert.ok(error instanceof DocforgeError);
    assert.equal(error.code, 'invalid_cursor');
    return String(error.details['reason']);
  }
  return 'accepted';
}

test('decodeCursorText returns the object of a canonical cursor and refuses everything else with a reason', () => {
  assert.deepEqual(decodeCursorText(b64('{"a":[null,1],"b":"x"}'), 100), { a: [null, 1], b: 'x' });
  assert.equal(reason(7), 'not_a_string');
  assert.equal(reason(''), 'empty');
  assert.equal(reason('A'.repeat(101)), 'too_long');
  assert.equal(reason('e30='), 'not_base64url');
  assert.equal(reason('e31'), 'not_base64url', 'unused bits set: the same bytes as e30');
  assert.equal(reason(Buffer.from([0xc3]).toString('base64url')), 'not_utf8');
  for (const text of ['null', '1', '"s"', '[]', 'true']) assert.equal(reason(b64(text)), 'not_an_object', text);
  assert.equal(reason(b64('{"b":1,"a":2}')), 'not_canonical');
  assert.equal(reason(b64('{"a":1e999}')), 'not_canonical');
  assert.equal(reason(b64('nope')), 'not_json');
});
