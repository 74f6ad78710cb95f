// Pins a new-user trial finding on marked 18: a minified bundle that is indexed anyway
// (`lib/marked.esm.js`) gave code nodes under its minified names (`#$`, `#G`, `#ne.walkTokens`) and
// validate reported "exported class `$`". A minified code file (core `minifiedEvidence`) now gives its
// module node only and one `minified_source` warning with the evidence. Input: the installed
// @decimalturn/toml-patch, which ships the same shape (minified `dist/toml-patch.js` beside
// `dist/toml-patch.d.ts`), indexed with no exclude.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CLI_ENTRY, REPO_ROOT } from './helpers/paths.js';
import { removeDir, tempDir } from './helpers/projects.js';

function cli(args: string[]): { status: number | null; stdout: string; stderr: string } {
  return spawnSync(process.execPath, [CLI_ENTRY, ...args], { encoding: 'utf8' });
}

describe('a minified file indexed anyway', () => {
  let root = '';
  before(() => {
    root = tempDir('docforge-minified-');
    const installed = path.join(REPO_ROOT, 'node_modules/@decimalturn/toml-patch');
    for (const file of ['README.md', 'dist/toml-patch.js', 'dist/toml-patch.d.ts']) cpSync(path.join(installed, file), path.join(root, file));
    writeFileSync(path.join(root, 'docforge.toml'), [
      'schema_version = 1', '[project]', 'id = "toml-patch"', 'name = "toml-patch"', '[sources]', 'content_roots = ["README.md"]', 'code_roots = ["dist"]',
      'exclude = []', '[adapter]', 'code = "typescript"', 'strategy = "ast"', '',
    ].join('\n'));
    const sync = cli(['sync', '-C', root]);
    assert.equal(sync.status, 0, sync.stderr);
  });
  after(() => {
    if (root !== '') removeDir(root);
  });

  test('validate warns minified_source with the evidence; the readable declarations are untouched', () => {
    const run = cli(['validate', '-C', root]);
    const warnings = run.stdout.split('\n').filter((line) => line.includes('minified_source'));
    assert.equal(warnings.length, 1, run.stdout.slice(0, 2000));
    assert.match(warnings[0]!, /^warning +minified_source: dist\/toml-patch\.js: minified code \(\d+% of its text on lines of 500\+ characters/);
    assert.doesNotMatch(run.stdout, /code:dist\/toml-patch\.js#/);
    assert.match(run.stdout, /code:dist\/toml-patch\.d\.ts#/);
  });

  test('the minified file is one module node: no minified names', () => {
    assert.equal(cli(['node', 'code:dist/toml-patch.js', '-C', root, '--no-body']).status, 0);
    const run = cli(['search', 'parse stringify patch toml', '-C', root, '--json', '--limit', '50']);
    assert.equal(run.status, 0, run.stderr);
    const ids = (JSON.parse(run.stdout) as { items: { id: string }[] }).items.map((item) => item.id);
    assert.ok(ids.some((id) => id.startsWith('code:dist/toml-patch.d.ts#')), JSON.stringify(ids));
    assert.deepEqual(ids.filter((id) => id.startsWith('code:dist/toml-patch.js#')), []);
  });
});
