// Pins the proposal rules over stdio on copies of examples/: conflicts naming both changesets, read-time staleness that no reader writes, rebase success and refusal with the invariant named, path confinement (.., absolute, symlinked folder, outside content roots), and guidance naming exactly the registered and enabled tools.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { APPLICATION_TOOLS, PROPOSAL_TOOLS } from '@docforge/policy';
import { exampleProjectCopy, sharedExampleProject, tempDir } from './helpers/projects.js';
import { expectError, useServer, type Json, type ServerOptions } from './helpers/server.js';
import { treeHashes } from './helpers/hashes.js';

function storeBytes(root: string): Map<string, string> {
  const dir = path.join(root, '.docforge', 'changesets');
  if (!existsSync(dir)) return new Map();
  return new Map(readdirSync(dir).sort().map((name) => [name, readFileSync(path.join(dir, name), 'utf8')]));
}

test('conflicts, read-time staleness and rebase', async () => {
  const root = exampleProjectCopy();
  const server = await useServer(root, { proposalWriter: 'agent' });
  const a = (await server.call('docforge_register_changes', { operations: [{ op: 'node_update', node_id: 'CMP-LEDGER', set: { status: 'draft' } }] })).result!;
  assert.equal(a.status, 'ready');
  const b = (await server.call('docforge_register_changes', { operations: [{ op: 'relationship_update', source_id: 'CMP-LEDGER', add: [{ relation: 'relates_to', target_id: 'RB-001' }] }] })).result!;
  assert.equal(b.status, 'draft', 'an overlap does not refuse registration; the changeset stays draft');
  const conflict = (b.findings as Json[]).find((f) => f.code === 'conflict');
  assert.ok(conflict, JSON.stringify(b.findings));
  assert.deepEqual(conflict.changeset_ids, [b.changeset_id, a.changeset_id]);
  assert.equal(conflict.node_id, 'CMP-LEDGER');
  assert.equal(conflict.operation_index, 0);
  await server.call('docforge_abandon_changeset', { changeset_id: b.changeset_id });
  const c = (await server.call('docforge_register_changes', { operations: [{ op: 'node_update', node_id: 'CMP-LEDGER', body: 'x' }] })).result!;
  const cFindings = (await server.call('docforge_validate_changeset', { changeset_id: c.changeset_id })).result!.findings as Json[];
  assert.deepEqual(cFindings.filter((f) => f.code === 'conflict').map((f) => f.changeset_ids), [[c.changeset_id, a.changeset_id]], 'abandoned changesets never conflict');
  await server.call('docforge_abandon_changeset', { changeset_id: c.changeset_id });

  // A canonical edit elsewhere: A is stale (base_changed); reads derive it and never write the store.
  appendFileSync(path.join(root, 'docs/runbooks/rb-005-settlement-failed.md'), '\nOne more line.\n');
  const store = storeBytes(root);
  const got = (await server.call('docforge_get_changeset', { changeset_id: a.changeset_id })).result!;
  assert.equal(got.changeset.status, 'stale');
  assert.equal(got.changeset.stored_status, 'ready');
  assert.equal(got.changeset.stale.reason, 'base_changed');
  assert.deepEqual((await server.call('docforge_list_changesets')).result!.items, [], 'stale is listed only on request');
  assert.deepEqual((await server.call('docforge_list_changesets', { statuses: ['stale'] })).result!.items.map((i: Json) => i.id), [a.changeset_id]);
  assert.deepEqual(storeBytes(root), store, 'no read writes the store');

  const rebased = (await server.call('docforge_rebase_changeset', { changeset_id: a.changeset_id })).result!;
  assert.equal(rebased.outcome, 'rebased');
  assert.equal(rebased.status, 'ready');
  assert.notEqual(rebased.changeset_sha256, a.changeset_sha256);
  assert.equal(rebased.changeset.base, (await server.call('docforge_project_info')).project!.source_hash);

  // A canonical edit of the touched node: stale, and rebase refuses naming the invariant.
  appendFileSync(path.join(root, 'docs/components/ledger.md'), '\nEdited by hand.\n');
  const stale = (await server.call('docforge_get_changeset', { changeset_id: a.changeset_id })).result!;
  assert.equal(stale.changeset.stale.reason, 'touched_node_changed');
  assert.deepEqual(stale.changeset.stale.node_ids, ['CMP-LEDGER']);
  const refused = await expectError(server.call('docforge_rebase_changeset', { changeset_id: a.changeset_id }), 'rebase_refused');
  assert.equal(refused.details.invariant, 'touched_node_unchanged');
  const validation = (await server.call('docforge_validate_changeset', { changeset_id: a.changeset_id })).result!;
  assert.equal(validation.valid, false);
  assert.ok((validation.findings as Json[]).some((f) => f.code === 'content_hash_mismatch' && f.operation_index === 0 && f.node_id === 'CMP-LEDGER'));
});

