// Regression (bad-input review): damaged or hostile disposable state is rebuilt or refused, never trusted, and nothing outside the state dir is touched.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { closeSync, cpSync, existsSync, fstatSync, mkdirSync, openSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import { exampleProjectCopy, tempDir } from './helpers/projects.js';
import { expectError, useServer } from './helpers/server.js';

test('an index file overwritten in place is detected and rebuilt within the same call', async () => {
  const root = exampleProjectCopy();
  const s = await useServer(root);
  const boot = await s.call('docforge_bootstrap');
  const file = boot.result!.index.active_index_path as string;
  const fd = openSync(file, 'r+');
  const size = fstatSync(fd).size;
  writeSync(fd, Buffer.alloc(size, 0x5a), 0, size, 0);
  closeSync(fd);
  const e = await s.call('docforge_get_node', { node_id: 'REQ-PAY-001' });
  assert.equal(e.ok, true, JSON.stringify(e.error));
  assert.ok(e.project!.revision > boot.project!.revision);
});

test('a current.json with wrong types, a huge generation or a directory in its place is not trusted', async () => {
  const root = exampleProjectCopy();
  const s = await useServer(root);
  const boot = await s.call('docforge_bootstrap');
  const current = path.join(root, '.docforge', 'index', 'current.json');
  const good = JSON.parse(readFileSync(current, 'utf8'));
  writeFileSync(current, JSON.stringify({ ...good, source_hash: 5, counts: 'x' }));
  const a = await s.call('docforge_search', { query: 'ledger' });
  assert.equal(a.ok, true);
  assert.match(a.project!.source_hash, /^[0-9a-f]{64}$/);
  writeFileSync(current, JSON.stringify({ ...good, generation: Number.MAX_SAFE_INTEGER }));
  const b = await s.call('docforge_filter_nodes', { limit: 2 });
  assert.equal(b.ok, true, JSON.stringify(b.error));
  assert.ok(b.project!.revision < 2 ** 40);
  rmSync(current);
  mkdirSync(current);
  const c = await s.call('docforge_search', { query: 'ledger' });
  assert.equal(c.ok, true, JSON.stringify(c.error));
  const names = readdirSync(path.join(root, '.docforge', 'index')).filter((n) => n.endsWith('.sqlite'));
  assert.ok(names.length <= 2, `no leaked index files: ${names.join(', ')}`);
  assert.ok(boot.ok);
});

test('a symlinked index directory is refused and the link target is left alone', async () => {
  // No prebuilt state: the index directory itself is the planted symlink.
  const root = exampleProjectCopy({ state: false });
  const victim = tempDir('docforge-victim-');
  writeFileSync(path.join(victim, 'gen-00000007-backup.sqlite'), 'precious');
  writeFileSync(path.join(victim, 'important.tmp'), 'precious');
  mkdirSync(path.join(root, '.docforge'), { recursive: true });
  symlinkSync(victim, path.join(root, '.docforge', 'index'));
  const s = await useServer(root);
  await expectError(s.call('docforge_bootstrap'), 'path_outside_root');
  assert.deepEqual(readdirSync(victim).sort(), ['gen-00000007-backup.sqlite', 'important.tmp']);
  assert.equal(readFileSync(path.join(victim, 'important.tmp'), 'utf8'), 'precious');
});

test('a new symlink out of the root is reported by the next validation, with no other edit', async () => {
  const root = exampleProjectCopy();
  const s = await useServer(root);
  assert.equal((await s.call('docforge_validate_project')).result!.valid, true);
  symlinkSync('/etc/hostname', path.join(root, 'docs', 'x.md'));
  const v = await s.call('docforge_validate_project');
  assert.ok(v.result!.items.some((i: { code: string; path: string }) => i.code === 'path_outside_root' && i.path === 'docs/x.md'));
  rmSync(path.join(root, 'docs', 'x.md'));
  const after = await s.call('docforge_validate_project');
  assert.equal(after.result!.valid, true, 'the finding goes away with the link');
  assert.ok(existsSync(path.join(root, '.docforge', 'index', 'current.json')));
});

test('a state dir replaced by a file or a link while the server runs is named as such at the next call, never internal_error (break-it trial 50)', async () => {
  const root = exampleProjectCopy();
  const s = await useServer(root);
  const before = await s.call('docforge_search', { query: 'ledger' });
  assert.equal(before.ok, true);
  const victim = tempDir('docforge-victim-');
  for (const plant of [() => writeFileSync(path.join(root, '.docforge'), 'x\n'), () => symlinkSync(victim, path.join(root, '.docforge'))]) {
    rmSync(path.join(root, '.docforge'), { recursive: true, force: true });
    plant();
    // Reads serve the last publication with the state dir's problem as the sync error.
    const read = await s.call('docforge_search', { query: 'ledger' });
    assert.equal(read.project?.sync_error?.code, 'path_outside_root', JSON.stringify(read.project?.sync_error));
    assert.match(read.project!.sync_error!.message, /"\.docforge" is (not a directory|a symbolic link)/);
    const sync = await s.call('docforge_sync');
    assert.equal(sync.project?.sync_error?.code ?? sync.error?.code, 'path_outside_root');
  }
  assert.deepEqual(readdirSync(victim), [], 'nothing was written through the link');
});

test('a copied project whose copied index was tampered with (same size) answers from its sources, never from the copied state (issue 29 lever 2 finding)', async () => {
  const original = exampleProjectCopy();
  const s = await useServer(original);
  const boot = await s.call('docforge_bootstrap');
  const file = boot.result!.index.active_index_path as string;
  await s.close();
  // Every stored copy of the title, rewritten byte for byte at the same length.
  const bytes = readFileSync(file);
  const from = Buffer.from('Double-entry ledger');
  const to = Buffer.from('TAMPERED-entry ledg');
  let count = 0;
  for (let at = bytes.indexOf(from); at !== -1; at = bytes.indexOf(from, at + from.length)) {
    to.copy(bytes, at);
    count += 1;
  }
  assert.ok(count > 0, 'the title is stored in the index file');
  writeFileSync(file, bytes);
  const copy = tempDir('docforge-copied-state-');
  cpSync(original, copy, { recursive: true, preserveTimestamps: true });
  const c = await useServer(copy);
  const node = await c.call('docforge_get_node', { node_id: 'CMP-LEDGER' });
  assert.equal(node.ok, true, JSON.stringify(node.error));
  assert.equal((node.result as { node: { title: string } }).node.title, 'Double-entry ledger');
});
