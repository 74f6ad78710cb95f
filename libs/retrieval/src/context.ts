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
 * The page helpers ({@link packStream}, {@link pageStream}) are shared with task context.
 */
import { DocforgeError, errors, canonicalJson, hashJson, relationCategory, sha256 } from '@docforge/core';
import type { GraphNode } from '@docforge/core';
import type { IndexReader } from '@docforge/index';
import { cursorOffset, decodeCursor, encodeCursor, type CursorBinding } from './cursor.js';
import { searchNodes } from './search.js';
import { traverse, DEFAULT_EDGE_BUDGET, type TraversalDirection } from './traversal.js';

/** Default token budget of `docforge_get_context` when `budget` is omitted. */
export const DEFAULT_CONTEXT_BUDGET = 4000;
/** Largest accepted token budget (both context tools). */
export const MAX_CONTEXT_BUDGET = 200_000;
/** Search hits used as seeds when `query` is given. */
export const CONTEXT_SEARCH_SEEDS = 5;
/** Body excerpt length of a focus or search entry, in characters. */
export const FOCUS_EXCERPT_CHARS = 1500;
/** Body excerpt length of a neighbour entry, in characters. */
export const NEIGHBOUR_EXCERPT_CHARS = 400;

/** The relation that qualified a neighbour entry, relative to the node it was reached from. */
export interface ContextRelation {
  /** Stored relation name (raw, also when unclassified). */
  relation: string;
  /** Version-1 alias category, or `unclassified`. */
  category: string;
  /** `outgoing` when `via` is the stored source, `incoming` when `via` is the stored target. */
  direction: TraversalDirection;
  /** The node this entry was reached from. */
  via: string;
  /** Hop count from the seed (1 or 2). */
  depth: number;
}

/**
 * One selected context entry: node metadata, a body excerpt and why it was selected. A custom
 * provider may add further JSON fields; they are kept. `type` and `estimated_tokens` are set by
 * the packer and override provider fields of the same name.
 */
export interface ContextEntry {
  id: string;
  kind: string;
  title: string;
  source_path: string;
  /** Why the entry was selected: `focus`, `search`, `relation` (custom providers may use their own labels). */
  selected_by: string;
  /** Project content excerpt (not instructions). */
  excerpt: string;
  start_line?: number | null;
  content_hash?: string | null;
  /** bm25 score of a search seed (lower ranks higher). */
  score?: number | null;
  relation?: ContextRelation | null;
  excerpt_truncated?: boolean;
  [extra: string]: unknown;
}

/** The request handed to a context provider. */
export interface ContextRequest {
  node_id?: string;
  query?: string;
  /** Token budget (1..{@link MAX_CONTEXT_BUDGET}). */
  budget: number;
}

/** Limits handed to a context provider. */
export interface ContextLimits {
  /** The project `[limits].max_results`. */
  max_results: number;
}

/**
 * The unchanged three-argument custom context-provider contract (contract: "The existing
 * three-argument custom context-provider contract is unchanged because pagination is applied
 * after provider selection"). Must be deterministic for one index generation; a provider whose
 * output changes between pages makes the next page fail as `stale_cursor`.
 */
export type ContextProvider = (reader: IndexReader, request: ContextRequest, limits: ContextLimits) => readonly ContextEntry[];

/** Output of the default selection: the entries plus how the neighbourhood traversal ended. */
export interface ContextSelection {
  entries: ContextEntry[];
  truncated: boolean;
  truncation_reason: 'result_limit' | 'edge_budget' | null;
  /** Candidate edges examined by all neighbourhood traversals together. */
  examined_edges: number;
}

function excerptOf(node: GraphNode, max: number): { excerpt: string; truncated: boolean } {
  const text = (node.body.trim() || node.summary.trim()).replace(/\r\n/g, '\n');
  if (text.length <= max) return { excerpt: text, truncated: false };
  return { excerpt: text.slice(0, max), truncated: true };
}

function entryOf(node: GraphNode, selectedBy: string, excerptChars: number, score: number | null, relation: ContextRelation | null): ContextEntry {
  const { excerpt, truncated } = excerptOf(node, excerptChars);
  return {
    id: node.id,
    kind: node.kind,
    title: node.title,
    source_path: node.source_path,
    start_line: node.start_line,
    content_hash: node.content_hash,
    selected_by: selectedBy,
    score,
    relation,
    excerpt,
    excerpt_truncated: truncated,
  };
}

