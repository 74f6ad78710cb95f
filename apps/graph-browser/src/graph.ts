/**
 * Graph answers of the worker (contract: Visualization boundary): the node neighborhood, semantic
 * Flow and convergence Web, all in the one shape of protocol/schemas/viewer/v2/api/graph.schema.json
 * `{ focus, view, nodes, edges, truncated }`. Every read is bounded: a fan-out per node and direction,
 * a node budget and a depth; `truncated` says a bound cut something.
 */
import path from 'node:path';
import { edgeIdentityKey, errors, parseCodeId, relationCategory } from '@docforge/core';
import type { EdgeRecord, IndexReader, NodeSummary } from '@docforge/store';
import { boundTitle } from '@docforge/retrieval';
import type { GraphBrowserGraph } from '@docforge/protocol';

/** One node of a graph answer. */
export type GraphNodeItem = GraphBrowserGraph['nodes'][number];
/** One edge of a graph answer. */
export type GraphEdgeItem = GraphBrowserGraph['edges'][number];

/** Most tags or capabilities a graph node lists. */
const LIST_CAP = 200;

/**
 * The readable leaf name of a node: the last segment of a code node's qualified name, the file
 * name of a code module, else the title.
 */
export function leafName(id: string, title: string): string {
  const code = parseCodeId(id);
  if (code === null) return boundTitle(title);
  if (code.qualifiedName !== null) return code.qualifiedName.split('.').pop() || code.qualifiedName;
  return path.posix.basename(code.path) || code.path;
}

/** The graph item of a node summary (null facets left out, lists bounded). */
export function nodeItem(node: NodeSummary): GraphNodeItem {
  const item: GraphNodeItem = {
    id: node.id,
    kind: node.kind,
    title: boundTitle(node.title),
    leaf: leafName(node.id, node.title),
    tags: node.tags.slice(0, LIST_CAP),
    capabilities: node.capabilities.slice(0, LIST_CAP),
    source_path: node.source_path,
    start_line: node.start_line,
  };
  if (node.family !== null) item.family = node.family;
  if (node.status !== null) item.status = node.status;
  if (node.language !== null) item.language = node.language;
  return item;
}

/** The graph item of a stored edge; `reversed` is set when given (Flow and Web). */
export function edgeItem(edge: EdgeRecord, reversed?: boolean): GraphEdgeItem {
  const item: GraphEdgeItem = {
    key: edgeIdentityKey(edge),
    source: edge.source_id,
    target: edge.target_id,
    relation: edge.relation,
    category: relationCategory(edge.relation),
  };
  if (reversed !== undefined) item.reversed = reversed;
  return item;
}

/** Bounds of one graph request. */
export interface GraphBounds {
  /** Most edges read per node and direction (and relation group). */
  fanout: number;
  /** Most nodes in the answer, focus included. */
  maxNodes: number;
  /** Deepest level followed (Flow and Web). */
  maxDepth: number;
}

/**
 * Which end of a relation lies upstream in its semantic direction (Flow: requirement → component →
 * module → function; a dependency before its dependent; a caller before its callee; evidence and
 * context before their subject). `source`: the stored direction is the semantic one; `target`: the
 * semantic direction runs from target to source (the edge is `reversed`).
 */
export const UPSTREAM_END: Readonly<Record<string, 'source' | 'target'>> = Object.freeze({
  contains: 'source', defines: 'source', owns: 'source', defined_in: 'target',
  implemented_by: 'source', implements: 'target', inherits: 'target', inherits_from: 'target',
  depends_on: 'target', imports: 'target',
  calls: 'source', activates: 'source', dispatches_to: 'source', launches: 'source',
  documents: 'source', governs: 'source', proves: 'source', verifies: 'source', tested_by: 'target',
  relates_to: 'source',
});

