// Pins the per-reader term statistics of the ranking (issue 14): document frequencies and tier bounds are
// counted once per reader and reused, never across readers, so a search answers the same on a reused reader,
// a fresh reader of the same file, and after a new generation as a fresh reader of that generation does.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { IndexManager } from '@docforge/sync';
import { IndexReader, type FtsMatch } from '@docforge/store';
import { rankNodes, searchNodes } from '../src/index.js';

const QUERIES = ['alpha', 'alpha omega', 'omega', 'where is the omega doc', 'doc 3', 'alpha beta gamma', 'nothing-matches-this'];

function write(root: string, i: number, text: string): void {
  writeFileSync(path.join(root, 'docs', `d${String(i).padStart(2, '0')}.md`), `# Doc ${i}\n\n${text}\n`);
}

describe('term statistics per reader', () => {
  let root: string;
  let manager: IndexManager;

  before(async () => {
    root = mkdtempSync(path.join(os.tmpdir(), 'docforge-ranking-stats-'));
    mkdirSync(path.join(root, 'docs'));
    writeFileSync(path.join(root, 'docforge.toml'), 'schema_version = 1\n[project]\nid = "t"\nname = "T"\n[sources]\ncontent_roots = ["docs"]\n[adapter]\ncode = "none"\n');
    for (let i = 0; i < 12; i += 1) write(root, i, `alpha ${'alpha '.repeat(i)}text${i % 4 === 0 ? ' omega' : ''}.`);
    manager = new IndexManager({ root, noAst: false });
    await manager.sync();
  });
  after(async () => {
    await manager.close();
    rmSync(root, { recursive: true, force: true });
  });

  test('a reused reader, a fresh reader of the same file and a bounded tier answer alike', () => {
    const reader = manager.reader();
    const first = QUERIES.map((q) => rankNodes(reader, q));
    assert.deepEqual(QUERIES.map((q) => rankNodes(reader, q)), first, 'reused reader');
    const fresh = new IndexReader(reader.file);
    try {
      assert.deepEqual(QUERIES.map((q) => rankNodes(fresh, q)), first, 'fresh reader');
      // The tier bound is kept per reader too: the bounded ranking repeats exactly.
      // A window of 2 is exceeded by the name matches of "doc": the second search on a reader skips the unranked read.
      const windowed = rankNodes(fresh, 'doc', {}, 2);
      assert.equal(windowed.windowed, true);
      assert.deepEqual(rankNodes(fresh, 'doc', {}, 2), windowed);
      assert.deepEqual(rankNodes(reader, 'doc', {}, 2), windowed);
      const bounded = rankNodes(fresh, 'alpha', {}, undefined, 3);
      assert.equal(bounded.windowed, true);
      assert.deepEqual(rankNodes(fresh, 'alpha', {}, undefined, 3), bounded);
      assert.deepEqual(rankNodes(reader, 'alpha', {}, undefined, 3), bounded);
    } finally {
      fresh.close();
    }
  });

  test('after a new generation, the served reader ranks with that generation\'s frequencies', async () => {
    const before = manager.reader();
    const omegaBefore = searchNodes(before, 'alpha omega', 20).items.map((i) => i.id);
    // With a tier of 3, "alpha" (12 of 12 nodes) is very common and "omega" (3) is not: omega's documents are the candidates.
    assert.deepEqual(rankNodes(before, 'alpha omega', {}, undefined, 3).ranked.map((r) => r.row.id).sort(), ['d00', 'd04', 'd08']);
    // "omega" goes from 3 documents to 15: its idf (and so the name and heading weights) changes.
    for (let i = 12; i < 24; i += 1) write(root, i, 'omega omega text.');
    await manager.sync();
    const after = manager.reader();
    assert.notEqual(after.file, before.file);
    const fresh = new IndexReader(after.file);
    try {
      for (const q of QUERIES) {
        assert.deepEqual(rankNodes(after, q), rankNodes(fresh, q), q);
        assert.deepEqual(searchNodes(after, q, 20), searchNodes(fresh, q, 20), q);
      }
      assert.notDeepEqual(searchNodes(after, 'alpha omega', 20).items.map((i) => i.id), omegaBefore);
      // Now "omega" is in 15 of 24 nodes and "alpha" in 12: the candidates are alpha's documents, which
      // only this generation's counts give (the previous reader's would still pick omega's).
      const ids = rankNodes(after, 'alpha omega', {}, undefined, 3).ranked.map((r) => r.row.id).sort();
      assert.deepEqual(ids, Array.from({ length: 12 }, (_, i) => `d${String(i).padStart(2, '0')}`));
    } finally {
      fresh.close();
    }
  });
});

describe('candidate tier bound larger than the window', () => {
  let root: string;
  let manager: IndexManager;

  before(async () => {
    root = mkdtempSync(path.join(os.tmpdir(), 'docforge-ranking-tier-'));
    mkdirSync(path.join(root, 'docs'));
    writeFileSync(path.join(root, 'docforge.toml'), 'schema_version = 1\n[project]\nid = "t"\nname = "T"\n[sources]\ncontent_roots = ["docs"]\n[adapter]\ncode = "none"\n');
    for (let i = 0; i < 12; i += 1) writeFileSync(path.join(root, 'docs', `w${String(i).padStart(2, '0')}.md`), `# Widget ${'widget '.repeat(i % 3)}${i}\n\nwidget ${'widget '.repeat(i % 5)}text.\n`);
    // Pages that name "widget" only in prose: full-text matches that no names query finds.
    for (let i = 0; i < 4; i += 1) writeFileSync(path.join(root, 'docs', `g${i}.md`), `# Gadget ${i}\n\nA gadget is no widget ${'widget '.repeat(i)}at all.\n`);
    manager = new IndexManager({ root, noAst: false });
    await manager.sync();
  });
  after(async () => {
    await manager.close();
    rmSync(root, { recursive: true, force: true });
  });

  test('under a tier bound larger than the window, the name candidates are the first name matches of the full-text tier', () => {
    const reader = manager.reader();
    // "widget" matches all 16 nodes: with a tier of 5 only the first 5 full-text matches are ranked, a window of 2 of each query.
    const nameFts: FtsMatch = { mode: 'any', phrases: ['widget'], fields: 'names' };
    const widget: FtsMatch = { mode: 'any', phrases: ['widget'] };
    const textBound = reader.ftsNthMatchRowid(widget, {}, 5);
    assert.notEqual(textBound, null);
    // The names query's own 5th match lies further: the tier is the full text's, not the names query's.
    assert.ok(reader.ftsNthMatchRowid(nameFts, {}, 5)! > textBound!);
    const expected = new Set([...reader.ftsCandidates(widget, {}, 3, textBound).slice(0, 2), ...reader.ftsFirstMatches(nameFts, {}, 3, textBound).slice(0, 2)].map((r) => r.id));
    assert.ok(expected.size >= 2);
    const tier = new Set(reader.ftsWindow(widget, 5).map((r) => r.id));
    for (const id of expected) assert.ok(tier.has(id), `${id} is one of the first 5 full-text matches`);
    const result = rankNodes(reader, 'widget', {}, 2, 5);
    assert.equal(result.windowed, true);
    assert.deepEqual(new Set(result.ranked.map((r) => r.row.id)), expected);
    assert.deepEqual(rankNodes(reader, 'widget', {}, 2, 5), result);
  });
});
