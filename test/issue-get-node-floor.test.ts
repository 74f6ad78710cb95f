// Pins that docforge_get_node always answers at the floor of `[limits].max_output_chars` (break-it
// trial of issue 30): when a node's edges alone overflow the limit, the edge lists (then anchors
// and tags) are cut to prefixes that fit, each marked truncated, instead of result_too_large.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { exampleProjectCopy, sharedExampleProject } from './helpers/projects.js';
import { useServer } from './helpers/server.js';

test('get_node at the smallest limit cuts its edge lists to fit and marks them truncated', async () => {
  const root = exampleProjectCopy();
  const file = path.join(root, 'docforge.toml');
  writeFileSync(file, readFileSync(file, 'utf8').replace('max_output_chars = 60000', 'max_output_chars = 2000'));
  const server = await useServer(root);
  // The configured 2,000 is raised to the floor (MIN_MAX_OUTPUT_CHARS in libs/project).
  const max = 4000;
  // The reference at the configured limit only reads: the run's shared example project (a private copy would be built again).
  const wide = await useServer(sharedExampleProject());
  for (const args of [{ node_id: 'CMP-LEDGER', include_body: false }, { node_id: 'CMP-LEDGER' }, { node_id: 'CMP-ERRORS', include_body: false }]) {
    const full = await wide.call('docforge_get_node', args);
    assert.equal(full.ok, true);
    const raw = await server.raw('docforge_get_node', args);
    const text = (raw.content as { text: string }[])[0]!.text;
    assert.ok(text.length <= max, `${JSON.stringify(args)}: ${text.length} <= ${max}`);
    const r = await server.call('docforge_get_node', args);
    assert.equal(r.ok, true, `${JSON.stringify(args)}: ${JSON.stringify(r.error)}`);
    const edges = r.result!.edges;
    const all = full.result!.edges;
    if (args.node_id === 'CMP-LEDGER') assert.ok(edges.outgoing.length + edges.incoming.length < all.outgoing.length + all.incoming.length, 'some edges were cut');
    assert.deepEqual(edges.outgoing, all.outgoing.slice(0, edges.outgoing.length), 'a prefix of the outgoing edges');
    assert.deepEqual(edges.incoming, all.incoming.slice(0, edges.incoming.length), 'a prefix of the incoming edges');
    if (edges.outgoing.length < all.outgoing.length) assert.equal(edges.outgoing_truncated, true);
    if (edges.incoming.length < all.incoming.length) assert.equal(edges.incoming_truncated, true);
  }
});
