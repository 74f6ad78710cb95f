// Pins issue 31's close focus (libs/retrieval/src/task-focus.ts, CLOSE_FOCUS_RATIO and
// EXPANDED_FOCUS) on a package nobody here wrote: pino as installed under node_modules, with the
// descriptor `docforge init` writes. A task's focus is the search ranking's first three hits and
// then the fourth and fifth while each scores at least 0.9 of the third; those two are evidence at
// depth 0 only: the traversal does not start from them, so their module siblings stay out and the
// page keeps its budget.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync } from 'node:fs';
import path from 'node:path';
import { CLI_ENTRY, REPO_ROOT } from './helpers/paths.js';
import { tempDir } from './helpers/projects.js';
import type { Json } from './helpers/server.js';

const PINO_DIR = path.join(REPO_ROOT, 'node_modules', 'pino');
const TASK = 'where is the log level changed at runtime';
/** The search hit after the first three that joins the focus here: a member of lib/multistream.js, whose module holds other members. */
const CLOSE_HIT = 'code:lib/multistream.js#multistream.write';

function cli(args: string[]): Json {
  const run = spawnSync(process.execPath, [CLI_ENTRY, ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  assert.equal(run.status, 0, run.stderr);
  return JSON.parse(run.stdout) as Json;
}

test('pino: close 4th and 5th search hits join the task focus at depth 0 without their siblings, within the budget', { timeout: 300_000 }, () => {
  const root = path.join(tempDir('docforge-close-focus-'), 'pino');
  cpSync(PINO_DIR, root, { recursive: true, filter: (src) => !path.relative(PINO_DIR, src).split(path.sep).includes('node_modules') });
  assert.equal(spawnSync(process.execPath, [CLI_ENTRY, 'init', root], { encoding: 'utf8' }).status, 0);
  const sync = spawnSync(process.execPath, [CLI_ENTRY, 'sync', '-C', root], { encoding: 'utf8' });
  assert.equal(sync.status, 0, sync.stderr);

  const hits = (cli(['search', '-C', root, '--json', '--limit', '6', TASK]).items as Json[]).map((i) => ({ id: String(i.id), score: Number(i.score) }));
  const close = hits.slice(3, 5).filter((h) => h.score >= 0.9 * hits[2]!.score);
  assert.ok(close.some((h) => h.id === CLOSE_HIT), `${CLOSE_HIT} is a close 4th/5th hit: ${JSON.stringify(hits)}`);

  const result = cli(['context', '-C', root, '--json', '--task-kind', 'implementation', TASK]).result as Json;
  assert.equal(result.plan.focus.max_focus_nodes, 5);
  assert.deepEqual(result.plan.steps[0], { op: 'focus', mode: 'lexical', expanded_focus_nodes: 3, close_score_ratio: 0.9 });
  const items = result.items as Json[];
  const evidence = items.filter((i) => i.type === 'evidence');
  const focus = evidence.filter((i) => i.role === 'focus');
  // The focus is the search ranking's first hits, in order: the first three and the close ones.
  assert.deepEqual(focus.map((i) => i.id), hits.slice(0, 3 + close.length).map((h) => h.id));
  const expanded = new Set(focus.slice(0, 3).map((i) => String(i.id)));
  for (const item of focus.slice(3)) assert.deepEqual(item.path, [], `${item.id} is depth-0 evidence`);
  // Every related item's path starts at one of the first three focus nodes, never at a close one.
  const listing = JSON.stringify(evidence.map((i) => [i.role, i.id, (i.path ?? []).map((h: Json) => `${h.from}>${h.relation}`)]));
  for (const item of evidence.filter((i) => i.role !== 'focus')) {
    assert.ok(expanded.has(String(item.path[0].from)), `${item.id} reached from an expanded focus: ${listing}`);
  }

  // The close hit's own neighbourhood (its module and the module's members, as its exact context shows) is not pulled in.
  const own = ((cli(['context', '-C', root, '--json', '--task-kind', 'implementation', '--node', CLOSE_HIT, TASK]).result as Json).items as Json[])
    .filter((i) => i.type === 'evidence' && i.role !== 'focus').map((i) => String(i.id));
  const siblings = own.filter((id) => id.startsWith('code:lib/multistream.js'));
  assert.ok(siblings.includes('code:lib/multistream.js'), `its exact context holds its module: ${JSON.stringify(own)}`);
  const listed = new Set(items.map((i) => String(i.id)));
  for (const id of siblings) assert.ok(!listed.has(id), `${id} (a neighbour of the close focus ${CLOSE_HIT}) is not on the page or omitted: ${listing}`);

  assert.ok(result.used_tokens <= 8000, `within the default budget: ${result.used_tokens}`);
});
