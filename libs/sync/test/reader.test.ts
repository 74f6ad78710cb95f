// Pins the IndexReader surface on a real index of examples/: a private connection, bounded typed queries that agree with each other, and keyset pages.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { IndexManager } from '../src/index.js';
import { IndexReader, ftsExpression, type FtsMatch } from '@docforge/store';

const EXAMPLES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../examples');

describe('IndexReader on examples/', () => {
  let root: string;
  let manager: IndexManager;
  let reader: IndexReader;

  before(async () => {
    root = mkdtempSync(path.join(os.tmpdir(), 'docforge-reader-'));
    cpSync(EXAMPLES, root, { recursive: true, filter: (src) => !src.split(path.sep).includes('.docforge') });
    manager = new IndexManager({ root, noAst: false });
    await manager.sync();
    reader = manager.reader();
  });
  after(async () => {
    await manager.close();
    rmSync(root, { recursive: true, force: true });
  });

  test('the connection is private: no enumerable or public db property', () => {
    assert.equal('db' in reader, false);
    assert.deepEqual(Object.keys(reader).sort(), ['file', 'meta']);
  });

  test('edges are bounded, ordered, and agree with hasEdge and nodeBrief', () => {
    const out = reader.edges('REQ-PAY-002', 'outgoing', null, 1000);
    assert.ok(out.length > 0);
    const keys = out.map((e) => [e.relation, e.target_id].join('\u0000'));
    assert.deepEqual(keys, [...keys].sort(), 'ordered by relation, then target');
    for (const e of out) assert.ok(reader.hasEdge(e.source_id, e.relation, e.target_id));
    assert.equal(reader.edges('REQ-PAY-002', 'outgoing', null, 1).length, 1, 'the limit bounds the read');
    const incoming = reader.edges('REQ-PAY-002', 'incoming', null, 1000);
    for (const e of incoming) assert.equal(e.target_id, 'REQ-PAY-002');
    const relation = out[0]!.relation;
    assert.ok(reader.edges('REQ-PAY-002', 'outgoing', [relation], 1000).every((e) => e.relation === relation));
    const node = reader.getNode('REQ-PAY-002')!;
    assert.deepEqual(reader.nodeBrief('REQ-PAY-002'), { kind: node.kind, title: node.title, source_path: node.source_path });
    assert.equal(reader.nodeBrief('no-such-node'), null);
    assert.equal(reader.nodeProvenance('REQ-PAY-002')!.anchor_count, node.anchors.length);
  });

  test('nodeSummaries keeps the order of the ids and leaves unknown ids out; facetValues agree with the filters; hasLogic', () => {
    const ids = ['REQ-PAY-002', 'no-such-node', 'code:src/ledger/ledger.ts#Ledger.post'];
    assert.deepEqual(reader.nodeSummaries(ids).map((n) => n.id), ['REQ-PAY-002', 'code:src/ledger/ledger.ts#Ledger.post']);
    assert.deepEqual(reader.nodeSummaries(['REQ-PAY-002'])[0], reader.nodesByFilter({}, 1000).items.find((n) => n.id === 'REQ-PAY-002'));
    const facets = reader.facetValues(200);
    assert.deepEqual(Object.fromEntries(facets.kind.values.map((v) => [v.value, v.count])), reader.countsByKind());
    for (const [field, filter] of [['family', 'families'], ['authority', 'authorities'], ['status', 'statuses'], ['tag', 'tags'], ['capability', 'capabilities']] as const) {
      assert.ok(facets[field].values.length > 0, field);
      for (const { value, count } of facets[field].values) assert.equal(reader.nodesByFilter({ [filter]: [value] }, 10_000).items.length, count, `${field}=${value}`);
    }
    const one = reader.facetValues(1);
    assert.equal(one.kind.values.length, 1);
    assert.equal(one.kind.truncated, true);
    assert.equal(reader.hasLogic(), reader.count('logic_steps') > 0);
  });

  test('nodesByFilter pages by id with a keyset and reports truncation', () => {
    const first = reader.nodesByFilter({ kinds: ['requirement'] }, 2);
    assert.equal(first.items.length, 2);
    assert.equal(first.truncated, true);
    const next = reader.nodesByFilter({ kinds: ['requirement'] }, 1000, first.items[1]!.id);
    assert.ok(next.items.every((n) => n.kind === 'requirement' && n.id > first.items[1]!.id));
    assert.equal(next.truncated, false);
    assert.equal(first.items.length + next.items.length, reader.countsByKind().requirement);
    assert.equal(reader.nodeMatches(first.items[0]!.id, { kinds: ['requirement'] }), true);
    assert.equal(reader.nodeMatches(first.items[0]!.id, { kinds: ['component'] }), false);
  });

  test('counts, issues and source hashes are consistent', () => {
    const byKind = reader.countsByKind();
    assert.equal(Object.values(byKind).reduce((a, b) => a + b, 0), reader.count('nodes'));
    const bySeverity = reader.issueCountsBySeverity();
    assert.equal((bySeverity.error ?? 0) + (bySeverity.warning ?? 0) + (bySeverity.info ?? 0), reader.count('issues'));
    assert.ok(reader.issuesBySeverity(['warning'], 1000).every((i) => i.severity === 'warning'));
    const node = reader.getNode('REQ-PAY-002')!;
    assert.match(reader.sourceHash(node.source_path) ?? '', /^[0-9a-f]{64}$/);
    assert.equal(reader.sourceHash('no/such/file.md'), null);
  });

  test('FTS windows and counts are bounded by their caps', () => {
    const payment: FtsMatch = { mode: 'any', phrases: ['payment'] };
    const count = reader.ftsDocumentCount(payment, 3);
    assert.ok(count >= 1 && count <= 3);
    assert.ok(reader.ftsWindow(payment, 2).length <= 2);
    const ranked = reader.ftsRankedWindow(payment, 50, 5);
    assert.ok(ranked.length >= 1 && ranked.length <= 5);
    const candidates = reader.ftsCandidates(payment, {}, 5);
    assert.deepEqual(candidates.map((c) => c.bm25), [...candidates.map((c) => c.bm25)].sort((a, b) => a - b));
    const sources = reader.ftsExcerptSources(payment, candidates.map((c) => c.rowid), 1000);
    assert.equal(sources.length, candidates.length);
  });

  test('ranked candidates are ordered by bm25, ties by rowid, and agree with the unranked few-matches read', () => {
    const matches: FtsMatch[] = [{ mode: 'any', phrases: ['payment'] }, { mode: 'any', phrases: ['refund', 'ledger'] }, { mode: 'any', phrases: ['refund', 'payment'], fields: 'names' }];
    for (const match of matches) {
      const fts = ftsExpression(match);
      const all = reader.ftsCandidates(match, {}, 100_000);
      assert.ok(all.length >= 2, fts);
      for (let i = 1; i < all.length; i += 1) {
        const [a, b] = [all[i - 1]!, all[i]!];
        assert.ok(a.bm25 < b.bm25 || (a.bm25 === b.bm25 && a.rowid < b.rowid), `${fts}: order at ${i}`);
      }
      const byRowid = [...all].sort((a, b) => a.rowid - b.rowid).map(({ bm25: _bm25, ...row }) => ({ ...row, bm25: null }));
      assert.deepEqual(reader.ftsFewMatches(match, {}, all.length), byRowid, `${fts}: every match, unranked`);
      assert.equal(reader.ftsFewMatches(match, {}, all.length - 1), null, `${fts}: more matches than max`);
      const bound = byRowid[Math.floor(byRowid.length / 2)]!.rowid;
      assert.deepEqual(reader.ftsFewMatches(match, {}, all.length, bound), byRowid.filter((r) => r.rowid <= bound), `${fts}: bounded by rowid`);
      const kinds = [all[0]!.kind];
      const filtered = reader.ftsCandidates(match, { kinds }, 100_000);
      assert.deepEqual(filtered.map((r) => r.id).sort(), all.filter((r) => r.kind === kinds[0]).map((r) => r.id).sort(), `${fts}: filtered`);
      assert.deepEqual(reader.ftsFewMatches(match, { kinds }, filtered.length)?.map((r) => r.rowid), filtered.map((r) => r.rowid).sort((a, b) => a - b), `${fts}: filtered few`);
    }
  });

  test('ftsMatchingRowids keeps exactly the given rows that match, whatever their order and spread', () => {
    const both: FtsMatch = { mode: 'all', groups: [['refund'], ['payment', 'ledger']] };
    const matching = new Set(reader.ftsCandidates(both, {}, 100_000).map((r) => r.rowid));
    const pool = [...new Set([...reader.ftsWindow({ mode: 'any', phrases: ['payment', 'refund', 'ledger', 'the'] }, 100_000).map((r) => r.rowid)])];
    assert.ok(matching.size >= 1 && pool.length > matching.size);
    const shuffled = [...pool].reverse();
    assert.deepEqual(reader.ftsMatchingRowids(both, shuffled), pool.filter((r) => matching.has(r)).sort((a, b) => a - b));
    const [first] = [...matching];
    assert.deepEqual(reader.ftsMatchingRowids(both, [first!]), [first]);
    const outside = pool.find((r) => !matching.has(r))!;
    assert.deepEqual(reader.ftsMatchingRowids(both, [outside]), []);
    assert.deepEqual(reader.ftsMatchingRowids(both, [outside, first!, outside]), [first]);
    assert.deepEqual(reader.ftsMatchingRowids(both, []), []);
  });

  test('a closed reader reports it', () => {
    const other = new IndexReader(reader.file);
    assert.equal(other.open, true);
    other.close();
    other.close();
    assert.equal(other.open, false);
  });
});
