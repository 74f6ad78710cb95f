/**
 * `graph` (issue 11 item 5): the neighbourhood of the view's `focus` node up to `depth` relation
 * hops (both directions), laid out with elkjs (layered) and drawn as an inline SVG. Structure:
 * `svg.graph > g.node[data-node-id] > rect + text`, `path.edge[data-relation][data-source][data-target]`;
 * the focus is `g.node.focus`. A preview adds `added`, `changed` or `removed` to the classes of
 * marked nodes and relations.
 */
import { createRequire } from 'node:module';
import type { ELK as ElkApi, ElkExtendedEdge, ElkNode } from 'elkjs/lib/elk-api.js';
import { errors, type GraphNode } from '@docforge/core';
import { escapeHtml } from '../html.js';
import type { RenderEdge } from '../graph.js';
import { edgeKey, markClass, type RenderInput } from './types.js';

/** Most nodes a graph view draws; the breadth-first walk stops adding nodes beyond it. */
export const MAX_GRAPH_NODES = 150;
const NODE_HEIGHT = 44;
const CHAR_WIDTH = 7;
const LABEL_CHARS = 40;

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

function label(text: string): string {
  return text.length > LABEL_CHARS ? `${text.slice(0, LABEL_CHARS - 1)}…` : text;
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
  const index = new Map(nodes.map((n, i) => [n.id, i]));
  const elkGraph: ElkNode = {
    id: 'root',
    layoutOptions: { 'elk.algorithm': 'layered', 'elk.direction': 'RIGHT', 'elk.spacing.nodeNode': '24', 'elk.layered.spacing.nodeNodeBetweenLayers': '48', 'elk.randomSeed': '1' },
    children: nodes.map((n, i) => ({ id: `n${i}`, width: Math.max(label(n.title).length, label(n.id).length) * CHAR_WIDTH + 24, height: NODE_HEIGHT })),
    edges: edges.map((e, i): ElkExtendedEdge => ({ id: `e${i}`, sources: [`n${index.get(e.source_id)!}`], targets: [`n${index.get(e.target_id)!}`] })),
  };
  const laid = await layoutEngine().layout(elkGraph);
  const width = Math.ceil(laid.width ?? 0) + 2;
  const height = Math.ceil(laid.height ?? 0) + 2;
  const svg: string[] = [`<svg class="graph" xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${escapeHtml(view.title)}">`];
  svg.push('<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse"><path d="M0,0L10,5L0,10z" fill="#57606a"/></marker></defs>');
  (laid.edges ?? []).forEach((laidEdge, i) => {
    const e = edges[i]!;
    const section = laidEdge.sections?.[0];
    if (section === undefined) return;
    const points = [section.startPoint, ...(section.bendPoints ?? []), section.endPoint];
    const d = points.map((p, k) => `${k === 0 ? 'M' : 'L'}${p.x.toFixed(1)},${p.y.toFixed(1)}`).join('');
    const mark = input.marks?.edges.get(edgeKey(e));
    svg.push(`<path class="edge${mark ? ` ${mark}` : ''}" data-relation="${escapeHtml(e.relation)}" data-source="${escapeHtml(e.source_id)}" data-target="${escapeHtml(e.target_id)}" d="${d}" fill="none" stroke="#8c959f" marker-end="url(#arrow)"><title>${escapeHtml(e.relation)}</title></path>`);
  });
  (laid.children ?? []).forEach((child, i) => {
    const n = nodes[i]!;
    const x = (child.x ?? 0).toFixed(1);
    const y = (child.y ?? 0).toFixed(1);
    const cls = `node${n.id === focus.id ? ' focus' : ''}${markClass(input.marks, n.id)}`;
    svg.push(`<g class="${cls}" data-node-id="${escapeHtml(n.id)}" data-kind="${escapeHtml(n.kind)}" transform="translate(${x},${y})">`
      + `<rect width="${child.width}" height="${child.height}" rx="6" fill="${n.id === focus.id ? '#ddf4ff' : '#f6f8fa'}" stroke="#57606a"/>`
      + `<text x="12" y="18" font-size="12" font-weight="600">${escapeHtml(label(n.title))}</text>`
      + `<text x="12" y="34" font-size="11" fill="#57606a">${escapeHtml(label(n.id))}</text><title>${escapeHtml(n.id)}</title></g>`);
  });
  svg.push('</svg>');
  const note = truncated ? `<p class="truncated">The neighbourhood was cut at ${MAX_GRAPH_NODES} nodes.</p>` : '';
  return [`<h1>${escapeHtml(view.title)}</h1>`, `<p class="meta">Neighbourhood of <code>${escapeHtml(focus.id)}</code>, depth ${view.depth ?? 2}: ${nodes.length} nodes, ${edges.length} relations</p>`, note, svg.join('\n')].join('\n');
}
