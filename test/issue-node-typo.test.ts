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

// New-user trial on luxon (2026-12-08): `node 'code:src/datetime.js#DateTime.plsu'` answered node_not_found with no
// hint while `node DateTime.plus` named the id. A near-miss full code id, or a bare qualified name with a typo, gets
// a did-you-mean too: a swap of two neighbouring characters is one edit, a right qualified name under a wrong path
// names its one declaration, and a typo in the qualifier or in a bare name's member finds the one member meant.
test('a near-miss code id or qualified name names the one declaration it meant, through docforge_get_node', async () => {
  const examples = sharedExampleProject();
  const meant = 'code:src/shared/base-service.ts#BaseService.stop';
  const s = await useServer(examples);
  try {
    assert.equal((await s.call('docforge_get_node', { node_id: meant })).ok, true, `${meant} exists`);
    for (const typed of [
      'code:src/shared/base-service.ts#BaseService.stpo', // neighbouring characters swapped in a 4-character name
      'code:src/base-service.ts#BaseService.stop', // the path is wrong, the qualified name right
      'code:src/shared/base-service.ts#BaseServce.stop', // a typo in the qualifier
      'BaseService.stpo', // a bare qualified name with a typo in its member
      'code:src/base-service.ts#BaseService.stpo', // a wrong path and a typo in the member
    ]) {
      const answer = await s.call('docforge_get_node', { node_id: typed });
      assert.equal(answer.ok, false);
      assert.equal(answer.error!.code, 'node_not_found');
      assert.equal((answer.error!.details as { did_you_mean?: string }).did_you_mean, meant, `${typed}: ${JSON.stringify(answer.error)}`);
    }
    // Nothing near: no guess.
    const none = await s.call('docforge_get_node', { node_id: 'code:src/shared/base-service.ts#Unrelated.zzz' });
    assert.equal((none.error!.details as { did_you_mean?: string }).did_you_mean, undefined, JSON.stringify(none.error));
  } finally {
    await s.close();
  }
});