/**
 * The default deterministic selection: the exact focus node (`node_id`), then up to
 * {@link CONTEXT_SEARCH_SEEDS} bm25 hits for `query`, then the bounded neighbourhood: outgoing
 * then incoming traversal, depth 2 from the first seed and depth 1 from the other seeds, sharing
 * one {@link DEFAULT_EDGE_BUDGET} candidate-edge budget. At most `limits.max_results` entries;
 * dangling edge targets (no indexed node) are skipped.
 * @throws DocforgeError `node_not_found` for an unknown `node_id`; `invalid_arguments` when
 *   neither `node_id` nor `query` is given
 */
export function selectContext(reader: IndexReader, request: ContextRequest, limits: ContextLimits): ContextSelection {
  if (request.node_id === undefined && request.query === undefined) {
    throw new DocforgeError('invalid_arguments', 'docforge_get_context needs node_id, query or both.', { argument: 'node_id' });
  }
  const cap = Math.max(1, limits.max_results);
  const entries: ContextEntry[] = [];
  const seen = new Set<string>();
  const seeds: string[] = [];
  if (request.node_id !== undefined) {
    const node = reader.getNode(request.node_id);
    if (!node) throw errors.nodeNotFound(request.node_id);
    entries.push(entryOf(node, 'focus', FOCUS_EXCERPT_CHARS, null, null));
    seen.add(node.id);
    seeds.push(node.id);
  }
  if (request.query !== undefined) {
    const hits = searchNodes(reader, request.query, Math.min(CONTEXT_SEARCH_SEEDS, cap)).items;
    for (const hit of hits) {
      if (seen.has(hit.id) || entries.length >= cap) continue;
      const node = reader.getNode(hit.id);
      if (!node) continue;
      entries.push(entryOf(node, 'search', FOCUS_EXCERPT_CHARS, hit.score, null));
      seen.add(node.id);
      seeds.push(node.id);
    }
  }
  let examined = 0;
  let reason: ContextSelection['truncation_reason'] = null;
  outer: for (const [index, seed] of seeds.entries()) {
    for (const direction of ['outgoing', 'incoming'] as const) {
      const room = cap - entries.length;
      if (room <= 0) {
        reason ??= 'result_limit';
        break outer;
      }
      const budget = DEFAULT_EDGE_BUDGET - examined;
      if (budget <= 0) {
        reason ??= 'edge_budget';
        break outer;
      }
      const result = traverse(reader, seed, { direction, depth: index === 0 ? 2 : 1, limit: room, edgeBudget: budget });
      examined += result.examined_edges;
      for (const item of result.items) {
        if (seen.has(item.id) || entries.length >= cap) continue;
        const node = reader.getNode(item.id);
        if (!node) continue;
        seen.add(item.id);
        entries.push(entryOf(node, 'relation', NEIGHBOUR_EXCERPT_CHARS, null, {
          relation: item.relation,
          category: relationCategory(item.relation),
          direction,
          via: item.via,
          depth: item.depth,
        }));
      }
      if (result.truncation_reason) reason ??= result.truncation_reason;
    }
  }
  return { entries, truncated: reason !== null, truncation_reason: reason, examined_edges: examined };
}

/**
 * The default context provider: {@link selectContext} in the three-argument provider shape.
 * @throws as {@link selectContext}
 */
export function defaultContextProvider(reader: IndexReader, request: ContextRequest, limits: ContextLimits): ContextEntry[] {
  return selectContext(reader, request, limits).entries;
}

/** Estimated tokens of a JSON value: `ceil(chars / 4)` of its canonical JSON. */
export function estimateTokens(value: unknown): number {
  return Math.ceil(canonicalJson(value).length / 4);
}

/** One item of a packed stream: a selected item or an omission; always carries `id`. */
export type StreamItem = Record<string, unknown> & { id: string; type: string };

/** A candidate for {@link packStream}: the full stream item and its token estimate. */
export interface PackCandidate {
  item: StreamItem;
  tokens: number;
}

/** Why {@link packStream} omitted an item. */
export type OmissionCause = 'token' | 'response';

/** Result of {@link packStream}. */
export interface PackedStream {
  /** Selected items first, then omissions in candidate order. */
  stream: StreamItem[];
  selected: number;
  token_omissions: number;
  response_omissions: number;
  used_tokens: number;
}

/**
 * First-fit packing of ranked candidates under a token budget and a per-item character ceiling.
 * A candidate whose tokens exceed what remains of the budget becomes a `token` omission; a
 * candidate that fits the budget but whose JSON is longer than `maxItemChars` becomes a
 * `response` omission and consumes no tokens.
 * @param omission builds the (small, hash-identified) omission item for a candidate
 * @throws DocforgeError `result_too_large` when even an omission item exceeds `maxItemChars`
 */
