/**
 * The default context selection of `docforge_get_context` and the unchanged three-argument custom
 * provider contract: entry shapes, bounded excerpts, seeds and the bounded neighbourhood.
 */
import { DocforgeError, relationCategory, errors } from '@docforge/core';
import type { GraphNode } from '@docforge/core';
import type { IndexReader } from '@docforge/store';
import { sectionText } from '@docforge/project';
import { searchNodes, type SearchHit } from './search.js';
import { sectionMatching, sectionQuery } from './ranking.js';
import type { RecallQuery } from './ranking-match.js';
import { missingNode, traverse, DEFAULT_EDGE_BUDGET, type TraversalDirection } from './traversal.js';

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

/**
 * The first `max` characters of the trimmed body (else summary) with CRLF as LF. Bounded work: a
 * text longer than `2 * max + 2` characters keeps more than `max` characters after CRLF folding,
 * so only that prefix is folded, whatever the body size.
 */
function excerptOf(node: GraphNode, max: number, section: ExcerptSection): { excerpt: string; truncated: boolean } {
  const trimmed = fromBestSection(node, section).trim() || node.summary.trim();
  const bound = 2 * max + 2;
  const text = (trimmed.length > bound ? trimmed.slice(0, bound) : trimmed).replace(/\r\n/g, '\n');
  if (text.length <= max) return { excerpt: text, truncated: false };
  return { excerpt: text.slice(0, max), truncated: true };
}

/**
 * How an entry's excerpt picks its section: the section a search hit named (`slug`), the best
 * match of the weighted query ({@link sectionMatching}), or none (the body's head).
 */
type ExcerptSection = { slug: string } | { query: RecallQuery } | null;

/**
 * The body from the heading line of the section `how` names (issue 9 item 4: excerpts start at the
 * best matching section, not the top of the file). Issue 30: one rule with search, whose hit
 * `section` a search entry reuses; other entries pick by the same idf-weighted heading match. The
 * section is found by its anchor's lines (`sectionText`), not by the first `# title` in the body,
 * which may be an earlier heading of the same text. The whole body when no section is named or found.
 */
function fromBestSection(node: GraphNode, how: ExcerptSection): string {
  if (how === null || node.anchors.length === 0) return node.body;
  const slug = 'slug' in how ? how.slug : sectionMatching(how.query, node.anchors, node.start_line, node.title)?.slug;
  const section = slug === undefined ? null : sectionText(node, slug);
  if (section === null || section.text.trim() === '') return node.body;
  const at = node.body.indexOf(section.text);
  return at < 0 ? node.body : node.body.slice(at);
}

