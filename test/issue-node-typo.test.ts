// A mistyped id names the sibling it probably meant (new-user trial, 2026-12-07: `node code:lib/route.js#buildRouting.rout`
// answered node_not_found with no hint): through the real docforge-mcp on examples/ and fastify's lib/.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sharedExampleProject } from './helpers/projects.js';
import { sharedFastifyProject } from './helpers/shared-fixtures.js';
import { useServer } from './helpers/server.js';

test('node_not_found names the one id within a small edit distance of the typed last segment', async () => {
  // Reads only: the run's shared example project and shared fastify copy (a private copy would be built again, as its index file has a new inode).
  const examples = sharedExampleProject();
  const fastify = sharedFastifyProject(['lib', 'fastify.js'], 'schema_version = 1\n[project]\nid = "fastify"\nname = "Fastify"\n[sources]\ncontent_roots = []\ncode_roots = ["lib", "fastify.js"]\n[adapter]\ncode = "typescript"\n');
  for (const [root, typed, meant] of [
    [examples, 'code:src/ledger/ledger.ts#Ledger.refnd', 'code:src/ledger/ledger.ts#Ledger.refund'],
    [examples, 'CMP-LEDGR', 'CMP-LEDGER'],
    [fastify, 'code:lib/route.js#buildRouting.rout', 'code:lib/route.js#buildRouting.route'],
  ] as const) {
    const s = await useServer(root);
    const answer = await s.call('docforge_get_node', { node_id: typed });
    await s.close();
    assert.equal(answer.ok, false);
    assert.equal(answer.error!.code, 'node_not_found');
    assert.equal((answer.error!.details as { did_you_mean?: string }).did_you_mean, meant, JSON.stringify(answer.error));
  }
});
