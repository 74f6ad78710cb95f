// Pins issue 30 item 10 (CONFORMANCE "diagnostics expose the request's index work"): docforge_impact and docforge_dependencies report in diagnostics.counters.edges_examined exactly the examined_edges of their traversal, on examples/.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sharedExampleProject } from './helpers/projects.js';
import { useServer } from './helpers/server.js';

test('impact and dependencies count the edges their traversal examined', async () => {
  // Reads only: the run's shared example project (a private copy would be built again, as its index file has a new inode).
  const s = await useServer(sharedExampleProject(), { diagnostics: true });
  for (const tool of ['docforge_impact', 'docforge_dependencies'] as const) {
    for (const node_id of ['CMP-LEDGER', 'REQ-PAY-001']) {
      const r = await s.call(tool, { node_id, depth: 3 });
      assert.equal(r.ok, true, JSON.stringify(r.error));
      const examined = r.result!.examined_edges as number;
      assert.ok(examined > 0, `${tool} ${node_id} examined edges`);
      assert.equal(r.diagnostics!.counters.edges_examined, examined, `${tool} ${node_id}: diagnostics match the result`);
    }
  }
});
