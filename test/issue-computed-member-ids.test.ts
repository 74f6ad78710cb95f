// Pins issue 31 item 5 over stdio on a copy of examples/: a computed member's id keeps its key's source text (`.` inside the brackets written %2E) and its title the text itself; a changeset whose relation names a code id that then vanishes from the index (as the old spelling does when the adapter version changes) is stale naming that id, and rebase refuses naming it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { exampleProjectCopy } from './helpers/projects.js';
import { expectError, useServer, type Json } from './helpers/server.js';

const POOL = [
  "const Symbols = { kConnected: Symbol('connected'), kReady: Symbol('ready') }",
  'export class MockPool {',
  '  get [Symbols.kConnected] (): boolean { return true }',
  '}',
  '',
].join('\n');

test('computed member ids: source text in the id, and a vanished code id makes a changeset stale and is named on rebase', async () => {
  const root = exampleProjectCopy();
  writeFileSync(path.join(root, 'src/pool.ts'), POOL);
  const server = await useServer(root, { proposalWriter: 'agent' });
  const id = 'code:src/pool.ts#MockPool.[Symbols%2EkConnected]';
  const node = (await server.call('docforge_get_node', { node_id: id })).result!.node as Json;
  assert.equal(node.title, '[Symbols.kConnected]');
  // The key as written in the source names the same node (the break-it trial's bare node_not_found).
  const natural = (await server.call('docforge_get_node', { node_id: 'code:src/pool.ts#MockPool.[Symbols.kConnected]' })).result!.node as Json;
  assert.equal(natural.id, id);
  const registered = (await server.call('docforge_register_changes', {
    operations: [{ op: 'relationship_update', source_id: 'CMP-LEDGER', add: [{ relation: 'relates_to', target_id: id }] }],
  })).result!;
  assert.equal(registered.status, 'ready', JSON.stringify(registered.findings));

  // The member's id disappears from the index (here its key changes; an adapter upgrade that respells ids does the same).
  writeFileSync(path.join(root, 'src/pool.ts'), POOL.replace('[Symbols.kConnected]', '[Symbols.kReady]'));
  const stale = (await server.call('docforge_get_changeset', { changeset_id: registered.changeset_id })).result!;
  assert.equal(stale.changeset.status, 'stale');
  assert.equal(stale.changeset.stale.reason, 'touched_node_changed');
  assert.deepEqual(stale.changeset.stale.node_ids, [id]);
  const refused = await expectError(server.call('docforge_rebase_changeset', { changeset_id: registered.changeset_id }), 'rebase_refused');
  assert.equal(refused.details.invariant, 'touched_node_unchanged');
  assert.deepEqual(refused.details.node_ids, [id]);

  // A relation proposed to an id that never existed stays a dangling_relation finding of a draft, not a stale changeset.
  const dangling = (await server.call('docforge_register_changes', {
    operations: [{ op: 'relationship_update', source_id: 'CMP-SETTLEMENT-JOB', add: [{ relation: 'relates_to', target_id: 'code:src/pool.ts#MockPool.[Symbols_kConnected]' }] }],
  })).result!;
  assert.equal(dangling.status, 'draft');
  assert.ok((dangling.findings as Json[]).some((f) => f.code === 'dangling_relation'), JSON.stringify(dangling.findings));
  const listed = (await server.call('docforge_get_changeset', { changeset_id: dangling.changeset_id })).result!;
  assert.equal(listed.changeset.status, 'draft');
});
