// Pins minor bad-input answers found by the break-it trial of issue 30: `docforge changeset apply
// ID --sha256 zz` is a usage error (invalid_arguments, exit 2), as MCP refuses a malformed
// changeset_sha256, never application_refused; a list option naming no value (`--kinds ''`,
// `--kinds ,,,`) is a usage error, never ignored; a FIFO named like a source gets a finding.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { CLI_ENTRY } from './helpers/paths.js';
import { exampleProjectCopy, sharedExampleProject } from './helpers/projects.js';

function cli(args: string[]) {
  return spawnSync(process.execPath, [CLI_ENTRY, ...args], { encoding: 'utf8' });
}

test('a malformed --sha256 and an empty list option are usage errors (exit 2, invalid_arguments)', () => {
  const root = sharedExampleProject();
  for (const args of [
    ['changeset', 'apply', 'cs-1', '--sha256', 'zz', '--canonical-applier', 'reviewer'],
    ['changeset', 'apply', 'cs-1', '--sha256', 'A'.repeat(64), '--canonical-applier', 'reviewer'],
    ['search', 'ledger', '--kinds', ''],
    ['search', 'ledger', '--kinds', ',,,'],
    ['search', 'ledger', '--tags', ' , '],
    ['backlinks', 'CMP-LEDGER', '--relations', ','],
  ]) {
    const r = cli([...args, '-C', root, '--json']);
    assert.equal(r.status, 2, `${args.join(' ')}: ${r.stdout.slice(0, 300)} ${r.stderr.slice(0, 300)}`);
    assert.equal(JSON.parse(r.stdout).error.code, 'invalid_arguments', args.join(' '));
  }
  const ok = cli(['search', 'ledger', '--kinds', 'component,', '-C', root, '--json']);
  assert.equal(ok.status, 0, ok.stderr);
});

test('a FIFO named like a source is reported, not skipped silently', () => {
  const root = exampleProjectCopy();
  const fifo = path.join(root, 'docs', 'x.md');
  const made = spawnSync('mkfifo', [fifo]);
  assert.equal(made.status, 0, 'mkfifo made the FIFO');
  const r = cli(['validate', '-C', root, '--json']);
  const out = JSON.parse(r.stdout) as { issues: { code: string; path: string | null; message: string }[] };
  const found = out.issues.find((i) => i.path === 'docs/x.md');
  assert.ok(found, JSON.stringify(out.issues.slice(0, 5)));
  assert.equal(found.code, 'unreadable_path');
  assert.match(found.message, /FIFO/);
});
