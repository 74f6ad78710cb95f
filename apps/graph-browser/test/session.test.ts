// Pins the graph-browser worker's one-time tokens, per-worker cookie names, cookie parsing, configuration checks and readable leaf names (issue 12 item 3).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SessionStore, TOKEN_TTL_MS, cookieValue } from '../src/session.js';
import { parseWorkerConfig } from '../src/config.js';
import { leafName } from '../src/graph.js';

test('a token is traded exactly once; a used, unknown or expired token is refused', () => {
  let now = 1_000;
  const store = new SessionStore('w-1', () => now);
  const issued = store.issue();
  assert.match(issued.token, /^[A-Za-z0-9_-]{43}$/);
  assert.equal(issued.url_path, `/?token=${issued.token}`);
  assert.equal(issued.expires_at_ms, 1_000 + TOKEN_TTL_MS);
  const traded = store.trade(issued.token);
  assert.ok(traded.ok);
  assert.ok(store.valid(traded.session));
  assert.deepEqual(store.trade(issued.token), { ok: false, reason: 'used' });
  assert.deepEqual(store.trade('A'.repeat(43)), { ok: false, reason: 'unknown' });
  const late = store.issue();
  now += TOKEN_TTL_MS + 1;
  assert.deepEqual(store.trade(late.token), { ok: false, reason: 'expired' });
  assert.deepEqual(store.trade(late.token), { ok: false, reason: 'used' }, 'an expired token is spent too');
  assert.equal(store.valid('forged'), false);
});

test('two workers get different cookie names even with the same worker id', () => {
  const a = new SessionStore('same');
  const b = new SessionStore('same');
  assert.notEqual(a.cookieName, b.cookieName);
  assert.match(a.cookieName, /^docforge_same_[0-9a-f]{8}$/);
  assert.match(a.setCookie('v'), /; HttpOnly; SameSite=Strict$/);
});

test('cookieValue reads one named cookie', () => {
  assert.equal(cookieValue('a=1; docforge_x=abc; b=2', 'docforge_x'), 'abc');
  assert.equal(cookieValue('docforge_xy=abc', 'docforge_x'), null);
  assert.equal(cookieValue(undefined, 'docforge_x'), null);
});

test('the configuration must fit its schema and name the signature file', () => {
  const config = {
    worker_id: 'w', project_root: '/p', project_id: 'p', index_path: '/p/.docforge/index/gen-1-abc.sqlite', no_ast: false,
    signature: { generation: 1, source_identity: 'a'.repeat(64), index_file: 'gen-1-abc.sqlite', index_ino: '5', index_size: 10 },
  };
  assert.deepEqual(parseWorkerConfig(JSON.stringify(config)), config);
  assert.throws(() => parseWorkerConfig(undefined), { code: 'invalid_arguments' });
  assert.throws(() => parseWorkerConfig(JSON.stringify({ ...config, index_path: '/p/.docforge/index/gen-2-abc.sqlite' })), { code: 'invalid_arguments' });
  assert.throws(() => parseWorkerConfig(JSON.stringify({ ...config, port: 80 })), { code: 'invalid_arguments' });
});

test('leaf names: last qualified segment, module file name, else the title', () => {
  assert.equal(leafName('code:src/a/b.ts#Ledger.post', 'Ledger.post'), 'post');
  assert.equal(leafName('code:src/a/b.ts', 'src/a/b.ts'), 'b.ts');
  assert.equal(leafName('REQ-1', 'Every payment is logged'), 'Every payment is logged');
});
