// Pins issue 30, item 24: what a SIGKILL during canonical application leaves is removed by recovery. A kill while a file's temp sibling `.<name>.<pid>.<random>.tmp` is written (in the confined-directory child, before its rename) leaves it in the content folder with the journal open; a kill after the backups are written but before the journal exists leaves `<state>/application/backup`. The next gated start recovers to exactly the before state and removes both.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import path from 'node:path';
import { treeHashes } from './helpers/hashes.js';
import { exampleProjectCopy, tempDir } from './helpers/projects.js';
import { useServer, type Server } from './helpers/server.js';

/**
 * A copy of the example with one registered ready changeset, and the gated server armed to stop at
 * the fault `point` that registered it (writer `agent`) and applies it: one server start per copy
 * instead of a writer's and then an applier's (issue 29 item 7; the point arms only application steps).
 */
async function prepared(point: string): Promise<{ root: string; id: string; hash: string; doomed: Server; marker: string }> {
  const root = exampleProjectCopy();
  const marker = path.join(tempDir('docforge-fault-'), 'marker');
  const doomed = await useServer(root, { proposalWriter: 'agent', canonicalApplier: 'reviewer', env: { DOCFORGE_TEST_FAULT_POINT: point, DOCFORGE_TEST_FAULT_MARKER: marker } });
  const reg = await doomed.call('docforge_register_changes', { operations: [{ op: 'node_update', node_id: 'CMP-LEDGER', set: { status: 'deprecated' }, body: '# Double-entry ledger\n\nReplaced by the new ledger.\n' }] });
  assert.equal(reg.result!.status, 'ready', JSON.stringify(reg.result!.findings));
  return { root, id: reg.result!.changeset_id, hash: reg.result!.changeset_sha256, doomed, marker };
}

const temps = (dir: string): string[] => readdirSync(dir).filter((n) => /^\..+\.\d+\.[0-9a-f]{12}\.tmp$/.test(n));

/** Starts `doomed`'s apply, which stops at `point` (writing `marker`), then SIGKILLs every pid the marker names. */
async function killedAt(doomed: Server, marker: string, id: string, hash: string, point: string): Promise<void> {
  let settled = false;
  const pending = doomed.call('docforge_apply_changeset', { changeset_id: id, changeset_sha256: hash }).catch(() => null).finally(() => { settled = true; });
  // Until the apply reaches the point (it then waits to be killed) or its call ends without reaching it (no time bound of its own).
  while (!existsSync(marker) && !settled) await sleep(50);
  assert.ok(existsSync(marker), `the apply reached ${point}`);
  // The server's pid, and for a kill point in the confined-directory child, the child's too.
  for (const pid of readFileSync(marker, 'utf8').trim().split(' ').map(Number)) process.kill(pid, 'SIGKILL');
  await pending;
}

test('a SIGKILL while a temp file is written leaves it in the content folder; the next gated start removes it and restores the before state', async () => {
  const { root, id, hash, doomed, marker } = await prepared('apply_kill_temp_written');
  const before = treeHashes(root);
  const folder = path.join(root, 'docs/components');
  await killedAt(doomed, marker, id, hash, 'apply_kill_temp_written');
  assert.equal(temps(folder).length, 1, 'the half-written temp file stays after the kill');
  assert.ok(existsSync(path.join(root, '.docforge/application/journal.json')), 'the journal stays open');
  const gated = await useServer(root, { canonicalApplier: 'reviewer' });
  assert.deepEqual(temps(folder), [], 'recovery removed the temp file');
  assert.equal(existsSync(path.join(root, '.docforge/application/journal.json')), false);
  assert.equal(existsSync(path.join(root, '.docforge/application/backup')), false);
  assert.deepEqual(treeHashes(root), before);
  assert.equal((await gated.call('docforge_get_changeset', { changeset_id: id })).result!.changeset.stored_status, 'ready');
});

test('a SIGKILL after the backups are written but before the journal exists leaves backups; the next gated start removes them', async () => {
  const { root, id, hash, doomed, marker } = await prepared('apply_kill_backed_up');
  const before = treeHashes(root);
  await killedAt(doomed, marker, id, hash, 'apply_kill_backed_up');
  const backup = path.join(root, '.docforge/application/backup');
  assert.ok(existsSync(backup) && readdirSync(backup).length > 0, 'backups stay after the kill');
  assert.equal(existsSync(path.join(root, '.docforge/application/journal.json')), false, 'no journal was written');
  const gated = await useServer(root, { canonicalApplier: 'reviewer' });
  assert.equal(existsSync(backup), false, 'recovery removed the backups');
  assert.deepEqual(temps(path.join(root, '.docforge/application')), []);
  assert.deepEqual(treeHashes(root), before);
  const applied = await gated.call('docforge_apply_changeset', { changeset_id: id, changeset_sha256: hash });
  assert.equal(applied.ok, true, JSON.stringify(applied.error));
});
