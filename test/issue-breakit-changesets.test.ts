// Pins four break-it trial faults of the changeset path, each as a kind of fault: (1) created and moved paths are bounded in bytes and segments (`invalid_arguments`, `path_too_long` / `path_too_deep`), a legitimate deep path applies, and a crash mid-apply leaves none of the folders the application made; (2) a created path the source walk would not read back (a name that is only an extension, another extension, a folder an exclude glob skips) is refused at registration, never stored `ready`; (3) a later overlapping changeset, even an invalid draft of another writer, never blocks an earlier ready one: the later one carries the conflict; (4) the state dir's files are never read through a symbolic link and never quoted.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import path from 'node:path';
import { treeHashes } from './helpers/hashes.js';
import { exampleProjectCopy, tempDir } from './helpers/projects.js';
import { useServer } from './helpers/server.js';

const create = (p: string, id = 'DOC-DEEP-1'): Record<string, unknown> => ({ op: 'node_create', node: { id, kind: 'document', title: 'Deep memo' }, path: p, body: '# Deep memo\n\nText.\n' });

test('paths over the byte or segment bound are invalid_arguments with their reason code; nothing is stored', async () => {
  const root = exampleProjectCopy();
  const server = await useServer(root, { proposalWriter: 'agent' });
  const deep = await server.call('docforge_register_changes', { operations: [create(`docs/${'a/'.repeat(300)}x.md`)] });
  assert.equal(deep.ok, false);
  assert.equal(deep.error!.code, 'invalid_arguments');
  assert.equal(deep.error!.details.reason_code, 'path_too_deep');
  assert.equal(deep.error!.details.limit_segments, 64);
  const long = await server.call('docforge_register_changes', { operations: [create(`docs/${`${'b'.repeat(200)}/`.repeat(12)}x.md`)] });
  assert.equal(long.ok, false);
  assert.equal(long.error!.details.reason_code, 'path_too_long');
  assert.equal(long.error!.details.limit_bytes, 2048);
  const listed = await server.call('docforge_list_changesets');
  assert.equal(JSON.stringify(listed.result).includes('cs-'), false, JSON.stringify(listed.result));
});

test('a path of legitimate depth applies; a kill mid-apply is recovered and leaves none of the folders it made', async () => {
  const root = exampleProjectCopy();
  const rel = `docs/${'deep/'.repeat(40)}x.md`;
  // The armed gated server registers (writer agent) and applies: one server start fewer (issue 29 item 7; the point arms only the application).
  const marker = path.join(tempDir('docforge-fault-'), 'marker');
  const doomed = await useServer(root, { proposalWriter: 'agent', canonicalApplier: 'reviewer', env: { DOCFORGE_TEST_FAULT_POINT: 'apply_kill_temp_written', DOCFORGE_TEST_FAULT_MARKER: marker } });
  const reg = await doomed.call('docforge_register_changes', { operations: [create(rel)] });
  assert.equal(reg.result!.status, 'ready', JSON.stringify(reg.result!.findings));
  const before = treeHashes(root);
  let settled = false;
  const pending = doomed.call('docforge_apply_changeset', { changeset_id: reg.result!.changeset_id, changeset_sha256: reg.result!.changeset_sha256 }).catch(() => null).finally(() => { settled = true; });
  // Until the apply reaches the point (it then waits to be killed) or its call ends without reaching it (no time bound of its own).
  while (!existsSync(marker) && !settled) await sleep(50);
  assert.ok(existsSync(marker), 'the apply reached the kill point');
  for (const pid of readFileSync(marker, 'utf8').trim().split(' ').map(Number)) process.kill(pid, 'SIGKILL');
  await pending;
  assert.ok(existsSync(path.join(root, 'docs/deep/deep')), 'the killed apply had made the folders');
  const gated = await useServer(root, { canonicalApplier: 'reviewer' });
  assert.equal(existsSync(path.join(root, 'docs/deep')), false, 'recovery removed every folder the application made');
  assert.deepEqual(treeHashes(root), before);
  const applied = await gated.call('docforge_apply_changeset', { changeset_id: reg.result!.changeset_id, changeset_sha256: reg.result!.changeset_sha256 });
  assert.equal(applied.ok, true, JSON.stringify(applied.error));
  assert.ok(existsSync(path.join(root, ...rel.split('/'))));
});

