/**
 * The graph canvas: Cytoscape.js laid out by ELK's layered algorithm (cytoscape-elk). Owns the
 * viewport (fitted framing, wheel zoom, drag pan, zoom buttons, reset, centering), the selection
 * styling (selected node, incident edges, direct neighbors, muted rest) and geometric keyboard
 * moves along edges. Nothing here ever talks to the worker.
 */
import cytoscape from 'cytoscape';
import elk from 'cytoscape-elk';
import { relationStyle } from './relations.js';

cytoscape.use(elk);

/** One node to draw: `label` is shown in full (leaf name and kind), `tooltip` is the full id. */
export interface DrawNode {
  id: string;
  label: string;
  tooltip: string;
  classes: string[];
}

/** One edge to draw; omitted edges (Logic bridges) are grey, dashed and labelled. */
export interface DrawEdge {
  id: string;
  source: string;
  target: string;
  relation: string;
  category: string;
  label?: string;
  omitted?: boolean;
}

/** Arrow-key directions for keyboard moves. */
export type Direction = 'left' | 'right' | 'up' | 'down';

const STYLE: cytoscape.StylesheetJson = [
  {
    selector: 'node',
    style: {
      shape: 'round-rectangle', 'background-color': '#f8f9fa', 'border-width': 1, 'border-color': '#868e96',
      label: 'data(label)', 'text-wrap': 'wrap', 'text-valign': 'center', 'text-halign': 'center',
      'font-size': 11, color: '#212529', width: 'data(w)', height: 'data(h)', 'text-max-width': '2000px',
    },
  },
  { selector: 'node.focus', style: { 'border-width': 3, 'border-color': '#1c7ed6', 'background-color': '#e7f5ff' } },
  { selector: 'node.step', style: { shape: 'rectangle', 'background-color': '#fff9db' } },
  { selector: 'node.selected', style: { 'border-width': 4, 'border-color': '#f59f00', 'background-color': '#fff3bf' } },
  { selector: 'node.neighbor', style: { 'border-color': '#f59f00', 'border-width': 2 } },
  {
    selector: 'edge',
    style: {
      width: 2, 'curve-style': 'bezier', 'line-color': 'data(color)', 'line-style': 'data(pattern)' as never,
      'target-arrow-shape': 'data(arrow)' as never, 'target-arrow-color': 'data(color)', 'arrow-scale': 1.2,
      label: 'data(label)', 'font-size': 9, color: '#495057', 'text-background-color': '#ffffff', 'text-background-opacity': 0.8,
      'text-rotation': 'autorotate',
    },
  },
  { selector: 'edge.highlight', style: { width: 4, 'z-index': 10 } },
  { selector: 'edge.omitted', style: { 'line-style': 'dashed', 'line-color': '#adb5bd', 'target-arrow-color': '#adb5bd' } },
  { selector: '.muted', style: { opacity: 0.18 } },
];

/** Padding of the fitted framing, in rendered pixels. */
const FRAME_PADDING = 30;

/**
 * The lowest zoom of the default framing: 11px labels render at about 8px here. A drawing that
 * would fit only below it is framed at this zoom around the focus instead, and the user pans.
 */
export const MIN_LABEL_ZOOM = 0.75;

const measure = document.createElement('canvas').getContext('2d');

/** The box a full, untruncated label needs (11px font, 8px padding each side), in model pixels. */
function labelBox(label: string): { w: number; h: number } {
  const lines = label.split('\n');
  if (measure) measure.font = '11px system-ui, sans-serif';
  const width = Math.max(...lines.map((line) => (measure ? measure.measureText(line).width : line.length * 6.5)));
  return { w: Math.ceil(width) + 20, h: lines.length * 14 + 14 };
}

/** The Cytoscape canvas of the page. */
export class GraphCanvas {
  private readonly cy: cytoscape.Core;
  private selected: string | null = null;

  constructor(private readonly container: HTMLElement) {
    this.cy = cytoscape({
      container, style: STYLE, minZoom: 0.05, maxZoom: 5,
      userPanningEnabled: true, userZoomingEnabled: true, boxSelectionEnabled: false, autoungrabify: true,
    });
    this.cy.on('mouseover', 'node', (event) => container.setAttribute('title', String(event.target.data('tooltip'))));
    this.cy.on('mouseout', 'node', () => container.removeAttribute('title'));
  }

  /** Calls `handler` with the node id on left activation, or null on the background. */
  onTap(handler: (id: string | null) => void): void {
    this.cy.on('tap', (event) => handler(event.target === this.cy ? null : event.target.isNode() ? String(event.target.id()) : null));
  }

