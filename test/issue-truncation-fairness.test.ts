// Pins three new-user trial findings (2026-12-08) on objx as Debian installs it
// (/usr/share/gocode/src/github.com/stretchr/objx, 23 Go files, one folder):
// 1. the overview map's "+N more files" group said `nodes: 0, expandable: false` while those files
//    held most of the folder's nodes, and the files drawn were the first by path, not the largest;
// 2. a truncated impact/dependencies depth was filled by the first branch (callers of Map.Get) while
//    another (callers of Map.Set) vanished, and the result did not say whose neighbours were cut;
// 3. the CLI's truncation hint named options the command does not take (`context` was told to
//    "narrow --relations") and not the cause (token budget vs result limit vs work budget).
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, readdirSync } from 'node:fs';
import { describeValidationErrors, validateGraphBrowserOverview, type GraphBrowserOverview } from '@docforge/protocol';
import Database from 'better-sqlite3';
import { CLI_ENTRY, EXAMPLES_DIR } from './helpers/paths.js';
import { removeDir, tempDir } from './helpers/projects.js';
import { openBrowserSession, workerConfig } from './helpers/graph-browser.js';

const OBJX = '/usr/share/gocode/src/github.com/stretchr/objx';
const root = tempDir('docforge-objx-');
cpSync(OBJX, root, { recursive: true });
after(() => removeDir(root));

