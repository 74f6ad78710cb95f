// Pins docforge_get_generation_diff end to end: receipts of real transitions on a copy of examples/, exact counts and hashes, fail-closed states, pagination, cursors and the response limit.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadIndexSnapshot, type Receipt, type ReceiptItem } from '@docforge/store';
import { canonical, collectionHash, edgeSetHash, nodeSetHash, sha256Hex } from './helpers/hashes.js';
import { exampleProjectCopy, tempDir } from './helpers/projects.js';
import { expectError, useServer, type Envelope, type Server } from './helpers/server.js';

const TOOL = 'docforge_get_generation_diff';

function storedReceipt(root: string): Receipt {
  return JSON.parse(readFileSync(path.join(root, '.docforge/index/generation-receipt.json'), 'utf8')) as Receipt;
}

function edit(root: string, rel: string, from: string, to: string): void {
  const file = path.join(root, rel);
  const text = readFileSync(file, 'utf8');
  assert.ok(text.includes(from), `${rel} contains ${from}`);
  writeFileSync(file, text.replace(from, to));
}

/** Checks page_hash, header stability and returns the page result. */
function checkPage(e: Envelope, receipt: Receipt): Record<string, any> {
  assert.equal(e.ok, true, JSON.stringify(e.error));
  const r = e.result!;
  assert.equal(r.page_schema_version, 1);
  assert.equal(r.receipt_state, 'current');
  const { page_hash, ...page } = r;
  assert.equal(page_hash, sha256Hex(canonical(page)), 'page_hash covers header, items, omissions, state and pagination');
  const { items: _items, ...stored } = receipt;
  assert.deepEqual(r.receipt_header, { ...stored, stored_receipt_hash: receipt.receipt_hash });
  assert.equal(e.project!.staleness, 'current');
  assert.equal(e.project!.revision, receipt.to_generation);
  return r;
}

/** Reads every page with `limit`; returns the items (and omissions) in order plus the page count. */
async function readAll(s: Server, receipt: Receipt, limit: number, maxChars = Infinity): Promise<{ items: ReceiptItem[]; omissions: { item_hash: string; position: number }[]; pages: number }> {
  const items: ReceiptItem[] = [];
  const omissions: { item_hash: string; position: number }[] = [];
  let cursor: string | null = null;
  let pages = 0;
  let expectedOffset = 0;
  do {
    const raw = await s.raw(TOOL, cursor === null ? { limit } : { limit, cursor });
    const text = (raw.content as { text: string }[])[0]!.text;
    assert.ok(text.length <= maxChars, `page of ${text.length} characters exceeds ${maxChars}`);
    const r = checkPage(raw.structuredContent as Envelope, receipt);
    pages += 1;
    assert.ok(pages <= receipt.items.length + 1, 'pagination terminates');
    assert.equal(r.pagination.offset, expectedOffset);
    assert.equal(r.pagination.returned, r.items.length);
    assert.equal(r.pagination.omitted, r.omissions.length);
    assert.equal(r.pagination.total_retained, receipt.retained_count);
    assert.ok(r.items.length + r.omissions.length <= limit);
    assert.ok(r.items.length + r.omissions.length > 0 || receipt.items.length === 0, 'every page advances');
    items.push(...r.items);
    omissions.push(...r.omissions);
    expectedOffset += r.items.length + r.omissions.length;
    assert.equal(r.pagination.has_more, r.pagination.next_cursor !== null);
    assert.ok(!('next_cursor' in r) && !('cursor' in r.receipt_header), 'next_cursor is the only cursor copy');
    cursor = r.pagination.next_cursor;
  } while (cursor !== null);
  assert.equal(expectedOffset, receipt.items.length);
  return { items, omissions, pages };
}