/** Relations Flow follows: structure, implementation and dependency (semantic ancestry). */
export const FLOW_RELATIONS: readonly string[] = Object.freeze(['contains', 'defines', 'owns', 'defined_in', 'implemented_by', 'implements', 'inherits', 'inherits_from', 'depends_on', 'imports']);
/** Relations Web follows into the focus: structure, dependency, execution, evidence and context. */
export const WEB_RELATIONS: readonly string[] = Object.freeze(['contains', 'defines', 'owns', 'defined_in', 'depends_on', 'imports', 'calls', 'activates', 'dispatches_to', 'launches', 'documents', 'governs', 'proves', 'verifies', 'tested_by', 'relates_to']);
/** Web's adjacent branches: members the focus owns (stored from the focus) and its execution dependencies. */
const MEMBER_RELATIONS: readonly string[] = Object.freeze(['contains', 'defines', 'owns']);
const EXECUTION_RELATIONS: readonly string[] = Object.freeze(['calls', 'activates', 'dispatches_to', 'launches']);

/** Collects nodes and edges under a node budget. */
class GraphBuilder {
  readonly ids: string[] = [];
  readonly #seen = new Set<string>();
  readonly edges = new Map<string, { edge: EdgeRecord; reversed: boolean | undefined }>();
  truncated = false;
  constructor(readonly maxNodes: number) {}

  has(id: string): boolean {
    return this.#seen.has(id);
  }

