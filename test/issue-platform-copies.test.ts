// Pins a new-user trial finding on lru-cache 11: its `dist/commonjs/index.js` is byte for byte
// `dist/commonjs/{browser,node,react-native}/index.js` (and `dist/esm/...` likewise), so "dispose"
// listed `LRUCache.dispose` four times, and README mentions such as `LRUCache.Status` were
// ambiguous (the docs documented 0 code nodes). Byte-identical code files are one file now, whatever
// folders they sit in: search shows one hit with the others as `copies`, and a mention links to the
// kept copy. Input: the installed lru-cache (node_modules), its README and unminified builds.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CLI_ENTRY, REPO_ROOT } from './helpers/paths.js';
import { removeDir, tempDir } from './helpers/projects.js';

interface Hit { id: string; copies?: string[] }

function cli(args: string[]): { status: number | null; stdout: string; stderr: string } {
  return spawnSync(process.execPath, [CLI_ENTRY, ...args], { encoding: 'utf8' });
}

const PLATFORMS = ['', 'browser/', 'node/', 'react-native/'];

describe('byte-identical platform copies are one file (lru-cache)', () => {
  let root = '';
  before(() => {
    root = tempDir('docforge-lru-cache-');
    const installed = path.join(REPO_ROOT, 'node_modules/lru-cache');
    cpSync(path.join(installed, 'README.md'), path.join(root, 'README.md'));
    for (const format of ['esm', 'commonjs']) {
      for (const platform of PLATFORMS) {
        const dir = `dist/${format}/${platform}`;
        for (const file of readdirSync(path.join(installed, dir)).filter((name) => name === 'index.js' || name === 'index.d.ts')) {
          cpSync(path.join(installed, dir, file), path.join(root, dir, file));
        }
      }
    }
    // The package's exports name only `*.min.js` builds; a package name alone keeps the mentions to the name tables.
    writeFileSync(path.join(root, 'package.json'), JSON.stringify({ name: 'lru-cache', version: '0.0.0' }));
    writeFileSync(path.join(root, 'docforge.toml'), [
      'schema_version = 1', '[project]', 'id = "lru-cache"', 'name = "lru-cache"', '[sources]', 'content_roots = ["README.md"]', 'code_roots = ["dist"]',
      'exclude = ["**/node_modules/**"]', '[adapter]', 'code = "typescript"', 'strategy = "ast"', '',
    ].join('\n'));
    const sync = cli(['sync', '-C', root]);
    assert.equal(sync.status, 0, sync.stderr);
  });
  after(() => {
    if (root !== '') removeDir(root);
  });

  test('search: one LRUCache.dispose hit, the platform copies in its copies', () => {
    const run = cli(['search', 'dispose', '-C', root, '--limit', '8', '--json']);
    assert.equal(run.status, 0, run.stderr);
    const hits = (JSON.parse(run.stdout) as { items: Hit[] }).items;
    const dispose = hits.filter((hit) => hit.id.endsWith('#LRUCache.dispose'));
    assert.deepEqual(dispose.map((hit) => hit.id), ['code:dist/esm/index.js#LRUCache.dispose'], JSON.stringify(hits.map((hit) => hit.id)));
    const copies = new Set(dispose[0]!.copies);
    for (const platform of PLATFORMS) {
      for (const format of ['esm', 'commonjs']) {
        const id = `code:dist/${format}/${platform}index.js#LRUCache.dispose`;
        if (id !== dispose[0]!.id) assert.ok(copies.has(id), `${id} is a copy`);
      }
    }
  });

  test('README mentions link to the kept copy, and no longer count as ambiguous', () => {
    // `LRUCache.Status` is declared in each of the eight `index.d.ts` (four byte-identical ones per module format).
    const run = cli(['backlinks', 'code:dist/esm/index.d.ts#LRUCache.Status', '-C', root, '--relations', 'documents']);
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /README/);
    const copy = cli(['backlinks', 'code:dist/esm/node/index.d.ts#LRUCache.Status', '-C', root, '--relations', 'documents']);
    assert.doesNotMatch(copy.stdout, /README/, 'a copy that is not kept is not linked');
    const validate = cli(['validate', '-C', root]);
    const counts = /code mentions in documents: (\d+) linked/.exec(validate.stdout);
    assert.ok(counts !== null && Number(counts[1]) > 0, validate.stdout.slice(-600));
  });
});
