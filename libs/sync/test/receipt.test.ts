// Pins the generation receipt: diff hashes, ordering and fixed caps, the receipt written by real builds, and every fail-closed receipt state.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  appendFileSync, copyFileSync, linkSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, renameSync, rmSync, symlinkSync, truncateSync, unlinkSync, writeFileSync,
} from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { edgeIdentityKey, hashJson, type GraphNode } from '@docforge/core';
import { CHANGE_KINDS, NODE_FIELDS, RECEIPT_MAX_DETAIL_BYTES, RECEIPT_MAX_ITEMS, assembleReceipt, diffGraphs, generationReceiptStatus, loadIndexSnapshot, nodeChangedFields, readPublication, receiptItemHash, receiptItemJson, receiptProblem, receiptText, stateLayout, writeFileAtomic, type Receipt, type ReceiptItem, type StateLayout } from '@docforge/store';
import { IndexManager } from '../src/index.js';

/** SHA-256 hex by node:crypto: expectations never use the implementation's own hash. */
const sha256 = (s: string): string => createHash('sha256').update(s, 'utf8').digest('hex');
const H = sha256;
/** SHA-256 of the empty string (FIPS 180-4 test vector). */
const EMPTY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

/**
 * RFC 8785 canonical JSON of the plain values used here (strings, integers, booleans, null,
 * arrays, objects; undefined members dropped), written independently of @docforge/core.
 */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** Node set hash as the module comment defines it: SHA-256 of sorted `id TAB content_hash` lines joined by LF. */
function expectedNodeSetHash(nodes: ReadonlyMap<string, string>): string {
  return sha256([...nodes].sort(([a], [b]) => (a < b ? -1 : 1)).map(([id, hash]) => `${id}\t${hash}`).join('\n'));
}

/** Edge set hash: SHA-256 of the sorted `source NUL relation NUL target` keys joined by LF. */
function expectedEdgeSetHash(keys: Iterable<string>): string {
  return sha256([...keys].sort().join('\n'));
}

/** Collection hash: SHA-256 over each item's canonical-JSON SHA-256 followed by LF. */
function expectedCollectionHash(items: readonly unknown[]): string {
  return sha256(items.map((item) => `${sha256(canonical(item))}\n`).join(''));
}

function node(id: string, fields: Partial<GraphNode> = {}): GraphNode {
  return {
    id, kind: 'document', title: id, family: null, authority: null, status: null, tags: [], summary: '', body: '', source_path: `docs/${id}.md`,
    start_line: 1, end_line: 1, anchors: [], language: null, capabilities: [], origin: 'document', content_hash: H(id), ...fields,
  };
}

