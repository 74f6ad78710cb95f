import { errors, type MentionSection } from '@docforge/core';
import type { EdgeRecord, IndexReader } from '@docforge/index';

/** Default number of candidate edges one traversal may examine (deterministic work budget). */
export const DEFAULT_EDGE_BUDGET = 20_000;

/** Direction of a traversal relative to stored edges: `outgoing` follows source→target, `incoming` target→source. */
export type TraversalDirection = 'outgoing' | 'incoming';

/** One node reached by a traversal, with the edge that first reached it (breadth-first, deterministic). */
export interface TraversalItem {
  id: string;
  kind: string | null;
  title: string | null;
  source_path: string | null;
  /** Hop count from the start node (1 = direct neighbour). */
  depth: number;
  /** The stored relation of the edge that reached this node. */
  relation: string;
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
  if (!reader.hasNode(startId)) throw errors.nodeNotFound(startId);
  const budget = options.edgeBudget ?? DEFAULT_EDGE_BUDGET;
  const relations = options.relations && options.relations.length > 0 ? [...options.relations] : null;
  const otherEnd = (edge: EdgeRecord): string => (options.direction === 'outgoing' ? edge.target_id : edge.source_id);

  const seen = new Set<string>([startId]);
  const items: TraversalItem[] = [];
  let frontier = [startId];
  let examined = 0;
  let reason: TraversalResult['truncation_reason'] = null;

  outer: for (let depth = 1; depth <= options.depth && frontier.length > 0; depth += 1) {
    const next: string[] = [];
    for (const from of frontier) {
      const remaining = budget - examined;
      if (remaining <= 0) {
        reason = 'edge_budget';
        break outer;
      }
      const rows = reader.edges(from, options.direction, relations, remaining + 1);
      const usable = rows.slice(0, remaining);
      examined += usable.length;
      for (const row of usable) {
        const other = otherEnd(row);
        if (seen.has(other)) continue;
        seen.add(other);
        if (items.length >= options.limit) {
          reason = 'result_limit';
          break outer;
        }
        const node = reader.nodeBrief(other);
        items.push({
          id: other,
          kind: node?.kind ?? null,
          title: node?.title ?? null,
          source_path: node?.source_path ?? null,
          depth,
          relation: row.relation,
          via: from,
          declared_in: { path: row.source_path, line: row.line },
        });
        next.push(other);
      }
      if (rows.length > remaining) {
        reason = 'edge_budget';
        break outer;
      }
    }
    frontier = next;
  }
  return { items, truncated: reason !== null, truncation_reason: reason, examined_edges: examined, edge_budget: budget };
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
}

/**
 * Direct incoming edges of a node (who links to it), ordered by relation then source id,
 * reading at most `limit + 1` rows.
 * @throws DocforgeError `node_not_found`
 */
export function backlinks(reader: IndexReader, nodeId: string, limit: number, relations?: readonly string[]): { items: Backlink[]; truncated: boolean } {
  if (!reader.hasNode(nodeId)) throw errors.nodeNotFound(nodeId);
  const rows = reader.edges(nodeId, 'incoming', relations && relations.length > 0 ? relations : null, limit + 1);
  return {
    items: rows.slice(0, limit).map((r) => {
      const node = reader.nodeBrief(r.source_id);
      const sections = r.relation === 'documents' ? reader.edgeMention(r.source_id, r.relation, r.target_id) : null;
      const item: Backlink = { id: r.source_id, kind: node?.kind ?? null, title: node?.title ?? null, source_path: node?.source_path ?? null, relation: r.relation, declared_in: { path: r.source_path, line: r.line } };
      if (sections !== null) item.mention = { sections };
      return item;
    }),
    truncated: rows.length > limit,
  };
}

/** Bounded edge summary of one node for `docforge_get_node`. */
export interface NodeEdges {
  outgoing: { relation: string; target_id: string }[];
  incoming: { relation: string; source_id: string }[];
  outgoing_truncated: boolean;
  incoming_truncated: boolean;
}

/** Up to `limit` outgoing and incoming edges of a node, deterministic order. */
export function nodeEdges(reader: IndexReader, nodeId: string, limit: number): NodeEdges {
  const out = reader.edges(nodeId, 'outgoing', null, limit + 1).map((e) => ({ relation: e.relation, target_id: e.target_id }));
  const inc = reader.edges(nodeId, 'incoming', null, limit + 1).map((e) => ({ relation: e.relation, source_id: e.source_id }));
  return { outgoing: out.slice(0, limit), incoming: inc.slice(0, limit), outgoing_truncated: out.length > limit, incoming_truncated: inc.length > limit };
}
