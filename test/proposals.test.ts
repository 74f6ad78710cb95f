// Pins the isolated proposal tools over stdio on a copy of examples/: every operation kind in one registration, list/get/validate/diff, each propose tool, abandon with an audit receipt, canonical files byte-identical, changesets surviving index deletion, and proposal_access_disabled without a writer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { PROPOSAL_TOOLS } from '@docforge/policy';
import { sha256Hex, canonical, treeHashes } from './helpers/hashes.js';
import { exampleProjectCopy } from './helpers/projects.js';
import { expectError, useServer, type Json } from './helpers/server.js';

/** One operation of every kind, written from the example's own source text. */
function everyKind(): Json[] {
  return [
    { op: 'node_create', node: { id: 'REQ-PAY-099', kind: 'requirement', title: 'Refund receipts', status: 'draft', tags: ['refund'], relations: { refines: ['REQ-PAY-005'] } }, path: 'docs/requirements/pay-099-refund-receipts.md', body: '# Refund receipts\n\nEvery refund issues a receipt.\n' },
    { op: 'node_update', node_id: 'CMP-LEDGER', set: { status: 'deprecated' }, body: '# Double-entry ledger\n\nReplaced by the new ledger.\n' },
    { op: 'node_move', node_id: 'RB-001', new_path: 'docs/runbooks/moved/rb-001-ledger-imbalance.md' },
    { op: 'relationship_update', source_id: 'CMP-REFUND-SERVICE', add: [{ relation: 'relates_to', target_id: 'REQ-PAY-099' }] },
    { op: 'node_delete', node_id: 'RB-004' },
  ];
}

test('register changes of every operation kind in one call; list, get, validate and diff them; canonical files never change', async () => {
  const root = exampleProjectCopy();
  const server = await useServer(root, { proposalWriter: 'agent' });
  await server.call('docforge_bootstrap');
  const before = treeHashes(root);

  const registered = await server.call('docforge_register_changes', { operations: everyKind() });
  assert.equal(registered.ok, true, JSON.stringify(registered.error));
  const r = registered.result!;
  assert.equal(r.outcome, 'registered');
  assert.equal(r.changeset.operation_count, 5);
  assert.equal(r.changeset.writer, 'agent');
  assert.match(r.changeset_sha256, /^[0-9a-f]{64}$/);

  // The stored document: canonical JSON whose hash covers id, writer, base and operations only.
  const file = path.join(root, '.docforge', 'changesets', `${r.changeset_id}.json`);
  const stored = JSON.parse(readFileSync(file, 'utf8')) as Json;
  assert.equal(readFileSync(file, 'utf8'), `${canonical(stored)}\n`);
  assert.equal(sha256Hex(canonical({ id: stored.id, writer: stored.writer, base: stored.base, operations: stored.operations })), r.changeset_sha256);
  assert.equal(stored.base, registered.project!.source_hash);
  // Omitted expected_content_hash values were captured from the synchronized index.
  const node = await server.call('docforge_get_node', { node_id: 'CMP-LEDGER' });
  assert.equal(stored.operations[1].expected_content_hash, node.result!.node.content_hash);

  const list = await server.call('docforge_list_changesets');
  assert.deepEqual(list.result!.items.map((i: Json) => i.id), [r.changeset_id]);

  const got = await server.call('docforge_get_changeset', { changeset_id: r.changeset_id });
  assert.equal(got.result!.changeset.changeset_sha256, r.changeset_sha256);
  assert.deepEqual(got.result!.operations.map((o: Json) => o.op), ['node_create', 'node_update', 'node_move', 'relationship_update', 'node_delete']);
  assert.deepEqual(got.result!.operations.map((o: Json) => o.operation), stored.operations);

  const validated = await server.call('docforge_validate_changeset', { changeset_id: r.changeset_id });
  assert.equal(validated.ok, true);
  assert.equal(typeof validated.result!.valid, 'boolean');
  for (const f of validated.result!.findings) {
    assert.ok('operation_index' in f && 'node_id' in f && f.code && f.remediation, JSON.stringify(f));
  }

  const diff = await server.call('docforge_get_changeset_diff', { changeset_id: r.changeset_id });
  const changes = diff.result!.changes as Json[];
  assert.equal(changes.length, 5);
  assert.equal(changes[0]!.before, null);
  assert.equal(changes[0]!.after.title, 'Refund receipts');
  assert.equal(changes[1]!.before.status, 'accepted');
  assert.equal(changes[1]!.after.status, 'deprecated');
  assert.match(changes[1]!.body_diff, /^\+Replaced by the new ledger\.$/m);
  assert.equal(changes[2]!.after_path, 'docs/runbooks/moved/rb-001-ledger-imbalance.md');
  assert.equal(changes[4]!.after, null);

  assert.deepEqual(treeHashes(root), before, 'canonical files are byte-identical');
});