describe('receipt items and hashes', () => {
  test('receiptItemJson is the RFC 8785 canonical JSON of every item kind', () => {
    const items: ReceiptItem[] = [
      { change: 'node_added', id: 'ä-ID/𝄞 "q"', content_hash: H('a') },
      { change: 'node_removed', id: 'R\u0001x', content_hash: H('b') },
      { change: 'node_changed', id: 'C', from_hash: H('c'), to_hash: H('d'), changed_fields: ['title', 'tags', 'source_path'] },
      { change: 'edge_added', source_id: 'A', relation: 'depends_on', target_id: 'B\u2028' },
      { change: 'edge_removed', source_id: 'A', relation: 'relates_to', target_id: 'C' },
    ];
    // Written out by hand: keys in code-unit order, '"' and U+0001 escaped, other characters (U+2028 too) as they are.
    const expected = [
      `{"change":"node_added","content_hash":"${H('a')}","id":"ä-ID/𝄞 \\"q\\""}`,
      `{"change":"node_removed","content_hash":"${H('b')}","id":"R\\u0001x"}`,
      `{"change":"node_changed","changed_fields":["title","tags","source_path"],"from_hash":"${H('c')}","id":"C","to_hash":"${H('d')}"}`,
      '{"change":"edge_added","relation":"depends_on","source_id":"A","target_id":"B\u2028"}',
      '{"change":"edge_removed","relation":"relates_to","source_id":"A","target_id":"C"}',
    ];
    items.forEach((item, i) => {
      assert.equal(receiptItemJson(item), expected[i]);
      assert.equal(receiptItemHash(item), sha256(expected[i]!));
    });
    assert.deepEqual([...CHANGE_KINDS], ['node_added', 'node_removed', 'node_changed', 'edge_added', 'edge_removed']);
  });

  test('diffGraphs orders items by change kind then id/triple, with exact counts and set hashes', () => {
    const from = { nodes: new Map([['b', H('b1')], ['a', H('a1')], ['gone', H('g')]]), edges: new Set([edgeIdentityKey({ source_id: 'a', relation: 'x', target_id: 'b' }), 'a\u0000y\u0000gone']) };
    const to = { nodes: new Map([['a', H('a1')], ['b', H('b2')], ['new2', H('n2')], ['new1', H('n1')]]), edges: new Map([['a\u0000x\u0000b', 'p'], ['new1\u0000z\u0000a', 'p'], ['b\u0000x\u0000a', 'p']]) };
    const calls: string[] = [];
    const diff = diffGraphs(from, to, (id) => {
      calls.push(id);
      return ['body'];
    });
    assert.deepEqual(calls, ['b']);
    assert.deepEqual(diff.items, [
      { change: 'node_added', id: 'new1', content_hash: H('n1') },
      { change: 'node_added', id: 'new2', content_hash: H('n2') },
      { change: 'node_removed', id: 'gone', content_hash: H('g') },
      { change: 'node_changed', id: 'b', from_hash: H('b1'), to_hash: H('b2'), changed_fields: ['body'] },
      { change: 'edge_added', source_id: 'b', relation: 'x', target_id: 'a' },
      { change: 'edge_added', source_id: 'new1', relation: 'z', target_id: 'a' },
      { change: 'edge_removed', source_id: 'a', relation: 'y', target_id: 'gone' },
    ]);
    assert.deepEqual(diff.summary, { nodes_added: 2, nodes_removed: 1, nodes_changed: 1, edges_added: 2, edges_removed: 1 });
    assert.equal(diff.total_count, 7);
    assert.equal(diff.retained_count, 7);
    assert.equal(diff.details_omitted, false);
    assert.equal(diff.details_omitted_reason, null);
    assert.equal(diff.to_node_hash, sha256(`a\t${H('a1')}\nb\t${H('b2')}\nnew1\t${H('n1')}\nnew2\t${H('n2')}`));
    assert.equal(diff.from_node_hash, sha256(`a\t${H('a1')}\nb\t${H('b1')}\ngone\t${H('g')}`));
    assert.equal(diff.to_edge_hash, sha256('a\u0000x\u0000b\nb\u0000x\u0000a\nnew1\u0000z\u0000a'));
    assert.equal(diff.from_edge_hash, sha256('a\u0000x\u0000b\na\u0000y\u0000gone'));
    assert.deepEqual([diff.from_node_count, diff.from_edge_count, diff.to_node_count, diff.to_edge_count], [3, 2, 4, 3]);
    assert.equal(diff.retained_collection_hash, expectedCollectionHash(diff.items));
    // The full hash covers node_changed items in identity form (without changed_fields).
    const identity = diff.items.map((item) => (item.change === 'node_changed' ? { ...item, changed_fields: undefined } : item));
    const expectedFull = expectedCollectionHash(identity);
    assert.equal(diff.full_collection_hash, expectedFull);
  });

  test('a first build (no previous graph) adds everything; empty sides hash the empty string', () => {
    const diff = diffGraphs(null, { nodes: new Map([['a', H('a')]]), edges: new Set(['a\u0000r\u0000a']) }, () => assert.fail('no changed nodes'));
    assert.equal(diff.from_node_hash, EMPTY_SHA256);
    assert.equal(diff.from_edge_hash, EMPTY_SHA256);
    assert.deepEqual(diff.summary, { nodes_added: 1, nodes_removed: 0, nodes_changed: 0, edges_added: 1, edges_removed: 0 });
    const empty = diffGraphs({ nodes: new Map(), edges: new Set() }, { nodes: new Map(), edges: new Set() }, () => []);
    assert.equal(empty.total_count, 0);
    assert.equal(empty.retained_collection_hash, EMPTY_SHA256);
    assert.equal(empty.full_collection_hash, EMPTY_SHA256);
  });

  test('details stop at 1,000 items with exact counts and a full hash over everything', () => {
    const nodes = new Map<string, string>();
    for (let i = 0; i < 1500; i += 1) nodes.set(`N-${String(i).padStart(5, '0')}`, H(String(i)));
    const from = new Map<string, string>();
    for (let i = 0; i < 1200; i += 1) from.set(`C-${String(i).padStart(5, '0')}`, H(`old${i}`));
    const to = new Map([...nodes, ...[...from.keys()].map((id): [string, string] => [id, H(`new${id}`)])]);
    let calls = 0;
    const diff = diffGraphs({ nodes: from, edges: new Set() }, { nodes: to, edges: new Set() }, () => {
      calls += 1;
      return ['title'];
    });
    assert.equal(diff.retained_count, RECEIPT_MAX_ITEMS);
    assert.equal(diff.items.length, 1000);
    assert.equal(diff.total_count, 2700);
    assert.deepEqual(diff.summary, { nodes_added: 1500, nodes_removed: 0, nodes_changed: 1200, edges_added: 0, edges_removed: 0 });
    assert.equal(diff.details_omitted, true);
    assert.equal(diff.details_omitted_reason, 'item_limit');
    assert.equal(calls, 0, 'changed fields are computed only for retained node_changed items');
    const all: ReceiptItem[] = [...nodes.keys()].sort().map((id) => ({ change: 'node_added', id, content_hash: nodes.get(id)! }));
    assert.deepEqual(diff.items, all.slice(0, 1000));
    const identity = [...all, ...[...from.keys()].sort().map((id) => ({ change: 'node_changed', from_hash: from.get(id)!, id, to_hash: to.get(id)! }))];
    assert.equal(diff.full_collection_hash, expectedCollectionHash(identity));
    assert.equal(diff.retained_collection_hash, expectedCollectionHash(all.slice(0, 1000)));

    // 1,200 changed nodes only: changedFields runs exactly for the 1,000 retained ones.
    calls = 0;
    const changedOnly = diffGraphs({ nodes: from, edges: new Set() }, { nodes: new Map([...from.keys()].map((id) => [id, H(`new${id}`)])), edges: new Set() }, () => {
      calls += 1;
      return ['body'];
    });
    assert.equal(calls, 1000);
    assert.equal(changedOnly.total_count, 1200);
  });

  test('details stop before 1 MiB of canonical JSON with exact counts', () => {
    const nodes = new Map<string, string>();
    for (let i = 0; i < 800; i += 1) nodes.set(`${String(i).padStart(4, '0')}-${'x'.repeat(2000)}`, H(String(i)));
    const diff = diffGraphs(null, { nodes, edges: new Set() }, () => []);
    assert.equal(diff.details_omitted_reason, 'byte_limit');
    assert.equal(diff.total_count, 800);
    assert.ok(diff.retained_count < 800 && diff.retained_count > 400, `retained ${diff.retained_count}`);
    const bytes = Buffer.byteLength(canonical(diff.items));
    assert.ok(bytes <= RECEIPT_MAX_DETAIL_BYTES, `${bytes} bytes`);
    const ids = [...nodes.keys()].sort();
    const next: ReceiptItem = { change: 'node_added', id: ids[diff.retained_count]!, content_hash: nodes.get(ids[diff.retained_count]!)! };
    assert.ok(bytes + 1 + Buffer.byteLength(canonical(next)) > RECEIPT_MAX_DETAIL_BYTES, 'the next item would not have fit');
  });

  test('nodeChangedFields reports every differing core Node field, a move as source_path', () => {
    const a = node('X', { tags: ['a', 'b'], anchors: [{ slug: 'h', title: 'H', level: 2, line: 3, end_line: 3, aliases: [] }] });
    assert.deepEqual(nodeChangedFields(a, { ...a }), []);
    assert.deepEqual(nodeChangedFields(a, { ...a, source_path: 'docs/moved/X.md' }), ['source_path']);
    assert.deepEqual(nodeChangedFields(a, { ...a, title: 'T', tags: ['a'], status: 'accepted', body: 'new', end_line: 9 }), ['title', 'status', 'tags', 'body', 'end_line']);
    const every = nodeChangedFields(a, {
      ...a, kind: 'k', title: 't', family: 'f', authority: 'n', status: 's', tags: ['z'], summary: 'su', body: 'b', source_path: 'p', start_line: 2, end_line: 3,
      anchors: [], language: 'python', capabilities: ['async'], origin: 'code',
    });
    assert.deepEqual(every, [...NODE_FIELDS]);
  });

  test('receiptProblem accepts an assembled receipt and rejects any tampering', () => {
    const diff = diffGraphs(null, { nodes: new Map([['a', H('a')]]), edges: new Set() }, () => []);
    const receipt = assembleReceipt({
      project_id: 'p', root: '/r', adapter_version: 'docs@1', index_schema_version: 1, from_generation: null, to_generation: 1,
      from_source_identity: null, to_source_identity: H('s'), index_file: 'gen-00000001-abc.sqlite', index_ino: '1', index_size: 10,
    }, diff);
    assert.equal(receiptProblem(JSON.parse(receiptText(receipt))), null);
    assert.equal(receipt.receipt_hash, sha256(canonical({ ...receipt, receipt_hash: undefined })));
    assert.match(receiptProblem({ ...receipt, to_generation: 2 })!, /hash/);
    assert.match(receiptProblem({ ...receipt, extra: 1 })!, /field set/);
    assert.match(receiptProblem({ ...receipt, receipt_schema_version: 2 })!, /schema version/);
    const badItems = { ...receipt, items: [{ ...receipt.items[0]!, id: 5 }] };
    assert.match(receiptProblem(badItems)!, /malformed/);
  });
});

