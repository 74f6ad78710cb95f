// Pins that DocForge creates nothing through a symlinked parent of [state].dir: sync, bootstrap and the changeset store refuse with path_outside_root before any mkdir, leaving the link target and the content root untouched.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ChangesetStore } from '@docforge/changesets';
import { DocforgeError } from '@docforge/core';
import { ensureStateDir, stateLayout } from '@docforge/fs-safe';
import { CLI_ENTRY } from './helpers/paths.js';
import { exampleProjectCopy, tempDir } from './helpers/projects.js';
import { expectError, useServer } from './helpers/server.js';

/** SHA-256 over every path, link target and file content below `dir` (sorted): any created or changed entry changes it. */
function treeHash(dir: string): string {
  const hash = createHash('sha256');
  const walk = (rel: string): void => {
    for (const name of readdirSync(path.join(dir, rel)).sort()) {
      const child = path.join(rel, name);
      const st = lstatSync(path.join(dir, child));
      hash.update(`${child}\0${st.isDirectory() ? 'd' : st.isSymbolicLink() ? 'l' : 'f'}\0`);
      if (st.isDirectory()) walk(child);
      else if (st.isFile()) hash.update(readFileSync(path.join(dir, child)));
    }
  };
  walk('');
  return hash.digest('hex');
}

function withStateDir(root: string, dir: string): void {
  const file = path.join(root, 'docforge.toml');
  writeFileSync(file, readFileSync(file, 'utf8').replace('dir = ".docforge"', `dir = "${dir}"`));
}

function cli(args: string[]) {
  return spawnSync(process.execPath, [CLI_ENTRY, ...args], { encoding: 'utf8' });
}

test('a state dir under a symlink out of the root: sync refuses with path_outside_root and writes nothing there', () => {
  const root = exampleProjectCopy({ state: false });
  const out = tempDir('docforge-out-');
  symlinkSync(out, path.join(root, 'link'));
  withStateDir(root, 'link/state');
  const docs = treeHash(path.join(root, 'docs'));
  const sync = cli(['sync', '-C', root]);
  assert.notEqual(sync.status, 0);
  assert.match(sync.stderr, /path_outside_root.*"link\/state" resolves outside the project root.*nothing was written/);
  assert.deepEqual(readdirSync(out), [], 'nothing created through the link');
  assert.equal(treeHash(path.join(root, 'docs')), docs);
});

test('a state dir under a symlink into the content root: bootstrap refuses with path_outside_root and the content root is untouched', async () => {
  const root = exampleProjectCopy({ state: false });
  symlinkSync('docs', path.join(root, 'st'));
  withStateDir(root, 'st/state');
  const docs = treeHash(path.join(root, 'docs'));
  const s = await useServer(root);
  const error = await expectError(s.call('docforge_bootstrap'), 'path_outside_root');
  assert.match(error.message, /passes through "st", which is a symbolic link.*nothing was written/);
  assert.equal(treeHash(path.join(root, 'docs')), docs);
  assert.deepEqual(readdirSync(root).filter((n) => n === '.docforge' || n === 'state'), []);
});

test('ensureStateDir and the changeset store refuse a linked component before creating anything', async () => {
  const root = tempDir('docforge-state-');
  const out = tempDir('docforge-out-');
  symlinkSync(out, path.join(root, 'link'));
  const isOutside = (error: unknown) => error instanceof DocforgeError && error.code === 'path_outside_root' && error.details['path'] === 'link' && /nothing was written/.test(error.message);
  assert.throws(() => ensureStateDir(root, path.join(root, 'link', 'state', 'index')), isOutside);
  const store = new ChangesetStore(path.join(root, 'link', 'state'), root);
  await assert.rejects(store.mutate(() => 1), isOutside);
  assert.deepEqual(readdirSync(out), []);
  // A file where a directory belongs is refused the same way.
  writeFileSync(path.join(root, 'plain'), 'x');
  assert.throws(() => ensureStateDir(root, path.join(root, 'plain', 'index')), (e: unknown) => e instanceof DocforgeError && e.code === 'path_outside_root' && e.details['path'] === 'plain');
  // A real path is created, one directory at a time, with its layout directories.
  const layout = stateLayout(path.join(root, 'a', 'state'), root);
  ensureStateDir(root, layout.indexDir);
  ensureStateDir(root, layout.locksDir);
  assert.ok(lstatSync(layout.indexDir).isDirectory() && lstatSync(layout.locksDir).isDirectory());
});
