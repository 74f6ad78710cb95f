/**
 * `graph` (issue 11 item 5): the neighbourhood of the view's `focus` node up to `depth` relation
 * hops (both directions), laid out with elkjs (layered) and drawn as an inline SVG (graph-svg.ts:
 * boxes sized to their text, every edge labelled with its relation). Structure:
 * `svg.graph > g.node[data-node-id] > rect + text+`, `path.edge[data-relation][data-source][data-target]`,
 * `g.edge-label` (same data attributes), then `ul.key > li[data-relation]`: each drawn relation
 * with its count, after `p.key-note` saying which way arrows run. The focus is `g.node.focus`. A preview
 * adds `added`, `changed` or `removed` to the classes of marked nodes and relations.
 */
import { createRequire } from 'node:module';
import type { ELK as ElkApi } from 'elkjs/lib/elk-api.js';
import { errors, type GraphNode } from '@docforge/core';
import { escapeHtml } from '../html.js';
import type { RenderEdge } from '../graph.js';
import { drawGraphSvg } from './graph-svg.js';
import { edgeKey, type RenderInput } from './types.js';

/** Most nodes a graph view draws; the breadth-first walk stops adding nodes beyond it. */
export const MAX_GRAPH_NODES = 150;

let elk: ElkApi | null = null;

/**
 * The elkjs layout engine, created on the first graph view (issue 14): its 1.6 MB bundle is
 * required (CommonJS; the class is its `default` property) only by a process that draws a graph,
 * never at the start of the MCP server or the CLI.
 */
function layoutEngine(): ElkApi {
  elk ??= new (createRequire(import.meta.url)('elkjs/lib/elk.bundled.js') as { default: new () => ElkApi }).default();
  return elk;
}

/** Breadth-first neighbourhood of `focus` (ids in visiting order) and the edges between visited nodes. */
function neighbourhood(input: RenderInput, focus: GraphNode, depth: number): { nodes: GraphNode[]; edges: RenderEdge[]; truncated: boolean } {
  const nodes = new Map<string, GraphNode>([[focus.id, focus]]);
  const edges = new Map<string, RenderEdge>();
  let frontier = [focus.id];
  let truncated = false;
  for (let hop = 0; hop < depth && frontier.length > 0; hop++) {
    const next: string[] = [];
    for (const id of frontier) {
      for (const e of [...input.graph.edges(id, 'outgoing'), ...input.graph.edges(id, 'incoming')]) {
        const other = e.source_id === id ? e.target_id : e.source_id;
        if (!nodes.has(other)) {
          if (nodes.size >= MAX_GRAPH_NODES) {
            truncated = true;
            continue;
          }
          const node = input.graph.node(other);
          if (node === null) continue;
          nodes.set(other, node);
          next.push(other);
        }
        edges.set(edgeKey(e), e);
      }
    }
    frontier = next;
  }
  // Edges among the visited nodes that the walk did not traverse (e.g. between two leaves).
  for (const id of nodes.keys()) {
    for (const e of input.graph.edges(id, 'outgoing')) if (nodes.has(e.target_id)) edges.set(edgeKey(e), e);
  }
  return { nodes: [...nodes.values()], edges: [...edges.values()].sort((a, b) => (edgeKey(a) < edgeKey(b) ? -1 : 1)), truncated };
}

/** The key under the drawing: which way arrows run, and each drawn relation with its count. */
function relationKey(edges: readonly RenderEdge[]): string {
  const counts = new Map<string, number>();
  for (const e of edges) counts.set(e.relation, (counts.get(e.relation) ?? 0) + 1);
  const items = [...counts.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([relation, n]) => `<li data-relation="${escapeHtml(relation)}"><code>${escapeHtml(relation)}</code> (${n})</li>`);
  const direction = '<p class="key-note">Each arrow runs from a relation&#39;s source to its target (read it as <em>source relation target</em>) and is labelled with the relation.</p>';
  return items.length === 0 ? direction : `${direction}\n<ul class="key" aria-label="Relations">${items.join('')}</ul>`;
}

/**
 * The graph body.
 * @throws DocforgeError `render_failed` when the focus node does not exist in the graph
 */
export async function renderGraph(input: RenderInput): Promise<string> {
  const { view } = input;
  const focusId = view.focus ?? '';
  const focus = input.graph.node(focusId);
  if (focus === null) throw errors.renderFailed(view.id, `the focus node "${focusId}" does not exist`);
  const { nodes, edges, truncated } = neighbourhood(input, focus, view.depth ?? 2);
  const svg = await drawGraphSvg({ nodes, edges, focusId: focus.id, title: view.title, marks: input.marks, engine: layoutEngine() });
  const note = truncated ? `<p class="truncated">The neighbourhood was cut at ${MAX_GRAPH_NODES} nodes.</p>` : '';
  return [`<h1>${escapeHtml(view.title)}</h1>`, `<p class="meta">Neighbourhood of <code>${escapeHtml(focus.id)}</code>, depth ${view.depth ?? 2}: ${nodes.length} nodes, ${edges.length} relations</p>`, note, svg, relationKey(edges)].join('\n');
}