// ---------------------------------------------------------------------------------------------
// Real builds through IndexManager (piscina worker) on a small temp documentation project.

function doc(id: string, title: string, extra: string, body: string): string {
  // The heading is the id, so a title change touches only the title field.
  return `+++\nid = "${id}"\nkind = "requirement"\ntitle = "${title}"\n${extra}+++\n# ${id}\n\n${body}\n`;
}

function makeProject(): string {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'docforge-receipt-')));
  mkdirSync(path.join(root, 'docs'), { recursive: true });
  writeFileSync(path.join(root, 'docforge.toml'), 'schema_version = 1\n[project]\nid = "receipt-test"\nname = "Receipt test"\n[sources]\ncontent_roots = ["docs"]\n');
  writeFileSync(path.join(root, 'docs/a.md'), doc('REQ-A', 'Alpha', 'status = "draft"\ntags = ["one"]\n[relations]\ndepends_on = ["REQ-B"]\n', 'Alpha body.'));
  writeFileSync(path.join(root, 'docs/b.md'), doc('REQ-B', 'Beta', '[relations]\nrelates_to = ["REQ-C"]\n', 'Beta body.'));
  writeFileSync(path.join(root, 'docs/c.md'), doc('REQ-C', 'Gamma', '', 'Gamma body.'));
  return root;
}

