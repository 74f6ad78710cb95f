// Pins --diagnostics: a bounded version-1 aggregate of fixed stage figures, absent by default, with no content, paths, queries or node ids.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { exampleProjectCopy } from './helpers/projects.js';
import { expectError, useServer } from './helpers/server.js';

function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) value.forEach((v) => strings(v, out));
  else if (value && typeof value === 'object') Object.values(value).forEach((v) => strings(v, out));
  return out;
}

test('--diagnostics attaches stage figures to successes and errors, and nothing identifying', async () => {
  // A cold first build, so that the first call has parsing figures.
  const root = exampleProjectCopy({ state: false });
  const s = await useServer(root, { diagnostics: true });
  const boot = await s.call('docforge_bootstrap');
  const d = boot.diagnostics!;
  assert.equal(d.schema_version, 1);
  for (const stage of ['source_parsing', 'adapter_extraction', 'index_work', 'rendering', 'viewer_manager']) {
    assert.equal(typeof d.stages[stage].ms, 'number', stage);
    assert.equal(typeof d.stages[stage].count, 'number', stage);
  }
  assert.ok(d.stages.source_parsing.count > 0, 'the first call parsed sources');
  assert.ok(d.counters.nodes_indexed > 0);
  const search = await s.call('docforge_search', { query: 'idempotency ledger' });
  const err = await s.call('docforge_get_node', { node_id: 'REQ-PAY-001-missing' });
  await expectError(err, 'node_not_found');
  for (const e of [boot, search, err]) {
    assert.ok(e.diagnostics, 'present on successes and errors');
    const text = JSON.stringify(e.diagnostics);
    assert.deepEqual(strings(e.diagnostics), [], 'numbers only');
    for (const needle of [root, 'idempotency', 'REQ-PAY-001', 'docs/', 'SELECT']) assert.ok(!text.includes(needle), needle);
  }
  assert.equal(search.diagnostics!.counters.cache_hits, 1, 'no rebuild on the second call');
  // rows_read counts the index rows the call read: a search reads candidate rows, a one-node read fewer.
  const node = await s.call('docforge_get_node', { node_id: 'CMP-LEDGER' });
  assert.ok(search.diagnostics!.counters.rows_read > 0, 'a search reads rows');
  assert.ok(node.diagnostics!.counters.rows_read > 0, 'get_node reads rows');
  await s.close();
  const plain = await useServer(root);
  assert.equal((await plain.call('docforge_search', { query: 'ledger' })).diagnostics, undefined, 'off by default');
});
