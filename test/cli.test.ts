// Pins the docforge command line: init on an existing docs folder, sync, validate exit codes, search, bad usage.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CLI_ENTRY, EXAMPLES_DIR, FASTIFY_DIR, removeDir, tempCopy } from './helpers/mcp.js';

function cli(args: string[], cwd?: string) {
  return spawnSync(process.execPath, [CLI_ENTRY, ...args], { encoding: 'utf8', cwd });
}

test('init writes a descriptor for an existing docs folder and refuses to overwrite it', () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'docforge-cli-'));
  try {
    cpSync(path.join(FASTIFY_DIR, 'docs'), path.join(root, 'docs'), { recursive: true });
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
  } finally {
    removeDir(root);
  }
});

test('validate exits 0 on the examples and 1 with file:line on a broken node', () => {
  const root = tempCopy(EXAMPLES_DIR);
  try {
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
  } finally {
    removeDir(root);
  }
});

test('bad usage gets a clear message and exit code 2; a missing descriptor a structured error', () => {
  const unknown = cli(['frobnicate']);
  assert.equal(unknown.status, 2);
  assert.match(unknown.stderr, /unknown command/);
  const noQuery = cli(['search']);
  assert.equal(noQuery.status, 2);
  const badLimit = cli(['search', 'x', '--limit', 'abc']);
  assert.equal(badLimit.status, 2);
  const empty = mkdtempSync(path.join(os.tmpdir(), 'docforge-empty-'));
  try {
    const missing = cli(['sync', '-C', empty]);
    assert.equal(missing.status, 1);
    assert.match(missing.stderr, /descriptor_invalid/);
  } finally {
    removeDir(empty);
  }
});
