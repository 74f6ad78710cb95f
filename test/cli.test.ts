// Pins the docforge command line: init on an existing docs folder, sync, validate exit codes, search, bad usage.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CLI_ENTRY } from './helpers/paths.js';
import { exampleProjectCopy, fastifyProjectCopy, sharedExampleProject, tempDir } from './helpers/projects.js';

function cli(args: string[], cwd?: string) {
  return spawnSync(process.execPath, [CLI_ENTRY, ...args], { encoding: 'utf8', cwd });
}

test('init writes a descriptor for an existing docs folder and refuses to overwrite it', () => {
  const root = fastifyProjectCopy(['docs'], undefined, 'docforge-cli-');
  const first = cli(['init', root]);
  assert.equal(first.status, 0, first.stderr);
  assert.match(first.stdout, /content roots: docs/);
  const text = readFileSync(path.join(root, 'docforge.toml'), 'utf8');
  assert.match(text, /schema_version = 1/);
  const again = cli(['init', root]);
  assert.notEqual(again.status, 0);
  assert.match(again.stderr, /invalid_arguments: .*already exists/);
  const sync = cli(['sync', '-C', root]);
  assert.equal(sync.status, 0, sync.stderr);
  assert.match(sync.stdout, /rebuilt: generation 1, \d+ nodes/);
  const again2 = cli(['sync', '-C', root]);
  assert.match(again2.stdout, /up to date: generation 1/);
  const search = cli(['search', '-C', root, '--json', 'onRequest']);
  assert.equal(search.status, 0, search.stderr);
  assert.equal(JSON.parse(search.stdout).items[0].id, 'Reference/Hooks');
});

test('validate exits 0 on the examples and 1 with file:line on a broken node', () => {
  // No prebuilt state: the validation itself must build and publish the index.
  const root = exampleProjectCopy({ state: false });
  const ok = cli(['validate', '-C', root]);
  assert.equal(ok.status, 0, ok.stdout + ok.stderr);
  assert.match(ok.stdout, /valid/);
  writeFileSync(path.join(root, 'docs', 'bad.md'), '+++\nid = "X"\nkind = "document"\ntitle = [\n+++\n');
  const bad = cli(['validate', '-C', root, '--json']);
  assert.equal(bad.status, 1);
  const report = JSON.parse(bad.stdout);
  assert.equal(report.valid, false);
  const issue = report.issues.find((i: { code: string }) => i.code === 'malformed_front_matter');
  assert.equal(issue.path, 'docs/bad.md');
  assert.equal(typeof issue.line, 'number');
  assert.ok(existsSync(path.join(root, '.docforge', 'index', 'current.json')));
});

test('bad usage gets a clear message and exit code 2; a missing descriptor a structured error', () => {
  const unknown = cli(['frobnicate']);
  assert.equal(unknown.status, 2);
  assert.match(unknown.stderr, /unknown command/);
  const noQuery = cli(['search']);
  assert.equal(noQuery.status, 2);
  const badLimit = cli(['search', 'x', '--limit', 'abc']);
  assert.equal(badLimit.status, 2);
  const missing = cli(['sync', '-C', tempDir('docforge-empty-')]);
  assert.equal(missing.status, 1);
  assert.match(missing.stderr, /descriptor_invalid/);
});

test('demo finds docforge-mcp through the @docforge/mcp-server package and drives it over stdio', () => {
  const root = sharedExampleProject();
  const demo = cli(['demo', '-C', root]);
  assert.equal(demo.status, 0, demo.stdout + demo.stderr);
  assert.match(demo.stdout, new RegExp(`docforge-mcp --project-root ${root.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
  assert.match(demo.stdout, /project acme-payments, revision \d+, staleness current/);
  assert.match(demo.stdout, /\ndemo finished\n/);
});
