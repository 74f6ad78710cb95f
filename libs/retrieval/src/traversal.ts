import type { MentionSection, ReviewState } from '@docforge/core';
import { missingNode } from './missing-node.js';

export { missingNode } from './missing-node.js';
import type { EdgeRecord, IndexReader } from '@docforge/store';

/** Default number of candidate edges one traversal may examine (deterministic work budget). */
export const DEFAULT_EDGE_BUDGET = 20_000;

/** Direction of a traversal relative to stored edges: `outgoing` follows source→target, `incoming` target→source. */
export type TraversalDirection = 'outgoing' | 'incoming';

/**
 * One node reached by a traversal (breadth-first, deterministic): `relation`, `via` and
 * `declared_in` describe the edge that first reached it; `relations` lists every relation that
 * reaches it on a shortest path.
 */
export interface TraversalItem {
  id: string;
  kind: string | null;
  title: string | null;
  source_path: string | null;
  /** Hop count from the start node (1 = direct neighbour). */
  depth: number;
  /** The stored relation of the edge that first reached this node (kept for compatibility: it is `relations` member that `via` and `declared_in` describe). */
  relation: string;
  /**
   * Every distinct stored relation of an examined edge that reaches this node from a node one hop
   * closer to the start (all shortest-path edges), sorted by code unit order. Complete unless
   * `truncation_reason` is `edge_budget`.
   */
  relations: string[];
  /** The node this one was reached from. */
  via: string;
  /** Project-relative file and line that declared the reaching edge. */
  declared_in: { path: string; line: number };
}

/** Result of a bounded traversal (contract: traversal reports the cause of truncation). */
export interface TraversalResult {
  items: TraversalItem[];
  truncated: boolean;
  truncation_reason: 'result_limit' | 'edge_budget' | null;
  /** Candidate edges examined, at most the budget (+1 probe row per query). */
  examined_edges: number;
  edge_budget: number;
  /**
   * Present when the result limit cut a depth (`truncation_reason` `result_limit`, or `edge_budget`
   * when the budget also ran out in that depth): each node (the start node or an item) whose
   * neighbours at the next depth were only partly listed, with how many were `listed` and
   * `omitted`, in traversal order, at most {@link PARTIAL_EXPANSIONS_LISTED}. The cut depth's room
   * is shared round-robin by the nodes it was reached from. A neighbour reached from several of
   * them is counted under each, so the `omitted` counts may overlap: {@link omitted_total} is the
   * true number left out.
   */
  partially_expanded?: PartialExpansion[];
  /** Present with `partially_expanded`: how many distinct nodes of the cut depth were left out (each once, however many nodes reach it). */
  omitted_total?: number;
}

/** Most entries of `partially_expanded` (the first in traversal order). */
export const PARTIAL_EXPANSIONS_LISTED = 100;

/** A node whose next-depth neighbours a result limit cut: `listed` of them are items, `omitted` are not. */
export interface PartialExpansion {
  id: string;
  listed: number;
  omitted: number;
}

/** Options of {@link traverse}. */
export interface TraversalOptions {
  direction: TraversalDirection;
  /** Maximum hop count, 1-10. */
  depth: number;
  limit: number;
  relations?: readonly string[];
  edgeBudget?: number;
}

/**
 * Breadth-first traversal from one node with a result limit and a deterministic candidate-edge
 * work budget. Each frontier node reads at most `remaining budget + 1` edges through the
 * `(source_id, …)` primary key or the `(target_id, …)` index, ordered by relation then
 * neighbour id, so the same graph always yields the same items; it never scans the edge table.
 * @throws DocforgeError `node_not_found` when the start node does not exist.
 */
