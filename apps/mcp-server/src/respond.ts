/**
 * Fitting a response to size (lifecycle stage `fit_to_size`): serialization within
 * `[limits].max_output_chars`, dispatched on the tool's declared fit strategy
 * (`FIT_STRATEGIES` in outcome.ts); the shape of a result is never probed.
 */
import { errors, type WireError } from '@docforge/core';
import type { IndexManager } from '@docforge/sync';
import type { DiagnosticsCollector } from '@docforge/policy';
import { fitPrefix, longestFitting } from '@docforge/retrieval';
import { CONTENT_NOTICE, toToolResponse, type Envelope, type ToolResponse } from './envelope.js';
import type { BodyWindow, Fitting, Page, ToolResult } from './outcome.js';

/** The response limit without a sync: from the cached descriptor when it loads, else the default. */
export function statusLimit(manager: IndexManager): number {
  try {
    return manager.descriptor().limits.max_output_chars;
  } catch {
    return FALLBACK_MAX_OUTPUT_CHARS;
  }
}

/** `[limits].max_output_chars` when no descriptor loads (the descriptor's default). */
export const FALLBACK_MAX_OUTPUT_CHARS = 60_000;

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
 * Serializes an envelope within the response limit `max` (`[limits].max_output_chars`):
 * diagnostics are dropped first (contract: `--diagnostics`), then the result is fitted by its
 * tool's declared strategy (`fitting`, see `FIT_STRATEGIES` in outcome.ts): a `page` is trimmed with
 * `truncated = true`, a `node_body` window is cut with `body_truncated = true`, a `compact` read
 * result becomes its compact form when that fits, a committed mutation (`receipt`) becomes its
 * compact receipt; what still cannot fit becomes `result_too_large`.
 * @param envelope the envelope to send; its result (and diagnostics) are changed in place
 * @param fitting the tool's declared strategy with its part of the handler's outcome (`NO_FITTING` for failures)
 */
export function respond(envelope: Envelope, fitting: Fitting, diagnostics: DiagnosticsCollector | null, max: number): ToolResponse {
  if (diagnostics) envelope.diagnostics = diagnostics.toJSON() as unknown as Record<string, unknown>;
  let text = JSON.stringify(envelope);
  if (text.length <= max) return toToolResponse(envelope, text);
  if (envelope.diagnostics) {
    delete envelope.diagnostics;
    text = JSON.stringify(envelope);
    if (text.length <= max) return toToolResponse(envelope, text);
  }
  const fitted = envelope.result === undefined ? text : fitByStrategy(envelope, envelope.result, fitting, max, text);
  if (typeof fitted !== 'string') return fitted;
  // A failure that does not fit stays that failure, shortened; a success becomes result_too_large.
  return fitFailure(envelope.result === undefined ? envelope : tooLargeEnvelope(envelope, fitted.length, max), max);
}

/** Longest message of a shortened error (characters before the ellipsis). */
const SHORT_MESSAGE_CHARS = 600;

/**
 * A failure envelope within `max` (issue 30, item 8: errors fit `max_output_chars` too): the
 * project block's `sync_error` keeps its code and remediation with a shortened message and no
 * details, then the error's own details are reduced to the facts that name the limit
 * (`needed_chars`, `max_output_chars`, `stage`, `mutation_committed`) with
 * `details_omitted: true`, then messages are cut to what fits. The error code and remediation
 * always stay.
 */
function fitFailure(envelope: Envelope, max: number): ToolResponse {
  let text = JSON.stringify(envelope);
  if (text.length <= max) return toToolResponse(envelope, text);
  if (envelope.project.sync_error) envelope.project = { ...envelope.project, sync_error: shortWire(envelope.project.sync_error, SHORT_MESSAGE_CHARS, true) };
  if (envelope.error) envelope.error = shortWire(envelope.error, Number.MAX_SAFE_INTEGER, JSON.stringify(envelope).length > max);
  for (const room of [SHORT_MESSAGE_CHARS, 200, 60]) {
    text = JSON.stringify(envelope);
    if (text.length <= max) break;
    if (envelope.project.sync_error) envelope.project = { ...envelope.project, sync_error: shortWire(envelope.project.sync_error, room, true) };
    if (envelope.error) envelope.error = shortWire(envelope.error, room, true);
  }
  return toToolResponse(envelope);
}

/** Facts of an error's details that a shortened error keeps (they name the limit and whether anything changed). */
const KEPT_DETAILS = ['needed_chars', 'max_output_chars', 'stage', 'mutation_committed', 'reason', 'limit'];

