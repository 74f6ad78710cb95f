/**
 * Fitting a response to size (lifecycle stage `fit_to_size`, moved verbatim from server.ts):
 * serialization within `[limits].max_output_chars`.
 */
import { errors } from '@docforge/core';
import type { IndexManager, SyncReport } from '@docforge/sync';
import type { DiagnosticsCollector } from '@docforge/policy';
import { fitPrefix, longestFitting } from '@docforge/retrieval';
import { COMPACT_FORM, COMPACT_RESULT, CONTENT_NOTICE, CURSOR_AFTER, toToolResponse, type Envelope, type ToolResponse } from './envelope.js';

/** The response limit without a sync: from the cached descriptor when it loads, else the default. */
export function statusLimit(manager: IndexManager): number {
  try {
    return manager.descriptor().limits.max_output_chars;
  } catch {
    return FALLBACK_MAX_OUTPUT_CHARS;
  }
}

const FALLBACK_MAX_OUTPUT_CHARS = 60_000;

/** A collection item that alone exceeds `max_output_chars`: skipped with its id and serialized size. */
interface OmittedItem {
  /** The item's `id` (or `node_id`) when it has one. */
  id: string | null;
  /** Characters of the item's JSON. */
  chars: number;
}

function idOf(item: unknown): string | null {
  if (typeof item !== 'object' || item === null) return null;
  const { id, node_id: nodeId } = item as { id?: unknown; node_id?: unknown };
  return typeof id === 'string' ? id : typeof nodeId === 'string' ? nodeId : null;
}

/**
 * Serializes an envelope within the configured response limit (`[limits].max_output_chars`):
 * diagnostics are dropped first (contract: `--diagnostics`), then collection items are trimmed
 * with `truncated = true`, then an over-long node body is cut with `body_truncated = true`;
 * a committed mutation's result becomes its compact receipt ({@link COMPACT_RESULT}), a read result
 * with a compact form ({@link COMPACT_FORM}) that form when it fits; what still
 * cannot fit becomes `result_too_large`.
 */
export function respond(envelope: Envelope, sync: SyncReport | null, diagnostics: DiagnosticsCollector | null, limit?: number): ToolResponse {
  const max = sync?.descriptor.limits.max_output_chars ?? limit ?? FALLBACK_MAX_OUTPUT_CHARS;
  if (diagnostics) envelope.diagnostics = diagnostics.toJSON() as unknown as Record<string, unknown>;
  let text = JSON.stringify(envelope);
  if (text.length <= max) return toToolResponse(envelope, text);
  if (envelope.diagnostics) {
    delete envelope.diagnostics;
    text = JSON.stringify(envelope);
    if (text.length <= max) return toToolResponse(envelope, text);
  }
  const result = envelope.result;
  const compact = (result as { [COMPACT_RESULT]?: Record<string, unknown> } | undefined)?.[COMPACT_RESULT];
  if (compact !== undefined) {
    // A committed mutation: its compact receipt (preflight proved it fits), never a failure.
    envelope.result = compact;
    return toToolResponse(envelope);
  }
  const compactForm = (result as { [COMPACT_FORM]?: Record<string, unknown> } | undefined)?.[COMPACT_FORM];
  if (compactForm !== undefined) {
    // A read result with a compact form (bootstrap): the compact form when it fits, else result_too_large.
    envelope.result = compactForm;
    text = JSON.stringify(envelope);
    if (text.length <= max) return toToolResponse(envelope, text);
  }
  if (result && Array.isArray(result.items)) {
    // Keep the largest prefix of items that fits (fitPrefix), then point the cursor after the last
    // one consumed; the cursor's own length can vary, so re-fit with the measured excess as slack.
    // An item that could not fit even alone is never a dead end: it is consumed as an entry of
    // `oversized_items` ({ id, chars }) and the page (and cursor) moves past it.
    const all = result.items as unknown[];
    const after = (result as { [CURSOR_AFTER]?: (last: unknown) => string | null })[CURSOR_AFTER];
    const sizes = all.map((item) => JSON.stringify(item).length);
    const omission = (i: number): OmittedItem => ({ id: idOf(all[i]), chars: sizes[i]! });
    const handlerCursor = (result as { next_cursor?: unknown }).next_cursor ?? null;
    let slack = 0;
    for (let attempt = 0; attempt < 4; attempt += 1) {
      result.items = [];
      delete result.oversized_items;
      const skeleton = JSON.stringify(envelope).length;
      const budget = max - skeleton - slack;
      // Room for the `"oversized_items":[]` key itself when an item is omitted.
      const alone = budget - 20;
      const oversized = (i: number): boolean => sizes[i]! > alone;
      const fit = fitPrefix(all, { budget, separator: 1, sizeOf: (_item, i) => (oversized(i) ? JSON.stringify(omission(i)).length + 20 : sizes[i]!) });
      if (fit.truncation.dropped === 0 && !fit.items.some((_item, i) => oversized(i))) {
        result.items = all;
        break;
      }
      const kept: unknown[] = [];
      const omitted: OmittedItem[] = [];
      fit.items.forEach((item, i) => (oversized(i) ? omitted.push(omission(i)) : kept.push(item)));
      result.items = kept;
      if (omitted.length > 0) result.oversized_items = omitted;
      result.truncated = true;
      if ('truncation_reason' in result && result.truncation_reason === null) result.truncation_reason = 'result_limit';
      // A handler may say how to continue after the last item consumed (see CURSOR_AFTER).
      const more = fit.truncation.dropped > 0;
      if ('next_cursor' in result) result.next_cursor = !more ? handlerCursor : after && fit.items.length > 0 ? after(fit.items[fit.items.length - 1]) : null;
      text = JSON.stringify(envelope);
      if (text.length <= max || fit.items.length === 0) break;
      slack += text.length - max;
    }
    text = JSON.stringify(envelope);
    if (text.length <= max) return toToolResponse(envelope, text);
  }
  if (result && typeof result.node === 'object' && result.node !== null) {
    const node = result.node as { body: string };
    const full = node.body;
    // JSON escaping makes the serialized body longer than the string: the longest prefix that fits.
    const kept = longestFitting(Math.min(full.length, max), (n) => {
      node.body = full.slice(0, n);
      result.body_truncated = true;
      return JSON.stringify(envelope).length + 32 <= max;
    });
    node.body = full.slice(0, kept);
    result.body_truncated = true;
    if (typeof result.body_offset === 'number') result.next_body_offset = result.body_offset + kept;
    text = JSON.stringify(envelope);
    if (text.length <= max) return toToolResponse(envelope, text);
  }
  // A refusal that is itself result_too_large (a mutation preflight) keeps its stage and commit facts.
  const carried = envelope.error?.code === 'result_too_large' ? envelope.error.details : {};
  const { needed_chars: _needed, max_output_chars: _max, ...facts } = carried;
  const failure: Envelope = {
    schema_version: 1,
    ok: false,
    notice: CONTENT_NOTICE,
    project: envelope.project,
    error: errors.resultTooLarge(text.length, max, facts).toWire(),
  };
  return toToolResponse(failure);
}
