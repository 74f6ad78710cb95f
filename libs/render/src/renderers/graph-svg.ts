/**
 * The drawing half of the `graph` renderer (issue 34 item 7): boxes sized to their text, relation
 * labels placed by elkjs on every edge, and the SVG markup. Text is measured with the
 * deterministic width table of text-width.ts, so no browser is needed and the same input gives the
 * same bytes. A title wraps to at most {@link TITLE_LINES} lines of at most {@link MAX_TEXT_PX};
 * an id is cut in the middle to one line; every drawn line fits its box by the estimate.
 */
import type { ELK as ElkApi, ElkExtendedEdge, ElkNode } from 'elkjs/lib/elk-api.js';
import type { GraphNode } from '@docforge/core';
import { escapeHtml } from '../html.js';
import type { RenderEdge } from '../graph.js';
import { fitText, SVG_FONT_FAMILY, textWidth, wrapText } from '../text-width.js';
import { edgeKey, markClass, type ChangeMarks } from './types.js';

/** Font size of a node title, px (drawn bold). */
export const TITLE_FONT_PX = 12;
/** Font size of a node id, px. */
export const ID_FONT_PX = 11;
/** Font size of a relation label, px. */
export const LABEL_FONT_PX = 10;
/** Widest line of node text, px. */
export const MAX_TEXT_PX = 220;
/** Most lines a title wraps to (the last ends with an ellipsis when text is left over). */
export const TITLE_LINES = 2;
const MIN_TEXT_PX = 60;
const MAX_LABEL_PX = 160;
const PAD_X = 12;
const PAD_Y = 8;
const TITLE_LINE_PX = 16;
const ID_LINE_PX = 15;
const LABEL_PAD_X = 4;
const LABEL_HEIGHT_PX = 14;

/** The text of one node box and the box size it needs, px. */
interface NodeBox {
  title: string[];
  id: string;
  width: number;
  height: number;
}

/** A node's box: the title wrapped, the id cut to one line, the size that holds both with padding. */
function nodeBox(node: GraphNode): NodeBox {
  const title = wrapText(node.title, MAX_TEXT_PX, TITLE_FONT_PX, TITLE_LINES);
  const id = fitText(node.id, MAX_TEXT_PX, ID_FONT_PX, 'middle');
  const text = Math.max(MIN_TEXT_PX, textWidth(id, ID_FONT_PX), ...title.map((line) => textWidth(line, TITLE_FONT_PX)));
  return { title, id, width: Math.ceil(text + 2 * PAD_X), height: 2 * PAD_Y + title.length * TITLE_LINE_PX + ID_LINE_PX };
}

/** The drawn text of a relation label and its box size, px. */
function labelBox(relation: string): { text: string; width: number; height: number } {
  const text = fitText(relation, MAX_LABEL_PX, LABEL_FONT_PX);
  return { text, width: Math.ceil(textWidth(text, LABEL_FONT_PX) + 2 * LABEL_PAD_X), height: LABEL_HEIGHT_PX };
}

/** What {@link drawGraphSvg} draws. */
export interface GraphDrawing {
  nodes: readonly GraphNode[];
  edges: readonly RenderEdge[];
  focusId: string;
  /** Accessible name of the SVG (plain text). */
  title: string;
  marks?: ChangeMarks;
  /** The elkjs engine that lays it out. */
  engine: ElkApi;
}

/** Lays out the boxes and labelled edges with elkjs (layered, left to right, seeded: deterministic). */
async function layout(drawing: GraphDrawing, boxes: readonly NodeBox[]): Promise<ElkNode> {
  const index = new Map(drawing.nodes.map((n, i) => [n.id, i]));
  const graph: ElkNode = {
    id: 'root',
    layoutOptions: {
      'elk.algorithm': 'layered', 'elk.direction': 'RIGHT', 'elk.spacing.nodeNode': '24', 'elk.layered.spacing.nodeNodeBetweenLayers': '48',
      'elk.spacing.edgeLabel': '2', 'elk.edgeLabels.placement': 'CENTER', 'elk.randomSeed': '1',
    },
    children: boxes.map((b, i) => ({ id: `n${i}`, width: b.width, height: b.height })),
    edges: drawing.edges.map((e, i): ElkExtendedEdge => ({
      id: `e${i}`, sources: [`n${index.get(e.source_id)!}`], targets: [`n${index.get(e.target_id)!}`],
      labels: [{ id: `l${i}`, ...labelBox(e.relation), layoutOptions: { 'elk.edgeLabels.placement': 'CENTER' } }],
    })),
  };
  return drawing.engine.layout(graph);
}

function edgeAttrs(e: RenderEdge): string {
  return `data-relation="${escapeHtml(e.relation)}" data-source="${escapeHtml(e.source_id)}" data-target="${escapeHtml(e.target_id)}"`;
}