test('each propose tool works on its own; abandon keeps an audit receipt; deleting index/ loses no changeset', async () => {
  const root = exampleProjectCopy();
  const server = await useServer(root, { proposalWriter: 'agent' });
  const before = treeHashes(root);
  const created = await server.call('docforge_propose_node_create', { node: { id: 'DEC-NEW', kind: 'decision', title: 'New decision' }, path: 'docs/decisions/new.md', body: 'Decided.\n' });
  assert.equal(created.ok, true, JSON.stringify(created.error));
  const id = created.result!.changeset_id as string;
  const steps: [string, Json][] = [
    ['docforge_propose_node_update', { changeset_id: id, node_id: 'DEC-NEW', set: { title: 'Newer decision' } }],
    ['docforge_propose_relationship_update', { changeset_id: id, source_id: 'DEC-NEW', add: [{ relation: 'relates_to', target_id: 'CMP-LEDGER' }] }],
    ['docforge_propose_node_move', { changeset_id: id, node_id: 'DEC-NEW', new_path: 'docs/decisions/newer.md' }],
    ['docforge_propose_node_delete', { changeset_id: id, node_id: 'DEC-NEW' }],
  ];
  let hash = created.result!.changeset_sha256;
  for (const [tool, args] of steps) {
    const env = await server.call(tool as never, args);
    assert.equal(env.ok, true, `${tool}: ${JSON.stringify(env.error)}`);
    assert.equal(env.result!.outcome, 'operation_added');
    assert.notEqual(env.result!.changeset_sha256, hash, 'the hash follows the operations');
    hash = env.result!.changeset_sha256;
  }
  const got = await server.call('docforge_get_changeset', { changeset_id: id });
  assert.deepEqual(got.result!.operations.map((o: Json) => o.op), ['node_create', 'node_update', 'relationship_update', 'node_move', 'node_delete']);

  const abandoned = await server.call('docforge_abandon_changeset', { changeset_id: id, reason: 'superseded' });
  assert.equal(abandoned.result!.status, 'abandoned');
  assert.equal(abandoned.result!.changeset_sha256, hash, 'abandoning never changes the reviewed hash');
  const history = await server.call('docforge_get_changeset', { changeset_id: id });
  const receipts = history.result!.receipts as Json[];
  assert.equal(receipts[receipts.length - 1]!.event, 'abandoned');
  assert.equal(receipts[receipts.length - 1]!.details.reason, 'superseded');
  assert.deepEqual((await server.call('docforge_list_changesets')).result!.items, [], 'abandoned is not listed by default');
  const all = await server.call('docforge_list_changesets', { history: true });
  assert.deepEqual(all.result!.items.map((i: Json) => [i.id, i.status]), [[id, 'abandoned']]);
  await expectError(server.call('docforge_propose_node_delete', { changeset_id: id, node_id: 'CMP-LEDGER' }), 'changeset_not_writable');

  rmSync(path.join(root, '.docforge', 'index'), { recursive: true, force: true });
  const after = await server.call('docforge_get_changeset', { changeset_id: id });
  assert.equal(after.ok, true);
  assert.equal(after.result!.changeset.changeset_sha256, hash);
  assert.deepEqual(treeHashes(root), before, 'canonical files are byte-identical');
});

test('without --proposal-writer every mutation tool answers proposal_access_disabled while validation and diff keep working', async () => {
  const root = exampleProjectCopy();
  const writer = await useServer(root, { proposalWriter: 'agent' });
  const registered = await writer.call('docforge_register_changes', { operations: [{ op: 'node_update', node_id: 'CMP-LEDGER', set: { status: 'draft' } }] });
  const id = registered.result!.changeset_id as string;
  await writer.close();

  const server = await useServer(root);
  const mutations: [string, Json][] = [
    ['docforge_create_changeset', {}],
    ['docforge_register_changes', { operations: [{ op: 'node_delete', node_id: 'CMP-LEDGER' }] }],
    ['docforge_rebase_changeset', { changeset_id: id }],
    ['docforge_abandon_changeset', { changeset_id: id }],
    ['docforge_propose_node_create', { node: { id: 'X-1', kind: 'document', title: 'X' }, path: 'docs/x.md', body: '' }],
    ['docforge_propose_node_update', { node_id: 'CMP-LEDGER', body: 'x' }],
    ['docforge_propose_node_move', { node_id: 'CMP-LEDGER', new_path: 'docs/y.md' }],
    ['docforge_propose_relationship_update', { source_id: 'CMP-LEDGER', add: [{ relation: 'relates_to', target_id: 'RB-001' }] }],
    ['docforge_propose_node_delete', { node_id: 'CMP-LEDGER' }],
  ];
  assert.deepEqual(mutations.map(([t]) => t).sort(), PROPOSAL_TOOLS.filter((t) => !['docforge_list_changesets', 'docforge_get_changeset', 'docforge_validate_changeset', 'docforge_get_changeset_diff', 'docforge_preview_changeset'].includes(t)).sort());
  for (const [tool, args] of mutations) await expectError(server.call(tool as never, args), 'proposal_access_disabled');
  assert.equal((await server.call('docforge_validate_changeset', { changeset_id: id })).ok, true);
  assert.equal((await server.call('docforge_get_changeset_diff', { changeset_id: id })).ok, true);
  assert.equal((await server.call('docforge_get_changeset', { changeset_id: id })).ok, true);
  assert.equal((await server.call('docforge_list_changesets')).result!.items.length, 1);
});
