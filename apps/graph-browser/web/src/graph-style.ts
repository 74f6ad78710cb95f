/**
 * The canvas's Cytoscape stylesheet and label metrics (issue 34 item 5): node text is 12 px in
 * model units, so the readable zoom {@link READABLE_ZOOM} renders it at 11 px; edge labels are
 * 11 px (12 px in Logic, where they carry the branch conditions). Map groups (the first screen)
 * are compound nodes: folders hold their children, code and documentation leaves differ in color,
 * and an aggregated edge's width grows with the number of stored edges it stands for.
 */
import type cytoscape from 'cytoscape';

/** Node label font size, in model pixels. */
export const NODE_FONT_PX = 12;
/** The lowest zoom of an initial framing: node text renders at 11 px there. */
export const READABLE_ZOOM = 11 / NODE_FONT_PX;

/** The labels' font: the page's own, so {@link labelBox} measures what Cytoscape draws (and no second font is looked up). */
const FONT_FAMILY = 'system-ui, sans-serif';

/** The page's Cytoscape stylesheet. */
export const STYLE: cytoscape.StylesheetJson = [
  {
    selector: 'node',
    style: {
      shape: 'round-rectangle', 'background-color': '#f8f9fa', 'border-width': 1, 'border-color': '#868e96',
      label: 'data(label)', 'text-wrap': 'wrap', 'text-valign': 'center', 'text-halign': 'center',
      'font-size': NODE_FONT_PX, 'font-family': FONT_FAMILY, color: '#212529', 'text-max-width': '2000px',
    },
  },
  { selector: 'node[w]', style: { width: 'data(w)', height: 'data(h)' } },
  { selector: 'node.focus', style: { 'border-width': 3, 'border-color': '#1c7ed6', 'background-color': '#e7f5ff' } },
  { selector: 'node.step', style: { shape: 'rectangle', 'background-color': '#fff9db' } },
  { selector: 'node.group-code', style: { 'background-color': '#e7f5ff', 'border-color': '#4c6ef5' } },
  { selector: 'node.group-docs', style: { 'background-color': '#f3f0ff', 'border-color': '#7048e8' } },
  { selector: 'node.group-rest', style: { 'border-style': 'dashed' } },
  {
    selector: 'node:parent',
    style: {
      'text-valign': 'top', 'text-halign': 'center', 'text-margin-y': -4, 'background-opacity': 0.35, 'padding': '12px',
      'font-weight': 'bold', shape: 'round-rectangle',
    },
  },
  { selector: 'node.selected', style: { 'border-width': 4, 'border-color': '#f59f00', 'background-color': '#fff3bf' } },
  { selector: 'node.neighbor', style: { 'border-color': '#f59f00', 'border-width': 2 } },
  {
    selector: 'edge',
    style: {
      width: 2, 'curve-style': 'bezier', 'line-color': 'data(color)', 'line-style': 'data(pattern)' as never,
      'target-arrow-shape': 'data(arrow)' as never, 'target-arrow-color': 'data(color)', 'arrow-scale': 1.2,
      label: 'data(label)', 'font-size': 11, 'font-family': FONT_FAMILY, color: '#343a40', 'text-background-color': '#ffffff', 'text-background-opacity': 0.85,
      'text-rotation': 'autorotate',
    },
  },
  { selector: 'edge.control', style: { 'font-size': 12 } },
  // Aggregated map edges: solid (a line pattern per relation means little for a mix), translucent
  // so boxes stay legible where many meet; a selected group's edges turn opaque with their counts.
  { selector: 'edge.aggregate', style: { width: 'data(weight)', label: '', 'curve-style': 'straight', 'line-style': 'solid', opacity: 0.45, 'arrow-scale': 0.9 } },
  { selector: 'edge.aggregate.highlight', style: { label: 'data(label)', opacity: 1 } },
  { selector: 'edge.highlight', style: { width: 4, 'z-index': 10 } },
  { selector: 'edge.omitted', style: { 'line-style': 'dashed', 'line-color': '#adb5bd', 'target-arrow-color': '#adb5bd' } },
  { selector: '.muted', style: { opacity: 0.18 } },
];

const measure = document.createElement('canvas').getContext('2d');

/** The box a full, untruncated label needs (12 px font, 10 px padding each side), in model pixels. */
export function labelBox(label: string): { w: number; h: number } {
  const lines = label.split('\n');
  if (measure) measure.font = `${NODE_FONT_PX}px ${FONT_FAMILY}`;
  const width = Math.max(...lines.map((line) => (measure ? measure.measureText(line).width : line.length * 7)));
  return { w: Math.ceil(width) + 20, h: lines.length * 15 + 14 };
}
