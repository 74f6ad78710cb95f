// Pins issue 30 item 11 on real packages nobody here wrote (pino and fastify as installed under node_modules): `docforge init` indexes the main README and the other top-level Markdown as file roots (never "." as a content root) and says what it left out and why; the first natural questions then find the README; a file is accepted as a code root (pino.js) and as a content root; a running server sees a file root change; proposals and canonical application write exactly the file root, never a sibling, and leave no temp file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CLI_ENTRY, FASTIFY_DIR, REPO_ROOT } from './helpers/paths.js';
import { tempDir } from './helpers/projects.js';
import { expectError, useServer, type Json } from './helpers/server.js';

const PINO_DIR = path.join(REPO_ROOT, 'node_modules', 'pino');

function cli(args: string[]) {
  return spawnSync(process.execPath, [CLI_ENTRY, ...args], { encoding: 'utf8' });
}

/** A copy of an installed package in a fresh temp dir (its own node_modules left out). */
function packageCopy(source: string, name: string): string {
  const root = path.join(tempDir('docforge-init-'), name);
  cpSync(source, root, { recursive: true, filter: (src) => !path.relative(source, src).split(path.sep).includes('node_modules') });
  return root;
}

test('pino: init declares README.md and the other top-level Markdown as file roots; "install pino" finds the README', () => {
  const root = packageCopy(PINO_DIR, 'pino');
  writeFileSync(path.join(root, 'taplo.toml'), '[formatting]\nalign_entries = true\n');
  const init = cli(['init', root]);
  assert.equal(init.status, 0, init.stderr);
  assert.match(init.stdout, /content roots: docs, CONTRIBUTING\.md, README\.md, SECURITY\.md\n/);
  assert.match(init.stdout, /left out taplo\.toml: top-level TOML is configuration/);
  const descriptor = readFileSync(path.join(root, 'docforge.toml'), 'utf8');
  assert.match(descriptor, /content_roots = \["docs", "CONTRIBUTING\.md", "README\.md", "SECURITY\.md"\]/);
  const search = cli(['search', '-C', root, '--json', '--limit', '3', 'install pino']);
  assert.equal(search.status, 0, search.stderr);
  const hits = (JSON.parse(search.stdout) as Json).items as Json[];
  assert.equal(hits[0]!.id, 'README', JSON.stringify(hits.map((hit) => hit.id)));
  assert.equal(hits[0]!.source_path, 'README.md');
  const validate = cli(['validate', '-C', root, '--json']);
  assert.equal(validate.status, 0, validate.stdout);
  assert.ok(!((JSON.parse(validate.stdout) as Json).issues as Json[]).some((issue) => issue.code === 'root_not_found' || issue.path === 'taplo.toml'));
});

test('init in a Git work tree says to keep .docforge/ out of Git, unless .gitignore already does (new-user trial)', () => {
  const NOTE = /note: \.docforge\/ will hold the disposable index and state; add "\.docforge\/" to \.gitignore/;
  const plain = packageCopy(PINO_DIR, 'pino');
  assert.doesNotMatch(cli(['init', plain]).stdout, NOTE, 'not a Git work tree: no note');
  const repo = packageCopy(PINO_DIR, 'pino');
  assert.equal(spawnSync('git', ['init', '-q', repo]).status, 0);
  const first = cli(['init', repo]);
  assert.equal(first.status, 0, first.stderr);
  assert.match(first.stdout, NOTE);
  for (const line of ['.docforge/', '/.docforge', '.docforge/**']) {
    writeFileSync(path.join(repo, '.gitignore'), `node_modules\n${line}\n`);
    rmSync(path.join(repo, 'docforge.toml'));
    const again = cli(['init', repo]);
    assert.equal(again.status, 0, again.stderr);
    assert.match(again.stdout, /^wrote /, line);
    assert.doesNotMatch(again.stdout, NOTE, line);
  }
});

