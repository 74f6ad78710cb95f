/**
 * The non-graph answers of the worker: overview, search, filter, the inspector's node, Logic and
 * (the source window is source.ts) (protocol/schemas/viewer/v2/api/*). Each reads a bounded amount whatever the
 * index size.
 */
import { errors, relationCategory, sha256 } from '@docforge/core';
import type { FacetField, IndexReader, NodeFilters } from '@docforge/store';
import { filterNodes, searchNodes } from '@docforge/retrieval';
import type { GraphBrowserFilter, GraphBrowserLogic, GraphBrowserNode, GraphBrowserOverview, GraphBrowserSearch, GraphBrowserSource } from '@docforge/protocol';
import type { GraphBrowserWorkerConfig } from './config.js';
import { edgeItem, leafName, nodeItem } from './graph.js';

/** Most distinct values listed per facet in the overview. */
export const FACET_CAP = 200;
/** Most entry nodes the overview lists. */
export const ENTRY_CAP = 100;
/** Most characters of a node body the inspector receives. */
export const BODY_CAP = 100_000;
/** Most relations per direction the inspector receives. */
export const RELATION_CAP = 200;

const FACETS: readonly FacetField[] = ['kind', 'family', 'authority', 'status', 'tag', 'language', 'capability'];

/**
 * The overview: exact snapshot identity, counts, relation names with categories, facet values and
 * entry nodes (the nodes of the rarest kinds first, which are the documents that organize a
 * project, such as requirements and components, rather than its many code symbols), and the
 * architecture `map` (map-layout.ts). Computed once per snapshot (the snapshot is immutable).
 */
export function overview(reader: IndexReader, config: GraphBrowserWorkerConfig, map: GraphBrowserOverview['map']): GraphBrowserOverview {
  const nodesByKind = reader.countsByKind(FACET_CAP);
  const all = reader.facetValues(FACET_CAP);
  const facets = Object.fromEntries(FACETS.map((f) => [f, all[f]])) as GraphBrowserOverview['facets'];
  const rare = Object.entries(nodesByKind).sort((a, b) => a[1] - b[1] || a[0].localeCompare(b[0]));
  const entries: GraphBrowserOverview['entries'] = [];
  let entriesCut = false;
  for (const [kind] of rare) {
    if (entries.length >= ENTRY_CAP) {
      entriesCut = true;
      break;
    }
    const page = reader.nodesByFilter({ kinds: [kind] }, ENTRY_CAP - entries.length);
    entries.push(...page.items.map(nodeItem));
    if (page.truncated) entriesCut = true;
  }
  return {
    project_id: config.project_id,
    signature: config.signature,
    counts: { nodes: reader.count('nodes'), edges: reader.count('edges'), issues: reader.count('issues'), logic_steps: reader.count('logic_steps') },
    nodes_by_kind: nodesByKind,
    issues_by_severity: reader.issueCountsBySeverity(),
    relations: reader.distinctRelations().slice(0, 500).map((relation) => ({ relation, category: relationCategory(relation) })),
    facets,
    entries,
    truncated: entriesCut || Object.values(facets).some((f) => f.truncated),
    logic_allowed: !config.no_ast,
    map,
  };
}

/** One bounded lexical query through the shared search ranking (libs/retrieval). */
export function search(reader: IndexReader, query: string, limit: number): GraphBrowserSearch {
  const result = searchNodes(reader, query, limit);
  const summaries = new Map(reader.nodeSummaries(result.items.map((h) => h.id)).map((s) => [s.id, s]));
  const items: GraphBrowserSearch['items'] = [];
  for (const hit of result.items) {
    const summary = summaries.get(hit.id);
    if (summary === undefined) continue;
    items.push({ node: nodeItem(summary), excerpt: hit.excerpt, score: hit.score, match: hit.match, section: hit.section });
  }
  return { query, items, truncated: result.truncated, dropped_terms: result.dropped_terms as unknown as GraphBrowserSearch['dropped_terms'] };
}

/** Nodes by exact facets, by id, after `after`; `next_after` continues. */
export function filter(reader: IndexReader, filters: NodeFilters, limit: number, after: string | null): GraphBrowserFilter {
  const page = filterNodes(reader, filters, limit, after);
  const items = page.items.map((item) => nodeItem({ ...item, tags: item.tags }));
  return {
    filters: Object.fromEntries(Object.entries(filters).filter(([, v]) => Array.isArray(v) && v.length > 0)) as GraphBrowserFilter['filters'],
    items,
    truncated: page.truncated,
    next_after: page.truncated && items.length > 0 ? items[items.length - 1]!.id : null,
  };
}

/**
 * The full node for the inspector: every stored field (body cut at {@link BODY_CAP}), relations in
 * both directions (at most {@link RELATION_CAP} each, with category and the other end), its Logic
 * step count and source location.
 * @throws DocforgeError `node_not_found`
 */
export function nodeDetail(reader: IndexReader, id: string): GraphBrowserNode {
  const node = reader.getNode(id);
  if (node === null) throw errors.nodeNotFound(id);
  const relations = (direction: 'outgoing' | 'incoming'): { items: GraphBrowserNode['outgoing']; truncated: boolean } => {
    const edges = reader.edges(id, direction, null, RELATION_CAP + 1);
    const kept = edges.slice(0, RELATION_CAP);
    const others = new Map(reader.nodeSummaries(kept.map((e) => (direction === 'outgoing' ? e.target_id : e.source_id))).map((s) => [s.id, s]));
    const items = kept.map((edge) => {
      const other = others.get(direction === 'outgoing' ? edge.target_id : edge.source_id);
      return { edge: edgeItem(edge), other: other === undefined ? null : nodeItem(other), source_path: edge.source_path, line: edge.line };
    });
    return { items, truncated: edges.length > RELATION_CAP };
  };
  const outgoing = relations('outgoing');
  const incoming = relations('incoming');
  return {
    node: { ...node, leaf: leafName(node.id, node.title), body: node.body.slice(0, BODY_CAP), anchors: node.anchors.map((a) => ({ ...a })) },
    body_truncated: node.body.length > BODY_CAP,
    outgoing: outgoing.items,
    incoming: incoming.items,
    outgoing_truncated: outgoing.truncated,
    incoming_truncated: incoming.truncated,
    logic_steps: reader.logicCounts(id).steps,
    source: { path: node.source_path, start_line: node.start_line, end_line: node.end_line },
  };
}

/**
 * The stored Logic projection of one exact function or method owner, the first `limit` steps and
 * the flows between them (the data of `docforge_get_logic`).
 * @throws DocforgeError `adapter_policy_forbids_logic` (under --no-ast, before any read),
 *   `node_not_found`, `logic_not_found`
 */
export function logic(reader: IndexReader, config: GraphBrowserWorkerConfig, id: string, limit: number): GraphBrowserLogic {
  if (config.no_ast) throw errors.adapterPolicyForbidsLogic('no_ast_policy', { no_ast: true });
  const summary = reader.nodeSummaries([id])[0];
  if (summary === undefined) throw errors.nodeNotFound(id);
  const totals = reader.logicCounts(id);
  if (totals.steps === 0) throw errors.logicNotFound(id, summary.kind, reader.getNode(id)?.language ?? null);
  const { steps, flows } = reader.logicPage(id, Math.min(limit, totals.steps));
  return { owner: nodeItem(summary), steps, flows, total_steps: totals.steps, total_flows: totals.flows, limit, truncated: steps.length < totals.steps };
}
