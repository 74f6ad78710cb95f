/**
 * Context packing for `docforge_get_context` (contract: MCP boundary, "`docforge_get_context`
 * accepts optional `limit` and `cursor` arguments ..."; DESIGN.md sections 5 and 7).
 *
 * Pipeline, all deterministic for one index generation:
 * 1. selection: a {@link ContextProvider} (the default one below, or a project-owned custom
 *    provider with the unchanged three-argument contract) returns ordered {@link ContextEntry}s;
 * 2. packing: entries are taken first-fit in provider order while their estimated tokens
 *    (`ceil(chars / 4)` of the entry's canonical JSON) fit the token `budget`; an entry that
 *    does not fit becomes a `token budget` omission, and an entry that fits the budget but could
 *    never fit one MCP page becomes a `response size limit` omission. Both omissions carry the
 *    SHA-256 of the omitted item, so each advances exactly once and pagination cannot loop;
 * 3. the stream is selected entries first, then omission evidence, hashed as one collection;
 * 4. pagination slices the stream by `limit` and by the page's character budget and binds an
 *    opaque version-1 cursor to project, adapter, generation, request and collection hash.
 *
 * Selection lives in context-select.ts, packing in packing.ts and page cutting in stream-page.ts
 * (shared with task context).
 */
import { errors, canonicalJson, hashJson } from '@docforge/core';
import type { IndexReader } from '@docforge/store';
import type { CursorBinding } from './cursor.js';
import { selectContext, type ContextEntry, type ContextLimits, type ContextProvider, type ContextRequest, type ContextSelection } from './context-select.js';
import { estimateTokens, itemSha256, packStream, MAX_CONTEXT_BUDGET, type PackCandidate, type StreamItem } from './packing.js';
import { itemCharBudget, pageFromCursor, placeholderReceipt, PLACEHOLDER_HASH, type PageBinding, type PageReceipt } from './stream-page.js';
import { analyseQuery, type DroppedTerm } from './ranking.js';
import { listedDroppedTerms } from './query.js';

/** Default token budget of `docforge_get_context` when `budget` is omitted. */
export const DEFAULT_CONTEXT_BUDGET = 4000;

/** Options of {@link contextPage}. */
export interface ContextPageOptions {
  binding: PageBinding;
  /** Effective page limit (already bounded by max_results). */
  limit: number;
  /** Opaque cursor of the previous page, if any. */
  cursor?: string;
  /**
   * Largest `JSON.stringify(result).length` the page may have: the configured MCP response limit
   * minus the envelope around `result` (and a safety margin).
   */
  resultCharBudget: number;
  /** The project `[limits].max_results`, handed to the provider. */
  maxResults: number;
}


function checkEntries(entries: unknown): ContextEntry[] {
  if (!Array.isArray(entries)) {
    throw errors.internalError('The context provider did not return an array of entries.', { reason: 'not_an_array' });
  }
  for (const [index, entry] of (entries as unknown[]).entries()) {
    const e = entry as Record<string, unknown> | null;
    const bad = e === null || typeof e !== 'object' || Array.isArray(e)
      ? 'not_an_object'
      : (['id', 'kind', 'title', 'source_path', 'selected_by', 'excerpt'] as const).find((key) => typeof e[key] !== 'string' || (key === 'id' && e[key] === ''));
    if (bad !== undefined) {
      throw errors.internalError(`The context provider returned a malformed entry at index ${index}.`, { index, field: bad });
    }
    try {
      canonicalJson(e);
    } catch {
      throw errors.internalError(`The context provider returned an entry at index ${index} that is not JSON.`, { index, field: 'json' });
    }
  }
  return entries as ContextEntry[];
}

/** The `result` object of one `docforge_get_context` page (see {@link contextPage}). */
export type ContextPageResult = {
  node_id: string | null;
  query: string | null;
  budget: number;
  limit: number;
  provider: 'default' | 'custom';
  /** How the default selection ended; null for a custom provider. */
  selection: Omit<ContextSelection, 'entries'> | null;
  /**
   * Query words the default selection's search did not use (stop words, phrases beyond
   * MAX_QUERY_PHRASES), in query order; empty without a query or with a custom provider, which
   * receives the whole query.
   */
  dropped_terms: DroppedTerm[];
  /** Present only when `dropped_terms` is cut to its first 600 characters of JSON: how many query words were not searched in all. */
  dropped_terms_total?: number;
  /** SHA-256 of the complete stream's canonical JSON. */
  collection_hash: string;
  used_tokens: number;
  selected_entries: number;
  omitted_entries: number;
  /** Whether anything was omitted or the default selection was truncated. */
  truncated: boolean;
  items: StreamItem[];
  page: PageReceipt;
};