export function packStream(candidates: readonly PackCandidate[], budget: number, maxItemChars: number, omission: (candidate: PackCandidate, cause: OmissionCause, chars: number) => StreamItem): PackedStream {
  const selected: StreamItem[] = [];
  const omitted: StreamItem[] = [];
  let used = 0;
  let tokenOmissions = 0;
  let responseOmissions = 0;
  for (const candidate of candidates) {
    const chars = JSON.stringify(candidate.item).length;
    let cause: OmissionCause | null = null;
    if (used + candidate.tokens > budget) cause = 'token';
    else if (chars > maxItemChars) cause = 'response';
    if (cause === null) {
      used += candidate.tokens;
      selected.push(candidate.item);
      continue;
    }
    const item = omission(candidate, cause, chars);
    const omissionChars = JSON.stringify(item).length;
    if (omissionChars > maxItemChars) {
      throw new DocforgeError('result_too_large', `Even the omission record of ${JSON.stringify(candidate.item.id)} (${omissionChars} characters) cannot fit one page of ${maxItemChars} characters; raise [limits].max_output_chars.`, { needed_chars: omissionChars, max_item_chars: maxItemChars });
    }
    if (cause === 'token') tokenOmissions += 1;
    else responseOmissions += 1;
    omitted.push(item);
  }
  return { stream: [...selected, ...omitted], selected: selected.length, token_omissions: tokenOmissions, response_omissions: responseOmissions, used_tokens: used };
}

/** SHA-256 of an item's canonical JSON: the identity an omission carries. */
export function itemSha256(item: unknown): string {
  return sha256(canonicalJson(item));
}

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
  const items: StreamItem[] = [];
  let used = 0;
  for (let i = offset; i < stream.length && items.length < limit; i += 1) {
    const item = stream[i]!;
    const size = JSON.stringify(item).length + (items.length > 0 ? 1 : 0);
    if (used + size > itemChars) break;
    used += size;
    items.push(item);
  }
  if (items.length === 0 && offset < stream.length) {
    throw new DocforgeError('internal_error', 'A packed stream item does not fit its page.', { offset });
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

/** Safety margin kept below the character budget, for digits that can vary between pages. */
const PAGE_MARGIN_CHARS = 16;
const PLACEHOLDER_HASH = '0'.repeat(64);

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
    throw new DocforgeError('result_too_large', `The page receipt needs ${base} characters, leaving no room for items within the response limit; raise [limits].max_output_chars.`, { needed_chars: base, result_char_budget: resultCharBudget });
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

function checkEntries(entries: unknown): ContextEntry[] {
  if (!Array.isArray(entries)) {
    throw new DocforgeError('internal_error', 'The context provider did not return an array of entries.', { reason: 'not_an_array' });
  }
  for (const [index, entry] of (entries as unknown[]).entries()) {
    const e = entry as Record<string, unknown> | null;
    const bad = e === null || typeof e !== 'object' || Array.isArray(e)
      ? 'not_an_object'
      : (['id', 'kind', 'title', 'source_path', 'selected_by', 'excerpt'] as const).find((key) => typeof e[key] !== 'string' || (key === 'id' && e[key] === ''));
    if (bad !== undefined) {
      throw new DocforgeError('internal_error', `The context provider returned a malformed entry at index ${index}.`, { index, field: bad });
    }
    try {
      canonicalJson(e);
    } catch {
      throw new DocforgeError('internal_error', `The context provider returned an entry at index ${index} that is not JSON.`, { index, field: 'json' });
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
    throw new DocforgeError('invalid_arguments', `budget must be an integer from 1 to ${MAX_CONTEXT_BUDGET}.`, { argument: 'budget' });
  }
  if (args.node_id === undefined && args.query === undefined) {
    throw new DocforgeError('invalid_arguments', 'docforge_get_context needs node_id, query or both.', { argument: 'node_id' });
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

  const params = { node_id: args.node_id ?? null, query: args.query ?? null, budget, limit: options.limit };
  const skeleton = (items: StreamItem[], page: PageReceipt, collection: string, used: number, selectedCount: number, omittedCount: number, truncated: boolean): ContextPageResult => ({
    node_id: params.node_id,
    query: params.query,
    budget,
    limit: options.limit,
    provider: provider ? 'custom' : 'default',
    selection,
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
