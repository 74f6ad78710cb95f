// Pins proposal path confinement whatever the roots are: with content_roots = ["."] a created, moved or edited source inside a code root, the descriptor, the state dir or .git is refused with path_outside_root naming the operation (never internal_error) and nothing is written; a stored changeset that became confined so reports it as a finding; projects whose code root contains the content root (fastify: docs in ".") still write normally.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { tempDir } from './helpers/projects.js';
import { expectError, useServer, type Json } from './helpers/server.js';
import { treeHashes } from './helpers/hashes.js';

function project(contentRoots: string[], codeRoots: string[], files: Record<string, string>): string {
  const root = tempDir('docforge-roots-');
  const list = (xs: string[]): string => `[${xs.map((x) => JSON.stringify(x)).join(', ')}]`;
  writeFileSync(path.join(root, 'docforge.toml'), `schema_version = 1\n[project]\nid = "roots"\nname = "Roots"\n[sources]\ncontent_roots = ${list(contentRoots)}\ncode_roots = ${list(codeRoots)}\n[adapter]\ncode = "typescript"\ncanonical_applier = "generic"\n[state]\ndir = ".docforge"\n`);
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    writeFileSync(path.join(root, rel), text);
  }
  return root;
}

function stored(root: string): string[] {
  const dir = path.join(root, '.docforge', 'changesets');
  return existsSync(dir) ? readdirSync(dir).filter((n) => n.endsWith('.json')) : [];
}

const node = (id: string): Json => ({ id, kind: 'document', title: 'New' });

test('content root "." with code root src: code root, descriptor, state dir and .git are never proposal targets', async () => {
  const root = project(['.'], ['src'], {
    'README.md': '# Readme\n',
    'docs/a.md': '+++\nid = "A-1"\nkind = "document"\ntitle = "A"\n+++\nBody of A.\n',
    'src/index.ts': 'export function f(): number {\n  return 1;\n}\n',
    'src/notes.md': '# Notes\n\nNotes beside the code.\n',
  });
  mkdirSync(path.join(root, '.git'));
  const server = await useServer(root, { proposalWriter: 'someone', canonicalApplier: 'owner' });
  const validate = (await server.call('docforge_validate_project')).result!;
  assert.ok((await server.call('docforge_get_node', { node_id: 'src/notes' })).ok, `the Markdown file in the code root is a content node: ${JSON.stringify(validate)}`);
  const before = treeHashes(root);
  const targets = ['src/evil.md', 'src/deep/evil.toml', 'docforge.toml', './docforge.toml', '.docforge/x.md', '.docforge/changesets/x.toml', '.git/x.md'];
  for (const target of targets) {
    const create = { op: 'node_create', node: node('NEW-1'), path: target, body: 'x' };
    const error = await expectError(server.call('docforge_register_changes', { operations: [create] }), 'path_outside_root');
    assert.equal(error.details.operation_index, 0, target);
    assert.match(error.message, /operation 0 \(node_create\)/, target);
    await expectError(server.call('docforge_propose_node_create', { node: create.node, path: target, body: 'x' }), 'path_outside_root');
    await expectError(server.call('docforge_register_changes', { operations: [{ op: 'node_move', node_id: 'A-1', new_path: target }] }), 'path_outside_root');
  }
  const inCode = await expectError(server.call('docforge_register_changes', { operations: [{ op: 'node_create', node: node('NEW-1'), path: 'src/evil.md', body: 'x' }] }), 'path_outside_root');
  assert.match(inCode.message, /code root "src"/);
  // A node already inside the code root is not edited, moved or deleted either.
  for (const op of [{ op: 'node_update', node_id: 'src/notes', body: 'changed' }, { op: 'node_delete', node_id: 'src/notes' }, { op: 'node_move', node_id: 'src/notes', new_path: 'docs/notes.md' }]) {
    await expectError(server.call('docforge_register_changes', { operations: [op] }), 'path_outside_root');
  }
  assert.deepEqual(stored(root), [], 'nothing was stored');
  assert.deepEqual(treeHashes(root), before, 'nothing was written');
  assert.ok(!server.stderr().includes('toml-patch'), 'no serializer stack on stderr');

  // Outside the code root the content root "." is written normally.
  const ok = (await server.call('docforge_register_changes', { operations: [{ op: 'node_create', node: node('NEW-2'), path: 'docs/new.md', body: 'Fine.\n' }] })).result!;
  assert.equal(ok.status, 'ready', JSON.stringify(ok.findings));
  const applied = await server.call('docforge_apply_changeset', { changeset_id: ok.changeset_id, changeset_sha256: ok.changeset_sha256 });
  assert.equal(applied.ok, true, JSON.stringify(applied.error));
  assert.match(readFileSync(path.join(root, 'docs/new.md'), 'utf8'), /id = "NEW-2"/);

  // A changeset stored before lib/ became a code root reports the confinement as a finding and is never applied.
  const later = (await server.call('docforge_register_changes', { operations: [{ op: 'node_create', node: node('NEW-3'), path: 'lib/x.md', body: 'x\n' }] })).result!;
  assert.equal(later.status, 'ready');
  const descriptor = path.join(root, 'docforge.toml');
  writeFileSync(descriptor, readFileSync(descriptor, 'utf8').replace('code_roots = ["src"]', 'code_roots = ["src", "lib"]'));
  mkdirSync(path.join(root, 'lib'), { recursive: true });
  const findings = (await server.call('docforge_validate_changeset', { changeset_id: later.changeset_id })).result!.findings as Json[];
  assert.ok(findings.some((f) => f.code === 'path_outside_root' && f.operation_index === 0 && /code root "lib"/.test(f.message)), JSON.stringify(findings));
  const rebase = await expectError(server.call('docforge_rebase_changeset', { changeset_id: later.changeset_id }), 'rebase_refused');
  assert.equal(rebase.details.invariant, 'paths_confined');
  assert.equal(existsSync(path.join(root, 'lib/x.md')), false);
});

test('a code root that contains the content root (fastify: docs in ".", or lib/docs in lib) keeps proposals and application working', async () => {
  for (const [contentRoots, codeRoots, target] of [[['docs'], ['.'], 'docs/new.md'], [['lib/docs'], ['lib'], 'lib/docs/new.md']] as const) {
    const root = project([...contentRoots], [...codeRoots], {
      [`${contentRoots[0]}/a.md`]: '+++\nid = "A-1"\nkind = "document"\ntitle = "A"\n+++\nBody of A.\n',
      'lib/index.ts': 'export const x = 1;\n',
    });
    const server = await useServer(root, { proposalWriter: 'someone', canonicalApplier: 'owner' });
    const ok = (await server.call('docforge_register_changes', { operations: [{ op: 'node_create', node: node('NEW-1'), path: target, body: 'Fine.\n' }, { op: 'node_update', node_id: 'A-1', body: 'Changed.\n' }] })).result!;
    assert.equal(ok.status, 'ready', `${contentRoots} in ${codeRoots}: ${JSON.stringify(ok.findings)}`);
    const applied = await server.call('docforge_apply_changeset', { changeset_id: ok.changeset_id, changeset_sha256: ok.changeset_sha256 });
    assert.equal(applied.ok, true, JSON.stringify(applied.error));
    assert.equal((await server.call('docforge_get_node', { node_id: 'NEW-1' })).result!.node.source_path, target);
    await expectError(server.call('docforge_register_changes', { operations: [{ op: 'node_create', node: node('NEW-2'), path: 'lib/other.md', body: 'x' }] }), 'path_outside_root');
    await server.close();
  }
});
