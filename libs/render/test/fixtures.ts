/** Test helper: an in-memory render graph of hand-made nodes (through the preview overlay over an empty index). */
import { withContentHash, type GraphNode } from '@docforge/core';
import { overlayGraph, type RenderGraph } from '../src/index.js';

/** A content node with defaults; `over` overrides fields. */
export function node(id: string, over: Partial<GraphNode> = {}): GraphNode {
  return withContentHash({
    id, kind: 'requirement', title: `Title of ${id}`, family: null, authority: null, status: 'accepted', tags: [], summary: '', body: '',
    source_path: `docs/${id.toLowerCase()}.md`, start_line: 1, end_line: 1, anchors: [], language: null, capabilities: [], origin: 'document',
    ...over,
  } as GraphNode);
}

/** An empty published graph. */
export const EMPTY: RenderGraph = { select: () => ({ nodes: [], truncated: false }), node: () => null, edges: () => [] };

/** A graph of these nodes and `[source, relation, target]` edges. */
export function memoryGraph(nodes: GraphNode[], edges: [string, string, string][]): RenderGraph {
  return overlayGraph(EMPTY, { nodes, edges: edges.map(([s, r, t]) => ({ source_id: s, relation: r, target_id: t, source_path: 'x', line: 0 })) });
}
