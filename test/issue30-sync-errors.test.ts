// Pins a new-user trial of issue 30 (2026-12-07) on better-sqlite3's deps/sqlite3 (its real
// 9.5 MB amalgamation sqlite3.c): `docforge sync` exited 0 and printed only the counts, so the
// error `source_too_large` showed only under `validate`/`check`. Now sync names the count of
// error-severity issues and the first few, on the full path and on the no-change fast path alike,
// points to `docforge check`, keeps exit 0 and its JSON fields (adding `error_issues`); and the
// finding names its remedy, which works.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CLI_ENTRY, REPO_ROOT } from './helpers/paths.js';
import { removeDir, tempDir } from './helpers/projects.js';

function cli(args: string[]): { status: number | null; stdout: string; stderr: string } {
  return spawnSync(process.execPath, [CLI_ENTRY, ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
}

test('better-sqlite3 deps/sqlite3: sync names the source_too_large error and its remedy, exit 0, both paths', () => {
  const dir = tempDir('docforge-f30-sqlite-');
  const root = path.join(dir, 'sqlite3');
  try {
    cpSync(path.join(REPO_ROOT, 'node_modules', 'better-sqlite3', 'deps', 'sqlite3'), root, { recursive: true });
    assert.equal(cli(['init', root]).status, 0);
    const first = cli(['sync', '-C', root]);
    assert.equal(first.status, 0, first.stderr);
    assert.match(first.stdout, /^rebuilt: generation 1, /);
    assert.match(first.stdout, /\n {2}1 error in the index \(not fatal to sync\):\n {4}error source_too_large: sqlite3\.c: code source is 9507980 bytes, over the 4194304-byte limit .*not indexed\. To leave it out without this error, add "sqlite3\.c" to \[sources\]\.exclude in docforge\.toml\n {2}run `docforge check` to list them all\n/);
    // The no-change fast path (the launcher's bundle) prints the same lines.
    const again = cli(['sync', '-C', root]);
    assert.equal(again.status, 0, again.stderr);
    assert.match(again.stdout, /^up to date: generation 1, /);
    assert.equal(again.stdout.split('\n').slice(1).join('\n'), first.stdout.split('\n').slice(2).join('\n'));
    const json = JSON.parse(cli(['sync', '-C', root, '--json']).stdout) as Record<string, unknown>;
    for (const key of ['rebuilt', 'staleness', 'publication', 'stats', 'sync_error']) assert.ok(key in json, key);
    const errors = json.error_issues as { count: number; first: { code: string; path: string }[] };
    assert.equal(errors.count, 1);
    assert.deepEqual(errors.first.map((i) => [i.code, i.path]), [['source_too_large', 'sqlite3.c']]);
    // The remedy the message names works: excluded, the error is gone and sync says nothing of errors.
    const descriptor = path.join(root, 'docforge.toml');
    writeFileSync(descriptor, readFileSync(descriptor, 'utf8').replace(/^exclude = \[/m, 'exclude = ["sqlite3.c", '));
    const fixed = cli(['sync', '-C', root]);
    assert.equal(fixed.status, 0, fixed.stderr);
    assert.doesNotMatch(fixed.stdout, /error/);
    const none = JSON.parse(cli(['sync', '-C', root, '--json']).stdout) as Record<string, unknown>;
    assert.equal(none.error_issues, undefined, 'a clean project\'s --json is unchanged');
  } finally {
    removeDir(dir);
  }
});

test('sync names at most three error issues and counts the rest', () => {
  const dir = tempDir('docforge-f30-errs-');
  try {
    const big = readFileSync(path.join(REPO_ROOT, 'node_modules', 'better-sqlite3', 'deps', 'sqlite3', 'sqlite3.c'));
    cpSync(path.join(REPO_ROOT, 'node_modules', 'better-sqlite3', 'deps', 'sqlite3'), dir, { recursive: true });
    for (const name of ['a.c', 'b.c', 'c.c', 'd.c']) writeFileSync(path.join(dir, name), big);
    assert.equal(cli(['init', dir]).status, 0);
    const run = cli(['sync', '-C', dir]);
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /\n {2}5 errors in the index \(not fatal to sync\):\n/);
    assert.equal(run.stdout.match(/^ {4}error source_too_large: /gm)?.length, 3);
    assert.match(run.stdout, /\n {2}2 more: run `docforge check` to list them all\n/);
  } finally {
    removeDir(dir);
  }
});

test('a sync that cannot bring the index up to date says so on its first line, not "up to date" (break-it trial 50)', () => {
  const dir = tempDir('docforge-f30-open-journal-');
  const root = path.join(dir, 'examples');
  try {
    cpSync(path.join(REPO_ROOT, 'examples'), root, { recursive: true, filter: (src) => !src.includes(`${path.sep}.docforge`) });
    assert.equal(cli(['sync', '-C', root]).status, 0);
    // An interrupted canonical application's journal: the sources may be half written, so nothing is built from them.
    mkdirSync(path.join(root, '.docforge', 'application'), { recursive: true });
    writeFileSync(path.join(root, '.docforge', 'application', 'journal.json'), '{"changeset_id":"cs-1","step":"writing"}\n');
    const blocked = cli(['sync', '-C', root]);
    assert.equal(blocked.status, 1);
    assert.match(blocked.stdout, /^not synchronized, serving the last publication: generation 1, /);
    assert.match(blocked.stdout, /\n {2}stale: application_in_progress: /);
  } finally {
    removeDir(dir);
  }
});
