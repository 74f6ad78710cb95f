// Pins traversal relations (every shortest-path relation on one item; limit counts nodes) and keyset-paged backlinks on a real index (issue 8 item 7).
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { type IndexReader } from '@docforge/store';
import { backlinks, traverse, type Backlink } from '../src/index.js';
import { indexedProject } from './helpers.js';

function node(root: string, id: string, relations: Record<string, string[]> = {}): void {
  const table = Object.entries(relations).map(([name, targets]) => `${name} = [${targets.map((t) => JSON.stringify(t)).join(', ')}]`).join('\n');
  writeFileSync(path.join(root, 'docs', `${id}.md`), `+++\nid = "${id}"\nkind = "component"\ntitle = "${id}"\n\n[relations]\n${table}\n+++\n# ${id}\n`);
}

describe('traversal and backlinks', () => {
  let reader: IndexReader;

  indexedProject('docforge-traversal-', (root) => {
    mkdirSync(path.join(root, 'docs'));
    writeFileSync(path.join(root, 'docforge.toml'), 'schema_version = 1\n[project]\nid = "traversal"\nname = "Traversal"\n[sources]\ncontent_roots = ["docs"]\n[adapter]\ncode = "none"\n');
    // S reaches X by three relations and Y by one; X and Y both reach Z, by different relations.
    node(root, 'S', { uses: ['X', 'Y'], depends_on: ['X'], relates_to: ['X'] });
    node(root, 'X', { depends_on: ['Z'] });
    node(root, 'Y', { implements: ['Z'] });
    node(root, 'Z');
  }, (ready) => {
    reader = ready;
  });

  test('one item per node, with every relation reaching it from one hop closer, sorted', () => {
    const result = traverse(reader, 'S', { direction: 'outgoing', depth: 2, limit: 10 });
    assert.deepEqual(result.items.map((i) => [i.id, i.depth, i.relation, i.relations, i.via]), [
      ['X', 1, 'depends_on', ['depends_on', 'relates_to', 'uses'], 'S'],
      ['Y', 1, 'uses', ['uses'], 'S'],
      ['Z', 2, 'depends_on', ['depends_on', 'implements'], 'X'],
    ]);
    assert.equal(result.truncated, false);
    // The relation filter narrows what reaches a node.
    const filtered = traverse(reader, 'S', { direction: 'outgoing', depth: 1, limit: 10, relations: ['uses', 'relates_to'] });
    assert.deepEqual(filtered.items.map((i) => [i.id, i.relations]), [['X', ['relates_to', 'uses']], ['Y', ['uses']]]);
  });

  test('the limit counts nodes; the listed ones keep relations read after the limit was reached', () => {
    const result = traverse(reader, 'S', { direction: 'outgoing', depth: 2, limit: 1 });
    assert.deepEqual(result.items.map((i) => [i.id, i.relations]), [['X', ['depends_on', 'relates_to', 'uses']]]);
    assert.equal(result.truncation_reason, 'result_limit');
  });

  test('backlinks pages by (relation, source id) keyset and ends exactly', () => {
    const all = backlinks(reader, 'Z', 10).items;
    assert.deepEqual(all.map((b) => [b.relation, b.id]), [['depends_on', 'X'], ['implements', 'Y']]);
    const first = backlinks(reader, 'Z', 1);
    assert.equal(first.truncated, true);
    const last: Backlink = first.items[0]!;
    const second = backlinks(reader, 'Z', 1, undefined, { relation: last.relation, source_id: last.id });
    assert.deepEqual(second.items.map((b) => b.id), ['Y']);
    assert.equal(second.truncated, false);
    assert.deepEqual(backlinks(reader, 'X', 10, undefined, { relation: 'relates_to', source_id: 'S' }).items.map((b) => b.relation), ['uses']);
  });
});
