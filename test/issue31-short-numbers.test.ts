// Pins the short-number rule of issue 31 item 2 (libs/retrieval/src/ranking.ts, SHORT_NUMBER) on code
// nobody here wrote: semver 7.8.6 as installed under node_modules (the questions here are not those of
// ops/eval's semver set). Code text never holds a number of one or two digits (libs/core code-text.ts
// keeps numbers of three digits or more), so such a query word ("1.2.0-beta.1") weighs nothing in the
// name and coverage shares: before, it was a rare word no function could hold, and the JSDoc examples
// of small helpers (`findPrereleaseEndIndex`, "@example findPrereleaseEndIndex('-beta.1+sha', …)") outranked the function
// that does what is asked. A query of numbers only still searches them.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CLI_ENTRY, REPO_ROOT } from './helpers/paths.js';
import { tempDir } from './helpers/projects.js';
import type { Json } from './helpers/server.js';

const SEMVER = path.join(REPO_ROOT, 'node_modules', 'semver');

function search(root: string, query: string, limit = 5): string[] {
  const out = spawnSync(process.execPath, [CLI_ENTRY, 'search', '-C', root, '--json', '--limit', String(limit), query], { encoding: 'utf8' });
  assert.equal(out.status, 0, out.stderr);
  return ((JSON.parse(out.stdout) as Json).items as Json[]).map((item) => String(item.id));
}

describe('semver 7.8.6 (installed package): numbers of one or two digits in a question', () => {
  const root = path.join(tempDir('docforge-numbers31-'), 'semver');
  mkdirSync(root, { recursive: true });
  for (const dir of ['classes', 'functions', 'internal', 'ranges']) cpSync(path.join(SEMVER, dir), path.join(root, dir), { recursive: true });
  writeFileSync(path.join(root, 'docforge.toml'), 'schema_version = 1\n[project]\nid = "semver"\n[sources]\ncontent_roots = []\ncode_roots = ["."]\n[adapter]\ncode = "typescript"\n');

  test('a version in the question does not hide the function that does what is asked', () => {
    // The source: SemVer.inc's 'pre' case says "1.2.0-beta.1 bumps to 1.2.0-beta.2"; coerce's rtl branch "'1.2.3.4' wants to coerce '2.3.4'".
    const semver = readFileSync(path.join(SEMVER, 'classes', 'semver.js'), 'utf8');
    assert.ok(semver.includes('// 1.2.0-beta.1 bumps to 1.2.0-beta.2'));
    assert.ok(readFileSync(path.join(SEMVER, 'functions', 'coerce.js'), 'utf8').includes("'1.2.3.4' wants to coerce '2.3.4'"));
    assert.equal(search(root, 'where does 1.2.0-beta.1 bump to 1.2.0-beta.2')[0], 'code:classes/semver.js#SemVer.inc');
    assert.equal(search(root, 'what does coerce return for 1.2.3.4 when reading from the right')[0], 'code:functions/coerce.js#coerce');
  });

  test('a query of numbers only still searches them', () => {
    assert.ok(search(root, '0 0').length > 0);
  });
});
