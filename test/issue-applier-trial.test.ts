// Pins the canonical-applier attacker trial (F1-F4): recovery after a crash never overwrites a file edited or removed since (it refuses with application_recovery_conflict naming each one, keeping journal and backups, and finishes once a person copies the backups back); an applied file keeps its mode and owner and a file with other hard links is refused before any write; a write failure that changed nothing rolls back without writing and leaves no open journal; a change making a file larger than the 16 MiB source limit never becomes ready.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, chmodSync, chownSync, copyFileSync, existsSync, linkSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import path from 'node:path';
import { treeHashes } from './helpers/hashes.js';
import { CLI_ENTRY } from './helpers/paths.js';
import { exampleProjectCopy, tempDir } from './helpers/projects.js';
import { expectError, useServer, type Json, type Server } from './helpers/server.js';

const LEDGER = 'docs/components/ledger.md';
const RETRY = 'docs/components/retry.md';
const RECORDS = 'docs/decisions/records.toml';
const journalOf = (root: string): string => path.join(root, '.docforge/application/journal.json');
const backupOf = (root: string): string => path.join(root, '.docforge/application/backup');

/** The trial's three operations: a large ledger body, a retry body, a decision record's title. */
const THREE: Json[] = [
  { op: 'node_update', node_id: 'CMP-LEDGER', body: `# Double-entry ledger\n\n${'Every entry balances. '.repeat(20_000)}\n` },
  { op: 'node_update', node_id: 'CMP-RETRY', body: '# Retry policy\n\nRetries back off exponentially.\n' },
  { op: 'node_update', node_id: 'ADR-004', set: { title: 'Retry budgets per tenant' } },
];

/** A copy of the example with THREE registered ready by `server` (writer `agent`, applier `reviewer`). */
async function registered(env?: Record<string, string>): Promise<{ root: string; id: string; hash: string; server: Server }> {
  const root = exampleProjectCopy();
  const server = await useServer(root, { proposalWriter: 'agent', canonicalApplier: 'reviewer', ...(env === undefined ? {} : { env }) });
  const reg = await server.call('docforge_register_changes', { operations: THREE });
  assert.equal(reg.result!.status, 'ready', JSON.stringify(reg.result!.findings));
  return { root, id: reg.result!.changeset_id, hash: reg.result!.changeset_sha256, server };
}

/** Registers THREE and SIGKILLs the applying server (and its confined-directory child) with the first temp file written: journal step `writing`, every file still at its before bytes. */
async function crashedWhileWriting(): Promise<{ root: string; id: string; before: Map<string, string> }> {
  const marker = path.join(tempDir('docforge-fault-'), 'marker');
  const { root, id, hash, server } = await registered({ DOCFORGE_TEST_FAULT_POINT: 'apply_kill_temp_written', DOCFORGE_TEST_FAULT_MARKER: marker });
  const before = treeHashes(root);
  let settled = false;
  const pending = server.call('docforge_apply_changeset', { changeset_id: id, changeset_sha256: hash }).catch(() => null).finally(() => { settled = true; });
  while (!existsSync(marker) && !settled) await sleep(50);
  assert.ok(existsSync(marker), 'the apply reached the kill point');
  for (const pid of readFileSync(marker, 'utf8').trim().split(' ').map(Number)) process.kill(pid, 'SIGKILL');
  await pending;
  assert.equal(JSON.parse(readFileSync(journalOf(root), 'utf8')).step, 'writing');
  for (const rel of [LEDGER, RETRY, RECORDS]) assert.equal(treeHashes(root).get(rel), before.get(rel), `${rel} still holds its before bytes`);
  return { root, id, before };
}

test('F1: recovery never overwrites files edited after the crash; it refuses naming them, keeps journal and backups, and finishes once the backups are copied back', async () => {
  const { root, id, before } = await crashedWhileWriting();
  appendFileSync(path.join(root, RETRY), '\nA hand edit after the crash.\n');
  appendFileSync(path.join(root, RECORDS), '\n# a hand edit after the crash\n');
  const edited = treeHashes(root);
  const reader = await useServer(root, { mode: 'read' });
  assert.equal((await reader.call('docforge_sync')).project!.sync_error?.code, 'application_in_progress');
  await reader.close();

  const gated = await useServer(root, { canonicalApplier: 'reviewer' });
  const error = await expectError(gated.call('docforge_sync'), 'application_recovery_conflict');
  await gated.close();
  assert.deepEqual([...error.details.paths].sort(), [RECORDS, RETRY].sort());
  const states = Object.fromEntries((error.details.files as Json[]).map((f) => [f.path, f.state]));
  assert.deepEqual(states, { [LEDGER]: 'before', [RETRY]: 'neither', [RECORDS]: 'neither' });
  assert.match(error.message, /never overwrites/);
  assert.equal(error.remediation, 'resolve_changed_files_by_hand');
  assert.deepEqual(treeHashes(root), edited, 'nothing was written: the hand edits stay');
  assert.ok(existsSync(journalOf(root)) && readdirSync(backupOf(root)).length === 3, 'journal and backups kept');

  // The remedy: copy each listed file's backup back; the next gated start finishes the rollback.
  for (const f of error.details.files as Json[]) if (f.state === 'neither') copyFileSync(path.join(backupOf(root), f.backup), path.join(root, f.path));
  const recovered = await useServer(root, { canonicalApplier: 'reviewer' });
  assert.equal((await recovered.call('docforge_get_changeset', { changeset_id: id })).result!.changeset.stored_status, 'ready');
  assert.equal(existsSync(journalOf(root)), false);
  assert.deepEqual(treeHashes(root), before);
});

