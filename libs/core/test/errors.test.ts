// Pins the error registry against docs/errors.md in both directions, and the wire shape of DocforgeError.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DocforgeError, ERROR_CODES, toDocforgeError } from '../src/index.js';

const docs = readFileSync(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../docs/errors.md'), 'utf8');

test('every registered code is documented with its remediation, and every documented code is registered', () => {
  const documented = new Map<string, string>();
  for (const match of docs.matchAll(/^\| `([a-z_]+)` \| `([a-z_]+)` \|/gm)) documented.set(match[1]!, match[2]!);
  assert.deepEqual([...documented.keys()].sort(), Object.keys(ERROR_CODES).sort());
  for (const [code, spec] of Object.entries(ERROR_CODES)) assert.equal(documented.get(code), spec.remediation, code);
});

test('DocforgeError carries code, registry remediation and details on the wire', () => {
  const error = new DocforgeError('stale_cursor', undefined, { expected_generation: 3 });
  assert.deepEqual(error.toWire(), { code: 'stale_cursor', message: ERROR_CODES.stale_cursor.message, remediation: 'restart_pagination', details: { expected_generation: 3 } });
});

test('foreign errors are wrapped as internal_error with the original as cause', () => {
  const original = new RangeError('boom');
  const wrapped = toDocforgeError(original);
  assert.equal(wrapped.code, 'internal_error');
  assert.equal(wrapped.cause, original);
  assert.match(wrapped.message, /boom/);
});
