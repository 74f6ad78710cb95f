/**
 * Maps a build's results (the resolved graph, the per-source cache, the written state of the last
 * build) to the neutral rows the store's index writer takes (libs/store write-rows.ts), and the
 * writer's answer back to parse-cache rows. What changed since the last write, which bodies were
 * dropped, and what the parse cache keeps are decided here; the SQL is in libs/store.
 */
import { createHash } from 'node:crypto';
import { edgeIdentityKey, parseEdgeIdentityKey, type GraphEdge, type GraphNode, type NodeCodeText, type SourceIssue } from '@docforge/core';
import {
  applyIndexDelta, writeIndexFile,
  type CodeTextOf, type EdgeIdentity, type ReviewHashOf, type LogicRowsWrite, type ParseRow, type SourceRowWrite, type SourceWriteResult,
} from '@docforge/store';
import { sourceKey, type CachedSource, type PersistedParse, type WrittenState } from './build-types.js';
import { linkDataJson } from './lazy-link-data.js';

/** Per calling node id, call sites without a proven target (see the `unresolved_calls` table). */
export type UnresolvedCalls = ReadonlyMap<string, number>;

/** The graph a build writes: its nodes and edges, and the unresolved-call counts of its linking. */
export interface WrittenGraph {
  nodes: readonly GraphNode[];
  edges: readonly GraphEdge[];
  unresolvedCalls?: UnresolvedCalls;
}

/** Hash of the unresolved-call rows of the given nodes (sorted by id), to skip an unchanged rewrite. */
export function unresolvedCallsHash(rows: Iterable<readonly [string, number]>): string {
  const sorted = [...rows].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return createHash('sha256').update(JSON.stringify(sorted)).digest('hex');
}

/** The rows to store: counts of nodes that exist in the graph (a count for an unknown id is dropped). */
function unresolvedRows(unresolved: UnresolvedCalls | undefined, nodes: readonly GraphNode[]): [string, number][] {
  if (unresolved === undefined || unresolved.size === 0) return [];
  const rows: [string, number][] = [];
  for (const node of nodes) {
    const count = unresolved.get(node.id);
    if (count !== undefined && count > 0) rows.push([node.id, count]);
  }
  return rows;
}

function sourceRow(s: CachedSource): SourceRowWrite {
  return { entry: s.entry, content_hash: s.content_hash, nodes: s.nodes };
}

/**
 * The code text of the given sources by node id and source path (issue 31 item 1): a node gets the
 * text its own source produced, never that of another source declaring the same id.
 */
function codeTextOf(sources: Iterable<CachedSource>): CodeTextOf {
  const bySource = new Map<string, Map<string, NodeCodeText>>();
  for (const s of sources) {
    if (s.code_text !== undefined && s.code_text.length > 0) bySource.set(s.entry.path, new Map(s.code_text.map((c) => [c.node_id, c])));
  }
  return (node) => bySource.get(node.source_path)?.get(node.id);
}

/** The review hash of each node by id and source path (issue 32 item 1), as {@link codeTextOf}. */
function reviewHashOf(sources: Iterable<CachedSource>): ReviewHashOf {
  const bySource = new Map<string, Map<string, string>>();
  for (const s of sources) {
    if (s.review_hashes !== undefined && s.review_hashes.length > 0) bySource.set(s.entry.path, new Map(s.review_hashes.map((r) => [r.node_id, r.hash])));
  }
  return (node) => bySource.get(node.source_path)?.get(node.id);
}

function logicRows(s: CachedSource): LogicRowsWrite {
  return { source_path: s.entry.path, steps: s.logic_steps, flows: s.logic_flows };
}

/**
 * The parse-cache rows of the sources written (parse-cache.ts; declared edges, links, issues,
 * adapter link data, and the node ids), so a new process can build incrementally (see warm.ts).
 * A node whose row in the nodes table is not the source's own (`lost`, as the writer reported) is
 * kept whole in `lost_nodes`: one that lost a duplicate-id clash, and one the build extended after
 * parsing (link capabilities such as a package.json `entrypoint`, project-adapter.ts
 * `extendGraph`), so a warm start never mistakes what linking added for what the parse produced.
 */
function parseRows(sources: readonly CachedSource[], lost: SourceWriteResult): ParseRow[] {
  const rows: ParseRow[] = [];
  sources.forEach((s, index) => {
    const parse: PersistedParse = {
      v: 3, node_ids: s.nodes.map((n) => n.id), lost_nodes: lost[index]!.map((i) => ({ ...s.nodes[i]!, body: '' })), edges: s.edges, links: s.links,
      issues: s.issues, adapter: s.adapter, logic_steps: s.logic_count ?? s.logic_steps.length,
      ...(s.reviews !== undefined && s.reviews.length > 0 ? { reviews: s.reviews } : {}),
    };
    // Link data the parse cache no longer holds (undefined): no row, so the source is parsed again by a later build.
    const linkData = linkDataJson(s);
    if (linkData !== undefined) rows.push({ path: s.entry.path, sourceKey: sourceKey(s), parse: JSON.stringify(parse), linkData });
  });
  return rows;
}

/**
 * Writes a complete index file from scratch at `file` (a new temp file), with the nodes' full-text
 * rows rebuilt at the end. `progress` receives `('write', done, total)` every 2,000 nodes.
 * @returns every source's parse, for the parse cache
 * @throws SQLite errors (the caller removes the file)
 */