test('node creates and moves outside the content roots are refused with path_outside_root and nothing is written', async () => {
  const root = exampleProjectCopy();
  const outside = tempDir('docforge-outside-');
  symlinkSync(outside, path.join(root, 'docs', 'linked-out'));
  symlinkSync(path.join(root, 'docs', 'components'), path.join(root, 'docs', 'linked-in'));
  mkdirSync(path.join(root, 'notes'));
  const server = await useServer(root, { proposalWriter: 'agent' });
  await server.call('docforge_bootstrap');
  const before = treeHashes(root);
  const targets = ['../escape.md', path.join(root, 'docs', 'abs.md'), '/etc/abs.md', 'docs/linked-out/x.md', 'docs/linked-in/x.md', 'notes/x.md', 'src/x.md', 'docs/../README.md', '.docforge/x.md'];
  for (const target of targets) {
    const create = { op: 'node_create', node: { id: 'NEW-1', kind: 'document', title: 'New' }, path: target, body: 'x' };
    await expectError(server.call('docforge_register_changes', { operations: [create] }), 'path_outside_root');
    await expectError(server.call('docforge_propose_node_create', { node: create.node, path: target, body: 'x' }), 'path_outside_root');
    await expectError(server.call('docforge_register_changes', { operations: [{ op: 'node_move', node_id: 'CMP-LEDGER', new_path: target }] }), 'path_outside_root');
    await expectError(server.call('docforge_propose_node_move', { node_id: 'CMP-LEDGER', new_path: target }), 'path_outside_root');
  }
  assert.deepEqual(storeBytes(root), new Map(), 'no changeset was stored');
  assert.deepEqual(readdirSync(outside), [], 'nothing was written through the link');
  assert.deepEqual(treeHashes(root), before);
  await expectError(server.call('docforge_register_changes', { operations: [{ op: 'node_delete', node_id: 'code:src/ledger/ledger.ts' }] }), 'changeset_invalid');
});

/** Proposal tool names mentioned in a text. */
function named(text: string): string[] {
  return [...PROPOSAL_TOOLS, ...APPLICATION_TOOLS].filter((t) => new RegExp(`\\b${t}\\b`).test(text)).sort();
}