test('a created path the source walk would not read back is refused at registration (not_read_back)', async () => {
  const root = exampleProjectCopy();
  writeFileSync(path.join(root, 'docforge.toml'), readFileSync(path.join(root, 'docforge.toml'), 'utf8').replace('exclude = ["**/node_modules/**"]', 'exclude = ["**/node_modules/**", "docs/drafts"]'));
  const server = await useServer(root, { proposalWriter: 'agent' });
  for (const p of ['docs/.md', 'docs/sub/.markdown', 'docs/notes.txt', 'docs/drafts/x.md']) {
    const r = await server.call('docforge_register_changes', { operations: [create(p)] });
    assert.equal(r.ok, false, `${p} is refused`);
    assert.equal(r.error!.code, 'path_outside_root', p);
    assert.equal(r.error!.details.reason_code, 'not_read_back', p);
  }
  const ok = await server.call('docforge_register_changes', { operations: [create('docs/.hidden/y.md')] });
  assert.equal(ok.result!.status, 'ready', 'a hidden folder the walk reads is allowed');
});

test('a later overlapping draft of another writer does not block an earlier ready changeset; the later one carries the conflict', async () => {
  const root = exampleProjectCopy();
  const update = (status: string): Record<string, unknown> => ({ op: 'node_update', node_id: 'CMP-LEDGER', set: { status } });
  // The first writer's server is the gated one too (one server start fewer; issue 29 item 7).
  const first = await useServer(root, { proposalWriter: 'agent', canonicalApplier: 'reviewer' });
  const r1 = await first.call('docforge_register_changes', { operations: [update('deprecated')] });
  assert.equal(r1.result!.status, 'ready', JSON.stringify(r1.result!.findings));
  const second = await useServer(root, { proposalWriter: 'other' });
  const r3 = await second.call('docforge_register_changes', { operations: [update('accepted'), { op: 'node_update', node_id: 'CMP-LEDGER', set: { status: 'no-such-status' } }] });
  assert.equal(r3.result!.status, 'draft');
  assert.ok(r3.result!.findings.some((f: { code: string }) => f.code === 'conflict'), 'the later one carries the conflict');
  const got = await first.call('docforge_get_changeset', { changeset_id: r1.result!.changeset_id });
  assert.equal(got.result!.changeset.stored_status, 'ready');
  const applier = first;
  const applied = await applier.call('docforge_apply_changeset', { changeset_id: r1.result!.changeset_id, changeset_sha256: r1.result!.changeset_sha256 });
  assert.equal(applied.ok, true, JSON.stringify(applied.error));
});

test('state files are never read through a symbolic link, and a planted file is never quoted', async () => {
  const root = exampleProjectCopy();
  const server = await useServer(root, { proposalWriter: 'agent' });
  await server.call('docforge_list_changesets');
  const store = path.join(root, '.docforge/changesets');
  const secret = path.join(tempDir('docforge-secret-'), 'secret.txt');
  writeFileSync(secret, 'TOP-SECRET-LINE\n');
  if (!existsSync(store)) await server.call('docforge_register_changes', { operations: [create('docs/z.md', 'DOC-Z')] });
  symlinkSync(secret, path.join(store, 'cs-link.json'));
  writeFileSync(path.join(store, 'cs-junk.json'), 'TOP-SECRET-LINE not json');
  for (const id of ['cs-link', 'cs-junk']) {
    const r = await server.call('docforge_get_changeset', { changeset_id: id });
    assert.equal(r.ok, false);
    assert.equal(r.error!.code, 'changeset_corrupt', id);
    assert.ok(!JSON.stringify(r.error).includes('TOP-SECRET'), `${id}: the error quotes no content: ${JSON.stringify(r.error)}`);
  }
  assert.ok(readdirSync(store).includes('cs-link.json'));
  // The journal: a link planted as <state>/application/journal.json is refused unread.
  const app = path.join(root, '.docforge/application');
  if (!existsSync(app)) (await import('node:fs')).mkdirSync(app, { recursive: true });
  symlinkSync(secret, path.join(app, 'journal.json'));
  await server.close();
  const gated = await useServer(root, { canonicalApplier: 'reviewer' }).catch((error: unknown) => error as Error);
  const text = gated instanceof Error ? gated.message : JSON.stringify((await gated.call('docforge_bootstrap')));
  assert.ok(!text.includes('TOP-SECRET'), text.slice(0, 400));
});