/** The path and the label of each laid-out edge. */
function drawEdges(drawing: GraphDrawing, laid: ElkNode): { paths: string[]; labels: string[] } {
  const paths: string[] = [];
  const labels: string[] = [];
  (laid.edges ?? []).forEach((laidEdge, i) => {
    const e = drawing.edges[i]!;
    const mark = drawing.marks?.edges.get(edgeKey(e));
    const cls = mark ? ` ${mark}` : '';
    const section = laidEdge.sections?.[0];
    if (section !== undefined) {
      const points = [section.startPoint, ...(section.bendPoints ?? []), section.endPoint];
      const d = points.map((p, k) => `${k === 0 ? 'M' : 'L'}${p.x.toFixed(1)},${p.y.toFixed(1)}`).join('');
      paths.push(`<path class="edge${cls}" ${edgeAttrs(e)} d="${d}" fill="none" stroke="#8c959f" marker-end="url(#arrow)"><title>${escapeHtml(e.relation)}</title></path>`);
    }
    const label = laidEdge.labels?.[0];
    if (label === undefined) return;
    const box = labelBox(e.relation);
    labels.push(`<g class="edge-label${cls}" ${edgeAttrs(e)} transform="translate(${(label.x ?? 0).toFixed(1)},${(label.y ?? 0).toFixed(1)})">`
      + `<rect width="${box.width}" height="${box.height}" rx="3" fill="#ffffff" fill-opacity="0.9"/>`
      + `<text x="${LABEL_PAD_X}" y="${LABEL_HEIGHT_PX - 4}" font-size="${LABEL_FONT_PX}" fill="#57606a">${escapeHtml(box.text)}</text></g>`);
  });
  return { paths, labels };
}

/** One node box: its rect, the title lines (bold), the id line, the full title and id as a tooltip. */
function drawNode(drawing: GraphDrawing, n: GraphNode, box: NodeBox, at: { x: number; y: number }): string {
  const focus = n.id === drawing.focusId;
  const cls = `node${focus ? ' focus' : ''}${markClass(drawing.marks, n.id)}`;
  const title = box.title.map((line, k) => `<text x="${PAD_X}" y="${PAD_Y + TITLE_FONT_PX + k * TITLE_LINE_PX}" font-size="${TITLE_FONT_PX}" font-weight="600">${escapeHtml(line)}</text>`);
  const idY = PAD_Y + box.title.length * TITLE_LINE_PX + ID_FONT_PX + 1;
  return `<g class="${cls}" data-node-id="${escapeHtml(n.id)}" data-kind="${escapeHtml(n.kind)}" transform="translate(${at.x.toFixed(1)},${at.y.toFixed(1)})">`
    + `<rect width="${box.width}" height="${box.height}" rx="6" fill="${focus ? '#ddf4ff' : '#f6f8fa'}" stroke="#57606a"/>`
    + `${title.join('')}<text x="${PAD_X}" y="${idY}" font-size="${ID_FONT_PX}" fill="#57606a">${escapeHtml(box.id)}</text>`
    + `<title>${escapeHtml(`${n.title}\n${n.id}`)}</title></g>`;
}

/**
 * The SVG of a neighbourhood: `svg.graph` holding `path.edge[data-relation][data-source][data-target]`,
 * `g.edge-label` (same data attributes; `rect + text`) and `g.node[data-node-id] > rect + text+`
 * (title lines at {@link TITLE_FONT_PX}, then the id at {@link ID_FONT_PX}), the focus `g.node.focus`.
 * Marks add `added`, `changed` or `removed` to the classes of nodes, edges and labels.
 */
export async function drawGraphSvg(drawing: GraphDrawing): Promise<string> {
  const boxes = drawing.nodes.map(nodeBox);
  const laid = await layout(drawing, boxes);
  const width = Math.ceil(laid.width ?? 0) + 2;
  const height = Math.ceil(laid.height ?? 0) + 2;
  const svg: string[] = [`<svg class="graph" xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="${SVG_FONT_FAMILY}" role="img" aria-label="${escapeHtml(drawing.title)}">`];
  svg.push('<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse"><path d="M0,0L10,5L0,10z" fill="#57606a"/></marker></defs>');
  const { paths, labels } = drawEdges(drawing, laid);
  svg.push(...paths);
  (laid.children ?? []).forEach((child, i) => svg.push(drawNode(drawing, drawing.nodes[i]!, boxes[i]!, { x: child.x ?? 0, y: child.y ?? 0 })));
  // Labels last: drawn over the lines that cross them, never under a box (elkjs keeps them off boxes).
  svg.push(...labels, '</svg>');
  return svg.join('\n');
}
