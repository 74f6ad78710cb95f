// Pins response packing: diagnostics are the first field dropped, then the declared fit strategy applies (collection items of a page, a node body window); else result_too_large.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DiagnosticsCollector } from '@docforge/policy';
import { CONTENT_NOTICE, NO_FITTING, pageOutcome, respond, type Envelope, type Fitting } from '../src/index.js';

/** What the assertions read from a structuredContent. */
interface Seen {
  ok: boolean;
  diagnostics?: unknown;
  result?: Record<string, any>;
  error?: { code: string };
}
const seen = (value: unknown): Seen => value as Seen;

function envelope(result: Record<string, unknown>): Envelope {
  return { schema_version: 1, ok: true, notice: CONTENT_NOTICE, project: { id: 'p', root: '/r', revision: 1, source_hash: 'a'.repeat(64), adapter_version: 'docs@1', staleness: 'current' }, result };
}

/** The envelope and fitting of a `page` result (fit strategy `page`), with an optional cursor maker. */
function paged<T>(result: Record<string, unknown> & { items: T[] }, cursorAfter: ((item: T) => string) | null = null): [Envelope, Fitting] {
  return [envelope(result), { strategy: 'page', page: pageOutcome(result, cursorAfter).page }];
}

/** The envelope and fitting of a `node_body` result whose window starts at `offset` (null: no `body_offset`). */
function nodeBody<N extends { body: string }>(result: Record<string, unknown> & { node: N }, offset: number | null): [Envelope, Fitting] {
  return [envelope(result), { strategy: 'node_body', body: { node: result.node, offset } }];
}

test('diagnostics are dropped first when the response would exceed the limit', () => {
  const diagnostics = new DiagnosticsCollector(() => 0); // a fixed clock: the serialized size must not change between calls
  diagnostics.add('index_work', 1.5, 1);
  const base = envelope({ items: [{ id: 'x' }], truncated: false, limit: 1 });
  const withoutDiag = JSON.stringify(base).length;
  const withDiag = JSON.stringify({ ...base, diagnostics: diagnostics.toJSON() }).length;
  assert.ok(withDiag > withoutDiag);
  const fits = respond(...paged({ items: [{ id: 'x' }], truncated: false, limit: 1 }), diagnostics, withDiag);
  assert.ok(seen(fits.structuredContent).diagnostics, 'kept when it fits');
  const dropped = respond(...paged({ items: [{ id: 'x' }], truncated: false, limit: 1 }), diagnostics, withDiag - 1);
  const e = seen(dropped.structuredContent);
  assert.equal(e.diagnostics, undefined);
  assert.deepEqual(e.result!.items, [{ id: 'x' }], 'items intact: only diagnostics went');
  assert.equal(e.result!.truncated, false);
  assert.ok(dropped.content[0]!.text.length <= withDiag - 1);
});

test('collections are trimmed with truncated = true, never beyond the limit', () => {
  const items = Array.from({ length: 200 }, (_, i) => ({ id: `node-${i}`, title: 'x'.repeat(50) }));
  const response = respond(...paged({ items, truncated: false, truncation_reason: null, limit: 200 }), null, 3000);
  const e = seen(response.structuredContent);
  assert.ok(response.content[0]!.text.length <= 3000);
  assert.equal(e.result!.truncated, true);
  assert.equal(e.result!.truncation_reason, 'result_limit');
  assert.ok(e.result!.items.length > 0 && e.result!.items.length < 200);
  assert.equal(response.content[0]!.text, JSON.stringify(e));
});

test('an over-long body is cut with body_truncated, and what cannot fit is result_too_large', () => {
  const body = 'b'.repeat(10_000);
  const cut = respond(...nodeBody({ node: { id: 'n', body }, edges: {}, body_truncated: false }, null), null, 4000);
  const e = seen(cut.structuredContent);
  assert.equal(e.result!.body_truncated, true);
  assert.ok(cut.content[0]!.text.length <= 4000);
  const huge = respond(envelope({ blob: 'z'.repeat(10_000) }), NO_FITTING, null, 2000);
  const f = seen(huge.structuredContent);
  assert.equal(f.ok, false);
  assert.equal(f.error!.code, 'result_too_large');
  assert.equal(huge.isError, true);
});

test('a body full of characters JSON escapes is cut to fit, not refused', () => {
  const body = 'line "quoted" \\ back\n'.repeat(20_000);
  const response = respond(...nodeBody({ node: { id: 'n', body }, edges: {}, body_offset: 0, body_truncated: false, next_body_offset: null }, 0), null, 60_000);
  const e = seen(response.structuredContent);
  assert.equal(e.ok, true);
  assert.equal(e.result!.body_truncated, true);
  assert.ok(response.content[0]!.text.length <= 60_000);
  assert.equal(e.result!.next_body_offset, e.result!.node.body.length);
  assert.ok(e.result!.node.body.length > 30_000, 'most of the room is used');
});

test('a page trimmed to fit keeps a cursor that continues after its last item', () => {
  const items = Array.from({ length: 100 }, (_, i) => ({ id: `node-${String(i).padStart(3, '0')}`, title: 'x'.repeat(80) }));
  const result = { items, truncated: false, limit: 100, next_cursor: null };
  const response = respond(...paged(result, (last: { id: string }) => `after:${last.id}`), null, 4000);
  const e = seen(response.structuredContent);
  const kept = e.result!.items as { id: string }[];
  assert.ok(kept.length > 0 && kept.length < 100);
  assert.equal(e.result!.next_cursor, `after:${kept[kept.length - 1]!.id}`);
});
