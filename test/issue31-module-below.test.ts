// Pins the container rule of issue 31 item 2 (libs/retrieval/src/ranking-containers.ts) on code
// nobody here wrote (semver as installed under node_modules, one function per file): a code module
// never ranks above one of its own declarations that the search also returns, so `functions/sort.js#sort`
// comes before the module `functions/sort.js` that holds it (the module's top level also says "sort").
// The questions are not those of ops/eval's semver set.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { CLI_ENTRY } from './helpers/paths.js';
import { tempDir } from './helpers/projects.js';
import type { Json } from './helpers/server.js';

const require = createRequire(import.meta.url);
const SEMVER_DIR = path.dirname(require.resolve('semver/package.json'));

function search(root: string, query: string): string[] {
  const out = spawnSync(process.execPath, [CLI_ENTRY, 'search', '-C', root, '--json', '--limit', '10', query], { encoding: 'utf8' });
  assert.equal(out.status, 0, out.stderr);
  return ((JSON.parse(out.stdout) as Json).items as Json[]).map((item) => String(item.id));
}

test('semver: a module ranks below its own declarations that the search returns', () => {
  const root = path.join(tempDir('docforge-rank31-mod-'), 'semver');
  cpSync(SEMVER_DIR, root, { recursive: true });
  writeFileSync(path.join(root, 'docforge.toml'), 'schema_version = 1\n[project]\nid = "semver"\n[sources]\ncontent_roots = []\ncode_roots = ["."]\n[adapter]\ncode = "typescript"\n');
  const pairs: Record<string, [string, string]> = {
    'sort a list of versions': ['code:functions/sort.js#sort', 'code:functions/sort.js'],
    'minimum version of a range': ['code:ranges/min-version.js#minVersion', 'code:ranges/min-version.js'],
    'clean a version string': ['code:functions/clean.js#clean', 'code:functions/clean.js'],
  };
  for (const [query, [member, module]] of Object.entries(pairs)) {
    const ids = search(root, query);
    assert.ok(ids.includes(member) && ids.includes(module), `${query}: ${JSON.stringify(ids)}`);
    assert.ok(ids.indexOf(member) < ids.indexOf(module), `${query}: ${JSON.stringify(ids)}`);
    // The rule in general: no module of the list comes before a declaration of its own in the list.
    ids.forEach((id, i) => {
      if (!id.startsWith('code:') || id.includes('#')) return;
      const own = ids.findIndex((other) => other.startsWith(`${id}#`));
      assert.ok(own < 0 || own < i, `${query}: module ${id} above its declaration ${ids[own]} in ${JSON.stringify(ids)}`);
    });
  }
});