function readReceipt(layout: StateLayout): Receipt {
  return JSON.parse(readFileSync(layout.receiptFile, 'utf8')) as Receipt;
}

describe('receipts written by builds, and receipt states', () => {
  let root: string;
  let manager: IndexManager;
  let layout: StateLayout;
  const expected = (): { projectId: string; root: string } => ({ projectId: 'receipt-test', root });
  const status = (identity: string | null = manager.cheapIdentity()): ReturnType<typeof generationReceiptStatus> => generationReceiptStatus(layout, identity, expected());

  before(() => {
    root = makeProject();
    manager = new IndexManager({ root, noAst: false });
    layout = stateLayout(path.join(root, '.docforge'));
  });
  after(async () => {
    await manager.close();
    rmSync(root, { recursive: true, force: true });
  });

  test('before any publication the receipt is missing; without cheap identity it is unknown', () => {
    assert.equal(status().state, 'missing');
    const unknown = status(null);
    assert.equal(unknown.state, 'unknown');
    assert.equal(unknown.receipt, null);
  });

  test('the first build writes a receipt bound to current.json: everything added, from side null', async () => {
    const sync = await manager.sync();
    const pub = readPublication(layout)!;
    assert.equal(pub.receipt_file, 'generation-receipt.json');
    const receipt = readReceipt(layout);
    assert.equal(pub.receipt_hash, receipt.receipt_hash);
    assert.equal(receiptProblem(receipt), null);
    assert.equal(readFileSync(layout.receiptFile, 'utf8'), receiptText(receipt));
    assert.equal(receipt.from_generation, null);
    assert.equal(receipt.from_source_identity, null);
    assert.equal(receipt.to_generation, sync.publication.generation);
    assert.equal(receipt.to_source_identity, sync.publication.source_identity);
    assert.equal(receipt.root, root);
    assert.equal(receipt.project_id, 'receipt-test');
    assert.deepEqual([receipt.index_file, receipt.index_ino, receipt.index_size], [pub.index_file, pub.index_ino, pub.index_size]);
    assert.deepEqual(receipt.summary, { nodes_added: 3, nodes_removed: 0, nodes_changed: 0, edges_added: 2, edges_removed: 0 });
    const snapshot = loadIndexSnapshot(path.join(layout.indexDir, pub.index_file));
    assert.equal(receipt.to_node_hash, expectedNodeSetHash(snapshot.nodes));
    assert.equal(receipt.to_edge_hash, expectedEdgeSetHash(snapshot.edges.keys()));
    const st = status();
    assert.equal(st.state, 'current', st.reason);
    assert.deepEqual(st.receipt, receipt);
    const unknown = status(null);
    assert.equal(unknown.state, 'unknown');
    assert.equal(unknown.receipt, null, 'nothing is handed out without a cheap identity');
    assert.equal(unknown.publication?.generation, pub.generation);
  });

  test('edits produce node_changed with exact fields, moves, adds, removals and edge changes', async () => {
    const first = readReceipt(layout);
    writeFileSync(path.join(root, 'docs/a.md'), doc('REQ-A', 'Alpha renamed', 'status = "accepted"\ntags = ["one", "two"]\n[relations]\ndepends_on = ["REQ-B"]\n', 'Alpha body.'));
    mkdirSync(path.join(root, 'docs/moved'));
    renameSync(path.join(root, 'docs/b.md'), path.join(root, 'docs/moved/b.md'));
    // Same line count, relation emptied: only source_path changes on the node.
    writeFileSync(path.join(root, 'docs/moved/b.md'), doc('REQ-B', 'Beta', '[relations]\nrelates_to = []\n', 'Beta body.'));
    unlinkSync(path.join(root, 'docs/c.md'));
    writeFileSync(path.join(root, 'docs/d.md'), doc('REQ-D', 'Delta', '[relations]\nverifies = ["REQ-A"]\n', 'Delta body.'));
    const sync = await manager.sync();
    assert.equal(sync.rebuilt, true);
    const receipt = readReceipt(layout);
    assert.equal(receipt.from_generation, first.to_generation);
    assert.equal(receipt.from_source_identity, first.to_source_identity);
    assert.equal(receipt.from_node_hash, first.to_node_hash);
    assert.equal(receipt.from_edge_hash, first.to_edge_hash);
    assert.deepEqual(receipt.summary, { nodes_added: 1, nodes_removed: 1, nodes_changed: 2, edges_added: 1, edges_removed: 1 });
    assert.deepEqual(receipt.items.map((i) => i.change), ['node_added', 'node_removed', 'node_changed', 'node_changed', 'edge_added', 'edge_removed']);
    const changed = Object.fromEntries(receipt.items.filter((i) => i.change === 'node_changed').map((i) => [(i as { id: string }).id, (i as { changed_fields: string[] }).changed_fields]));
    assert.deepEqual(changed['REQ-A'], ['title', 'status', 'tags']);
    assert.deepEqual(changed['REQ-B'], ['source_path']);
    assert.deepEqual(receipt.items[4], { change: 'edge_added', source_id: 'REQ-D', relation: 'verifies', target_id: 'REQ-A' });
    assert.deepEqual(receipt.items[5], { change: 'edge_removed', source_id: 'REQ-B', relation: 'relates_to', target_id: 'REQ-C' });
    assert.equal(status().state, 'current');
  });

  test('a fresh worker (no written graph) diffs against the previous index file', async () => {
    await manager.close();
    manager = new IndexManager({ root, noAst: false });
    appendFileSync(path.join(root, 'docs/d.md'), '\nMore delta body.\n');
    await manager.sync();
    const receipt = readReceipt(layout);
    assert.deepEqual(receipt.summary, { nodes_added: 0, nodes_removed: 0, nodes_changed: 1, edges_added: 0, edges_removed: 0 });
    // The appended text lengthens the last section too, so its anchor's end_line moves.
    assert.deepEqual(receipt.items, [{ change: 'node_changed', id: 'REQ-D', from_hash: (receipt.items[0] as { from_hash: string }).from_hash, to_hash: (receipt.items[0] as { to_hash: string }).to_hash, changed_fields: ['body', 'end_line', 'anchors'] }]);
    assert.equal(status().state, 'current');
  });

  test('changed sources without a sync are stale; the status never rebuilds', () => {
    const before = readPublication(layout)!;
    writeFileSync(path.join(root, 'docs/d.md'), doc('REQ-D', 'Delta', '', 'Changed again, but not synchronized.'));
    const st = status();
    assert.equal(st.state, 'stale', st.reason);
    assert.ok(st.receipt, 'a stale receipt is still verified');
    assert.equal(readPublication(layout)!.generation, before.generation, 'no build happened');
  });

  test('a generation mismatch between receipt and current.json is stale', async () => {
    await manager.sync();
    const pub = readPublication(layout)!;
    const saved = readFileSync(layout.currentFile, 'utf8');
    writeFileAtomic(layout.currentFile, JSON.stringify({ ...pub, generation: pub.generation + 1 }));
    assert.equal(status().state, 'stale');
    writeFileAtomic(layout.currentFile, saved);
    assert.equal(status().state, 'current');
  });

  test('unsafe: receipt replaced by a symlink, hard-linked receipt, symlinked current.json, foreign receipt path', () => {
    const copy = path.join(root, 'receipt-copy.json');
    copyFileSync(layout.receiptFile, copy);
    unlinkSync(layout.receiptFile);
    symlinkSync(copy, layout.receiptFile);
    assert.equal(status().state, 'unsafe');
    unlinkSync(layout.receiptFile);
    // The copy was made while the original existed, so it has another inode than current.json recorded.
    renameSync(copy, layout.receiptFile);
    linkSync(layout.receiptFile, path.join(root, 'hardlink.json'));
    assert.equal(status().state, 'unsafe');
    unlinkSync(path.join(root, 'hardlink.json'));
    // Identical content under a new inode is no longer the file current.json recorded.
    assert.equal(status().state, 'unverified');

    const pubText = readFileSync(layout.currentFile, 'utf8');
    const outside = path.join(root, 'current-outside.json');
    writeFileSync(outside, pubText);
    unlinkSync(layout.currentFile);
    symlinkSync(outside, layout.currentFile);
    assert.equal(status().state, 'unsafe');
    unlinkSync(layout.currentFile);
    writeFileAtomic(layout.currentFile, JSON.stringify({ ...JSON.parse(pubText), receipt_file: '../../current-outside.json' }));
    assert.equal(status().state, 'unsafe');
    writeFileAtomic(layout.currentFile, pubText);
  });

  test('unverified: truncated, corrupt, oversized, foreign, concurrently replaced receipt or index', async () => {
    appendFileSync(path.join(root, 'docs/a.md'), '\nfresh build\n');
    await manager.sync();
    assert.equal(status().state, 'current');
    const saved = readFileSync(layout.receiptFile);
    const restore = (): void => {
      // Same inode and size: rewrite in place.
      writeFileSync(layout.receiptFile, saved);
    };

    truncateSync(layout.receiptFile, Math.floor(saved.length / 2));
    const truncated = status();
    assert.equal(truncated.state, 'unverified');
    assert.match(truncated.reason, /not valid JSON/);
    restore();
    assert.equal(status().state, 'current');

    // Same size, one changed character inside a hash: parses, but the receipt hash no longer matches.
    const text = saved.toString('utf8');
    const at = text.indexOf('"to_node_hash":"') + 16;
    writeFileSync(layout.receiptFile, text.slice(0, at) + (text[at] === '0' ? '1' : '0') + text.slice(at + 1));
    assert.match(status().reason, /hash/);
    assert.equal(status().state, 'unverified');
    restore();

    writeFileSync(layout.receiptFile, `${text.slice(0, -1)}${' '.repeat(2 * 1_048_576)}\n`);
    assert.match(status().reason, /oversized/);
    restore();
    assert.equal(status().state, 'current');

    assert.equal(generationReceiptStatus(layout, manager.cheapIdentity(), { projectId: 'other-project', root }).state, 'unverified');
    assert.equal(generationReceiptStatus(layout, manager.cheapIdentity(), { projectId: 'receipt-test', root: '/elsewhere' }).state, 'unsafe');

    // A valid receipt of another project with a correct self-hash is still foreign.
    const { receipt_hash: _old, ...body } = readReceipt(layout);
    const foreignBody = { ...body, project_id: 'other-project' };
    writeFileSync(layout.receiptFile, receiptText({ ...foreignBody, receipt_hash: hashJson(foreignBody) }));
    const foreign = status();
    assert.equal(foreign.state, 'unverified');
    assert.match(foreign.reason, /another project/);
    restore();

    // The index file replaced by a copy (new inode): concurrently changed evidence.
    const pub = readPublication(layout)!;
    const indexPath = path.join(layout.indexDir, pub.index_file);
    copyFileSync(indexPath, `${indexPath}.copy`);
    renameSync(`${indexPath}.copy`, indexPath);
    assert.equal(status().state, 'unverified');

    // A publication from before receipts existed records none: missing.
    const { receipt_file: _f, receipt_ino: _i, receipt_size: _s, receipt_hash: _h, ...legacy } = pub;
    writeFileAtomic(layout.currentFile, JSON.stringify(legacy));
    assert.equal(status().state, 'missing');
    writeFileAtomic(layout.currentFile, '{ corrupt');
    assert.equal(status().state, 'unverified');
    rmSync(layout.receiptFile);
    writeFileAtomic(layout.currentFile, JSON.stringify(pub));
    assert.equal(status().state, 'missing');
  });
});
