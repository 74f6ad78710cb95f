/**
 * What the drawing looks like on screen, for the browser tests and debugging (issue 34 item 8):
 * every node's rendered box and font size in CSS pixels, every edge's rendered end points, the
 * canvas size, the zoom and the framing. Read through `window.docforgeGraph.geometry()`.
 */
import type cytoscape from 'cytoscape';

/** The rendered geometry of the drawing (CSS pixels relative to the canvas's top-left corner). */
export interface Geometry {
  width: number;
  height: number;
  zoom: number;
  framing: string;
  offscreen: number;
  nodes: { id: string; parent: boolean; label: string; x1: number; y1: number; x2: number; y2: number; fontPx: number }[];
  edges: { id: string; source: string; target: string; relation: string; label: string; reversed: boolean; labelFontPx: number; labelShown: boolean; sx: number; sy: number; tx: number; ty: number }[];
}

/** The rendered geometry of `cy` inside `container`. */
export function geometryOf(cy: cytoscape.Core, container: HTMLElement): Geometry {
  const zoom = cy.zoom();
  const nodes = cy.nodes().map((n) => {
    const b = n.renderedBoundingBox({ includeLabels: false });
    return { id: String(n.id()), parent: n.isParent(), label: String(n.data('label')), x1: b.x1, y1: b.y1, x2: b.x2, y2: b.y2, fontPx: parseFloat(String(n.style('font-size'))) * zoom };
  });
  const edges = cy.edges().map((e) => {
    const s = e.renderedSourceEndpoint();
    const t = e.renderedTargetEndpoint();
    const label = String(e.style('label') ?? '');
    return {
      id: String(e.id()), source: String(e.data('source')), target: String(e.data('target')), relation: String(e.data('relation')), label: String(e.data('label')),
      reversed: e.data('reversed') === true, labelFontPx: parseFloat(String(e.style('font-size'))) * zoom, labelShown: label.length > 0,
      sx: s.x, sy: s.y, tx: t.x, ty: t.y,
    };
  });
  return {
    width: container.clientWidth, height: container.clientHeight, zoom,
    framing: container.dataset.framing ?? '', offscreen: Number(container.dataset.offscreen ?? '0'), nodes, edges,
  };
}
