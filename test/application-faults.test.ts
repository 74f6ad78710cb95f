// Pins the crash safety of canonical application (issue 11) with the test-only fault point DOCFORGE_TEST_FAULT_POINT: a failure after half the files are written and a verification mismatch leave every canonical file byte-identical; a SIGKILL at each journal step (one process per step) is recovered by the next gated start to exactly the before or the after state, and a read-only server meanwhile serves the last publication with staleness "unknown" and never publishes the half-applied files.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import path from 'node:path';
import { treeHashes } from './helpers/hashes.js';
import { exampleProjectCopy, tempDir } from './helpers/projects.js';
import { expectError, useServer, type Json, type Server } from './helpers/server.js';

/** One operation of every kind: six canonical files change. */
function everyKind(): Json[] {
  return [
    { op: 'node_create', node: { id: 'REQ-PAY-099', kind: 'requirement', title: 'Refund receipts', status: 'draft', relations: { refines: ['REQ-PAY-005'] } }, path: 'docs/requirements/pay-099-refund-receipts.md', body: '# Refund receipts\n\nEvery refund issues a receipt.\n' },
    { op: 'node_update', node_id: 'CMP-LEDGER', set: { status: 'deprecated' }, body: '# Double-entry ledger\n\nReplaced by the new ledger.\n' },
    { op: 'node_move', node_id: 'RB-001', new_path: 'docs/runbooks/moved/rb-001-ledger-imbalance.md' },
    { op: 'relationship_update', source_id: 'CMP-REFUND-SERVICE', add: [{ relation: 'relates_to', target_id: 'REQ-PAY-099' }] },
    { op: 'node_delete', node_id: 'RB-004' },
  ];
}

/**
 * A copy of the example with one registered ready changeset of every kind, and the gated server
 * (canonical applier `reviewer`, with `env`'s fault point) that registered it as writer `agent` and
 * applies it: one server start per copy instead of a writer's and then an applier's (issue 29 item 7;
 * the fault points arm only application steps, never a registration).
 */
async function prepared(env?: Record<string, string>): Promise<{ root: string; id: string; hash: string; revision: number; server: Server }> {
  const root = exampleProjectCopy();
  const server = await useServer(root, { proposalWriter: 'agent', canonicalApplier: 'reviewer', ...(env === undefined ? {} : { env }) });
  const reg = await server.call('docforge_register_changes', { operations: everyKind() });
  assert.equal(reg.result!.status, 'ready', JSON.stringify(reg.result!.findings));
  return { root, id: reg.result!.changeset_id, hash: reg.result!.changeset_sha256, revision: reg.project!.revision, server };
}

function generation(root: string): number {
  return (JSON.parse(readFileSync(path.join(root, '.docforge', 'index', 'current.json'), 'utf8')) as { generation: number }).generation;
}

const journalOf = (root: string): string => path.join(root, '.docforge', 'application', 'journal.json');

test('a failure after half the files are written leaves every canonical file byte-identical', async () => {
  const { root, id, hash, server } = await prepared({ DOCFORGE_TEST_FAULT_POINT: 'apply_half_written' });
  const before = treeHashes(root);
  const error = await expectError(server.call('docforge_apply_changeset', { changeset_id: id, changeset_sha256: hash }), 'application_failed');
  assert.equal(error.details.stage, 'write');
  assert.equal(error.details.restored, true);
  assert.deepEqual(treeHashes(root), before);
  assert.equal(existsSync(journalOf(root)), false);
  assert.equal((await server.call('docforge_get_changeset', { changeset_id: id })).result!.changeset.stored_status, 'ready');
});

test('a verification mismatch rolls every canonical file back', async () => {
  const { root, id, hash, server } = await prepared({ DOCFORGE_TEST_FAULT_POINT: 'apply_verify_mismatch' });
  const before = treeHashes(root);
  const error = await expectError(server.call('docforge_apply_changeset', { changeset_id: id, changeset_sha256: hash }), 'application_failed');
  assert.equal(error.details.stage, 'verify');
  assert.deepEqual(treeHashes(root), before);
  assert.equal(existsSync(journalOf(root)), false);
});