/** A wire error with its message cut to `room` characters and, when `dropDetails`, only the {@link KEPT_DETAILS}. */
function shortWire(wire: WireError, room: number, dropDetails: boolean): WireError {
  const message = wire.message.length <= room ? wire.message : `${wire.message.slice(0, room)}...`;
  if (!dropDetails) return { ...wire, message };
  const details: Record<string, unknown> = {};
  for (const key of KEPT_DETAILS) {
    const value = wire.details[key];
    if (typeof value === 'number' || typeof value === 'boolean' || (typeof value === 'string' && value.length <= 64)) details[key] = value;
  }
  if (Object.keys(details).length < Object.keys(wire.details).length) details.details_omitted = true;
  return { ...wire, message, details };
}

/** Applies the declared strategy; returns the response, or the last serialization when it still does not fit. */
function fitByStrategy(envelope: Envelope, result: ToolResult, fitting: Fitting, max: number, text: string): ToolResponse | string {
  switch (fitting.strategy) {
    case 'receipt':
      // A committed mutation: its compact receipt (preflight proved it fits), never a failure.
      envelope.result = fitting.receipt;
      return toToolResponse(envelope);
    case 'compact':
      // A read result with a compact form (bootstrap): the compact form when it fits, else result_too_large.
      envelope.result = fitting.compact;
      text = JSON.stringify(envelope);
      return text.length <= max ? toToolResponse(envelope, text) : text;
    case 'page':
      return fitPage(envelope, result, fitting.page, max);
    case 'node_body':
      return fitNodeBody(envelope, result, fitting.body, max);
    default:
      // page_with_omissions, chunked and none: the handler already bounded the result.
      return text;
  }
}

/**
 * Strategy `page`: keeps the largest prefix of items that fits (fitPrefix), then points the cursor
 * after the last one consumed; the cursor's own length can vary, so it re-fits with the measured
 * excess as slack. An item that could not fit even alone is never a dead end: it is consumed as an
 * entry of `oversized_items` ({ id, chars }) and the page (and cursor) moves past it.
 */
function fitPage(envelope: Envelope, result: ToolResult, page: Page, max: number): ToolResponse | string {
  const all = page.items;
  const sizes = all.map((item) => JSON.stringify(item).length);
  const omission = (i: number): OmittedItem => ({ id: idOf(all[i]), chars: sizes[i]! });
  const handlerCursor = result.next_cursor ?? null;
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
    const more = fit.truncation.dropped > 0;
    if ('next_cursor' in result) result.next_cursor = !more ? handlerCursor : page.cursorAfter !== null && fit.items.length > 0 ? page.cursorAfter(fit.items[fit.items.length - 1]) : null;
    const text = JSON.stringify(envelope);
    if (text.length <= max || fit.items.length === 0) break;
    slack += text.length - max;
  }
  const text = JSON.stringify(envelope);
  return text.length <= max ? toToolResponse(envelope, text) : text;
}

/** Strategy `node_body`: the longest body prefix that fits (JSON escaping makes the serialized body longer than the string). */
function fitNodeBody(envelope: Envelope, result: ToolResult, window: BodyWindow, max: number): ToolResponse | string {
  const node = window.node;
  const full = node.body;
  cutLists(envelope, window, max);
  const kept = longestFitting(Math.min(full.length, max), (n) => {
    node.body = full.slice(0, n);
    result.body_truncated = true;
    return JSON.stringify(envelope).length + 32 <= max;
  });
  node.body = full.slice(0, kept);
  result.body_truncated = true;
  if (window.offset !== null) result.next_body_offset = window.offset + kept;
  const text = JSON.stringify(envelope);
  return text.length <= max ? toToolResponse(envelope, text) : text;
}

/**
 * When the result does not fit even with an empty body, cuts the window's lists (in order) to
 * the longest prefixes that fit, each cut list marked by its flag; the body is left as it was.
 */
function cutLists(envelope: Envelope, window: BodyWindow, max: number): void {
  const node = window.node;
  const full = node.body;
  node.body = '';
  const fits = (): boolean => JSON.stringify(envelope).length + 32 <= max;
  for (const list of window.lists ?? []) {
    if (fits()) break;
    const all = list.holder[list.key];
    if (!Array.isArray(all) || all.length === 0) continue;
    const kept = longestFitting(all.length, (n) => {
      list.holder[list.key] = all.slice(0, n);
      return fits();
    });
    list.holder[list.key] = all.slice(0, kept);
    list.flags[list.flag] = true;
  }
  node.body = full;
}

/** The `result_too_large` failure of an envelope whose serialization needs `needed` characters. */
function tooLargeEnvelope(envelope: Envelope, needed: number, max: number): Envelope {
  // A refusal that is itself result_too_large (a mutation preflight) keeps its stage and commit facts.
  const carried = envelope.error?.code === 'result_too_large' ? envelope.error.details : {};
  const { needed_chars: _needed, max_output_chars: _max, ...facts } = carried;
  return {
    schema_version: 1,
    ok: false,
    notice: CONTENT_NOTICE,
    project: envelope.project,
    error: errors.resultTooLarge(needed, max, facts).toWire(),
  };
}