  /** Adds a node; false (and `truncated`) when the budget is full. */
  addNode(id: string): boolean {
    if (this.#seen.has(id)) return true;
    if (this.ids.length >= this.maxNodes) {
      this.truncated = true;
      return false;
    }
    this.#seen.add(id);
    this.ids.push(id);
    return true;
  }

  addEdge(edge: EdgeRecord, reversed?: boolean): void {
    this.edges.set(edgeIdentityKey(edge), { edge, reversed });
  }

  /** The answer: only nodes that exist, and only edges between them. */
  finish(reader: IndexReader, focus: string, view: GraphBrowserGraph['view'], depth?: number): GraphBrowserGraph {
    const nodes = reader.nodeSummaries(this.ids).map(nodeItem);
    const present = new Set(nodes.map((n) => n.id));
    const edges: GraphEdgeItem[] = [];
    for (const { edge, reversed } of this.edges.values()) {
      if (present.has(edge.source_id) && present.has(edge.target_id)) edges.push(edgeItem(edge, reversed));
    }
    const answer: GraphBrowserGraph = { focus, view, nodes, edges, truncated: this.truncated };
    if (depth !== undefined) answer.depth = depth;
    return answer;
  }
}

function requireNode(reader: IndexReader, id: string): void {
  if (!reader.hasNode(id)) throw errors.nodeNotFound(id);
}

/** Edges of one node and direction, at most `fanout`; the flag says more exist. */
function boundedEdges(reader: IndexReader, id: string, direction: 'outgoing' | 'incoming', relations: readonly string[] | null, fanout: number): { edges: EdgeRecord[]; more: boolean } {
  if (relations !== null && relations.length === 0) return { edges: [], more: false };
  const edges = reader.edges(id, direction, relations, fanout + 1);
  return { edges: edges.slice(0, fanout), more: edges.length > fanout };
}

/**
 * The focus and its direct neighbors in both directions (every relation), at most `fanout` edges
 * per direction and `maxNodes` nodes.
 * @throws DocforgeError `node_not_found`
 */
export function neighborhood(reader: IndexReader, focus: string, bounds: GraphBounds): GraphBrowserGraph {
  requireNode(reader, focus);
  const graph = new GraphBuilder(bounds.maxNodes);
  graph.addNode(focus);
  for (const direction of ['outgoing', 'incoming'] as const) {
    const { edges, more } = boundedEdges(reader, focus, direction, null, bounds.fanout);
    if (more) graph.truncated = true;
    for (const edge of edges) {
      const other = direction === 'outgoing' ? edge.target_id : edge.source_id;
      if (graph.addNode(other)) graph.addEdge(edge);
    }
  }
  return graph.finish(reader, focus, 'neighborhood');
}

/**
 * Breadth-first walk upstream from the focus over `relations`, each in its semantic direction
 * ({@link UPSTREAM_END}): at every node, the sources of incoming edges whose upstream end is the
 * source and the targets of outgoing edges whose upstream end is the target. `relates_to` (context)
 * is followed both ways. Returns the deepest level reached.
 */
function walkUpstream(reader: IndexReader, graph: GraphBuilder, focus: string, relations: readonly string[], bounds: GraphBounds): number {
  const fromSource = relations.filter((r) => UPSTREAM_END[r] === 'source');
  const fromTarget = relations.filter((r) => UPSTREAM_END[r] === 'target');
  const symmetric = relations.includes('relates_to') ? ['relates_to'] : [];
  let level = [focus];
  let depth = 0;
  while (level.length > 0 && depth < bounds.maxDepth) {
    const next: string[] = [];
    for (const id of level) {
      const incoming = boundedEdges(reader, id, 'incoming', fromSource, bounds.fanout);
      const outgoing = boundedEdges(reader, id, 'outgoing', [...fromTarget, ...symmetric], bounds.fanout);
      if (incoming.more || outgoing.more) graph.truncated = true;
      const steps = [
        ...incoming.edges.map((edge) => ({ edge, up: edge.source_id, reversed: false })),
        ...outgoing.edges.map((edge) => ({ edge, up: edge.target_id, reversed: UPSTREAM_END[edge.relation] === 'target' })),
      ];
      for (const { edge, up, reversed } of steps) {
        const fresh = !graph.has(up);
        if (!graph.addNode(up)) continue;
        graph.addEdge(edge, reversed);
        if (fresh) next.push(up);
      }
    }
    if (next.length > 0) depth += 1;
    level = next;
  }
  if (level.length > 0) {
    // The depth bound stopped the walk: truncated only when something lies beyond it.
    for (const id of level) {
      if (reader.edges(id, 'incoming', fromSource, 1).length > 0 || reader.edges(id, 'outgoing', [...fromTarget, ...symmetric], 1).length > 0) {
        graph.truncated = true;
        break;
      }
    }
  }
  return depth;
}

/**
 * Flow: the focus's semantic ancestry through structure, implementation and dependency relations,
 * each in its semantic direction (requirement → component → module → function).
 * @throws DocforgeError `node_not_found`
 */
export function flow(reader: IndexReader, focus: string, bounds: GraphBounds): GraphBrowserGraph {
  requireNode(reader, focus);
  const graph = new GraphBuilder(bounds.maxNodes);
  graph.addNode(focus);
  const depth = walkUpstream(reader, graph, focus, FLOW_RELATIONS, bounds);
  return graph.finish(reader, focus, 'flow', depth);
}

/**
 * Web: the bounded structural, dependency, execution, evidence and context contributors into the
 * focus (walked upstream as in {@link flow}), plus the direct members the focus owns and its
 * execution dependencies as adjacent branches (one level, never expanded further).
 * @throws DocforgeError `node_not_found`
 */
export function web(reader: IndexReader, focus: string, bounds: GraphBounds): GraphBrowserGraph {
  requireNode(reader, focus);
  const graph = new GraphBuilder(bounds.maxNodes);
  graph.addNode(focus);
  const branches = [
    boundedEdges(reader, focus, 'outgoing', MEMBER_RELATIONS, bounds.fanout),
    boundedEdges(reader, focus, 'outgoing', EXECUTION_RELATIONS, bounds.fanout),
  ];
  const definedHere = boundedEdges(reader, focus, 'incoming', ['defined_in'], bounds.fanout);
  if (branches.some((b) => b.more) || definedHere.more) graph.truncated = true;
  for (const { edges } of branches) {
    for (const edge of edges) if (graph.addNode(edge.target_id)) graph.addEdge(edge, false);
  }
  for (const edge of definedHere.edges) if (graph.addNode(edge.source_id)) graph.addEdge(edge, true);
  const depth = walkUpstream(reader, graph, focus, WEB_RELATIONS, bounds);
  return graph.finish(reader, focus, 'web', Math.max(depth, graph.ids.length > 1 ? 1 : 0));
}