  /** Calls `handler` with the node id on right click. */
  onContext(handler: (id: string) => void): void {
    this.cy.on('cxttap', 'node', (event) => handler(String(event.target.id())));
  }

  /** Replaces the drawing and lays it out with ELK layered in `direction`; resolves once framed. */
  async draw(nodes: readonly DrawNode[], edges: readonly DrawEdge[], direction: 'DOWN' | 'RIGHT' | 'UP'): Promise<void> {
    const elements: cytoscape.ElementDefinition[] = [
      ...nodes.map((n) => ({ group: 'nodes' as const, data: { id: n.id, label: n.label, tooltip: n.tooltip, ...labelBox(n.label) }, classes: n.classes.join(' ') })),
      ...edges.map((e) => {
        const style = e.omitted ? { color: '#adb5bd', pattern: 'dashed', arrow: 'triangle' } : relationStyle(e.relation, e.category);
        return {
          group: 'edges' as const,
          data: { id: e.id, source: e.source, target: e.target, relation: e.relation, category: e.category, label: e.label ?? e.relation, ...style },
          classes: e.omitted ? 'omitted' : '',
        };
      }),
    ];
    this.cy.batch(() => {
      this.cy.elements().remove();
      this.cy.add(elements);
    });
    this.selected = null;
    await this.layout(direction);
    // A wide layer (a focus with ~25 neighbours) or a long chain fits only far below a readable
    // zoom in one direction; the other axis often fits it much better, so try it and keep the better.
    const first = this.fitZoom();
    if (first < MIN_LABEL_ZOOM && nodes.length > 2) {
      await this.layout(direction === 'RIGHT' ? 'DOWN' : 'RIGHT');
      if (this.fitZoom() < first) await this.layout(direction);
    }
    this.reset();
  }

  /** Runs ELK layered in `direction` without fitting (the framing is {@link reset}'s). */
  private async layout(direction: 'DOWN' | 'RIGHT' | 'UP'): Promise<void> {
    const layout = this.cy.layout({
      name: 'elk', fit: false, animate: false, nodeDimensionsIncludeLabels: true,
      elk: {
        algorithm: 'layered', 'elk.direction': direction, 'elk.layered.spacing.nodeNodeBetweenLayers': 70, 'elk.spacing.nodeNode': 18,
        'elk.layered.spacing.edgeNodeBetweenLayers': 20, 'elk.spacing.componentComponent': 40, 'elk.aspectRatio': this.aspect(),
      },
    } as cytoscape.LayoutOptions);
    const done = new Promise<void>((resolve) => layout.one('layoutstop', () => resolve()));
    layout.run();
    await done;
  }

  private aspect(): number {
    const w = this.container.clientWidth;
    const h = this.container.clientHeight;
    return w > 0 && h > 0 ? w / h : 1.6;
  }

  /** The zoom at which the whole drawing fits the canvas (with the framing padding). */
  private fitZoom(): number {
    const box = this.cy.elements().boundingBox();
    if (box.w <= 0 || box.h <= 0) return 1;
    return Math.min((this.container.clientWidth - 2 * FRAME_PADDING) / box.w, (this.container.clientHeight - 2 * FRAME_PADDING) / box.h);
  }

  /** Removes the whole drawing (a failed load never leaves another view's graph under the view tabs). */
  clear(): void {
    this.cy.elements().remove();
    this.selected = null;
  }

  /** Selects `id` (or clears with null): incident edges and direct neighbors highlighted, everything else muted. */
  select(id: string | null): void {
    this.selected = id;
    this.cy.batch(() => {
      this.cy.elements().removeClass('selected neighbor highlight muted');
      if (id === null) return;
      const node = this.cy.getElementById(id);
      if (node.empty()) return;
      const incident = node.connectedEdges();
      const neighbors = incident.connectedNodes().difference(node);
      node.addClass('selected');
      incident.addClass('highlight');
      neighbors.addClass('neighbor');
      this.cy.elements().difference(node.union(incident).union(neighbors)).addClass('muted');
    });
  }

  /** The selected node id, if any. */
  selection(): string | null {
    return this.selected;
  }

  /** Ids of the selected node's direct neighbors (empty without selection). */
  neighborsOf(id: string): string[] {
    const node = this.cy.getElementById(id);
    return node.empty() ? [] : node.neighborhood('node').map((n) => String(n.id()));
  }

  /** Multiplies the zoom by `factor` around the canvas center. */
  zoomBy(factor: number): void {
    const level = Math.min(this.cy.maxZoom(), Math.max(this.cy.minZoom(), this.cy.zoom() * factor));
    this.cy.zoom({ level, renderedPosition: { x: this.container.clientWidth / 2, y: this.container.clientHeight / 2 } });
  }

