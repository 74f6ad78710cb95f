// Pins viewer protocol v2 framing and checks: NDJSON splitting, oversized and non-JSON lines, version-1 and unknown-version frames, schema-invalid requests and replies.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DocforgeError } from '@docforge/core';
import { checkReply, checkRequest, encodeFrame, frameOf, NdjsonDecoder, negotiate } from '../src/index.js';

test('the decoder splits lines across chunks, skips blank lines and reports bad JSON and oversized lines', () => {
  const d = new NdjsonDecoder(64);
  assert.deepEqual(d.push('{"a":'), []);
  assert.deepEqual(d.push('1}\n\n{"b":2}\n'), [{ ok: true, value: { a: 1 } }, { ok: true, value: { b: 2 } }]);
  const bad = d.push('{nope\n');
  assert.equal(bad.length, 1);
  assert.equal(bad[0]!.ok, false);
  const big = d.push(`${'x'.repeat(100)}`);
  assert.equal(big.length, 1);
  assert.equal(!big[0]!.ok && big[0]!.error.code, 'viewer_protocol_error');
  assert.deepEqual(d.push('rest of the long line\n{"c":3}\n'), [{ ok: true, value: { c: 3 } }]);
  assert.equal(encodeFrame({ a: 1 }), '{"a":1}\n');
});

test('a version-1 or unknown-version frame is protocol_version_unsupported and closes; a bad type or payload is viewer_protocol_error', () => {
  const v1 = checkRequest({ ...frameOf('1', 'hello', { client: 'x', versions: [1], capabilities: [] }), version: 1 });
  assert.ok(!v1.ok && v1.error.code === 'protocol_version_unsupported' && v1.fatal);
  const v9 = checkRequest({ ...frameOf('2', 'list_workers', {}), version: 9 });
  assert.ok(!v9.ok && v9.error.code === 'protocol_version_unsupported' && v9.id === '2');
  const unknown = checkRequest(frameOf('3', 'drop_tables', {}));
  assert.ok(!unknown.ok && unknown.error.code === 'viewer_protocol_error' && !unknown.fatal);
  const invalid = checkRequest(frameOf('4', 'ensure_worker', { project_root: 'relative', sql: 'select 1' }));
  assert.ok(!invalid.ok && invalid.error.code === 'viewer_protocol_error');
  assert.ok(Array.isArray((invalid as { error: DocforgeError }).error.details.errors));
  const garbage = checkRequest('hello');
  assert.ok(!garbage.ok && garbage.id === '0');
  const ok = checkRequest(frameOf('5', 'stop_worker', { project_root: '/p' }));
  assert.ok(ok.ok && ok.type === 'stop_worker');
  assert.throws(() => negotiate({ client: 'x', versions: [1, 3], capabilities: [] }), (e: DocforgeError) => e.code === 'protocol_version_unsupported');
  assert.equal(negotiate({ client: 'x', versions: [1, 2], capabilities: [] }), 2);
});

test('replies are checked against the schema of the request they answer; error frames rethrow the peer error', () => {
  assert.deepEqual(checkReply('stop_worker', frameOf('1', 'result', { stopped: [] })), { stopped: [] });
  assert.throws(() => checkReply('list_workers', frameOf('1', 'result', { stopped: [] })), (e: DocforgeError) => e.code === 'viewer_protocol_error');
  assert.throws(() => checkReply('issue_token', frameOf('1', 'error', { code: 'worker_not_found', message: 'gone', details: { worker_id: 'w-0' } })), (e: DocforgeError) => e.code === 'worker_not_found' && e.message === 'gone');
  assert.throws(() => checkReply('shutdown', { ...frameOf('1', 'result', { stopped: [] }), version: 1 }), (e: DocforgeError) => e.code === 'protocol_version_unsupported');
});