describe('docforge_get_generation_diff on a copy of examples/', async () => {
  // No prebuilt state: the first tests observe the missing receipt and the first publication.
  const root = exampleProjectCopy({ state: false });
  const s = await useServer(root);

  test('before any publication the status is missing and nothing is built', async () => {
    const e = await s.call(TOOL);
    assert.equal(e.ok, true);
    assert.deepEqual(e.result, { page_schema_version: 1, receipt_state: 'missing', reason: e.result!.reason });
    assert.deepEqual({ revision: e.project!.revision, source_hash: e.project!.source_hash, staleness: e.project!.staleness }, { revision: 0, source_hash: null, staleness: 'unknown' }, 'no publication to describe');
    const again = await s.call(TOOL);
    assert.equal(again.result!.receipt_state, 'missing', 'the status tool did not build');
  });

  test('the first publication: every node and edge added, hashes match the index, pages reproduce the items', async () => {
    const boot = await s.call('docforge_bootstrap');
    const receipt = storedReceipt(root);
    const counts = boot.result!.index.counts;
    assert.equal(receipt.from_generation, null);
    assert.equal(receipt.to_generation, boot.project!.revision);
    assert.deepEqual(receipt.summary, { nodes_added: counts.nodes, nodes_removed: 0, nodes_changed: 0, edges_added: counts.edges, edges_removed: 0 });
    assert.equal(receipt.total_count, counts.nodes + counts.edges);
    const snapshot = loadIndexSnapshot(boot.result!.index.active_index_path);
    assert.equal(receipt.to_node_hash, nodeSetHash(snapshot.nodes));
    assert.equal(receipt.to_edge_hash, edgeSetHash(snapshot.edges.keys()));
    assert.equal(receipt.retained_count, Math.min(1000, receipt.total_count));
    assert.equal(receipt.details_omitted, receipt.total_count > 1000);

    const first = checkPage(await s.call(TOOL, { limit: 5 }), receipt);
    assert.equal(first.items.length, 5);
    assert.equal(first.pagination.has_more, true);
    const all = await readAll(s, receipt, 37);
    assert.deepEqual(all.items, receipt.items, 'pages concatenate to the retained items exactly once, in order');
    assert.equal(all.omissions.length, 0);
    assert.equal(collectionHash(all.items), receipt.retained_collection_hash);
  });

  test('edits, a move, an add and a delete: exact counts, changed fields, hashes against both index files', async () => {
    const oldIndex = (await s.call('docforge_bootstrap')).result!.index.active_index_path as string;
    const before = storedReceipt(root);
    edit(root, 'docs/components/retry.md', 'title = "Retry helper"', 'title = "Retry helper (bounded)"');
    edit(root, 'docs/components/retry.md', 'imports = ["CMP-ERRORS"]', 'imports = []');
    edit(root, 'docs/runbooks/rb-001-ledger-imbalance.md', 'status = "accepted"', 'status = "deprecated"');
    edit(root, 'docs/runbooks/rb-002-fraud-scorer-latency.md', 'tags = ["oncall", "sev2", "latency", "risk"]', 'tags = ["oncall", "sev2"]');
    edit(root, 'docs/runbooks/rb-003-duplicate-charge.md', 'expires on its own.', 'expires by itself.');
    mkdirSync(path.join(root, 'docs/archive'));
    renameSync(path.join(root, 'docs/decisions/adr-002-idempotency-key-scope.md'), path.join(root, 'docs/archive/adr-002-idempotency-key-scope.md'));
    unlinkSync(path.join(root, 'docs/runbooks/rb-005-settlement-failed.md'));
    writeFileSync(path.join(root, 'docs/guides/receipts.md'), '+++\nid = "DOC-RECEIPTS"\nkind = "document"\ntitle = "Receipts"\n\n[relations]\nrelates_to = ["CMP-RETRY", "RB-001"]\n+++\n# Receipts\n\nA new guide.\n');

    const sync = await s.call('docforge_sync');
    assert.equal(sync.result!.rebuilt, true);
    const receipt = storedReceipt(root);
    assert.equal(receipt.from_generation, before.to_generation);
    assert.equal(receipt.from_node_hash, before.to_node_hash);
    assert.equal(receipt.from_edge_hash, before.to_edge_hash);

    // An independent diff of the two published index files.
    const oldSnap = loadIndexSnapshot(oldIndex);
    const newSnap = loadIndexSnapshot((await s.call('docforge_bootstrap')).result!.index.active_index_path);
    const added = [...newSnap.nodes.keys()].filter((id) => !oldSnap.nodes.has(id)).sort();
    const removed = [...oldSnap.nodes.keys()].filter((id) => !newSnap.nodes.has(id)).sort();
    const changed = [...newSnap.nodes.keys()].filter((id) => oldSnap.nodes.has(id) && oldSnap.nodes.get(id) !== newSnap.nodes.get(id)).sort();
    const edgesAdded = [...newSnap.edges.keys()].filter((k) => !oldSnap.edges.has(k));
    const edgesRemoved = [...oldSnap.edges.keys()].filter((k) => !newSnap.edges.has(k));
    assert.deepEqual(receipt.summary, { nodes_added: added.length, nodes_removed: removed.length, nodes_changed: changed.length, edges_added: edgesAdded.length, edges_removed: edgesRemoved.length });
    assert.deepEqual(added, ['DOC-RECEIPTS']);
    assert.deepEqual(removed, ['RB-005']);
    assert.equal(receipt.to_node_hash, nodeSetHash(newSnap.nodes));
    assert.equal(receipt.from_node_hash, nodeSetHash(oldSnap.nodes));
    assert.equal(receipt.to_edge_hash, edgeSetHash(newSnap.edges.keys()));

    const byId = new Map(receipt.items.filter((i) => i.change === 'node_changed').map((i) => [(i as { id: string }).id, i as { changed_fields: string[]; from_hash: string; to_hash: string }]));
    assert.deepEqual(byId.get('CMP-RETRY')!.changed_fields, ['title']);
    assert.deepEqual(byId.get('RB-001')!.changed_fields, ['status']);
    assert.deepEqual(byId.get('RB-002')!.changed_fields, ['tags']);
    assert.deepEqual(byId.get('RB-003')!.changed_fields, ['body']);
    assert.deepEqual(byId.get('ADR-002')!.changed_fields, ['source_path'], 'a move is a source_path change');
    assert.equal(byId.get('ADR-002')!.from_hash, oldSnap.nodes.get('ADR-002'));
    assert.equal(byId.get('ADR-002')!.to_hash, newSnap.nodes.get('ADR-002'));
    const edges = receipt.items.filter((i) => i.change === 'edge_added' || i.change === 'edge_removed') as { change: string; source_id: string; relation: string; target_id: string }[];
    assert.ok(edges.some((e) => e.change === 'edge_removed' && e.source_id === 'CMP-RETRY' && e.relation === 'imports' && e.target_id === 'CMP-ERRORS'));
    assert.ok(edges.some((e) => e.change === 'edge_removed' && e.source_id === 'CMP-SETTLEMENT-JOB' && e.relation === 'activates' && e.target_id === 'RB-005'), 'incoming edge of the deleted node');
    assert.ok(edges.some((e) => e.change === 'edge_removed' && e.source_id === 'RB-005' && e.relation === 'relates_to' && e.target_id === 'RB-001'), 'outgoing edge of the deleted node');
    assert.ok(edges.some((e) => e.change === 'edge_added' && e.source_id === 'DOC-RECEIPTS' && e.relation === 'relates_to' && e.target_id === 'CMP-RETRY'));
    // Stored order: by change kind, then id / triple.
    const kinds = receipt.items.map((i) => ['node_added', 'node_removed', 'node_changed', 'edge_added', 'edge_removed'].indexOf(i.change));
    assert.deepEqual(kinds, [...kinds].sort((a, b) => a - b));

    const all = await readAll(s, receipt, 2);
    assert.deepEqual(all.items, receipt.items);
  });

  test('an edit between pages: the status turns stale and the cursor fails as stale_cursor, also after a sync', async () => {
    const receipt = storedReceipt(root);
    const page = checkPage(await s.call(TOOL, { limit: 1 }), receipt);
    const cursor = page.pagination.next_cursor as string;
    assert.ok(cursor);
    const revision = (await s.call(TOOL)).project!.revision;
    edit(root, 'docs/runbooks/rb-004-stuck-refunds.md', 'contact\n   the merchant.', 'contact\n   the merchant team.');

    const stale = await s.call(TOOL);
    assert.equal(stale.ok, true);
    assert.equal(stale.result!.receipt_state, 'stale');
    assert.equal(stale.result!.items, undefined, 'only current returns a page');
    assert.equal(stale.project!.staleness, 'stale');
    assert.equal(stale.project!.revision, revision, 'the status tool did not rebuild');

    const e1 = await s.call(TOOL, { limit: 1, cursor });
    assert.equal(e1.ok, false);
    await expectError(e1, 'stale_cursor');
    assert.equal(e1.error!.remediation, 'restart_pagination');

    await s.call('docforge_sync');
    const e2 = await s.call(TOOL, { limit: 1, cursor });
    await expectError(e2, 'stale_cursor');
    assert.equal(e2.error!.details.reason, 'generation_changed');
    const fresh = checkPage(await s.call(TOOL, { limit: 1 }), storedReceipt(root));
    assert.equal(fresh.receipt_header.summary.nodes_changed, 1);
  });

  test('a flipped cursor byte, an out-of-range limit and unknown arguments are structured errors', async () => {
    edit(root, 'docs/runbooks/rb-004-stuck-refunds.md', 'the merchant team.', 'the merchant.');
    edit(root, 'docs/runbooks/rb-003-duplicate-charge.md', 'expires by itself.', 'expires on its own.');
    await s.call('docforge_sync');
    const page = checkPage(await s.call(TOOL, { limit: 1 }), storedReceipt(root));
    const cursor = page.pagination.next_cursor as string;
    assert.ok(cursor, 'a second page exists');
    const mid = Math.floor(cursor.length / 2);
    const flipped = cursor.slice(0, mid) + (cursor[mid] === 'A' ? 'B' : 'A') + cursor.slice(mid + 1);
    const bad = await s.call(TOOL, { cursor: flipped });
    assert.equal(bad.ok, false);
    await expectError(bad, 'invalid_cursor');
    assert.ok(typeof bad.error!.details.reason === 'string');
    const tooMany = await s.call(TOOL, { limit: 201 });
    await expectError(tooMany, 'invalid_arguments');
    const unknown = await s.call(TOOL, { generation: 1 });
    await expectError(unknown, 'invalid_arguments');
  });
});

