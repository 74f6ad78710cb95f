// Pins the second canonical-applier attacker trial (ap2): a gated start answers initialize at once whatever the application lock and retries recovery before each call until it passes (no restart); the gate's errors report the last publication.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import path from 'node:path';
import { exampleProjectCopy, tempDir } from './helpers/projects.js';
import { expectError, useServer, type Json } from './helpers/server.js';

const RECORDS = 'docs/decisions/records.toml';
const journalOf = (root: string): string => path.join(root, '.docforge/application/journal.json');

test('F1: a gated server started while another process holds the application lock answers at once, and serves once the lock is free', async () => {
  const root = exampleProjectCopy();
  const marker = path.join(tempDir('docforge-fault-'), 'marker');
  const holder = await useServer(root, { proposalWriter: 'agent', canonicalApplier: 'reviewer', env: { DOCFORGE_TEST_FAULT_POINT: 'apply_kill_prepared', DOCFORGE_TEST_FAULT_MARKER: marker } });
  const reg = await holder.call('docforge_register_changes', { operations: [{ op: 'node_update', node_id: 'CMP-LEDGER', body: '# Ledger\n\nheld\n' }] as Json[] });
  const id = reg.result!.changeset_id;
  let settled = false;
  const pending = holder.call('docforge_apply_changeset', { changeset_id: id, changeset_sha256: reg.result!.changeset_sha256 }).catch(() => null).finally(() => { settled = true; });
  while (!existsSync(marker) && !settled) await sleep(50);
  assert.ok(existsSync(marker), 'the holder stopped at prepared, holding the application lock');

  const gated = await useServer(root, { canonicalApplier: 'reviewer' });
  const held = await gated.call('docforge_sync');
  assert.equal(settled, false, 'answered while the holder still holds the lock');
  const error = await expectError(held, 'lock_timeout');
  assert.ok(error.remediation);

  // The holder dies at prepared: the lock is free, the next call recovers and serves.
  for (const pid of readFileSync(marker, 'utf8').trim().split(' ').map(Number)) process.kill(pid, 'SIGKILL');
  await pending;
  const synced = await gated.call('docforge_sync');
  assert.equal(synced.ok, true, JSON.stringify(synced.error));
  assert.equal(existsSync(journalOf(root)), false, 'the interrupted application was recovered');
  assert.equal((await gated.call('docforge_get_changeset', { changeset_id: id })).result!.changeset.stored_status, 'ready');
  await gated.close();
  // F9b: the gate's error reported the project and its last publication, not the unbound server's nulls.
  assert.notEqual(held.project!.id, null, 'the gate error reports the project (F9b)');
  assert.ok(held.project!.revision > 0 && held.project!.source_hash !== null, 'the gate error reports the last publication (F9b)');
});

/** Registers `operations` (writer `agent`) on a copy of the example and SIGKILLs the applying server at journal step `step`. */
async function crashedAt(step: string, operations: Json[]): Promise<{ root: string; id: string }> {
  const root = exampleProjectCopy();
  const marker = path.join(tempDir('docforge-fault-'), 'marker');
  const server = await useServer(root, { proposalWriter: 'agent', canonicalApplier: 'reviewer', env: { DOCFORGE_TEST_FAULT_POINT: `apply_kill_${step}`, DOCFORGE_TEST_FAULT_MARKER: marker } });
  const reg = await server.call('docforge_register_changes', { operations });
  assert.equal(reg.result!.status, 'ready', JSON.stringify(reg.result!.findings));
  let settled = false;
  const pending = server.call('docforge_apply_changeset', { changeset_id: reg.result!.changeset_id, changeset_sha256: reg.result!.changeset_sha256 }).catch(() => null).finally(() => { settled = true; });
  while (!existsSync(marker) && !settled) await sleep(50);
  assert.ok(existsSync(marker), `the apply reached ${step}`);
  for (const pid of readFileSync(marker, 'utf8').trim().split(' ').map(Number)) process.kill(pid, 'SIGKILL');
  await pending;
  assert.equal(JSON.parse(readFileSync(journalOf(root), 'utf8')).step, step);
  return { root, id: reg.result!.changeset_id };
}

const TWO: Json[] = [
  { op: 'node_update', node_id: 'CMP-LEDGER', body: '# Ledger\n\nNew ledger body.\n' },
  { op: 'node_update', node_id: 'ADR-004', set: { title: 'Retry budgets per tenant' } },
];

