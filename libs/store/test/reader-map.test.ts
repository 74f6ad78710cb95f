// Pins the architecture-map aggregates of the index reader (issue 34 item 1): per-folder file and node counts, folder-pair and file-pair edge counts computed in SQL, excluded relations and same-folder pairs left out, and the bounds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { GraphEdge, GraphNode } from '@docforge/core';
import type { SourceEntry } from '@docforge/project';
import { IndexReader, indexMetaRows, writeIndexFile } from '../src/index.js';

function node(id: string, sourcePath: string): GraphNode {
  return {
    id, kind: 'module', title: id, family: null, authority: null, status: null, tags: [], summary: '', body: '',
    source_path: sourcePath, start_line: 1, end_line: 2, anchors: [], language: null, capabilities: [], origin: 'markdown', content_hash: `h${id}`,
  };
}

const edge = (source: string, relation: string, target: string, file: string): GraphEdge => ({ source_id: source, relation, target_id: target, source_path: file, line: 1 });
const entry = (p: string, role: 'content' | 'code'): SourceEntry => ({ path: p, role, size: 1, mtime_ns: '1', ctime_ns: '1', ino: '1' });

test('folder counts, folder-pair and file-pair edge counts come from SQL, without excluded relations or same-folder pairs', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'docforge-map-'));
  try {
    const files: [string, 'content' | 'code', string[]][] = [
      ['src/a/x.ts', 'code', ['X', 'X.f']], ['src/a/y.ts', 'code', ['Y']], ['src/b/z.ts', 'code', ['Z']], ['docs/p.md', 'content', ['P']], ['top.ts', 'code', ['T']],
    ];
    const nodes = files.flatMap(([p, , ids]) => ids.map((id) => node(id, p)));
    const edges = [
      edge('X', 'imports', 'Z', 'src/a/x.ts'), edge('Y', 'imports', 'Z', 'src/a/y.ts'), edge('X.f', 'calls', 'Z', 'src/a/x.ts'),
      edge('X', 'imports', 'Y', 'src/a/x.ts'), edge('X', 'defines', 'X.f', 'src/a/x.ts'), edge('P', 'documents', 'X', 'docs/p.md'), edge('T', 'imports', 'X', 'top.ts'),
    ];
    const file = path.join(dir, 'index.sqlite');
    const meta = indexMetaRows({ projectId: 'p', root: '/r', sourceIdentity: 'i', sourceHash: 'h', adapterVersion: 'v', logicAllowed: true, logicPresent: false, descriptorHash: 'd', relations: ['imports'], mentionCounts: { spans: 0 } });
    writeIndexFile(file, {
      nodes, edges, sources: files.map(([p, role, ids]) => ({ entry: entry(p, role), content_hash: `s${p}`, nodes: nodes.filter((n) => ids.includes(n.id)) })),
      logic: [], issues: [], unresolved: [], meta,
    }, () => undefined);
    const reader = new IndexReader(file);
    assert.deepEqual(reader.mapFolderCounts(100), { truncated: false, rows: [
      { folder: '', role: 'code', files: 1, nodes: 1 }, { folder: 'docs/', role: 'content', files: 1, nodes: 1 },
      { folder: 'src/a/', role: 'code', files: 2, nodes: 3 }, { folder: 'src/b/', role: 'code', files: 1, nodes: 1 },
    ] });
    const excluded = ['contains', 'defines', 'owns', 'defined_in'];
    assert.deepEqual(reader.mapFolderEdges(excluded, 100), { truncated: false, rows: [
      { source: 'src/a/', target: 'src/b/', relation: 'imports', count: 2 },
      { source: '', target: 'src/a/', relation: 'imports', count: 1 },
      { source: 'docs/', target: 'src/a/', relation: 'documents', count: 1 },
      { source: 'src/a/', target: 'src/b/', relation: 'calls', count: 1 },
    ] }, 'heaviest first; X imports Y (one folder) and X defines X.f (excluded) are left out');
    assert.deepEqual(reader.mapFolderEdges(excluded, 1).truncated, true);
    assert.deepEqual(reader.mapFileEdges('src/a/', excluded, 100).rows.map((r) => `${r.source} ${r.relation} ${r.target} ${r.count}`), [
      'docs/p.md documents src/a/x.ts 1', 'src/a/x.ts imports src/a/y.ts 1', 'src/a/x.ts calls src/b/z.ts 1', 'src/a/x.ts imports src/b/z.ts 1',
      'src/a/y.ts imports src/b/z.ts 1', 'top.ts imports src/a/x.ts 1',
    ], 'both ways, each file pair once, by source and target');
    assert.deepEqual(reader.mapFileEdges('', excluded, 100).rows, [{ source: 'top.ts', target: 'src/a/x.ts', relation: 'imports', count: 1 }], 'the root folder holds only top.ts');
    assert.deepEqual(reader.mapFolderFiles('src/a/', 1), { truncated: true, rows: [{ path: 'src/a/x.ts', role: 'code', nodes: 2 }] });
    assert.deepEqual(reader.nodesOfFile('src/a/x.ts', 5), ['X', 'X.f']);
    reader.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
