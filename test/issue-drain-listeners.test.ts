// Pins issue 8 follow-up 7: hundreds of concurrent calls with large responses on one server log no MaxListenersExceededWarning (one drain wait queue in the stdio transport) and every call is answered.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sharedExampleProject } from './helpers/projects.js';
import { useServer } from './helpers/server.js';

test('400 concurrent large responses: all answered, no listener warning on stderr', async () => {
  // Reads only: the run's shared example project (a private copy would be built again, as its index file has a new inode).
  const s = await useServer(sharedExampleProject());
  const boot = await s.call('docforge_bootstrap');
  assert.equal(boot.ok, true, JSON.stringify(boot.error));
  const calls = Array.from({ length: 400 }, (_, i) => (i % 2 === 0
    ? s.call('docforge_filter_nodes', { limit: 200 })
    : s.call('docforge_get_context', { query: 'payment authorization' })));
  const results = await Promise.all(calls);
  assert.equal(results.filter((r) => r.ok).length, 400);
  assert.ok(results.some((r) => JSON.stringify(r).length > 16_384), 'some responses exceed the stream high-water mark');
  await s.client.ping();
  assert.doesNotMatch(s.stderr(), /MaxListenersExceededWarning/);
});
