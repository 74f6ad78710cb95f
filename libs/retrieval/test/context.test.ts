// Pins docforge_get_context packing on a real index of examples/: deterministic selection, token-budget and response-size omissions, one ordered stream, and fail-closed cursors.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DocforgeError, relationCategory } from '@docforge/core';
import { IndexManager } from '@docforge/sync';
import { type IndexReader } from '@docforge/store';
import {
  contextPage,
  defaultContextProvider,
  estimateTokens,
  itemSha256,
  selectContext,
  type ContextEntry,
  type ContextPageOptions,
  type ContextProvider,
} from '../src/index.js';

const EXAMPLES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../examples');
const BINDING = { project: 'acme-payments', adapter: 'test-adapter', generation: 1 };

function copyExamples(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'docforge-context-'));
  cpSync(EXAMPLES, dir, { recursive: true, filter: (src) => !src.split(path.sep).includes('.docforge') });
  return dir;
}

function expectError(fn: () => unknown, code: string, reason?: string): DocforgeError {
  let caught: unknown;
  try {
    fn();
  } catch (error) {
    caught = error;
  }
  assert.ok(caught instanceof DocforgeError, `expected DocforgeError ${code}, got ${String(caught)}`);
  assert.equal(caught.code, code, caught.message);
  if (reason !== undefined) assert.equal(caught.details.reason, reason);
  return caught;
}

type Item = Record<string, any>;
type Page = ReturnType<typeof contextPage>;

function options(extra: Partial<ContextPageOptions> = {}): ContextPageOptions {
  return { binding: BINDING, limit: 200, resultCharBudget: 1_000_000, maxResults: 200, ...extra };
}

/** Reads every page of one request and returns the concatenated items and every page. */
function allPages(reader: IndexReader, provider: ContextProvider | null, args: Parameters<typeof contextPage>[2], opts: ContextPageOptions): { items: Item[]; pages: Page[] } {
  const items: Item[] = [];
  const pages: Page[] = [];
  let cursor: string | undefined;
  for (let guard = 0; guard < 1000; guard += 1) {
    const page = contextPage(reader, provider, args, cursor ? { ...opts, cursor } : opts);
    pages.push(page);
    items.push(...(page.items as Item[]));
    cursor = page.page.next_cursor ?? undefined;
    if (!cursor) return { items, pages };
  }
  throw new Error('pagination did not terminate');
}

