// Pins issue 34 item 1 on examples/: /api/overview carries a bounded architecture map whose aggregated edges equal the stored edges counted between the drawn groups (checked against the index file itself), expands a group in place, and refuses any expand value it did not mint (a free path, a tampered id, another worker's id) with a structured error.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { describeValidationErrors, validateGraphBrowserError, validateGraphBrowserOverview, type GraphBrowserOverview } from '@docforge/protocol';
import { sharedExampleProject } from './helpers/projects.js';
import { openBrowserSession, workerConfig } from './helpers/graph-browser.js';

type MapAnswer = GraphBrowserOverview['map'];
type Group = MapAnswer['groups'][number];

const root = sharedExampleProject();
const config = await workerConfig(root, { workerId: 'map' });
const session = await openBrowserSession(config);
const other = await openBrowserSession(await workerConfig(root, { workerId: 'map-other' }));
after(async () => {
  await session.worker.stop();
  await other.worker.stop();
});

async function overview(expand: readonly string[] = [], on = session): Promise<{ body: GraphBrowserOverview; bytes: number }> {
  const query = expand.map((id) => `expand=${encodeURIComponent(id)}`).join('&');
  const response = await on.get(`/api/overview${query ? `?${query}` : ''}`);
  const text = await response.text();
  assert.equal(response.status, 200, text);
  const body = JSON.parse(text) as unknown;
  assert.ok(validateGraphBrowserOverview(body), JSON.stringify(describeValidationErrors(validateGraphBrowserOverview.errors)));
  return { body, bytes: Buffer.byteLength(text) };
}

async function refused(expand: readonly string[], reason: string | null): Promise<void> {
  const query = expand.map((id) => `expand=${encodeURIComponent(id)}`).join('&');
  const answer = await session.json(`/api/overview?${query}`);
  assert.equal(answer.status, 400, JSON.stringify(answer.body));
  assert.ok(validateGraphBrowserError(answer.body));
  assert.equal(answer.body.error.code, 'invalid_arguments');
  if (reason !== null) assert.equal((answer.body.error.details as { reason?: string }).reason, reason);
}

/** Every stored edge outside the excluded relations, with both ends' source paths, read from the index file itself. */
function storedEdges(excluded: readonly string[]): { source: string; target: string; relation: string }[] {
  const db = new Database(config.index_path, { readonly: true, fileMustExist: true });
  try {
    return db.prepare(`SELECT s.source_path AS source, t.source_path AS target, e.relation AS relation FROM edges e JOIN nodes s ON s.id = e.source_id JOIN nodes t ON t.id = e.target_id`).all()
      .filter((row) => !excluded.includes((row as { relation: string }).relation)) as { source: string; target: string; relation: string }[];
  } finally {
    db.close();
  }
}

/** The drawn leaf group holding the file `path`: the deepest non-expanded group whose path contains it. */
function leafOf(map: MapAnswer, path: string): Group | null {
  const holds = (g: Group): boolean => (g.kind === 'file' ? g.path === path : g.kind === 'files' ? path.startsWith(g.path) && !path.slice(g.path.length).includes('/') : path.startsWith(g.path));
  const candidates = map.groups.filter((g) => !g.expanded && g.kind !== 'rest' && holds(g));
  return candidates.sort((a, b) => b.path.length - a.path.length)[0] ?? null;
}

/** The aggregate the map must show: stored edges counted per (leaf group, leaf group), self-pairs dropped. */
function expectedEdges(map: MapAnswer): Map<string, number> {
  const out = new Map<string, number>();
  for (const edge of storedEdges(map.excluded_relations)) {
    const s = leafOf(map, edge.source);
    const t = leafOf(map, edge.target);
    if (s === null || t === null || s.id === t.id) continue;
    const key = `${s.id} ${t.id}`;
    out.set(key, (out.get(key) ?? 0) + 1);
  }
  return out;
}

