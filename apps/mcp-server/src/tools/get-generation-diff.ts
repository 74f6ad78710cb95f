/**
 * `docforge_get_generation_diff` (contract: MCP boundary, the generation-diff, receipt, page and
 * receipt-state paragraphs). A non-repairing status tool: it reads `current.json` and the one
 * latest receipt through {@link generationReceiptStatus}, with the cheap source identity only; it
 * never synchronizes, opens SQLite, parses sources, builds or writes.
 *
 * Only receipt state `current` returns a page. Every other state is a successful answer
 * (`ok: true`) whose result carries `receipt_state` and `reason` and no page fields: the state
 * IS the answer to "what is the latest transition", and an error would hide the distinction the
 * contract draws between missing, unsafe, unverified, stale and unknown evidence. A cursor that
 * continues a receipt which is no longer current fails as `stale_cursor` instead, because
 * pagination must never silently end or restart.
 */
import path from 'node:path';
import { errors, hashJson } from '@docforge/core';
import { generationReceiptStatus, receiptItemHash, stateLayout, type Receipt, type ReceiptItem, type ReceiptState, type ReceiptStatus } from '@docforge/store';
import { cursorOffset, decodeCursor, effectiveLimit, encodeCursor, fitPrefix, type CursorBinding } from '@docforge/retrieval';
import type { DiagnosticsCollector } from '@docforge/policy';
import { CONTENT_NOTICE, type ProjectBlock } from '../envelope.js';
import { defineTool, loadProtocolTool, type StatusOutcome, type ToolContext } from '../define-tool.js';

/** The tool name. */
export const GENERATION_DIFF_TOOL = 'docforge_get_generation_diff' as const;
/** `page_schema_version` of every result of this tool. */
export const GENERATION_DIFF_PAGE_SCHEMA_VERSION = 1;
/** Page size when `limit` is omitted (still capped by `[limits].max_results`). */
export const GENERATION_DIFF_DEFAULT_LIMIT = 100;
/** Characters kept free below `[limits].max_output_chars` for the envelope's own slack. */
const RESPONSE_MARGIN_CHARS = 64;

/** A retained item skipped because it cannot fit in any response under the limit. */
export interface ResponseLimitOmission {
  kind: 'response_limit';
  /** SHA-256 of the item's canonical JSON (the same hash the retained collection hash chains). */
  item_hash: string;
  /** 0-based position of the item among the retained items. */
  position: number;
}

/** The pagination receipt of one page. */
export interface GenerationDiffPagination {
  /** 0-based position of the first retained item this page covers. */
  offset: number;
  /** Number of items in this page (omissions not counted). */
  returned: number;
  /** Number of response-limit omissions in this page. */
  omitted: number;
  /** Retained items of the receipt (every page covers a contiguous run of them). */
  total_retained: number;
  has_more: boolean;
  /** The only cursor copy; null on the last page. */
  next_cursor: string | null;
}

/** The receipt header: every stored field except `items`, plus `stored_receipt_hash`. */
export type ReceiptHeader = Omit<Receipt, 'items'> & { stored_receipt_hash: string };

/** The cursor binding of a receipt: generation = `to_generation`, collection = `retained_collection_hash`. */
export function generationDiffBinding(receipt: Receipt): CursorBinding {
  return {
    op: GENERATION_DIFF_TOOL,
    project: receipt.project_id,
    adapter: receipt.adapter_version,
    generation: receipt.to_generation,
    params: {},
    collection: receipt.retained_collection_hash,
  };
}

/** The tool definition (a status tool: runs without the normal sync). */
export const generationDiffTool = defineTool({
  protocol: loadProtocolTool(GENERATION_DIFF_TOOL),
  kind: 'status',
  fit: 'page_with_omissions',
  handler: getGenerationDiff,
});

function staleness(state: ReceiptState): ProjectBlock['staleness'] {
  return state === 'current' ? 'current' : state === 'stale' ? 'stale' : 'unknown';
}

/** The envelope's project block from `current.json` alone (no SQLite); null (the server's pre-sync block) without one. */
function projectOf(ctx: ToolContext, status: ReceiptStatus): ProjectBlock | null {
  const p = status.publication;
  if (p === null) return null;
  return { id: p.project_id, root: ctx.manager.root, revision: p.generation, source_hash: p.source_hash, adapter_version: p.adapter_version, staleness: staleness(status.state) };
}

function statusOnly(state: ReceiptState, reason: string): Record<string, unknown> {
  return { page_schema_version: GENERATION_DIFF_PAGE_SCHEMA_VERSION, receipt_state: state, reason };
}

/**
 * Handler of `docforge_get_generation_diff`.
 * @throws DocforgeError `invalid_arguments` for a limit above max_results; `invalid_cursor` for a
 *   corrupted cursor or a position outside the retained items; `stale_cursor` when the cursor's
 *   generation or collection is not the current receipt's, or the receipt is no longer current;
 *   `result_too_large` when not even one item or omission fits under the response limit
 */