function entryOf(node: GraphNode, selectedBy: string, excerptChars: number, score: number | null, relation: ContextRelation | null, section: ExcerptSection = null): ContextEntry {
  const { excerpt, truncated } = excerptOf(node, excerptChars, section);
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

/** A search entry's excerpt section: the hit's own (search's rule), else the weighted query's match. */
function hitSection(hit: SearchHit, query: RecallQuery): ExcerptSection {
  return hit.section ? { slug: hit.section.slug } : { query };
}

/**
 * The default deterministic selection: the exact focus node (`node_id`), then up to
 * {@link CONTEXT_SEARCH_SEEDS} bm25 hits for `query`, then the bounded neighbourhood
 * ({@link neighbourhood}): every seed's depth-1 neighbours, then the first seed's depth-2 ones, sharing
 * one {@link DEFAULT_EDGE_BUDGET} candidate-edge budget. At most `limits.max_results` entries;
 * dangling edge targets (no indexed node) are skipped.
 * @throws DocforgeError `node_not_found` for an unknown `node_id`; `invalid_arguments` when
 *   neither `node_id` nor `query` is given
 */
export function selectContext(reader: IndexReader, request: ContextRequest, limits: ContextLimits): ContextSelection {
  if (request.node_id === undefined && request.query === undefined) {
    throw errors.invalidArguments('docforge_get_context needs node_id, query or both.', { argument: 'node_id' });
  }
  const cap = Math.max(1, limits.max_results);
  const entries: ContextEntry[] = [];
  const seen = new Set<string>();
  const seeds: string[] = [];
  const weighted = request.query === undefined ? null : sectionQuery(reader, request.query);
  if (request.node_id !== undefined) {
    const node = reader.getNode(request.node_id);
    if (!node) throw missingNode(reader, request.node_id);
    entries.push(entryOf(node, 'focus', FOCUS_EXCERPT_CHARS, null, null, weighted && { query: weighted }));
    seen.add(node.id);
    seeds.push(node.id);
  }
  if (request.query !== undefined) {
    const hits = searchNodes(reader, request.query, Math.min(CONTEXT_SEARCH_SEEDS, cap)).items;
    for (const hit of hits) {
      if (seen.has(hit.id) || entries.length >= cap) continue;
      const node = reader.getNode(hit.id);
      if (!node) continue;
      entries.push(entryOf(node, 'search', FOCUS_EXCERPT_CHARS, hit.score, null, hitSection(hit, weighted!)));
      seen.add(node.id);
      seeds.push(node.id);
    }
  }
  const hood = neighbourhood(reader, seeds, entries, seen, cap);
  return { entries, truncated: hood.reason !== null, truncation_reason: hood.reason, examined_edges: hood.examined };
}

/**
 * Adds the bounded neighbourhood of `seeds` to `entries` (at most `cap` entries in all), in rounds
 * (issue 30: a callee two hops away never takes the place of a direct caller): first every depth-1
 * neighbour of every seed, outgoing then incoming per seed; then the depth-2 neighbours of the
 * first seed, outgoing then incoming. The second round traverses depth 2 again and keeps only its
 * depth-2 items, so its depth-1 edges are examined (and counted) twice. All traversals share one
 * {@link DEFAULT_EDGE_BUDGET} candidate-edge budget.
 */
function neighbourhood(reader: IndexReader, seeds: readonly string[], entries: ContextEntry[], seen: Set<string>, cap: number): { examined: number; reason: ContextSelection['truncation_reason'] } {
  let examined = 0;
  let reason: ContextSelection['truncation_reason'] = null;
  // Depth-1 items each first-round traversal listed, by direction then seed: the depth-2 round lists them again.
  const firstRound = new Map<string, number>();
  const rounds = [...seeds.map((seed) => ({ seed, depth: 1 })), ...seeds.slice(0, 1).map((seed) => ({ seed, depth: 2 }))];
  outer: for (const { seed, depth } of rounds) {
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
      // The depth-2 round passes over the depth-1 items it lists again (already taken, or cut by the cap).
      const passed = depth === 1 ? 0 : firstRound.get(`${direction} ${seed}`) ?? 0;
      const result = traverse(reader, seed, { direction, depth, limit: room + passed, edgeBudget: budget });
      examined += result.examined_edges;
      if (depth === 1) firstRound.set(`${direction} ${seed}`, result.items.length);
      for (const item of result.items) {
        if (item.depth !== depth || seen.has(item.id) || entries.length >= cap) continue;
        const node = reader.getNode(item.id);
        if (!node) continue;
        seen.add(item.id);
        entries.push(entryOf(node, 'relation', NEIGHBOUR_EXCERPT_CHARS, null, { relation: item.relation, category: relationCategory(item.relation), direction, via: item.via, depth: item.depth }));
      }
      if (result.truncation_reason) reason ??= result.truncation_reason;
    }
  }
  return { examined, reason };
}

/**
 * The default context provider: {@link selectContext} in the three-argument provider shape.
 * @throws as {@link selectContext}
 */
export function defaultContextProvider(reader: IndexReader, request: ContextRequest, limits: ContextLimits): ContextEntry[] {
  return selectContext(reader, request, limits).entries;
}
