// Regression (issue 8 item 7): dependencies/impact list every relation reaching a node (limit counts nodes); backlinks pages with a generation-bound cursor.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { tempDir } from './helpers/projects.js';
import { expectError, useServer, type Json } from './helpers/server.js';

/** Writes one Markdown node with TOML front matter and a `[relations]` table. */
function node(root: string, id: string, relations: Record<string, string[]> = {}): void {
  const table = Object.entries(relations).map(([name, targets]) => `${name} = [${targets.map((t) => JSON.stringify(t)).join(', ')}]`).join('\n');
  writeFileSync(path.join(root, 'docs', `${id}.md`), `+++\nid = "${id}"\nkind = "component"\ntitle = "Node ${id}"\n\n[relations]\n${table}\n+++\n# Node ${id}\n\nText of ${id}.\n`);
}

// A depends on and relates to B; A depends on C; B depends on D; C implements D.
// T has incoming edges from N1..N5 (relates_to) and from N1 and N3 (depends_on): 7 backlinks.
const root = tempDir('docforge-traversal-');
mkdirSync(path.join(root, 'docs'));
writeFileSync(path.join(root, 'docforge.toml'), 'schema_version = 1\n[project]\nid = "traversal"\nname = "Traversal"\n[sources]\ncontent_roots = ["docs"]\n[adapter]\ncode = "none"\n');
node(root, 'A', { depends_on: ['B', 'C'], relates_to: ['B'] });
node(root, 'B', { depends_on: ['D'] });
node(root, 'C', { implements: ['D'] });
node(root, 'D');
node(root, 'T');
for (const n of [1, 2, 3, 4, 5]) node(root, `N${n}`, n % 2 === 1 && n !== 5 ? { relates_to: ['T'], depends_on: ['T'] } : { relates_to: ['T'] });
const EXPECTED_BACKLINKS = [
  ['depends_on', 'N1'], ['depends_on', 'N3'],
  ['relates_to', 'N1'], ['relates_to', 'N2'], ['relates_to', 'N3'], ['relates_to', 'N4'], ['relates_to', 'N5'],
];

const summary = (items: Json[]) => items.map((i) => ({ id: i.id, depth: i.depth, relation: i.relation, relations: i.relations }));

describe('relations of traversal items', async () => {
  const s = await useServer(root);

  test('dependencies: a node reached by two relations is one item listing both', async () => {
    const e = await s.call('docforge_dependencies', { node_id: 'A' });
    assert.deepEqual(summary(e.result!.items), [
      { id: 'B', depth: 1, relation: 'depends_on', relations: ['depends_on', 'relates_to'] },
      { id: 'C', depth: 1, relation: 'depends_on', relations: ['depends_on'] },
    ]);
    assert.equal(e.result!.truncated, false);
  });

  test('limit counts nodes, and the listed node still carries every relation', async () => {
    const e = await s.call('docforge_dependencies', { node_id: 'A', limit: 1 });
    assert.deepEqual(summary(e.result!.items), [{ id: 'B', depth: 1, relation: 'depends_on', relations: ['depends_on', 'relates_to'] }]);
    assert.equal(e.result!.truncated, true);
    assert.equal(e.result!.truncation_reason, 'result_limit');
  });

  test('impact: relations of every shortest-path edge, from each node one hop closer', async () => {
    const e = await s.call('docforge_impact', { node_id: 'D', depth: 2 });
    assert.deepEqual(summary(e.result!.items), [
      { id: 'B', depth: 1, relation: 'depends_on', relations: ['depends_on'] },
      { id: 'C', depth: 1, relation: 'implements', relations: ['implements'] },
      { id: 'A', depth: 2, relation: 'depends_on', relations: ['depends_on', 'relates_to'] },
    ]);
    const two = await s.call('docforge_dependencies', { node_id: 'A', depth: 2 });
    assert.deepEqual(two.result!.items.find((i: Json) => i.id === 'D').relations, ['depends_on', 'implements']);
  });
});

describe('backlinks cursor', async () => {
  const s = await useServer(root);

  test('pages of two cover every incoming edge once, in (relation, id) order', async () => {
    const seen: string[][] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const args: Json = { node_id: 'T', limit: 2 };
      if (cursor) args.cursor = cursor;
      const e = await s.call('docforge_backlinks', args);
      assert.equal(e.ok, true, JSON.stringify(e.error));
      seen.push(...e.result!.items.map((i: Json) => [i.relation, i.id]));
      cursor = e.result!.next_cursor;
      assert.equal(e.result!.truncated, cursor !== null);
      pages += 1;
      assert.ok(pages <= 10, 'pagination ends');
    } while (cursor);
    assert.deepEqual(seen, EXPECTED_BACKLINKS);
    assert.equal(pages, 4);
    const all = await s.call('docforge_backlinks', { node_id: 'T' });
    assert.equal(all.result!.next_cursor, null);
    assert.deepEqual(all.result!.items.map((i: Json) => [i.relation, i.id]), EXPECTED_BACKLINKS);
  });

  test('the relation filter is bound to the cursor; the page size is not', async () => {
    const first = await s.call('docforge_backlinks', { node_id: 'T', relations: ['relates_to'], limit: 2 });
    const cursor = first.result!.next_cursor as string;
    const next = await s.call('docforge_backlinks', { node_id: 'T', relations: ['relates_to'], limit: 3, cursor });
    assert.deepEqual(next.result!.items.map((i: Json) => i.id), ['N3', 'N4', 'N5']);
    assert.equal(next.result!.next_cursor, null);
    const other = await expectError(s.call('docforge_backlinks', { node_id: 'T', cursor, limit: 2 }), 'invalid_cursor');
    assert.equal(other.details.reason, 'cursor_for_other_request');
    const otherNode = await expectError(s.call('docforge_backlinks', { node_id: 'D', relations: ['relates_to'], cursor }), 'invalid_cursor');
    assert.equal(otherNode.details.reason, 'cursor_for_other_request');
    const filterCursor = (await s.call('docforge_filter_nodes', { limit: 1 })).result!.next_cursor as string;
    await expectError(s.call('docforge_backlinks', { node_id: 'T', cursor: filterCursor }), 'invalid_cursor');
    await expectError(s.call('docforge_backlinks', { node_id: 'T', cursor: 'not-a-cursor' }), 'invalid_cursor');
  });

  test('a cursor from an earlier generation is stale, never silently restarted', async () => {
    const first = await s.call('docforge_backlinks', { node_id: 'T', limit: 2 });
    const cursor = first.result!.next_cursor as string;
    node(root, 'N6', { relates_to: ['T'] });
    const stale = await expectError(s.call('docforge_backlinks', { node_id: 'T', limit: 2, cursor }), 'stale_cursor');
    assert.equal(stale.details.reason, 'generation_changed');
  });
});