describe('context packing on examples/', () => {
  let root: string;
  let manager: IndexManager;
  let reader: IndexReader;

  before(async () => {
    root = copyExamples();
    manager = new IndexManager({ root, noAst: false });
    await manager.sync();
    reader = manager.reader();
  });
  after(async () => {
    await manager.close();
    rmSync(root, { recursive: true, force: true });
  });

  test('default selection: focus first, then its bounded neighbourhood with the qualifying relation', () => {
    const selection = selectContext(reader, { node_id: 'REQ-PAY-002', budget: 4000 }, { max_results: 200 });
    const [first, ...rest] = selection.entries;
    assert.equal(first!.id, 'REQ-PAY-002');
    assert.equal(first!.selected_by, 'focus');
    assert.match(first!.excerpt, /Idempotency-Key/);
    assert.ok(rest.length > 3);
    const ids = selection.entries.map((e) => e.id);
    assert.equal(new Set(ids).size, ids.length, 'no duplicates');
    for (const entry of rest) {
      assert.equal(entry.selected_by, 'relation');
      const r = entry.relation!;
      assert.equal(r.category, relationCategory(r.relation));
      const [source, target] = r.direction === 'outgoing' ? [r.via, entry.id] : [entry.id, r.via];
      const edge = reader.hasEdge(source, r.relation, target);
      assert.ok(edge, `stored edge ${source} -${r.relation}-> ${target}`);
      assert.ok(r.depth === 1 || r.depth === 2);
      assert.equal(entry.content_hash, reader.getNode(entry.id)!.content_hash);
    }
    // Depth-1 neighbours are present: the test that verifies it and the runbook that mitigates it.
    assert.ok(rest.some((e) => e.id === 'TST-PAY-001' && e.relation!.depth === 1));
    const mitigation = rest.find((e) => e.id === 'RB-003');
    assert.ok(mitigation);
    assert.equal(mitigation.relation!.relation, 'mitigates');
    assert.equal(mitigation.relation!.category, 'unclassified');
    assert.deepEqual(selectContext(reader, { node_id: 'REQ-PAY-002', budget: 4000 }, { max_results: 200 }), selection, 'deterministic');
    assert.deepEqual(defaultContextProvider(reader, { node_id: 'REQ-PAY-002', budget: 4000 }, { max_results: 200 }), selection.entries);
  });

  test('query seeds come from bm25 search; max_results bounds the selection', () => {
    const byQuery = selectContext(reader, { query: 'idempotency key', budget: 4000 }, { max_results: 200 });
    const seeds = byQuery.entries.filter((e) => e.selected_by === 'search');
    assert.ok(seeds.length >= 1 && seeds.length <= 5);
    assert.equal(byQuery.entries[0]!.selected_by, 'search');
    for (const seed of seeds) assert.equal(typeof seed.score, 'number');
    const capped = selectContext(reader, { query: 'idempotency key', budget: 4000 }, { max_results: 4 });
    assert.equal(capped.entries.length, 4);
    assert.equal(capped.truncated, true);
    assert.equal(capped.truncation_reason, 'result_limit');
  });

  test('errors: unknown node, neither node_id nor query, budget out of range', () => {
    expectError(() => contextPage(reader, null, { node_id: 'NO-SUCH' }, options()), 'node_not_found');
    expectError(() => contextPage(reader, null, {}, options()), 'invalid_arguments');
    expectError(() => contextPage(reader, null, { node_id: 'REQ-PAY-002', budget: 0 }, options()), 'invalid_arguments');
    expectError(() => contextPage(reader, null, { node_id: 'REQ-PAY-002', budget: 200_001 }, options()), 'invalid_arguments');
  });

  test('token budget: selected entries first, then hash-identified omissions, each entry exactly once', () => {
    const budget = 1200;
    const page = contextPage(reader, null, { node_id: 'REQ-PAY-002', budget }, options());
    const entries = selectContext(reader, { node_id: 'REQ-PAY-002', budget }, { max_results: 200 }).entries;
    const items = page.items as Item[];
    assert.equal(page.page.total_evidence, entries.length);
    assert.equal(items.length, entries.length);
    assert.equal(page.page.has_more, false);
    assert.equal(page.page.next_cursor, null);
    const firstOmission = items.findIndex((i) => i.type === 'omission');
    assert.ok(firstOmission > 0, 'some entries are selected and some omitted');
    assert.ok(items.slice(firstOmission).every((i) => i.type === 'omission'), 'omissions come after every selected entry');
    assert.deepEqual([...items.map((i) => i.id)].sort(), entries.map((e) => e.id).sort());
    let used = 0;
    for (const item of items.slice(0, firstOmission)) {
      const { type: _t, estimated_tokens, ...entry } = item;
      assert.equal(estimated_tokens, estimateTokens(entry));
      used += estimated_tokens as number;
    }
    assert.equal(page.used_tokens, used);
    assert.ok(used <= budget);
    const byId = new Map(entries.map((e) => [e.id, e]));
    for (const omission of items.slice(firstOmission)) {
      assert.equal(omission.reason, 'token budget');
      const entry = byId.get(omission.id)!;
      const tokens = estimateTokens(entry);
      assert.equal(omission.sha256, itemSha256({ ...entry, type: 'entry', estimated_tokens: tokens }));
      assert.deepEqual(omission.retrieval, { tool: 'docforge_get_node', node_id: omission.id });
    }
    assert.equal(page.truncated, true);
    assert.equal(page.selected_entries + page.omitted_entries, entries.length);
  });

  test('pagination reproduces the one-page stream exactly once, in order, with a stable collection hash', () => {
    const args = { node_id: 'CMP-LEDGER', query: 'ledger balance', budget: 3000 };
    const whole = contextPage(reader, null, args, options());
    for (const limit of [1, 3, 7]) {
      const { items, pages } = allPages(reader, null, args, options({ limit }));
      assert.deepEqual(items, whole.items);
      assert.equal(pages.length, Math.ceil((whole.items as Item[]).length / limit));
      for (const page of pages) {
        assert.equal(page.collection_hash, whole.collection_hash);
        assert.equal(page.page.total_evidence, (whole.items as Item[]).length);
        assert.ok(page.items.length <= limit);
      }
      assert.deepEqual(pages.map((p) => p.page.offset), pages.map((_, i) => i * limit));
    }
  });

  test('response size: an oversized entry advances exactly once as a response size limit omission and pages never exceed the budget', () => {
    const args = { node_id: 'REQ-PAY-002', budget: 20_000 };
    const resultCharBudget = 1900;
    const { items, pages } = allPages(reader, null, args, options({ limit: 50, resultCharBudget }));
    for (const page of pages) assert.ok(JSON.stringify(page).length <= resultCharBudget, `page of ${JSON.stringify(page).length} chars`);
    const ids = items.map((i) => i.id);
    assert.equal(new Set(ids).size, ids.length, 'every entry exactly once');
    const focus = items.find((i) => i.id === 'REQ-PAY-002')!;
    assert.equal(focus.type, 'omission');
    assert.equal(focus.reason, 'response size limit');
    assert.match(focus.sha256, /^[0-9a-f]{64}$/);
    assert.ok(focus.chars > 1000);
    const firstOmission = items.findIndex((i) => i.type === 'omission');
    assert.ok(items.slice(firstOmission).every((i) => i.type === 'omission'));
    assert.equal(items.length, selectContext(reader, { node_id: 'REQ-PAY-002', budget: 20_000 }, { max_results: 200 }).entries.length);
    // A budget too small for the receipt itself is a clear error, not an empty loop.
    expectError(() => contextPage(reader, null, args, options({ resultCharBudget: 600 })), 'result_too_large');
  });

  test('cursors fail closed: corruption, another request, another generation', () => {
    const args = { node_id: 'REQ-PAY-002', budget: 4000 };
    const first = contextPage(reader, null, args, options({ limit: 2 }));
    const cursor = first.page.next_cursor as string;
    assert.ok(cursor);
    const second = contextPage(reader, null, args, options({ limit: 2, cursor }));
    assert.equal(second.page.offset, 2);
    const flipped = cursor.slice(0, 30) + (cursor[30] === 'A' ? 'B' : 'A') + cursor.slice(31);
    expectError(() => contextPage(reader, null, args, options({ limit: 2, cursor: flipped })), 'invalid_cursor');
    expectError(() => contextPage(reader, null, { ...args, budget: 4001 }, options({ limit: 2, cursor })), 'invalid_cursor', 'cursor_for_other_request');
    expectError(() => contextPage(reader, null, args, options({ limit: 3, cursor })), 'invalid_cursor', 'cursor_for_other_request');
    const stale = expectError(() => contextPage(reader, null, args, options({ limit: 2, cursor, binding: { ...BINDING, generation: 2 } })), 'stale_cursor', 'generation_changed');
    assert.equal(stale.remediation, 'restart_pagination');
  });

  test('a custom provider keeps its contract: called with (reader, request, limits), packed and paginated after selection', () => {
    const calls: unknown[] = [];
    const provider: ContextProvider = (r, request, limits) => {
      calls.push({ same: r === reader, request, limits });
      return ['ADR-001', 'ADR-002', 'ADR-003'].map((id): ContextEntry => {
        const node = r.getNode(id)!;
        return { id, kind: node.kind, title: node.title, source_path: node.source_path, selected_by: 'custom-policy', excerpt: node.summary, team: 'ledger' };
      });
    };
    const { items, pages } = allPages(reader, provider, { query: 'decisions', budget: 5000 }, options({ limit: 2, maxResults: 123 }));
    assert.deepEqual(items.map((i) => i.id), ['ADR-001', 'ADR-002', 'ADR-003']);
    assert.ok(items.every((i) => i.type === 'entry' && i.team === 'ledger' && i.selected_by === 'custom-policy'));
    assert.equal(pages[0]!.provider, 'custom');
    assert.equal(pages[0]!.selection, null);
    assert.deepEqual(calls[0], { same: true, request: { query: 'decisions', budget: 5000 }, limits: { max_results: 123 } });
    // A provider whose output changes between pages invalidates the cursor.
    let n = 0;
    const drifting: ContextProvider = () => [{ id: `X-${(n += 1)}`, kind: 'k', title: 't', source_path: 'p', selected_by: 's', excerpt: 'e' }, { id: 'Y', kind: 'k', title: 't', source_path: 'p', selected_by: 's', excerpt: 'e' }];
    const page = contextPage(reader, drifting, { query: 'q' }, options({ limit: 1 }));
    expectError(() => contextPage(reader, drifting, { query: 'q' }, options({ limit: 1, cursor: page.page.next_cursor! })), 'stale_cursor', 'collection_changed');
    // A malformed provider result is a clear internal error, not a crash or a wire leak.
    const broken = (() => [{ id: 7 }]) as unknown as ContextProvider;
    expectError(() => contextPage(reader, broken, { query: 'q' }, options()), 'internal_error');
  });
});

describe('context packing of a node with a huge body', () => {
  test('the focus entry excerpt is bounded and flagged', async () => {
    const root = copyExamples();
    writeFileSync(path.join(root, 'docs', 'huge.md'), `+++\nid = "HUGE-1"\nkind = "document"\ntitle = "Huge"\n\n[relations]\nrelates_to = ["REQ-PAY-002"]\n+++\n# Huge\n\n${'lorem ipsum dolor sit amet '.repeat(4000)}\n`);
    const manager = new IndexManager({ root, noAst: false });
    try {
      await manager.sync();
      const entries = selectContext(manager.reader(), { node_id: 'HUGE-1', budget: 4000 }, { max_results: 200 }).entries;
      assert.equal(entries[0]!.excerpt_truncated, true);
      assert.ok(entries[0]!.excerpt.length <= 1500);
      assert.ok(entries.some((e) => e.id === 'REQ-PAY-002'));
    } finally {
      await manager.close();
      rmSync(root, { recursive: true, force: true });
    }
  });
});
