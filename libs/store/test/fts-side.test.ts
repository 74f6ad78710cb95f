// Pins the side full-text build of a full write (issue 35, fts-side.ts): node_fts built in a thread
// and copied in is the index a 'rebuild' makes of the same rows, by FTS5's own integrity check, by
// bm25 scores and snippets, by the ranked search answers and by the stored totals; the side file is
// gone afterwards.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { GraphNode } from '@docforge/core';
import type { SourceEntry } from '@docforge/project';
import { IndexReader, indexMetaRows, writeIndexFile, writeIndexFileOverlapped, type FullIndexRows } from '../src/index.js';

const WORDS = ['payment', 'refund', 'ledger', 'invoice', 'retry', 'queue', 'schema', 'token', 'cache', 'route', 'ĉapelo', 'naïve'];

/** Node `i` of a varied set: words in different columns and counts, some Thai and Japanese text (segmented rows), tags. */
function node(i: number): GraphNode {
  const w = (k: number): string => WORDS[(i * 7 + k * 3) % WORDS.length]!;
  const body = [`The ${w(0)} of ${w(1)} ${w(2)}.`, i % 5 === 0 ? 'ภาษาไทยเขียนติดกัน การชำระเงิน' : '', i % 7 === 0 ? '支払いの払い戻しは台帳に記録されます' : '', `${w(3)} `.repeat(i % 9)].join('\n');
  return {
    id: `area-${i % 13}/node-${i}`, kind: i % 4 === 0 ? 'decision' : 'section', title: `${w(1)} ${i % 3 === 0 ? 'handlerName' : 'notes'} ${i}`, family: null, authority: null, status: null,
    tags: i % 6 === 0 ? [w(4)] : [], summary: `about ${w(5)}`, body, source_path: `docs/p-${i}.md`, start_line: 1, end_line: 9,
    anchors: i % 2 === 0 ? [{ slug: 'part', title: `Part on ${w(6)}`, level: 2, line: 3, end_line: 9, aliases: [] }] : [], language: null, capabilities: [], origin: 'markdown', content_hash: `h${i}`,
  };
}

function entry(p: string): SourceEntry {
  return { path: p, role: 'content', size: 10, mtime_ns: '1', ctime_ns: '1', ino: '2' };
}

const meta = indexMetaRows({
  projectId: 'p', root: '/r', sourceIdentity: 'id', sourceHash: 'h', adapterVersion: 'v', logicAllowed: true, logicPresent: false,
  descriptorHash: 'd', relations: [], mentionCounts: {},
});

function rows(count: number): FullIndexRows {
  const nodes = Array.from({ length: count }, (_, i) => node(i)).sort((a, b) => (a.id < b.id ? -1 : 1));
  return { nodes, edges: [], sources: nodes.map((n) => ({ entry: entry(n.source_path), content_hash: `s-${n.id}`, nodes: [n] })), logic: [], issues: [], unresolved: [], meta };
}

/** What a query of node_fts answers in `file`: rowid, bm25 and a body snippet per match, best first. */
function answers(file: string, query: string): unknown[] {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare(`SELECT rowid, bm25(node_fts, 4, 10, 6, 3, 1, 3, 6) AS score, snippet(node_fts, 4, '[', ']', '…', 8) AS snip
      FROM node_fts WHERE node_fts MATCH ? ORDER BY rank, rowid`).all(query);
  } finally {
    db.close();
  }
}

test('node_fts built in a side thread is the index a rebuild makes of the same rows', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'docforge-fts-side-'));
  try {
    const input = rows(2500);
    const rebuilt = path.join(dir, 'rebuilt.sqlite');
    const side = path.join(dir, '.build-side.sqlite');
    const lostRebuilt = writeIndexFile(rebuilt, input, () => undefined);
    const written = await writeIndexFileOverlapped(side, input, () => undefined, 0);
    assert.deepEqual(written.lost, lostRebuilt);
    assert.equal(written.side?.fts, 'adopted', written.side?.failure ?? '');
    assert.deepEqual(readdirSync(dir).sort(), ['.build-side.sqlite', 'rebuilt.sqlite'], 'the side file is removed');
    assert.equal(existsSync(`${side}.fts-side`), false);

    const db = new Database(side);
    // FTS5's own check reads every row of the content view and compares it with the index.
    db.exec("INSERT INTO node_fts (node_fts, rank) VALUES ('integrity-check', 1)");
    const totals = (file: string): unknown => {
      const other = new Database(file, { readonly: true });
      try {
        return [other.prepare('SELECT block FROM node_fts_data WHERE id = 1').get(), other.prepare('SELECT count(*) AS n, sum(length(sz)) AS len FROM node_fts_docsize').get(),
          other.prepare("SELECT k, v FROM node_fts_config ORDER BY k").all()];
      } finally {
        other.close();
      }
    };
    assert.ok((db.prepare('SELECT count(*) AS n FROM node_segmented').get() as { n: number }).n > 0, 'some rows are segmented text');
    db.close();
    assert.deepEqual(totals(side), totals(rebuilt), 'the averages record, document sizes and configuration');

    for (const query of ['payment', 'refund OR ledger', '"invoice schema"', 'title:notes', 'handler*', 'capelo', 'naive', 'token NOT cache']) {
      const expected = answers(rebuilt, query);
      assert.ok(expected.length > 0 || query === 'token NOT cache', `query ${query} matches in the rebuilt index`);
      assert.deepEqual(answers(side, query), expected, `query ${query}`);
    }
    const readers = [new IndexReader(rebuilt), new IndexReader(side)];
    try {
      for (const phrases of [['payment'], ['refund', 'ledger'], ['handler name'], ['การชำระเงิน'], ['払い戻し']]) {
        const [a, b] = readers.map((r) => r.ftsWindow({ mode: 'any', phrases }, 50).map((x) => x.id));
        assert.ok(a!.length > 0);
        assert.deepEqual(b, a, `ranked search for ${phrases.join(' ')}`);
      }
    } finally {
      for (const r of readers) r.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('below the node threshold the write is the plain one (no side file, no thread)', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'docforge-fts-side-'));
  try {
    const file = path.join(dir, 'small.sqlite');
    assert.deepEqual(await writeIndexFileOverlapped(file, rows(20), () => undefined), { lost: rows(20).sources.map(() => []), side: null });
    assert.deepEqual(readdirSync(dir), ['small.sqlite']);
    const db = new Database(file);
    db.exec("INSERT INTO node_fts (node_fts, rank) VALUES ('integrity-check', 1)");
    db.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