export function traverse(reader: IndexReader, startId: string, options: TraversalOptions): TraversalResult {
  if (!reader.hasNode(startId)) throw missingNode(reader, startId);
  const budget = options.edgeBudget ?? DEFAULT_EDGE_BUDGET;
  const relations = options.relations && options.relations.length > 0 ? [...options.relations] : null;
  const seen = new Set<string>([startId]);
  const items: TraversalItem[] = [];
  const partial: PartialExpansion[] = [];
  let frontier = [startId];
  let examined = 0;
  let reason: TraversalResult['truncation_reason'] = null;
  let omitted = 0;
  for (let depth = 1; depth <= options.depth && frontier.length > 0; depth += 1) {
    const layer = readLayer(reader, frontier, depth, seen, { direction: options.direction, relations, budget: budget - examined });
    examined += layer.examined;
    const room = options.limit - items.length;
    const kept = layer.items.length > room ? spreadOverParents(frontier, layer, room, partial) : layer.items;
    for (const item of kept) {
      seen.add(item.id);
      items.push(item);
    }
    omitted += layer.items.length - kept.length;
    if (layer.budgetHit) reason = 'edge_budget';
    else if (kept.length < layer.items.length) reason = 'result_limit';
    if (reason !== null) break;
    frontier = kept.map((item) => item.id);
  }
  for (const item of items) item.relations.sort(compareCodeUnits);
  return { items, truncated: reason !== null, truncation_reason: reason, examined_edges: examined, edge_budget: budget, ...(partial.length > 0 ? { partially_expanded: partial, omitted_total: omitted } : {}) };
}

/**
 * One depth of a traversal: the new nodes it reaches (in frontier then edge order), every frontier
 * node reaching each of them (in frontier order), the edges read, whether the budget stopped it.
 */
interface Layer {
  items: TraversalItem[];
  parents: Map<string, string[]>;
  examined: number;
  budgetHit: boolean;
}

/**
 * Reads the edges of every frontier node (at most `budget` in all, ordered by relation then
 * neighbour id) and lists each node not yet seen once, reached by the first edge that reaches it;
 * a later edge of the same depth adds its relation and, from another frontier node, that parent.
 */
function readLayer(reader: IndexReader, frontier: readonly string[], depth: number, seen: ReadonlySet<string>, options: { direction: TraversalDirection; relations: string[] | null; budget: number }): Layer {
  const byId = new Map<string, TraversalItem>();
  const parents = new Map<string, string[]>();
  const done = (budgetHit: boolean): Layer => ({ items: [...byId.values()], parents, examined, budgetHit });
  let examined = 0;
  for (const from of frontier) {
    const remaining = options.budget - examined;
    if (remaining <= 0) return done(true);
    const rows = reader.edges(from, options.direction, options.relations, remaining + 1);
    const usable = rows.slice(0, remaining);
    examined += usable.length;
    for (const row of usable) {
      const other = options.direction === 'outgoing' ? row.target_id : row.source_id;
      const known = byId.get(other);
      if (known) {
        if (!known.relations.includes(row.relation)) known.relations.push(row.relation);
        const of = parents.get(other)!;
        if (of[of.length - 1] !== from) of.push(from);
        continue;
      }
      if (seen.has(other)) continue;
      const node = reader.nodeBrief(other);
      byId.set(other, { id: other, kind: node?.kind ?? null, title: node?.title ?? null, source_path: node?.source_path ?? null, depth, relation: row.relation, relations: [row.relation], via: from, declared_in: { path: row.source_path, line: row.line } });
      parents.set(other, [from]);
    }
    if (rows.length > remaining) return done(true);
  }
  return done(false);
}

/**
 * The `room` items of a layer that does not fit, spread fairly over the nodes that reach them:
 * round-robin over the parents in frontier order, each taking its next item (edge order) not
 * already kept, so no branch disappears while another fills the page (an item reached from
 * several parents counts for each). Kept items stay in layer order. Appends to `partial` each
 * parent with items left out, in frontier order.
 */
function spreadOverParents(frontier: readonly string[], layer: Layer, room: number, partial: PartialExpansion[]): TraversalItem[] {
  const byParent = new Map<string, TraversalItem[]>(frontier.map((id) => [id, []]));
  for (const item of layer.items) for (const parent of layer.parents.get(item.id)!) byParent.get(parent)!.push(item);
  const next = new Map<string, number>();
  const kept = new Set<TraversalItem>();
  while (kept.size < room) {
    for (const [parent, children] of byParent) {
      if (kept.size >= room) break;
      let at = next.get(parent) ?? 0;
      while (at < children.length && kept.has(children[at]!)) at += 1;
      if (at < children.length) kept.add(children[at]!);
      next.set(parent, at + 1);
    }
  }
  for (const [parent, children] of byParent) {
    const listed = children.filter((child) => kept.has(child)).length;
    if (listed < children.length && partial.length < PARTIAL_EXPANSIONS_LISTED) partial.push({ id: parent, listed, omitted: children.length - listed });
  }
  return layer.items.filter((item) => kept.has(item));
}