test('pino: a code root that is a file (pino.js) is accepted and indexed, never "declared code root is not a directory"', () => {
  const root = packageCopy(PINO_DIR, 'pino');
  writeFileSync(path.join(root, 'docforge.toml'), 'schema_version = 1\n[project]\nid = "pino"\n[sources]\ncontent_roots = ["docs", "README.md"]\ncode_roots = ["pino.js", "lib"]\n[adapter]\ncode = "typescript"\n');
  const validate = cli(['validate', '-C', root, '--json']);
  const issues = (JSON.parse(validate.stdout) as Json).issues as Json[];
  assert.deepEqual(issues.filter((issue) => issue.code === 'root_not_found'), []);
  const node = cli(['search', '-C', root, '--json', '--limit', '20', 'pino.js']);
  assert.ok(((JSON.parse(node.stdout) as Json).items as Json[]).some((hit) => hit.source_path === 'pino.js'), node.stdout);
  const readme = cli(['search', '-C', root, '--json', '--limit', '1', 'install pino']);
  assert.equal(((JSON.parse(readme.stdout) as Json).items as Json[])[0]!.id, 'README');
});

test('fastify: after a plain `docforge init`, "quick start" answers with the README\'s Quick start section first', () => {
  const root = packageCopy(FASTIFY_DIR, 'fastify');
  const init = cli(['init', root]);
  assert.equal(init.status, 0, init.stderr);
  assert.match(init.stdout, /content roots: docs, GOVERNANCE\.md, PROJECT_CHARTER\.md, README\.md, SECURITY\.md, SPONSORS\.md\n/);
  assert.match(init.stdout, /left out test: holds 1 Markdown file/);
  const search = cli(['search', '-C', root, '--json', '--limit', '3', 'quick start']);
  assert.equal(search.status, 0, search.stderr);
  const first = ((JSON.parse(search.stdout) as Json).items as Json[])[0]!;
  assert.equal(first.id, 'README');
  assert.equal(first.section?.slug, 'quick-start');
});

test('a running server sees a file root change; proposals write exactly the file root and application leaves no temp file', async () => {
  const root = tempDir('docforge-file-root-');
  writeFileSync(path.join(root, 'docforge.toml'), 'schema_version = 1\n[project]\nid = "file-roots"\n[sources]\ncontent_roots = ["README.md"]\ncode_roots = ["main.js"]\n[adapter]\ncode = "typescript"\ncanonical_applier = "generic"\n');
  writeFileSync(path.join(root, 'README.md'), '# Main\n\nThe first words.\n');
  writeFileSync(path.join(root, 'NOTES.md'), '# Notes\n\nNot declared.\n');
  writeFileSync(path.join(root, 'main.js'), 'function start() { return 1; }\nmodule.exports = { start };\n');
  const server = await useServer(root, { proposalWriter: 'agent', canonicalApplier: 'owner' });
  assert.equal((await server.call('docforge_get_node', { node_id: 'README' })).ok, true);
  assert.equal((await server.call('docforge_get_node', { node_id: 'code:main.js' })).ok, true);
  await expectError(server.call('docforge_get_node', { node_id: 'NOTES' }), 'node_not_found');
  appendFileSync(path.join(root, 'README.md'), '\nA quokkaflux marker.\n');
  const found = await server.call('docforge_search', { query: 'quokkaflux' });
  assert.equal((found.result!.items as Json[])[0]?.id, 'README');

  for (const target of ['NOTES2.md', '.README.md.1.abc.tmp', 'README.md/x.md']) {
    await expectError(server.call('docforge_register_changes', { operations: [{ op: 'node_create', node: { id: 'NEW-1', kind: 'document', title: 'New' }, path: target, body: 'x\n' }] }), 'path_outside_root');
  }
  const ready = (await server.call('docforge_register_changes', { operations: [{ op: 'node_update', node_id: 'README', body: '# Main\n\nRewritten by a reviewed changeset.\n' }] })).result!;
  assert.equal(ready.status, 'ready', JSON.stringify(ready.findings));
  const applied = await server.call('docforge_apply_changeset', { changeset_id: ready.changeset_id, changeset_sha256: ready.changeset_sha256 });
  assert.equal(applied.ok, true, JSON.stringify(applied.error));
  assert.match(readFileSync(path.join(root, 'README.md'), 'utf8'), /Rewritten by a reviewed changeset/);
  assert.deepEqual(readdirSync(root).filter((name) => name.endsWith('.tmp')), [], 'no temp sibling is left');
  assert.equal(readFileSync(path.join(root, 'NOTES.md'), 'utf8'), '# Notes\n\nNot declared.\n');
});