test('the instructions and bootstrap guidance name exactly the registered and enabled tools', async () => {
  const root = sharedExampleProject();
  // Issue 11: application mode too; docforge_apply_changeset is named exactly when it is registered.
  const cases: { options: ServerOptions; enabled: boolean; application?: boolean }[] = [
    { options: { mode: 'read' }, enabled: false },
    { options: { mode: 'proposal' }, enabled: false },
    { options: { mode: 'proposal', proposalWriter: 'agent' }, enabled: true },
    { options: { mode: 'proposal', proposalWriter: 'agent', canonicalApplier: 'owner' }, enabled: true },
    { options: { mode: 'application', canonicalApplier: 'owner' }, enabled: false, application: true },
    { options: { mode: 'application', proposalWriter: 'agent', canonicalApplier: 'owner' }, enabled: true, application: true },
  ];
  for (const { options, enabled, application = false } of cases) {
    const server = await useServer(root, options);
    const registered = (await server.client.listTools()).tools.map((t) => t.name);
    const proposalRegistered = PROPOSAL_TOOLS.filter((t) => registered.includes(t));
    const instructions = server.client.getInstructions() ?? '';
    const boot = (await server.call('docforge_bootstrap')).result!;
    const workflow = (boot.session_contract.workflow as string[]).join('\n');
    const applyNamed = (text: string): boolean => /\bdocforge_apply_changeset\b/.test(text);
    assert.equal(registered.includes('docforge_apply_changeset'), application, `${JSON.stringify(options)}: the application tool is registered only in application mode`);
    assert.equal(applyNamed(instructions), application, `${JSON.stringify(options)}: instructions name docforge_apply_changeset only when registered`);
    assert.equal(applyNamed(workflow), application, `${JSON.stringify(options)}: bootstrap names docforge_apply_changeset only when registered`);
    assert.equal(boot.capabilities.application_access.enabled, application);
    const mentioned = named(instructions).filter((t) => t !== 'docforge_apply_changeset');
    for (const name of mentioned) assert.ok(registered.includes(name), `${JSON.stringify(options)}: instructions name the unregistered ${name}`);
    for (const name of named(workflow)) assert.ok(registered.includes(name), `${JSON.stringify(options)}: bootstrap names the unregistered ${name}`);
    if (!enabled) {
      assert.deepEqual(mentioned, [], `${JSON.stringify(options)}: no proposal tool is named without proposal access`);
      assert.deepEqual(named(workflow).filter((t) => t !== 'docforge_apply_changeset'), []);
    } else {
      // Every registered proposal tool except the single-operation helpers is named, preview (issue 11) included.
      const expected = proposalRegistered.filter((t) => !t.startsWith('docforge_propose_') && t !== 'docforge_create_changeset').sort();
      assert.deepEqual(mentioned, expected);
      assert.ok(registered.includes('docforge_preview_changeset') && instructions.includes('docforge_preview_changeset'));
      assert.deepEqual(named(workflow).filter((t) => t !== 'docforge_apply_changeset'), ['docforge_register_changes']);
    }
    assert.equal(boot.capabilities.proposal_access.enabled, enabled);
    await server.close();
  }
});

test('moving a plain Markdown document reports each inbound link that would break', async () => {
  const root = exampleProjectCopy();
  appendFileSync(path.join(root, 'docs/guides/glossary.md'), '\nSee the [architecture overview](architecture-overview.md).\n');
  const server = await useServer(root, { proposalWriter: 'agent' });
  const inbound = (await server.call('docforge_backlinks', { node_id: 'guides/architecture-overview' })).result!;
  const sources = [...new Set((inbound.items as Json[]).map((i) => i.source_id ?? i.id))];
  assert.ok(sources.includes('guides/glossary'), JSON.stringify(inbound.items));
  const moved = (await server.call('docforge_register_changes', { operations: [{ op: 'node_move', node_id: 'guides/architecture-overview', new_path: 'docs/guides/overview.md' }] })).result!;
  const broken = (moved.findings as Json[]).filter((f) => f.code === 'inbound_link_broken');
  assert.ok(broken.some((f) => f.operation_index === 0 && f.node_id === 'guides/architecture-overview' && /guides\/glossary/.test(f.message) && /guides\/overview/.test(f.message)), JSON.stringify(moved.findings));
  const diff = (await server.call('docforge_get_changeset_diff', { changeset_id: moved.changeset_id })).result!;
  assert.equal(diff.changes[0].node_id, 'guides/overview', 'the path-derived id follows the move');
});

test('[proposals.writers.ID] narrows operations and paths of that writer; nothing widens them', async () => {
  const root = exampleProjectCopy();
  appendFileSync(path.join(root, 'docforge.toml'), '\n[proposals.writers.agent]\noperations = ["node_update"]\npaths = ["docs/requirements/**"]\n');
  const server = await useServer(root, { proposalWriter: 'agent' });
  const denied = await expectError(server.call('docforge_register_changes', { operations: [{ op: 'node_update', node_id: 'CMP-LEDGER', set: { status: 'draft' } }] }), 'changeset_not_writable');
  assert.match(denied.message, /docs\/components\/ledger\.md/);
  await expectError(server.call('docforge_propose_node_delete', { node_id: 'REQ-PAY-001' }), 'changeset_not_writable');
  const allowed = await server.call('docforge_propose_node_update', { node_id: 'REQ-PAY-001', set: { status: 'draft' } });
  assert.equal(allowed.ok, true, JSON.stringify(allowed.error));
  assert.equal(storeBytes(root).size, 1, 'only the allowed proposal was stored');
  const other = await useServer(root, { proposalWriter: 'someone-else' });
  assert.equal((await other.call('docforge_propose_node_delete', { node_id: 'RB-002' })).ok, true, 'an unlisted writer keeps the generic policy');
});
