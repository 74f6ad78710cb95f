// Pins the gated start on a planted journal (attacker trial): docforge-mcp --canonical-applier refuses an absolute-target journal or one whose changeset id holds ../ with application_journal_invalid, says how to repair it by hand, touches nothing and (issue 30 item 4) serves every call that error instead of exiting; once repaired it starts bound.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MCP_ENTRY } from './helpers/paths.js';
import { exampleProjectCopy } from './helpers/projects.js';
import { treeHashes } from './helpers/hashes.js';

const sha = (text: string): string => createHash('sha256').update(text).digest('hex');

function gatedStart(root: string): { status: number | null; stderr: string } {
  const run = spawnSync(process.execPath, [MCP_ENTRY, '--project-root', root, '--canonical-applier', 'reviewer', '--log-level', 'error'], { input: '', encoding: 'utf8', timeout: 60_000 });
  return { status: run.status, stderr: run.stderr };
}

test('a planted journal is refused at the gated start with a repair-by-hand message; nothing inside or outside the project changes', () => {
  const root = exampleProjectCopy();
  const victim = mkdtempSync(path.join(tmpdir(), 'df-victim-'));
  writeFileSync(path.join(victim, 'delete-me.txt'), 'precious\n');
  const app = path.join(root, '.docforge/application');
  mkdirSync(path.join(app, 'backup'), { recursive: true });
  writeFileSync(path.join(app, 'backup/file-0'), 'echo pwned\n');
  const journals = [
    { schema_version: 2, changeset_id: 'cs-evil', changeset_sha256: '0'.repeat(64), applier: 'x', step: 'writing', started_at: 'x', files: [
      { path: 'docs/a.md', target: path.join(victim, 'delete-me.txt'), before_sha256: null, after_sha256: '1'.repeat(64), backup: null, link: null },
      { path: 'docs/b.md', target: path.join(victim, 'written.sh'), before_sha256: sha('echo pwned\n'), after_sha256: '2'.repeat(64), backup: 'file-0', link: null },
    ] },
    { schema_version: 2, changeset_id: '../../../../../tmp/victim', changeset_sha256: '0'.repeat(64), applier: 'x', step: 'committed', started_at: 'x', files: [] },
  ];
  const before = treeHashes(root);
  for (const journal of journals) {
    writeFileSync(path.join(app, 'journal.json'), JSON.stringify(journal));
    const run = gatedStart(root);
    // Issue 30 item 4: the refused start serves the error (exit 0 at end of input) instead of exiting 2.
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stderr, /application_journal_invalid/);
    assert.match(run.stderr, /is refused and nothing was changed: .*Repair by hand/);
    assert.deepEqual(readdirSync(victim), ['delete-me.txt']);
    assert.equal(readFileSync(path.join(victim, 'delete-me.txt'), 'utf8'), 'precious\n');
    assert.ok(existsSync(path.join(app, 'journal.json')), 'the journal stays for the human to inspect');
    assert.deepEqual(treeHashes(root), before);
  }
  rmSync(app, { recursive: true });
  const repaired = gatedStart(root);
  assert.equal(repaired.status, 0, 'a repaired state starts');
  assert.doesNotMatch(repaired.stderr, /application_journal_invalid/, 'and binds the project');
});