function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** One incoming edge of a node. */
export interface Backlink {
  id: string;
  kind: string | null;
  title: string | null;
  /** Project-relative source file of the linking node. */
  source_path: string | null;
  relation: string;
  declared_in: { path: string; line: number };
  /**
   * Present when the edge is derived from mentions (issue 9 item 2): the linking document names
   * this node in inline code spans or link texts, in these sections.
   */
  mention?: { sections: MentionSection[] };
  /** Review state of this relation (issue 32): on stamped relations and on every relation a document declares or derives. */
  review_state?: ReviewState;
}

/** Keyset position of a backlinks page: the `(relation, source id)` of the last edge already returned. */
export interface BacklinkPosition {
  relation: string;
  source_id: string;
}

/**
 * Direct incoming edges of a node (who links to it), ordered by relation then source id, starting
 * strictly after `after` (keyset pagination through the incoming-edge index), reading at most
 * `limit + 1` rows whatever the page.
 * @throws DocforgeError `node_not_found`
 */
export function backlinks(reader: IndexReader, nodeId: string, limit: number, relations?: readonly string[], after: BacklinkPosition | null = null): { items: Backlink[]; truncated: boolean } {
  if (!reader.hasNode(nodeId)) throw missingNode(reader, nodeId);
  const key = after ? { relation: after.relation, other_id: after.source_id } : null;
  const rows = reader.edges(nodeId, 'incoming', relations && relations.length > 0 ? relations : null, limit + 1, key);
  return {
    items: rows.slice(0, limit).map((r) => {
      const node = reader.nodeBrief(r.source_id);
      const sections = r.relation === 'documents' ? reader.edgeMention(r.source_id, r.relation, r.target_id) : null;
      const item: Backlink = { id: r.source_id, kind: node?.kind ?? null, title: node?.title ?? null, source_path: node?.source_path ?? null, relation: r.relation, declared_in: { path: r.source_path, line: r.line } };
      if (sections !== null) item.mention = { sections };
      const review = reader.edgeReview(r.source_id, r.relation, r.target_id);
      if (review !== null) item.review_state = review.state;
      return item;
    }),
    truncated: rows.length > limit,
  };
}

/** Bounded edge summary of one node for `docforge_get_node`. */
export interface NodeEdges {
  /** `review_state` (issue 32) as on {@link Backlink}. */
  outgoing: { relation: string; target_id: string; review_state?: ReviewState }[];
  incoming: { relation: string; source_id: string; review_state?: ReviewState }[];
  outgoing_truncated: boolean;
  incoming_truncated: boolean;
}

/** The review state of a stored edge, as an optional field (issue 32): absent on a code-to-code edge without stamps. */
function reviewField(reader: IndexReader, e: EdgeRecord): { review_state?: ReviewState } {
  const review = reader.edgeReview(e.source_id, e.relation, e.target_id);
  return review === null ? {} : { review_state: review.state };
}

/** Up to `limit` outgoing and incoming edges of a node, deterministic order, with their review states (one lookup per returned edge). */
export function nodeEdges(reader: IndexReader, nodeId: string, limit: number): NodeEdges {
  const out = reader.edges(nodeId, 'outgoing', null, limit + 1);
  const inc = reader.edges(nodeId, 'incoming', null, limit + 1);
  return {
    outgoing: out.slice(0, limit).map((e) => ({ relation: e.relation, target_id: e.target_id, ...reviewField(reader, e) })),
    incoming: inc.slice(0, limit).map((e) => ({ relation: e.relation, source_id: e.source_id, ...reviewField(reader, e) })),
    outgoing_truncated: out.length > limit,
    incoming_truncated: inc.length > limit,
  };
}

/**
 * The traversal items with the review state of the edge that first reached each (`via`,
 * `relation`, the item; issue 32), for `docforge_dependencies` (outgoing edges). One lookup per item.
 */
export function withReviewStates<T extends Pick<TraversalItem, 'id' | 'relation' | 'via'>>(reader: IndexReader, items: readonly T[]): (T & { review_state?: ReviewState })[] {
  return items.map((item) => {
    const review = reader.edgeReview(item.via, item.relation, item.id);
    return review === null ? item : { ...item, review_state: review.state };
  });
}