  /**
   * The fitted framing: the whole drawing when it fits at a readable zoom (at most 1.5); otherwise
   * the readable zoom {@link MIN_LABEL_ZOOM} centred on the focus (or the first drawn node near the
   * top), so labels stay legible and the rest is reached by panning. `data-framing` on the canvas
   * says which (`fit` or `readable`).
   */
  reset(): void {
    const middle = { x: this.container.clientWidth / 2, y: this.container.clientHeight / 2 };
    this.cy.fit(this.cy.elements(), FRAME_PADDING);
    if (this.cy.zoom() > 1.5) this.cy.zoom({ level: 1.5, renderedPosition: middle });
    if (this.cy.zoom() >= MIN_LABEL_ZOOM || this.cy.nodes().empty()) {
      this.cy.center();
      this.container.dataset.framing = 'fit';
      return;
    }
    this.cy.zoom(MIN_LABEL_ZOOM);
    const focus = this.cy.nodes('.focus');
    if (focus.nonempty()) this.cy.center(focus.first());
    else {
      const anchor = this.cy.nodes().first();
      this.cy.center(anchor);
      const top = anchor.renderedBoundingBox({}).y1;
      this.cy.panBy({ x: 0, y: FRAME_PADDING - top });
    }
    this.container.dataset.framing = 'readable';
  }

  /** Centers the viewport on the selection; false when nothing is selected. */
  centerSelection(): boolean {
    if (this.selected === null) return false;
    const node = this.cy.getElementById(this.selected);
    if (node.empty()) return false;
    this.cy.center(node);
    return true;
  }

  /** Current zoom level and pan offset (rendered pixels). */
  viewport(): { zoom: number; pan: { x: number; y: number } } {
    return { zoom: this.cy.zoom(), pan: { ...this.cy.pan() } };
  }

  /** The neighbor of `from` lying most nearly in `direction` (an edge away), or null. */
  neighborToward(from: string, direction: Direction): string | null {
    const node = this.cy.getElementById(from);
    if (node.empty()) return null;
    const origin = node.position();
    const [dx, dy] = { left: [-1, 0], right: [1, 0], up: [0, -1], down: [0, 1] }[direction];
    let best: { id: string; score: number } | null = null;
    node.neighborhood('node').forEach((other) => {
      const p = other.position();
      const vx = p.x - origin.x;
      const vy = p.y - origin.y;
      const length = Math.hypot(vx, vy) || 1;
      const along = (vx * dx! + vy * dy!) / length;
      if (along <= 0.2) return;
      const score = along * 1000 - length;
      if (best === null || score > best.score) best = { id: String(other.id()), score };
    });
    return (best as { id: string } | null)?.id ?? null;
  }

  /** The distinct relations of the drawn edges, for the key. */
  drawnRelations(): { relation: string; category: string; omitted: boolean }[] {
    const seen = new Map<string, { relation: string; category: string; omitted: boolean }>();
    this.cy.edges().forEach((edge) => {
      const omitted = edge.hasClass('omitted');
      const relation = omitted ? 'omitted path' : String(edge.data('relation'));
      if (!seen.has(relation)) seen.set(relation, { relation, category: String(edge.data('category')), omitted });
    });
    return [...seen.values()].sort((a, b) => a.category.localeCompare(b.category) || a.relation.localeCompare(b.relation));
  }

  /** Ids of every drawn node. */
  drawnNodes(): string[] {
    return this.cy.nodes().map((n) => String(n.id()));
  }

  /**
   * A read-only view of the drawing for tests and debugging (installed as `window.docforgeGraph`):
   * drawn node ids, an element's classes, a node's page coordinates, the drawn edges, the viewport.
   */
  inspection(): GraphInspection {
    return {
      nodes: () => this.drawnNodes(),
      edges: () => this.cy.edges().map((e) => ({ source: String(e.data('source')), target: String(e.data('target')), relation: String(e.data('relation')), omitted: e.hasClass('omitted') })),
      classes: (id) => {
        const element = this.cy.getElementById(id);
        return element.empty() ? [] : element.classes();
      },
      pagePosition: (id) => {
        const element = this.cy.getElementById(id);
        if (element.empty()) return null;
        const rect = this.container.getBoundingClientRect();
        const p = element.renderedPosition();
        return { x: rect.left + p.x, y: rect.top + p.y };
      },
      viewport: () => this.viewport(),
    };
  }
}

/** See GraphCanvas.inspection. */
export interface GraphInspection {
  nodes(): string[];
  edges(): { source: string; target: string; relation: string; omitted: boolean }[];
  classes(id: string): string[];
  pagePosition(id: string): { x: number; y: number } | null;
  viewport(): { zoom: number; pan: { x: number; y: number } };
}