function cli(args: string[]): { status: number | null; stdout: string; stderr: string } {
  return spawnSync(process.execPath, [CLI_ENTRY, ...args, '-C', root], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
}

const init = spawnSync(process.execPath, [CLI_ENTRY, 'init', root], { encoding: 'utf8' });
assert.equal(init.status, 0, init.stderr);
assert.equal(cli(['sync']).status, 0);

type Item = { id: string; depth: number; via: string };
type Partial = { id: string; listed: number; omitted: number };
type Traversal = { items: Item[]; truncated: boolean; truncation_reason: string | null; partially_expanded?: Partial[]; omitted_total?: number };

function traversal(command: 'impact' | 'deps', id: string, depth: number, limit: number): Traversal {
  const run = cli([command, id, '--depth', String(depth), '--limit', String(limit), '--json']);
  assert.equal(run.status, 0, run.stderr);
  return (JSON.parse(run.stdout) as { result: Traversal }).result;
}

const indexPath = (await workerConfig(root)).index_path;

/** The ids of every node one hop from `id` (incoming for impact, outgoing for deps), read from the index file itself. */
function oneHop(command: 'impact' | 'deps', id: string): Set<string> {
  const db = new Database(indexPath, { readonly: true, fileMustExist: true });
  try {
    const sql = command === 'impact' ? 'SELECT source_id AS other FROM edges WHERE target_id = ?' : 'SELECT target_id AS other FROM edges WHERE source_id = ?';
    return new Set((db.prepare(sql).all(id) as { other: string }[]).map((row) => row.other));
  } finally {
    db.close();
  }
}

/**
 * Checks a truncated traversal: the depths before the cut are complete (breadth-first), so every
 * node of the depth before the cut must keep some of its new next-depth neighbours (round-robin,
 * with room for one each), and `partially_expanded` names exactly the nodes that lost some, with
 * true counts.
 */
function assertFair(command: 'impact' | 'deps', start: string, depth: number, limit: number): Traversal {
  const cut = traversal(command, start, depth, limit);
  assert.equal(cut.truncation_reason, 'result_limit');
  const cutDepth = Math.max(...cut.items.map((item) => item.depth));
  const kept = new Set(cut.items.map((item) => item.id));
  const earlier = new Set([start, ...cut.items.filter((item) => item.depth < cutDepth).map((item) => item.id)]);
  const parents = cutDepth === 1 ? [start] : cut.items.filter((item) => item.depth === cutDepth - 1).map((item) => item.id);
  assert.ok(parents.length >= 2 && limit - earlier.size + 1 >= parents.length, 'the case has several branches and room for one node each');
  const partial = new Map((cut.partially_expanded ?? []).map((p) => [p.id, p]));
  for (const parent of parents) {
    const all = [...oneHop(command, parent)].filter((id) => !earlier.has(id));
    const listed = all.filter((id) => kept.has(id)).length;
    if (all.length > 0) assert.ok(listed > 0, `${parent}: none of its ${all.length} next-depth neighbours listed`);
    if (listed < all.length) assert.deepEqual(partial.get(parent), { id: parent, listed, omitted: all.length - listed });
    else assert.equal(partial.has(parent), false, `${parent} lost nothing`);
  }
  // The total counts each left-out node once (attacker trial: 12 "left out" across parents, 10 nodes);
  // the per-parent counts may overlap, a node reached from several parents counting under each.
  const layer = new Set(parents.flatMap((parent) => [...oneHop(command, parent)].filter((id) => !earlier.has(id))));
  assert.equal(cut.omitted_total, [...layer].filter((id) => !kept.has(id)).length);
  assert.ok((cut.partially_expanded ?? []).reduce((sum, p) => sum + p.omitted, 0) >= cut.omitted_total!);
  return cut;
}

test('impact of access at depth 2 keeps callers of both Map.Get and Map.Set and names the cut one', () => {
  const cut = assertFair('impact', 'code:accessors.go#access', 2, 40);
  const ids = new Set(cut.items.map((item) => item.id));
  const setCallers = traversal('impact', 'code:accessors.go#Map.Set', 1, 200).items.map((item) => item.id);
  assert.ok(setCallers.length >= 10, 'objx tests call Map.Set');
  assert.ok(setCallers.filter((id) => ids.has(id)).length >= 5, 'Map.Set callers share the cut depth');
  assert.ok(cut.partially_expanded?.some((p) => p.id === 'code:accessors.go#Map.Get'));
  const text = cli(['impact', 'code:accessors.go#access', '--depth', '2', '--limit', '40']);
  assert.match(text.stdout, /truncated by result limit: raise --limit, narrow --relations or lower --depth\)/);
  assert.match(text.stdout, /\(neighbours cut by the limit, shared round-robin: .*code:accessors\.go#Map\.Get \(\d+ listed, \d+ left out\)/);
  assert.match(text.stdout, new RegExp(`; ${String(cut.omitted_total)} distinct neighbours left out in all \\(one reached from several nodes counts under each\\)\\)`));
});

test('a neighbour reached from several cut nodes is counted once in omitted_total (attacker trial: 12 "left out", 10 nodes)', () => {
  const examples = tempDir('docforge-examples-cut-');
  try {
    cpSync(EXAMPLES_DIR, examples, { recursive: true, filter: (src) => !src.split('/').includes('.docforge') });
    const run = (json: boolean): string => {
      const out = spawnSync(process.execPath, [CLI_ENTRY, 'impact', 'REQ-PAY-001', '--depth', '3', '--limit', '4', '-C', examples, ...(json ? ['--json'] : [])], { encoding: 'utf8' });
      assert.equal(out.status, 0, out.stderr);
      return out.stdout;
    };
    const cut = (JSON.parse(run(true)) as { result: Traversal }).result;
    const all = (JSON.parse(spawnSync(process.execPath, [CLI_ENTRY, 'impact', 'REQ-PAY-001', '--depth', '3', '--limit', '200', '-C', examples, '--json'], { encoding: 'utf8' }).stdout) as { result: Traversal }).result;
    // The cut depth is the first with a node not listed; the traversal stops there.
    const listed = new Set(cut.items.map((item) => item.id));
    const cutDepth = Math.min(...all.items.filter((item) => !listed.has(item.id)).map((item) => item.depth));
    const missing = all.items.filter((item) => item.depth === cutDepth && !listed.has(item.id)).length;
    assert.equal(cut.omitted_total, missing);
    assert.ok((cut.partially_expanded ?? []).reduce((sum, p) => sum + p.omitted, 0) > missing, 'the case has a neighbour shared by cut nodes');
    assert.match(run(false), new RegExp(`; ${String(missing)} distinct neighbours left out in all`));
  } finally {
    removeDir(examples);
  }
});

test('dependencies share the fair cut', () => {
  assertFair('deps', 'code:accessors_test.go#TestAccessorsSet', 3, 6);
});

test('truncation hints name the cause and only options of the command', () => {
  const usage = (command: string): string => cli([command, '--help']).stdout + cli([command, '--help']).stderr;
  const cases: { args: string[]; cause: RegExp }[] = [
    { args: ['context', '--task-kind', 'change', 'change how Map.Set stores values', '--budget', '300'], cause: /truncated by token budget: raise --budget \(was 300\)/ },
    { args: ['context', 'Map Set value', '--budget', '200', '--limit', '100'], cause: /truncated by token budget: raise --budget \(was 200\)/ },
    { args: ['impact', 'code:accessors.go#Map.Get', '--limit', '3'], cause: /truncated by result limit: raise --limit/ },
  ];
  for (const { args, cause } of cases) {
    const run = cli(args);
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, cause);
    const hint = run.stdout.split('\n').find((line) => line.startsWith('(truncated') || line.includes('; truncated by'))!;
    const help = usage(args[0]!);
    for (const option of hint.match(/--[a-z-]+/g) ?? []) assert.ok(help.includes(option), `${args[0]} hint names ${option}, which ${args[0]} does not take:\n${hint}`);
  }
});

type MapGroup = GraphBrowserOverview['map']['groups'][number];

test('overview map: the largest files are drawn, the rest group counts and expands to the others', async () => {
  const session = await openBrowserSession(await workerConfig(root, { workerId: 'objx-map' }));
  try {
    const overview = async (expand: readonly string[]): Promise<MapGroup[]> => {
      const response = await session.get(`/api/overview${expand.map((id, i) => `${i === 0 ? '?' : '&'}expand=${encodeURIComponent(id)}`).join('')}`);
      const body = (await response.json()) as GraphBrowserOverview;
      assert.ok(validateGraphBrowserOverview(body), JSON.stringify(describeValidationErrors(validateGraphBrowserOverview.errors)));
      return body.map.groups;
    };
    // Node counts per file, read from the index file itself.
    const db = new Database(indexPath, { readonly: true, fileMustExist: true });
    const counts = new Map((db.prepare('SELECT path, node_count AS n FROM sources').all() as { path: string; n: number }[]).map((r) => [r.path, r.n]));
    db.close();
    const total = [...counts.values()].reduce((a, b) => a + b, 0);
    let groups = await overview([]);
    const rootGroup = groups.find((g) => g.path === '' && g.kind === 'folder')!;
    if (!rootGroup.expanded) groups = await overview([rootGroup.id]);
    const expanded = groups.filter((g) => g.expanded).map((g) => g.id);
    const files = groups.filter((g) => g.kind === 'file');
    const rest = groups.find((g) => g.kind === 'rest' && g.path === '')!;
    assert.ok(files.length > 0 && rest !== undefined, JSON.stringify(groups.map((g) => g.label)));
    const drawn = files.reduce((n, g) => n + g.nodes, 0);
    assert.equal(rest.nodes, total - drawn, 'the rest group holds the nodes of the files it stands for');
    assert.equal(rest.files, counts.size - files.length);
    const smallestDrawn = Math.min(...files.map((g) => g.nodes));
    const hidden = [...counts].filter(([p]) => !files.some((g) => g.path === p));
    assert.ok(hidden.every(([, n]) => n <= smallestDrawn), 'no hidden file is larger than a drawn one');
    assert.equal(rest.expandable, rest.nodes > 0 || rest.files > 0);
    // Expanding the rest draws the next files inside it; every file is then drawn exactly once.
    const more = await overview([...expanded, rest.id]);
    const all = more.filter((g) => g.kind === 'file').map((g) => g.path).sort();
    assert.deepEqual(all, [...counts.keys()].filter((p) => readdirSync(root).includes(p)).sort());
    assert.ok(more.some((g) => g.kind === 'file' && g.parent === more.find((r) => r.kind === 'rest' && r.expanded)?.id));
  } finally {
    await session.worker.stop();
  }
});