export function writeFullIndex(
  file: string,
  graph: WrittenGraph,
  current: Map<string, CachedSource>,
  issues: readonly SourceIssue[],
  meta: Record<string, string>,
  progress: (stage: string, done: number, total: number) => void,
): ParseRow[] {
  const sources = [...current.values()];
  const lost = writeIndexFile(file, {
    nodes: graph.nodes, code: codeTextOf(sources), review: reviewHashOf(sources), edges: graph.edges, sources: sources.map(sourceRow),
    logic: sources.filter((s) => s.logic_steps.length > 0).map(logicRows),
    issues, unresolved: unresolvedRows(graph.unresolvedCalls, graph.nodes), meta,
  }, progress);
  return parseRows(sources, lost);
}

/** New and changed edges to write, and the identities of edges gone from the graph. */
function edgeChanges(prev: WrittenState, edges: readonly GraphEdge[], edgeMap: Map<string, string>): { written: GraphEdge[]; removed: EdgeIdentity[] } {
  const written: GraphEdge[] = [];
  // The build passes the previous map itself when no edge row changed.
  if (edgeMap === prev.edges) return { written, removed: [] };
  let keptEdges = 0;
  if (edgeMap.size === edges.length) {
    // The map was built from `edges` in order (unique triples): walk both together, no keys rebuilt.
    let index = 0;
    for (const [key, value] of edgeMap) {
      const e = edges[index]!;
      index += 1;
      const before = prev.edges.get(key);
      if (before !== undefined) keptEdges += 1;
      if (before !== value) written.push(e);
    }
  } else {
    for (const e of edges) {
      const key = edgeIdentityKey(e);
      if (prev.edges.get(key) !== edgeMap.get(key)) written.push(e);
    }
  }
  // Edges gone from the graph; none when every previous key is among the new ones (keys are unique).
  const removed: EdgeIdentity[] = [];
  if (keptEdges < prev.edges.size) {
    for (const key of prev.edges.keys()) if (!edgeMap.has(key)) removed.push(parseEdgeIdentityKey(key));
  }
  return { written, removed };
}

/**
 * Changed nodes (content hash differs from the written one, or the node's source was parsed again:
 * its code text may have changed while every node field stayed the same, issue 31 item 1) and the
 * ids of nodes gone from the graph.
 */
function nodeChanges(prev: WrittenState, nodes: readonly GraphNode[], nodeMap: Map<string, string>, reparsed: ReadonlySet<string>): { changed: GraphNode[]; removed: string[] } {
  const changed: GraphNode[] = [];
  /** New ids also in the previous graph: when all previous ids are, none was removed. */
  let kept = 0;
  for (const n of nodes) {
    const before = prev.nodes.get(n.id);
    if (before !== undefined) kept += 1;
    if (before !== n.content_hash || reparsed.has(n.source_path)) changed.push(n);
  }
  const removed: string[] = [];
  if (kept < prev.nodes.size) for (const id of prev.nodes.keys()) if (!nodeMap.has(id)) removed.push(id);
  return { changed, removed };
}

/**
 * Changed source rows (and freshly parsed sources, whose parse may be missing from the parse
 * cache), and the sources whose Logic rows are replaced: freshly parsed code sources (not
 * stripped), also one that no adapter parsed this time (its adapter became unavailable): its old
 * rows go.
 */
function sourceChanges(prev: WrittenState, current: Map<string, CachedSource>): { changed: CachedSource[]; logic: CachedSource[]; removed: string[] } {
  const removed = [...prev.sources.keys()].filter((p) => !current.has(p));
  const changed: CachedSource[] = [];
  const logic: CachedSource[] = [];
  for (const s of current.values()) {
    if (!s.stripped || prev.sources.get(s.entry.path) !== sourceKey(s)) changed.push(s);
    if (!s.stripped && (s.adapter !== null || s.entry.role === 'code')) logic.push(s);
  }
  return { changed, logic, removed };
}

/**
 * Applies a delta to `file`, a copy of the index file `prev` describes: removed and changed nodes,
 * edges, sources and Logic rows are replaced. Returns the parses of the source rows written (for
 * the parse cache), or null (the file is then unusable) when a changed node's body was dropped
 * from the cache, so the caller writes a full index instead.
 * @throws SQLite errors
 */
export function writeDeltaIndex(
  file: string,
  prev: WrittenState,
  graph: WrittenGraph,
  maps: { nodes: Map<string, string>; edges: Map<string, string> },
  current: Map<string, CachedSource>,
  issues: readonly SourceIssue[],
  meta: Record<string, string>,
): ParseRow[] | null {
  // Code sources parsed again: their nodes' code rows are written again (with or without text now).
  const reparsed = new Set<string>();
  for (const s of current.values()) if (!s.stripped && s.adapter !== null) reparsed.add(s.entry.path);
  const nodes = nodeChanges(prev, graph.nodes, maps.nodes, reparsed);
  for (const node of nodes.changed) {
    if (current.get(node.source_path)?.stripped !== false) return null;
  }
  const edges = edgeChanges(prev, graph.edges, maps.edges);
  const sources = sourceChanges(prev, current);
  const rows = unresolvedRows(graph.unresolvedCalls, graph.nodes);
  const lost = applyIndexDelta(file, {
    removedNodes: nodes.removed, changedNodes: nodes.changed, code: codeTextOf(current.values()), review: reviewHashOf(current.values()), edgesWritten: edges.written, edgesRemoved: edges.removed,
    removedSources: sources.removed, sources: sources.changed.map(sourceRow), logic: sources.logic.map(logicRows),
    issues, unresolved: prev.unresolvedHash !== unresolvedCallsHash(rows) ? rows : null, meta,
  });
  return parseRows(sources.changed, lost);
}