export function getGenerationDiff(ctx: ToolContext, args: { limit?: number; cursor?: string }, diagnostics: DiagnosticsCollector | null): StatusOutcome<'page_with_omissions'> {
  let descriptor;
  try {
    descriptor = ctx.manager.descriptor();
  } catch {
    // Without a loadable descriptor neither the state dir nor a cheap identity can be established.
    return { result: statusOnly('unknown', 'The project descriptor cannot be loaded, so the project has no cheap source identity.'), project: null };
  }
  const limit = effectiveLimit(args.limit, descriptor.limits.max_results, GENERATION_DIFF_DEFAULT_LIMIT);
  const cursor = typeof args.cursor === 'string' ? args.cursor : null;
  const layout = stateLayout(path.join(ctx.manager.root, descriptor.state.dir), ctx.manager.root);
  const readStatus = (): ReceiptStatus => generationReceiptStatus(layout, ctx.manager.cheapIdentity(), { projectId: descriptor.project.id, root: ctx.manager.root });
  const status = diagnostics ? diagnostics.time('index_work', readStatus) : readStatus();
  const project = projectOf(ctx, status);

  if (status.state !== 'current' || status.receipt === null) {
    if (cursor !== null && status.receipt !== null) {
      // A corrupted cursor is reported as such first; a well-formed one cannot continue a stale receipt.
      decodeCursor(cursor, generationDiffBinding(status.receipt));
      throw errors.staleCursor(`The generation receipt is no longer current (${status.reason}); restart pagination.`, {
        reason: 'receipt_not_current',
        receipt_state: status.state,
        expected_generation: status.receipt.to_generation,
        cursor_generation: status.receipt.to_generation,
      });
    }
    return { result: statusOnly(status.state, status.reason), project };
  }
  const receipt = status.receipt;
  const offset = cursor === null ? 0 : cursorOffset(decodeCursor(cursor, generationDiffBinding(receipt)).position, receipt.items.length);
  return { result: receiptPage(receipt, project, offset, limit, descriptor.limits.max_output_chars), project };
}

/**
 * The page of a current receipt from `offset`: at most `limit` items, packed so that the whole
 * envelope fits `maxOutputChars`, with its pagination receipt and page hash.
 * @throws DocforgeError `result_too_large` when not even one item or omission fits
 */
function receiptPage(receipt: Receipt, project: ProjectBlock | null, offset: number, limit: number, maxOutputChars: number): Record<string, unknown> {
  const binding = generationDiffBinding(receipt);
  const total = receipt.items.length;
  const { items: _items, ...stored } = receipt;
  const header: ReceiptHeader = { ...stored, stored_receipt_hash: receipt.receipt_hash };
  // Worst case of everything but the page items: the longest cursor (largest position) and a full pagination record.
  const worstPagination: GenerationDiffPagination = { offset: total, returned: total, omitted: total, total_retained: total, has_more: false, next_cursor: encodeCursor(binding, total) };
  const skeleton = {
    schema_version: 1, ok: true, notice: CONTENT_NOTICE, project,
    result: { page_schema_version: GENERATION_DIFF_PAGE_SCHEMA_VERSION, receipt_state: 'current', receipt_header: header, items: [], omissions: [], pagination: worstPagination, page_hash: '0'.repeat(64) },
  };
  const budget = maxOutputChars - JSON.stringify(skeleton).length - RESPONSE_MARGIN_CHARS;
  const { items, omissions, position } = packItems(receipt.items, offset, limit, budget);
  if (position === offset && position < total) {
    // The item became an omission record, and not even that fits beside the page skeleton.
    const omission: ResponseLimitOmission = { kind: 'response_limit', item_hash: receiptItemHash(receipt.items[offset]!), position: offset };
    throw errors.resultTooLarge(maxOutputChars - budget + JSON.stringify(omission).length, maxOutputChars);
  }
  const hasMore = position < total;
  const pagination: GenerationDiffPagination = {
    offset,
    returned: items.length,
    omitted: omissions.length,
    total_retained: total,
    has_more: hasMore,
    next_cursor: hasMore ? encodeCursor(binding, position) : null,
  };
  const page = {
    page_schema_version: GENERATION_DIFF_PAGE_SCHEMA_VERSION,
    receipt_state: 'current' as const,
    receipt_header: header,
    items,
    omissions,
    pagination,
  };
  return { ...page, page_hash: hashJson(page) };
}

/**
 * One page: the largest run of items from `offset` that fits `budget`; an item that fits on no
 * page becomes a hash-identified omission so pagination advances past it exactly once.
 * @returns the page's items and omissions, and the position after the last one consumed
 */
function packItems(all: readonly ReceiptItem[], offset: number, limit: number, budget: number): { items: ReceiptItem[]; omissions: ResponseLimitOmission[]; position: number } {
  const entries: ({ item: ReceiptItem } | { omission: ResponseLimitOmission })[] = [];
  const fit = fitPrefix(all, {
    start: offset,
    maxItems: limit,
    budget,
    separator: 1,
    sizeOf: (item, position) => {
      const size = JSON.stringify(item).length;
      if (size <= budget) {
        entries.push({ item });
        return size;
      }
      const omission: ResponseLimitOmission = { kind: 'response_limit', item_hash: receiptItemHash(item), position };
      entries.push({ omission });
      return JSON.stringify(omission).length;
    },
  });
  const kept = entries.slice(0, fit.truncation.kept);
  return {
    items: kept.flatMap((e) => ('item' in e ? [e.item] : [])),
    omissions: kept.flatMap((e) => ('omission' in e ? [e.omission] : [])),
    position: offset + kept.length,
  };
}
