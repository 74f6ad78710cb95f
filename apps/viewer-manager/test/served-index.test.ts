// Pins that ensure_worker serves only the current publication of a real DocForge project: an absolute existing root holding docforge.toml, index path resolving (realpath) to exactly <root>/<state dir>/index/<index_file> named by current.json with the same signature; everything else is refused with a structured error and starts no worker.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { DocforgeError } from '@docforge/core';
import { ensurePayload, fakeProject, startDaemon } from './helpers.js';

test('ensure_worker refuses any index that is not the published file of a DocForge project root', async (t) => {
  const daemon = await startDaemon();
  const project = fakeProject();
  const attacker = mkdtempSync(path.join(tmpdir(), 'dfvm-atk-'));
  t.after(async () => {
    await daemon.stop();
    project.remove();
    rmSync(attacker, { recursive: true, force: true });
  });
  const client = await daemon.connect('atk');
  const good = ensurePayload(project);
  // A copy of the index under the same name in a directory that is no project, and one with a forged current.json beside it.
  const crafted = path.join(attacker, good.signature.index_file);
  copyFileSync(good.index_path, crafted);
  const st = statSync(crafted, { bigint: true });
  const craftedSig = { ...good.signature, index_ino: String(st.ino), index_size: Number(st.size) };
  writeFileSync(path.join(attacker, 'current.json'), JSON.stringify({ forged: true }));
  // A second SQLite-named file inside the project's own index dir that current.json does not publish.
  const sibling = path.join(path.dirname(good.index_path), 'gen-9-z.sqlite');
  copyFileSync(good.index_path, sibling);
  const siblingSt = statSync(sibling, { bigint: true });
  // The same file inside the project but outside its state dir.
  mkdirSync(path.join(project.root, 'docs'));
  const inRoot = path.join(project.root, 'docs', good.signature.index_file);
  copyFileSync(good.index_path, inRoot);
  // A link inside the index dir's place pointing elsewhere.
  const linkRoot = mkdtempSync(path.join(tmpdir(), 'dfvm-link-'));
  t.after(() => rmSync(linkRoot, { recursive: true, force: true }));
  writeFileSync(path.join(linkRoot, 'docforge.toml'), 'schema_version = 1\n\n[project]\nid = "fake"\nname = "Fake"\n');
  symlinkSync(path.join(project.root, '.docforge'), path.join(linkRoot, '.docforge'));

  const cases: [string, object, string | string[]][] = [
    ['a root that is no DocForge project (no docforge.toml)', { ...good, project_root: attacker, index_path: crafted, signature: craftedSig }, 'project_root_invalid'],
    // What "/" answers depends on whether the machine has a /docforge.toml; refused either way.
    ['the filesystem root', { ...good, project_root: '/', index_path: crafted, signature: craftedSig }, ['project_root_invalid', 'descriptor_invalid', 'invalid_arguments']],
    ['a root that does not exist', { ...good, project_root: path.join(attacker, 'gone') }, 'project_root_invalid'],
    ['a root with ".." segments leading to a non-project', { ...good, project_root: `${project.root}/../${path.basename(attacker)}`, index_path: crafted, signature: craftedSig }, 'project_root_invalid'],
    ['a real project with an index outside it', { ...good, index_path: crafted, signature: craftedSig }, 'invalid_arguments'],
    ['a real project with the index file copied outside its state dir', { ...good, index_path: inRoot }, 'invalid_arguments'],
    ['a relative index path', { ...good, index_path: path.relative(process.cwd(), good.index_path) }, ['viewer_protocol_error', 'invalid_arguments']],
    ['an unpublished index file in the index dir', { ...good, index_path: sibling, signature: { ...good.signature, index_file: 'gen-9-z.sqlite', index_ino: String(siblingSt.ino), index_size: Number(siblingSt.size) } }, 'snapshot_replaced'],
    ['a signature other than the published one', { ...good, signature: { ...good.signature, generation: 7 } }, 'snapshot_replaced'],
    ['a root whose state dir is a symbolic link into another project', { ...good, project_root: linkRoot, index_path: path.join(linkRoot, '.docforge', 'index', good.signature.index_file) }, ['path_outside_root', 'invalid_arguments']],
  ];
  for (const [what, payload, code] of cases) {
    await assert.rejects(client.request('ensure_worker', payload as typeof good), (e: DocforgeError) => {
      assert.ok((Array.isArray(code) ? code : [code]).includes(e.code), `${what}: ${e.code}: ${e.message}`);
      assert.equal(typeof e.remediation, 'string');
      return true;
    }, what);
  }
  assert.deepEqual((await client.request('list_workers', {})).workers, [], 'no refused request started a worker');
  // The published file, also named through a symlinked root, is served.
  const aliasDir = mkdtempSync(path.join(tmpdir(), 'dfvm-alias-'));
  t.after(() => rmSync(aliasDir, { recursive: true, force: true }));
  symlinkSync(project.root, path.join(aliasDir, 'p'));
  const alias = path.join(aliasDir, 'p');
  const served = await client.request('ensure_worker', { ...good, project_root: alias, index_path: path.join(alias, '.docforge', 'index', good.signature.index_file) });
  assert.equal(served.worker.state, 'running');
  client.close();
});

test('containment is a path comparison, not a text prefix: "/" contains everything, "/a" does not contain "/ab"', async () => {
  const { pathWithin } = await import('@docforge/store');
  assert.equal(pathWithin('/', '/tmp/x'), true);
  assert.equal(pathWithin('/', '/'), true);
  assert.equal(pathWithin('/a', '/a/b'), true);
  assert.equal(pathWithin('/a', '/ab'), false);
  assert.equal(pathWithin('/a', '/a/../b'), false);
  assert.equal(pathWithin('/a/b', '/a'), false);
  assert.equal(pathWithin('/a', '/a/..b'), true, 'a name starting with two dots is inside');
});
