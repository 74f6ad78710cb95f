// Pins the store's index writer over neutral rows (issue 29): a full write and a delta written from
// rows alone (no build cache), read back through IndexReader and readIndexRows.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { GraphEdge, GraphNode } from '@docforge/core';
import type { SourceEntry } from '@docforge/project';
import { IndexReader, applyIndexDelta, indexMetaRows, readIndexRows, writeIndexFile, type FullIndexRows } from '../src/index.js';

function node(id: string, sourcePath: string, hash: string, tags: string[] = []): GraphNode {
  return {
    id, kind: 'section', title: `Title of ${id}`, family: null, authority: null, status: null, tags, summary: `about ${id}`, body: `the body of ${id} mentions payment`,
    source_path: sourcePath, start_line: 1, end_line: 2, anchors: [], language: null, capabilities: [], origin: 'markdown', content_hash: hash,
  };
}

function entry(p: string): SourceEntry {
  return { path: p, role: 'content', size: 10, mtime_ns: '1', ctime_ns: '1', ino: '2' };
}

const meta = indexMetaRows({
  projectId: 'p', root: '/r', sourceIdentity: 'id', sourceHash: 'h', adapterVersion: 'v', logicAllowed: true, logicPresent: false,
  descriptorHash: 'd', relations: ['relates_to', 'depends_on', 'relates_to'], mentionCounts: { spans: 0 },
});

test('a full write from neutral rows, then a delta, read back as written; lost nodes are reported by index', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'docforge-writer-'));
  try {
    const a = node('A', 'a.md', 'ha', ['x']);
    const b = node('B', 'b.md', 'hb');
    const edge: GraphEdge = { source_id: 'A', relation: 'relates_to', target_id: 'B', source_path: 'a.md', line: 3 };
    // b.md also claims an `A` node that the table holds as a.md's: index 0 of b.md's nodes is lost.
    const rows: FullIndexRows = {
      nodes: [a, b], edges: [edge],
      sources: [{ entry: entry('a.md'), content_hash: 'sa', nodes: [a] }, { entry: entry('b.md'), content_hash: 'sb', nodes: [{ id: 'A', content_hash: 'other' }, b] }],
      logic: [], issues: [{ severity: 'warning', code: 'c', message: 'm', path: 'a.md', line: 1, node_id: null }], unresolved: [['A', 2]], meta,
    };
    const file = path.join(dir, 'full.sqlite');
    assert.deepEqual(writeIndexFile(file, rows, () => undefined), [[], [0]]);
    const reader = new IndexReader(file);
    assert.equal(reader.meta.relations, '["depends_on","relates_to"]');
    assert.deepEqual(reader.getNode('A'), a);
    assert.equal(reader.unresolvedCalls('A'), 2);
    assert.deepEqual(reader.ftsWindow({ mode: 'any', phrases: ['payment'] }, 10).map((r) => r.id).sort(), ['A', 'B']);
    assert.equal(reader.issues(10).issues[0]!.message, 'a.md:1: m');
    reader.close();

    const delta = path.join(dir, 'delta.sqlite');
    copyFileSync(file, delta);
    const c = node('C', 'c.md', 'hc');
    const a2 = { ...a, title: 'Renamed', content_hash: 'ha2', tags: ['y'] };
    const lost = applyIndexDelta(delta, {
      removedNodes: ['B'], changedNodes: [a2, c], edgesWritten: [], edgesRemoved: [edge], removedSources: ['b.md'],
      sources: [{ entry: entry('c.md'), content_hash: 'sc', nodes: [c] }], logic: [], issues: [], unresolved: null, meta,
    });
    assert.deepEqual(lost, [[]]);
    const after = new IndexReader(delta);
    assert.equal(after.getNode('B'), null);
    assert.deepEqual(after.getNode('A'), a2);
    assert.equal(after.count('edges'), 0);
    assert.equal(after.unresolvedCalls('A'), 2, 'unresolved: null keeps the rows');
    assert.deepEqual([...after.sourceStats().keys()].sort(), ['a.md', 'c.md']);
    assert.deepEqual(after.ftsWindow({ mode: 'any', phrases: ['renamed'] }, 10).map((r) => r.id), ['A']);
    assert.deepEqual(after.ftsWindow({ mode: 'any', phrases: ['B'], fields: 'names' }, 10), []);
    after.close();

    const seen: string[] = [];
    const read = readIndexRows(delta, {
      meta: (m) => m.project_id === 'p',
      node: (n) => seen.push(`${n.id}:${n.body}`),
      sources: (s) => seen.push(...s.map((r) => r.entry.path)),
      edge: () => seen.push('edge'),
      issues: (i) => seen.push(`issues:${i.length}`),
      unresolved: (u) => seen.push(JSON.stringify(u)),
    });
    assert.equal(read, true);
    assert.deepEqual(seen.sort(), ['A:', 'C:', '[["A",2]]', 'a.md', 'c.md', 'issues:0'].sort());
    assert.equal(readIndexRows(delta, { meta: () => false, node: () => assert.fail('stopped'), sources: () => undefined, edge: () => undefined, issues: () => undefined, unresolved: () => undefined }), false);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