test('F3: the changeset an open journal names cannot be abandoned; the gated recovery then stores it applied', async () => {
  const { root, id } = await crashedAt('verified', TWO);
  const agent = await useServer(root, { proposalWriter: 'agent' });
  const error = await expectError(agent.call('docforge_abandon_changeset', { changeset_id: id }), 'application_in_progress');
  assert.equal(error.details.changeset_id, id);
  await agent.close();
  const gated = await useServer(root, { canonicalApplier: 'reviewer' });
  assert.equal((await gated.call('docforge_get_changeset', { changeset_id: id })).result!.changeset.stored_status, 'applied');
  await gated.close();
});

test('F2: a file gone with its folder after the crash is a recovery conflict naming it and its folder; re-creating the folder and copying the backup back finishes the rollback', async () => {
  const { root, id } = await crashedAt('written', TWO);
  rmSync(path.join(root, 'docs/decisions'), { recursive: true, force: true });
  const gated = await useServer(root, { canonicalApplier: 'reviewer' });
  const error = await expectError(gated.call('docforge_sync'), 'application_recovery_conflict');
  assert.deepEqual(error.details.paths, [RECORDS]);
  const gone = (error.details.files as Json[]).find((f) => f.path === RECORDS)!;
  assert.equal(gone.remedy, 'recreate_folder_and_copy_backup_back');
  assert.match(error.message, /re-create the folder docs\/decisions and copy the backup \S+ back to docs\/decisions\/records\.toml/);
  assert.equal(error.remediation, 'resolve_changed_files_by_hand');

  // The by-hand steps the message gives; the next call finishes the rollback (no restart).
  mkdirSync(path.join(root, 'docs/decisions'));
  copyFileSync(path.join(root, '.docforge/application/backup', gone.backup), path.join(root, RECORDS));
  assert.equal((await gated.call('docforge_get_changeset', { changeset_id: id })).result!.changeset.stored_status, 'ready');
  assert.equal(existsSync(journalOf(root)), false);
  await gated.close();
});

test('F9a: an edited file the changeset created is a conflict whose step is to delete it, not to copy a backup back', async () => {
  const created = 'docs/requirements/pay-099-refund-receipts.md';
  const { root, id } = await crashedAt('written', [
    { op: 'node_create', node: { id: 'REQ-PAY-099', kind: 'requirement', title: 'Refund receipts', status: 'draft', relations: { refines: ['REQ-PAY-005'] } }, path: created, body: '# Refund receipts\n\nEvery refund issues a receipt.\n' },
    ...TWO,
  ]);
  appendFileSync(path.join(root, created), '\nA hand edit after the crash.\n');
  const gated = await useServer(root, { canonicalApplier: 'reviewer' });
  const error = await expectError(gated.call('docforge_sync'), 'application_recovery_conflict');
  assert.deepEqual(error.details.paths, [created]);
  const file = (error.details.files as Json[]).find((f) => f.path === created)!;
  assert.equal(file.backup, null);
  assert.equal(file.remedy, 'delete_created_file');
  assert.match(error.message, /delete docs\/requirements\/pay-099-refund-receipts\.md \(the change created it/);
  assert.doesNotMatch(error.message, /copy each listed file's backup/);

  rmSync(path.join(root, created));
  assert.equal((await gated.call('docforge_get_changeset', { changeset_id: id })).result!.changeset.stored_status, 'ready');
  assert.equal(existsSync(path.join(root, created)), false);
  await gated.close();
});

test('F4: a journal whose files are not the ones the changeset writes is refused, whatever its step; nothing is stored applied', async () => {
  for (const files of ['none', 'stray'] as const) {
    const { root, id } = await crashedAt('prepared', TWO);
    const journal = JSON.parse(readFileSync(journalOf(root), 'utf8')) as Json;
    journal.step = 'verified';
    if (files === 'none') journal.files = [];
    else journal.files = (journal.files as Json[]).map((f) => (f.path === RECORDS ? { ...f, path: 'docs/components/retry.md', target: 'docs/components/retry.md' } : f));
    writeFileSync(journalOf(root), JSON.stringify(journal));
    const gated = await useServer(root, { canonicalApplier: 'reviewer' });
    const error = await expectError(gated.call('docforge_get_changeset', { changeset_id: id }), 'application_journal_invalid');
    assert.equal(error.details.reason_code, 'files', `${files}: ${error.message}`);
    await gated.close();
    const reader = await useServer(root, { mode: 'read' });
    await reader.close();
    assert.equal(JSON.parse(readFileSync(path.join(root, `.docforge/changesets/${id}.json`), 'utf8')).status, 'ready', `${files}: not stored applied`);
  }
});
