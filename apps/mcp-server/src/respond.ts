/**
 * Fitting a response to size (lifecycle stage `fit_to_size`, moved verbatim from server.ts):
 * serialization within `[limits].max_output_chars`.
 */
import { errors } from '@docforge/core';
import type { IndexManager, SyncReport } from '@docforge/index';
import type { DiagnosticsCollector } from '@docforge/policy';
import { CONTENT_NOTICE, CURSOR_AFTER, toToolResponse, type Envelope, type ToolResponse } from './envelope.js';

/** The response limit without a sync: from the cached descriptor when it loads, else the default. */
export function statusLimit(manager: IndexManager): number {
  try {
    return manager.descriptor().limits.max_output_chars;
  } catch {
    return FALLBACK_MAX_OUTPUT_CHARS;
  }
}

const FALLBACK_MAX_OUTPUT_CHARS = 60_000;

/**
 * Serializes an envelope within the configured response limit (`[limits].max_output_chars`):
 * diagnostics are dropped first (contract: `--diagnostics`), then collection items are trimmed
 * with `truncated = true`, then an over-long node body is cut with `body_truncated = true`;
 * what still cannot fit becomes `result_too_large`.
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
  if (result && Array.isArray(result.items)) {
    const items = result.items as unknown[];
    while (items.length > 0 && text.length > max) {
      const excess = text.length - max;
      const drop = Math.max(1, Math.min(items.length, Math.ceil((excess / Math.max(1, text.length)) * items.length)));
      items.splice(items.length - drop, drop);
      result.truncated = true;
      if ('truncation_reason' in result && result.truncation_reason === null) result.truncation_reason = 'result_limit';
      // A handler may say how to continue after the last item kept (see CURSOR_AFTER).
      const after = (result as { [CURSOR_AFTER]?: (last: unknown) => string | null })[CURSOR_AFTER];
      if ('next_cursor' in result) result.next_cursor = after && items.length > 0 ? after(items[items.length - 1]) : null;
      text = JSON.stringify(envelope);
    }
    if (text.length <= max) return toToolResponse(envelope, text);
  }
  if (result && typeof result.node === 'object' && result.node !== null) {
    const node = result.node as { body: string };
    const full = node.body;
    // JSON escaping makes the serialized body longer than the string: search the longest prefix that fits.
    let lo = 0;
    let hi = Math.min(full.length, max);
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      node.body = full.slice(0, mid);
      result.body_truncated = true;
      if (JSON.stringify(envelope).length + 32 <= max) lo = mid;
      else hi = mid - 1;
    }
    node.body = full.slice(0, lo);
    result.body_truncated = true;
    if (typeof result.body_offset === 'number') result.next_body_offset = result.body_offset + lo;
    text = JSON.stringify(envelope);
    if (text.length <= max) return toToolResponse(envelope, text);
  }
  const failure: Envelope = {
    schema_version: 1,
    ok: false,
    notice: CONTENT_NOTICE,
    project: envelope.project,
    error: errors.resultTooLarge(text.length, max).toWire(),
  };
  return toToolResponse(failure);
}