test('F1: a file deleted after the crash is neither state: recovery refuses and keeps the journal', async () => {
  const { root } = await crashedWhileWriting();
  rmSync(path.join(root, RETRY));
  const gated = await useServer(root, { canonicalApplier: 'reviewer' });
  const error = await expectError(gated.call('docforge_sync'), 'application_recovery_conflict');
  assert.deepEqual(error.details.paths, [RETRY]);
  assert.equal((error.details.files as Json[]).find((f) => f.path === RETRY)!.sha256, null);
  assert.equal(existsSync(path.join(root, RETRY)), false, 'the deleted file is not re-created behind the person');
  assert.ok(existsSync(journalOf(root)));
});

test('F2: an applied file keeps its mode, owner and group; a file with other hard links is refused before any write', async () => {
  const { root, id, hash, server } = await registered();
  const nobody = 65534;
  chmodSync(path.join(root, LEDGER), 0o600);
  chownSync(path.join(root, LEDGER), nobody, nobody);
  chmodSync(path.join(root, RECORDS), 0o444);
  linkSync(path.join(root, RETRY), path.join(root, 'retry-link.txt'));
  const before = treeHashes(root);
  const refused = await expectError(server.call('docforge_apply_changeset', { changeset_id: id, changeset_sha256: hash }), 'application_refused');
  assert.equal(refused.details.reason_code, 'hard_link');
  assert.equal(refused.details.path, RETRY);
  assert.deepEqual(treeHashes(root), before, 'nothing written');

  rmSync(path.join(root, 'retry-link.txt'));
  const applied = await server.call('docforge_apply_changeset', { changeset_id: id, changeset_sha256: hash });
  assert.equal(applied.ok, true, JSON.stringify(applied.error));
  const ledger = statSync(path.join(root, LEDGER));
  assert.equal(ledger.mode & 0o7777, 0o600);
  assert.deepEqual([ledger.uid, ledger.gid], [nobody, nobody]);
  assert.equal(statSync(path.join(root, RECORDS)).mode & 0o7777, 0o444);
  assert.match(readFileSync(path.join(root, RECORDS), 'utf8'), /Retry budgets per tenant/);
});

/** `docforge changeset apply` of `id` as user nobody (chown the project copy to nobody first). */
function applyAsNobody(root: string, id: string, hash: string): ReturnType<typeof spawnSync> {
  const home = tempDir('docforge-home-');
  chownSync(home, 65534, 65534);
  return spawnSync(process.execPath, [CLI_ENTRY, 'changeset', 'apply', id, '--sha256', hash, '--canonical-applier', 'reviewer', '-C', root, '--json'], { encoding: 'utf8', uid: 65534, gid: 65534, env: { ...process.env, HOME: home } });
}

test('F3: a write failure that changed nothing rolls back without writing and leaves no open journal; F2: a file of another owner is refused before any write', async () => {
  const { root, id, hash, server } = await registered();
  await server.close();
  const before = treeHashes(root);
  assert.equal(spawnSync('chown', ['-R', 'nobody:nogroup', root]).status, 0);
  chmodSync(path.join(root, 'docs/components'), 0o555);
  const failed = applyAsNobody(root, id, hash);
  assert.equal(failed.status, 1, String(failed.stderr));
  assert.match(String(failed.stderr), /application_failed/);
  assert.match(String(failed.stderr), /every canonical file holds its before bytes \(0 rewritten/);
  assert.doesNotMatch(String(failed.stderr), /may hold part of the change/);
  assert.equal(existsSync(journalOf(root)), false, 'no journal left open');
  assert.deepEqual(treeHashes(root), before);
  const reader = await useServer(root, { mode: 'read' });
  assert.equal((await reader.call('docforge_sync')).project!.sync_error, undefined, 'the project is not locked');
  await reader.close();

  chmodSync(path.join(root, 'docs/components'), 0o755);
  chownSync(path.join(root, RECORDS), 0, 0);
  const refused = applyAsNobody(root, id, hash);
  spawnSync('chown', ['root:root', path.join(root, RECORDS)]);
  assert.equal(refused.status, 1, String(refused.stderr));
  assert.match(String(refused.stderr), /application_refused/);
  assert.match(String(refused.stderr), /records\.toml is owned by 0:0/);
  assert.deepEqual(treeHashes(root), before);
  assert.equal(statSync(path.join(root, RECORDS)).uid, 0, 'the root-owned file was never replaced by one of nobody');
});

test('F4: a change making a file larger than the 16 MiB source limit is refused at registration with a finding naming the limit', async () => {
  const root = exampleProjectCopy();
  const server = await useServer(root, { proposalWriter: 'agent' });
  const reg = await server.call('docforge_register_changes', { operations: [{ op: 'node_update', node_id: 'CMP-LEDGER', body: `# Double-entry ledger\n\n${'日'.repeat(8_388_000)}\n` }] });
  assert.equal(reg.ok, true, JSON.stringify(reg.error));
  assert.notEqual(reg.result!.status, 'ready');
  const finding = (reg.result!.findings as Json[]).find((f) => f.code === 'file_too_large');
  assert.ok(finding, JSON.stringify(reg.result!.findings));
  assert.equal(finding.path, LEDGER);
  assert.match(finding.message, /16777216-byte \(16 MiB\) limit/);
});
