// Pins two ranking rules of issue 31 item 2 on code nobody here wrote (find-my-way 9.10.2 as
// installed under DocForge's node_modules, with its test/ folder; questions other than ops/eval's
// findmyway set): a question that does not ask about tests puts every test-source node below every
// other candidate (libs/retrieval/src/ranking.ts testsBelowCode), so a whole test file that repeats
// the question's words no longer leads; a question that names tests keeps them where they score.
// And a question about behaviour ("how does …") ranks a type declaration below the functions that
// do the thing (ranking.ts BEHAVIOUR_QUESTION).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CLI_ENTRY, REPO_ROOT } from './helpers/paths.js';
import { tempDir } from './helpers/projects.js';
import type { Json } from './helpers/server.js';

const FIND_MY_WAY = path.join(REPO_ROOT, 'node_modules', 'find-my-way');
/** Test sources as the ranking tells them (ranking.ts TEST_PATH). */
const TEST_PATH = /(^|\/)(tests?|__tests__)\/|\.(test|spec|tst)\.[a-z]+$/i;

function hits(root: string, query: string, limit: number): Json[] {
  const out = spawnSync(process.execPath, [CLI_ENTRY, 'search', '-C', root, '--json', '--limit', String(limit), query], { encoding: 'utf8' });
  assert.equal(out.status, 0, out.stderr);
  return (JSON.parse(out.stdout) as Json).items as Json[];
}

function search(root: string, query: string, limit = 10): string[] {
  return hits(root, query, limit).map((item) => String(item.id));
}

const isTest = (id: string): boolean => TEST_PATH.test(id.replace(/^code:/, '').split('#')[0]!);

describe('find-my-way 9.10.2 with its tests', { skip: !existsSync(path.join(FIND_MY_WAY, 'test')) && `${FIND_MY_WAY}/test is not installed` }, () => {
  const root = path.join(tempDir('docforge-rank31-tests-'), 'fmw');
  cpSync(FIND_MY_WAY, root, { recursive: true });
  writeFileSync(path.join(root, 'docforge.toml'), 'schema_version = 1\n[project]\nid = "fmw"\n[sources]\ncontent_roots = []\ncode_roots = ["."]\nexclude = ["**/node_modules/**"]\n[adapter]\ncode = "typescript"\n');

  test('a question that does not ask about tests ranks every test source below the code', () => {
    // test/issue-28.test.js registers one path under several hosts; lib/strategies/accept-host.js's HostStorage and
    // lib/handler-storage.js hold the host constraint (before the rule the test file ranked first).
    assert.match(readFileSync(path.join(root, 'lib', 'strategies', 'accept-host.js'), 'utf8'), /function HostStorage \(\)/);
    for (const query of ['how are routes with the same path but different hosts told apart', 'how are duplicate slashes in the request path removed']) {
      const ids = search(root, query);
      assert.ok(ids.length > 0 && !isTest(ids[0]!), `${query}: ${JSON.stringify(ids)}`);
      const firstTest = ids.findIndex(isTest);
      if (firstTest >= 0) assert.ok(ids.slice(firstTest).every(isTest), `${query}: a test source above code: ${JSON.stringify(ids)}`);
    }
    assert.ok(search(root, 'how are routes with the same path but different hosts told apart', 5).includes('code:lib/strategies/accept-host.js#HostStorage'));
  });

  test('a question that names tests keeps the tests it matches among the first results', () => {
    const ids = search(root, 'which tests cover wildcard routes', 5);
    assert.ok(ids.some(isTest), JSON.stringify(ids));
  });

  test('a question about behaviour ranks functions with a body above a type declaration', () => {
    // index.d.ts declares the type Router.Handler; before the rule it ranked third, above Router.callHandler.
    assert.match(readFileSync(path.join(root, 'index.d.ts'), 'utf8'), /type Handler</);
    const items = hits(root, 'how does the router match a request to a handler', 4);
    assert.equal(items.length, 4);
    for (const item of items) assert.ok(['function', 'method', 'constructor'].includes(String(item.kind)), JSON.stringify(items.map((i) => [i.id, i.kind])));
  });
});
