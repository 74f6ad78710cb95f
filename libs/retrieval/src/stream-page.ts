/**
 * Pages of a packed stream (context and task context): the page receipt, the character budget left
 * for items under the response limit, and cursor-bound resumption. The cut itself is
 * {@link fitPrefix}, the one paging algorithm.
 */
import { errors } from '@docforge/core';
import { cursorOffset, decodeCursor, encodeCursor, type CursorBinding } from './cursor.js';
import type { StreamItem } from './packing.js';
import { fitPrefix } from './paging.js';

/** The page receipt of a paginated stream. */
export interface PageReceipt {
  /** Stream position of the first item of this page. */
  offset: number;
  returned: number;
  /** Length of the complete stream (selected items plus omissions). */
  total_evidence: number;
  has_more: boolean;
  next_cursor: string | null;
}

/**
 * Splits a stream into one page: items from `offset` while fewer than `limit` are taken and
 * their JSON (with separating commas) fits `itemChars`. Always takes at least one item when the
 * stream continues, which {@link packStream} guarantees can fit.
 * @throws DocforgeError `internal_error` if an item cannot fit (a packing defect)
 */
export function pageStream(stream: readonly StreamItem[], offset: number, limit: number, itemChars: number): StreamItem[] {
  const { items } = fitPrefix(stream, { start: offset, maxItems: limit, budget: itemChars, separator: 1, sizeOf: (item) => JSON.stringify(item).length });
  if (items.length === 0 && offset < stream.length) {
    throw errors.internalError('A packed stream item does not fit its page.', { offset });
  }
  return items;
}

/** Project identity a cursor binds to. */
export interface PageBinding {
  project: string;
  adapter: string;
  /** Publication generation. */
  generation: number;
}


/** Safety margin kept below the character budget, for digits that can vary between pages. */
const PAGE_MARGIN_CHARS = 16;
/** A 64-hex-digit hash placeholder, as long as any real SHA-256 hex. */
export const PLACEHOLDER_HASH = '0'.repeat(64);

/**
 * Placeholder page receipt that is at least as long as any real receipt of the stream: maximal
 * offset and count digits, `has_more: false` and the longest cursor (cursor length depends only
 * on field lengths, not on hash values).
 */
export function placeholderReceipt(op: string, binding: PageBinding, params: unknown, total: number): PageReceipt {
  const cursor = encodeCursor({ op, ...binding, params, collection: PLACEHOLDER_HASH }, total);
  return { offset: total, returned: total, total_evidence: total, has_more: false, next_cursor: cursor };
}

/**
 * Characters available to page items given a result skeleton (with `items: []`).
 * @throws DocforgeError `result_too_large` when the skeleton alone exceeds the budget
 */
export function itemCharBudget(skeleton: object, resultCharBudget: number): number {
  const base = JSON.stringify(skeleton).length;
  const room = resultCharBudget - base - PAGE_MARGIN_CHARS;
  if (room < 64) {
    // The page receipt alone leaves no room for items within the response limit.
    throw errors.resultTooLarge(base, resultCharBudget, { result_char_budget: resultCharBudget });
  }
  return room;
}

/**
 * One page of an immutable stream, resumed from `cursor`: the items that fit and the page receipt
 * whose `next_cursor` continues after them (shared by context and task context).
 * @throws DocforgeError `invalid_cursor` / `stale_cursor` from the cursor check
 */
export function pageFromCursor(stream: readonly StreamItem[], binding: CursorBinding, cursor: string | undefined, limit: number, itemChars: number): { items: StreamItem[]; receipt: PageReceipt } {
  const offset = resumeOffset(cursor, binding, stream.length);
  const items = pageStream(stream, offset, limit, itemChars);
  const next = offset + items.length;
  const hasMore = next < stream.length;
  return { items, receipt: { offset, returned: items.length, total_evidence: stream.length, has_more: hasMore, next_cursor: hasMore ? encodeCursor(binding, next) : null } };
}

/** Resumes pagination: verifies the cursor against the binding and bounds-checks its offset. */
export function resumeOffset(cursor: string | undefined, binding: CursorBinding, total: number): number {
  if (cursor === undefined) return 0;
  return cursorOffset(decodeCursor(cursor, binding).position, total);
}