test('a refresh failure still answers the committed application with a degraded derived-refresh report', async () => {
  const { root, id, hash, server } = await prepared({ DOCFORGE_TEST_FAULT_POINT: 'apply_refresh_fail' });
  const applied = await server.call('docforge_apply_changeset', { changeset_id: id, changeset_sha256: hash });
  assert.equal(applied.ok, true, JSON.stringify(applied.error));
  assert.equal(applied.result!.derived_refresh.status, 'degraded');
  assert.match(applied.result!.derived_refresh.remediation, /do NOT apply this changeset again/);
  assert.equal((await server.call('docforge_get_node', { node_id: 'CMP-LEDGER' })).result!.node.status, 'deprecated');
});

// The after state, from an uninterrupted application of the same operations on a twin copy.
let afterState: Map<string, string> | null = null;
async function expectedAfter(): Promise<Map<string, string>> {
  if (afterState !== null) return afterState;
  const { root, id, hash, server } = await prepared();
  assert.equal((await server.call('docforge_apply_changeset', { changeset_id: id, changeset_sha256: hash })).ok, true);
  await server.close();
  afterState = treeHashes(root);
  return afterState;
}

const KILL_STEPS: { step: string; outcome: 'before' | 'after' }[] = [
  { step: 'prepared', outcome: 'before' },
  { step: 'half_written', outcome: 'before' },
  { step: 'written', outcome: 'before' },
  { step: 'verified', outcome: 'after' },
  { step: 'committed', outcome: 'after' },
];

for (const { step, outcome } of KILL_STEPS) {
  test(`SIGKILL at journal step ${step}: a read-only server never publishes the half-applied files; the next gated start recovers to exactly ${outcome}`, async () => {
    const after = await expectedAfter();
    const marker = path.join(tempDir('docforge-fault-'), 'marker');
    const { root, id, hash, revision, server: doomed } = await prepared({ DOCFORGE_TEST_FAULT_POINT: `apply_kill_${step}`, DOCFORGE_TEST_FAULT_MARKER: marker });
    const before = treeHashes(root);
    let settled = false;
    const pending = doomed.call('docforge_apply_changeset', { changeset_id: id, changeset_sha256: hash }).catch(() => null).finally(() => { settled = true; });
    // Until the server reaches the step (it then waits to be killed) or its call ends without reaching it: no
    // time bound of its own, which a loaded machine could outlast (issue 29 item 7; it was 30 s).
    while (!existsSync(marker) && !settled) await sleep(50);
    assert.ok(existsSync(marker), `the server reached ${step}`);
    process.kill(Number(readFileSync(marker, 'utf8')), 'SIGKILL');
    await pending;
    assert.ok(existsSync(journalOf(root)), 'the journal stays open after the kill');

    // Meanwhile: a read-only server serves the last publication, staleness unknown, naming the application.
    const generationBefore = generation(root);
    const reader = await useServer(root, { mode: 'read' });
    const synced = await reader.call('docforge_sync');
    assert.equal(synced.project!.staleness, 'unknown');
    const syncError = synced.project!.sync_error as Json | undefined;
    assert.equal(syncError?.code, 'application_in_progress');
    assert.equal(syncError?.details.changeset_id, id);
    assert.equal(synced.project!.revision, revision);
    const ledger = await reader.call('docforge_get_node', { node_id: 'CMP-LEDGER' });
    assert.equal(ledger.result!.node.status, 'accepted', 'the old content is served');
    assert.equal(generation(root), generationBefore, 'nothing was published from the half-applied files');
    await reader.close();

    // The next gated start recovers.
    const gated = await useServer(root, { canonicalApplier: 'reviewer' });
    assert.equal(existsSync(journalOf(root)), false, 'recovery closed the journal');
    assert.deepEqual(treeHashes(root), outcome === 'before' ? before : after);
    const status = (await gated.call('docforge_get_changeset', { changeset_id: id })).result!.changeset.stored_status;
    assert.equal(status, outcome === 'before' ? 'ready' : 'applied');
    const fresh = await gated.call('docforge_get_node', { node_id: 'CMP-LEDGER' });
    assert.equal(fresh.project!.staleness, 'current');
    assert.equal(fresh.result!.node.status, outcome === 'before' ? 'accepted' : 'deprecated');
  });
}