test('the first screen: a bounded map of folders with every aggregated edge counted from the stored edges, source group to target group', async () => {
  const { body, bytes } = await overview();
  const map = body.map;
  assert.ok(bytes < 200 * 1024, `${bytes} bytes`);
  assert.ok(map.groups.length <= 240 && map.edges.length <= 400);
  const rootGroup = map.groups.find((g) => g.path === '' && g.parent === null)!;
  assert.ok(rootGroup.expanded, 'the project root is opened');
  const top = map.groups.filter((g) => g.parent === rootGroup.id).map((g) => g.path).sort();
  assert.deepEqual(top, ['docs/', 'src/'], 'the top level is the project\'s folders');
  assert.ok(map.groups.some((g) => g.path === 'src/ledger/' && g.kind === 'folder' && g.code_nodes > 0 && g.doc_nodes === 0));
  assert.ok(map.groups.some((g) => g.path === 'docs/components/' && g.doc_nodes > 0 && g.code_nodes === 0), 'documentation groups are drawn beside the code');
  const ids = new Set(map.groups.map((g) => g.id));
  for (const g of map.groups) assert.ok(g.parent === null || ids.has(g.parent), 'every parent is drawn');
  const drawnEdges = new Map(map.edges.map((e) => [`${e.source} ${e.target}`, e.count]));
  assert.deepEqual(drawnEdges, expectedEdges(map), 'each drawn edge counts exactly the stored edges from its source group to its target group');
  const documents = map.edges.filter((e) => e.relations.some((r) => r.relation === 'documents'));
  assert.ok(documents.length > 0 && documents.every((e) => map.groups.find((g) => g.id === e.source)!.doc_nodes > 0), 'documents edges run from the documentation group to the code');
});

test('expanding a group in place: its children appear inside it, the edges are recounted, collapsing restores the map', async () => {
  const first = (await overview()).body.map;
  const ledger = first.groups.find((g) => g.path === 'src/ledger/' && !g.expanded)!;
  assert.ok(ledger.expandable);
  const { body } = await overview([...first.expanded, ledger.id]);
  const opened = body.map.groups.find((g) => g.path === 'src/ledger/')!;
  assert.equal(opened.expanded, true);
  const files = body.map.groups.filter((g) => g.parent === opened.id);
  assert.deepEqual(files.map((g) => g.path).sort(), ['src/ledger/ledger.test.ts', 'src/ledger/ledger.ts', 'src/ledger/memory-store.ts', 'src/ledger/types.ts']);
  assert.ok(files.every((g) => g.kind === 'file' && g.node_id === `code:${g.path}`), 'a module drills down to its node');
  assert.deepEqual(new Map(body.map.edges.map((e) => [`${e.source} ${e.target}`, e.count])), expectedEdges(body.map));
  const again = (await overview(first.expanded)).body.map;
  assert.deepEqual(again.groups.map((g) => g.path), first.groups.map((g) => g.path));
});

test('expand accepts only ids an earlier answer of this worker minted for this snapshot', async () => {
  const first = (await overview()).body.map;
  await refused(['src/ledger/'], 'group_not_minted');
  await refused(['g1.x.y'], 'group_not_minted');
  const [, payload, mac] = first.groups.find((g) => g.path === 'src/ledger/')!.id.split('.');
  const forged = Buffer.from(JSON.stringify(['folder', '../../etc/', 0])).toString('base64url');
  await refused([`g1.${forged}.${mac}`], 'group_not_minted');
  await refused([`g1.${payload}.${mac!.slice(0, -1)}A`], 'group_not_minted');
  const foreign = (await overview([], other)).body.map.groups.find((g) => g.path === 'src/ledger/')!;
  await refused([foreign.id], 'group_not_minted');
  // More than 32 values: refused by the query's own bound before any id is read.
  await refused(Array.from({ length: 33 }, () => first.expanded[0]!), null);
  assert.equal((await overview()).body.map.groups.length, first.groups.length, 'a refused request changes nothing');
});