describe('docforge_get_generation_diff under a small response limit', async () => {
  // Node ids are capped at the tools' 1,024-character node_id limit (an id over it gives no node), so
  // the items too large for any page are two edges under a 5,000-character relation name, which the
  // index keeps with a warning (a name the proposal schema refuses).
  const longId = `rel_${'l'.repeat(5000)}`;
  const root = tempDir('docforge-diff-limit-');
  mkdirSync(path.join(root, 'docs'));
  writeFileSync(path.join(root, 'docforge.toml'), 'schema_version = 1\n[project]\nid = "diff-limit"\nname = "Diff limit"\n[limits]\nmax_output_chars = 6000\n');
  for (let i = 0; i < 30; i += 1) {
    const id = `DOC-${String(i).padStart(3, '0')}`;
    writeFileSync(path.join(root, `docs/d${i}.md`), `+++\nid = "${id}"\nkind = "document"\ntitle = "Doc ${i}"\n[relations]\nrelates_to = ["DOC-000"]\n+++\n# Doc ${i}\n\nBody ${i}.\n`);
  }
  writeFileSync(path.join(root, 'docs/long.md'), `+++\nid = "DOC-LONG"\nkind = "document"\ntitle = "Long"\n[relations]\n${longId} = ["DOC-001", "DOC-002"]\n+++\n# Long\n\nBody.\n`);
  const s = await useServer(root);
  await s.call('docforge_sync');

  test('items that fit no response advance once as hash-identified omissions; every page stays under the limit', async () => {
    const receipt = storedReceipt(root);
    const { items, omissions, pages } = await readAll(s, receipt, 200, 6000);
    assert.ok(pages > 1, `several pages (${pages})`);
    assert.equal(omissions.length, 2, 'the two edges under the long relation name');
    for (const o of omissions) {
      assert.equal(o.item_hash, sha256Hex(canonical(receipt.items[o.position]!)));
      assert.ok(JSON.stringify(receipt.items[o.position]).includes(longId));
    }
    const positions = new Set(omissions.map((o) => o.position));
    assert.deepEqual(items, receipt.items.filter((_item, i) => !positions.has(i)), 'every other item exactly once, in order');
  });
});