/** Arguments of `docforge_get_context` after schema validation. */
export interface ContextArgs {
  node_id?: string;
  query?: string;
  budget?: number;
}

/**
 * One page of `docforge_get_context`: runs the provider (custom when given, else
 * {@link selectContext}), packs the entries under the token budget and the response limit,
 * and returns the `result` object of the tool:
 * `{ node_id, query, budget, limit, provider, selection, collection_hash, used_tokens,
 *    selected_entries, omitted_entries, truncated, items, page }`.
 * Stream items are `{ type: 'entry', ...entry, estimated_tokens }` and
 * `{ type: 'omission', reason: 'token budget' | 'response size limit', id, sha256, estimated_tokens,
 *    chars, retrieval }`, where `sha256` is the SHA-256 of the omitted entry item's canonical JSON.
 * The cursor binds op `docforge_get_context`, params `{node_id, query, budget, limit}` and the
 * collection hash (SHA-256 of the complete stream's canonical JSON).
 * @throws DocforgeError `invalid_arguments`, `node_not_found`, `invalid_cursor`, `stale_cursor`,
 *   `result_too_large`, or `internal_error` for a malformed custom provider result
 */
export function contextPage(reader: IndexReader, provider: ContextProvider | null, args: ContextArgs, options: ContextPageOptions): ContextPageResult {
  const budget = args.budget ?? DEFAULT_CONTEXT_BUDGET;
  if (!Number.isInteger(budget) || budget < 1 || budget > MAX_CONTEXT_BUDGET) {
    throw errors.invalidArguments(`budget must be an integer from 1 to ${MAX_CONTEXT_BUDGET}.`, { argument: 'budget' });
  }
  if (args.node_id === undefined && args.query === undefined) {
    throw errors.invalidArguments('docforge_get_context needs node_id, query or both.', { argument: 'node_id' });
  }
  const request: ContextRequest = { budget };
  if (args.node_id !== undefined) request.node_id = args.node_id;
  if (args.query !== undefined) request.query = args.query;
  const limits: ContextLimits = { max_results: options.maxResults };
  let entries: ContextEntry[];
  let selection: Omit<ContextSelection, 'entries'> | null = null;
  if (provider) {
    entries = checkEntries(provider(reader, request, limits));
  } else {
    const selected = selectContext(reader, request, limits);
    entries = selected.entries;
    selection = { truncated: selected.truncated, truncation_reason: selected.truncation_reason, examined_edges: selected.examined_edges };
  }

  const droppedTerms = listedDroppedTerms(provider || args.query === undefined ? [] : analyseQuery(args.query).dropped);
  const params = { node_id: args.node_id ?? null, query: args.query ?? null, budget, limit: options.limit };
  const skeleton = (items: StreamItem[], page: PageReceipt, collection: string, used: number, selectedCount: number, omittedCount: number, truncated: boolean): ContextPageResult => ({
    node_id: params.node_id,
    query: params.query,
    budget,
    limit: options.limit,
    provider: provider ? 'custom' : 'default',
    selection,
    ...droppedTerms,
    collection_hash: collection,
    used_tokens: used,
    selected_entries: selectedCount,
    omitted_entries: omittedCount,
    truncated,
    items,
    page,
  });
  const total = entries.length;
  const itemChars = itemCharBudget(
    skeleton([], placeholderReceipt('docforge_get_context', options.binding, params, total), PLACEHOLDER_HASH, budget, total, total, false),
    options.resultCharBudget,
  );

  const candidates: PackCandidate[] = entries.map((entry) => {
    const tokens = estimateTokens(entry);
    return { item: { ...entry, type: 'entry', estimated_tokens: tokens }, tokens };
  });
  const packed = packStream(candidates, budget, itemChars, (candidate, cause, chars) => ({
    type: 'omission',
    reason: cause === 'token' ? 'token budget' : 'response size limit',
    id: candidate.item.id,
    sha256: itemSha256(candidate.item),
    estimated_tokens: candidate.tokens,
    chars,
    retrieval: { tool: 'docforge_get_node', node_id: candidate.item.id },
  }));
  const collection = hashJson(packed.stream);
  const binding: CursorBinding = { op: 'docforge_get_context', ...options.binding, params, collection };
  const { items, receipt } = pageFromCursor(packed.stream, binding, options.cursor, options.limit, itemChars);
  const omitted = packed.token_omissions + packed.response_omissions;
  return skeleton(
    items,
    receipt,
    collection,
    packed.used_tokens,
    packed.selected,
    omitted,
    omitted > 0 || (selection?.truncated ?? false),
  );
}
