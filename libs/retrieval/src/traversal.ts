import { errors } from '@docforge/core';
import type { IndexReader } from '@docforge/index';

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

interface EdgeRow {
  other: string;
  relation: string;
  source_path: string;
  line: number;
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
  const [self, other] = options.direction === 'outgoing' ? ['source_id', 'target_id'] : ['target_id', 'source_id'];
  const relationSql = relations ? ` AND relation IN (${relations.map(() => '?').join(', ')})` : '';
  const stmt = reader.db.prepare(`SELECT ${other} AS other, relation, source_path, line FROM edges WHERE ${self} = ?${relationSql} ORDER BY relation, ${other} LIMIT ?`);
  const nodeStmt = reader.db.prepare('SELECT kind, title, source_path FROM nodes WHERE id = ?');

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
      const rows = stmt.all(from, ...(relations ?? []), remaining + 1) as EdgeRow[];
      const usable = rows.slice(0, remaining);
      examined += usable.length;
      for (const row of usable) {
        if (seen.has(row.other)) continue;
        seen.add(row.other);
        if (items.length >= options.limit) {
          reason = 'result_limit';
          break outer;
        }
        const node = nodeStmt.get(row.other) as { kind: string; title: string; source_path: string } | undefined;
        items.push({
          id: row.other,
          kind: node?.kind ?? null,
          title: node?.title ?? null,
          source_path: node?.source_path ?? null,
          depth,
          relation: row.relation,
          via: from,
          declared_in: { path: row.source_path, line: row.line },
        });
        next.push(row.other);
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
}

/**
 * Direct incoming edges of a node (who links to it), ordered by relation then source id,
 * reading at most `limit + 1` rows.
 * @throws DocforgeError `node_not_found`
 */
export function backlinks(reader: IndexReader, nodeId: string, limit: number, relations?: readonly string[]): { items: Backlink[]; truncated: boolean } {
  if (!reader.hasNode(nodeId)) throw errors.nodeNotFound(nodeId);
  const rel = relations && relations.length > 0 ? [...relations] : null;
  const rows = reader.db.prepare(`
    SELECT e.source_id AS id, n.kind, n.title, n.source_path AS node_path, e.relation, e.source_path, e.line
    FROM edges e LEFT JOIN nodes n ON n.id = e.source_id
    WHERE e.target_id = ?${rel ? ` AND e.relation IN (${rel.map(() => '?').join(', ')})` : ''}
    ORDER BY e.relation, e.source_id LIMIT ?`).all(nodeId, ...(rel ?? []), limit + 1) as { id: string; kind: string | null; title: string | null; node_path: string | null; relation: string; source_path: string; line: number }[];
  return {
    items: rows.slice(0, limit).map((r) => ({ id: r.id, kind: r.kind, title: r.title, source_path: r.node_path, relation: r.relation, declared_in: { path: r.source_path, line: r.line } })),
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
  const out = reader.db.prepare('SELECT relation, target_id FROM edges WHERE source_id = ? ORDER BY relation, target_id LIMIT ?').all(nodeId, limit + 1) as { relation: string; target_id: string }[];
  const inc = reader.db.prepare('SELECT relation, source_id FROM edges WHERE target_id = ? ORDER BY relation, source_id LIMIT ?').all(nodeId, limit + 1) as { relation: string; source_id: string }[];
  return { outgoing: out.slice(0, limit), incoming: inc.slice(0, limit), outgoing_truncated: out.length > limit, incoming_truncated: inc.length > limit };
}
