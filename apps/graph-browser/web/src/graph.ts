/**
 * The graph canvas: Cytoscape.js laid out by ELK's layered algorithm (cytoscape-elk). Owns the
 * viewport (fitted framing, wheel zoom, drag pan, zoom buttons, reset, centering), the selection
 * styling (selected node, incident edges, direct neighbors, muted rest) and geometric keyboard
 * moves along edges. Nothing here ever talks to the worker.
 */
import cytoscape from 'cytoscape';
import { relationStyle } from './relations.js';
import { packPositions } from './pack.js';
import { labelBox, READABLE_ZOOM, STYLE } from './graph-style.js';
import { geometryOf, type Geometry } from './geometry.js';

/** One node to draw: `label` is shown in full (leaf name and kind), `tooltip` is the full id; `parent` makes it a child of a compound node (the map). */
export interface DrawNode {
  id: string;
  label: string;
  tooltip: string;
  classes: string[];
  parent?: string;
}

/**
 * One edge to draw, always from `source` to `target` as drawn. `relation` is the stored relation;
 * `label` the text shown (the inverse wording, e.g. `imported by`, when `reversed` says the edge is
 * drawn against its stored direction). Omitted edges (Logic bridges) are grey, dashed and labelled;
 * `weight` (map edges) is the drawn width in pixels.
 */
export interface DrawEdge {
  id: string;
  source: string;
  target: string;
  relation: string;
  category: string;
  label?: string;
  omitted?: boolean;
  reversed?: boolean;
  weight?: number;
  classes?: string[];
}

/** Arrow-key directions for keyboard moves. */
export type Direction = 'left' | 'right' | 'up' | 'down';

/** Options of one drawing: ELK's direction; `layoutEdges` caps the edges ELK lays out (the heaviest, by `weight`), all are drawn. */
export interface DrawOptions {
  direction: 'DOWN' | 'RIGHT' | 'UP';
  layoutEdges?: number;
}

/** The initial framing of a drawing: `fit` (everything inside at a readable zoom) or `focus` (the focus and its first ring; `offscreen` nodes lie outside). */
export interface Framing {
  mode: 'fit' | 'focus';
  offscreen: number;
}

/** One entry of the relationship key. */
export interface DrawnRelation {
  relation: string;
  category: string;
  omitted: boolean;
  reversed: boolean;
  label: string;
}

/** Padding of the fitted framing, in rendered pixels. */
const FRAME_PADDING = 30;

/** The Cytoscape canvas of the page. */
export class GraphCanvas {
  private readonly cy: cytoscape.Core;
  private selected: string | null = null;
  private elkLoaded: Promise<void> | null = null;

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

  /**
   * Replaces the drawing and lays it out; resolves with the initial framing once framed.
   * `layoutstop` of the last layout is recorded as `data-layout-stop-ms` on the canvas (the page
   * clock: milliseconds since navigation started), and the stages as performance marks
   * (`draw-start`, `draw-added`, `draw-positioned`, `draw-laid`, `draw-framed`) for ops/bench/browser-overview.mjs.
   */
  async draw(nodes: readonly DrawNode[], edges: readonly DrawEdge[], options: DrawOptions): Promise<Framing> {
    const parents = new Set(nodes.flatMap((n) => (n.parent ? [n.parent] : [])));
    const elements: cytoscape.ElementDefinition[] = [
      ...nodes.map((n) => ({
        group: 'nodes' as const,
        data: { id: n.id, label: n.label, tooltip: n.tooltip, ...(n.parent ? { parent: n.parent } : {}), ...(parents.has(n.id) ? {} : labelBox(n.label)) },
        classes: n.classes.join(' '),
      })),
      ...edges.map((e) => {
        const style = e.omitted ? { color: '#adb5bd', pattern: 'dashed', arrow: 'triangle' } : relationStyle(e.relation, e.category);
        return {
          group: 'edges' as const,
          data: { id: e.id, source: e.source, target: e.target, relation: e.relation, category: e.category, label: e.label ?? e.relation, reversed: e.reversed === true, weight: e.weight ?? 2, ...style },
          classes: [...(e.omitted ? ['omitted'] : []), ...(e.classes ?? [])].join(' '),
        };
      }),
    ];
    performance.mark('draw-start');
    this.cy.batch(() => {
      this.cy.elements().remove();
      this.cy.add(elements);
    });
    performance.mark('draw-added');
    this.selected = null;
    const compound = parents.size > 0;
    await this.layout(options.direction, compound, options.layoutEdges);
    performance.mark('draw-positioned');
    // A wide layer (a focus with ~25 neighbours) or a long chain fits only far below a readable
    // zoom in one direction; the other axis often fits it much better, so try it and keep the better.
    const first = compound ? 0 : this.fitZoom();
    if (!compound && first < READABLE_ZOOM && nodes.length > 2) {
      await this.layout(options.direction === 'RIGHT' ? 'DOWN' : 'RIGHT', false);
      if (this.fitZoom() < first) await this.layout(options.direction, false);
      if (Math.max(first, this.fitZoom()) < READABLE_ZOOM) await this.ringFirst(options.direction);
    }
    performance.mark('draw-laid');
    this.container.dataset.layoutStopMs = String(Math.round(performance.now()));
    const framing = this.reset();
    performance.mark('draw-framed');
    return framing;
  }

  /**
   * Loads ELK (cytoscape-elk and elkjs, a separate chunk of the bundle) once; the first screen
   * never waits for it, the focus views do. Safe to call early to warm it.
   */
  preloadElk(): Promise<void> {
    this.elkLoaded ??= import('cytoscape-elk').then((module) => {
      cytoscape.use(module.default);
    });
    return this.elkLoaded;
  }

  /**
   * Lays the drawing out without fitting (the framing is {@link reset}'s): ELK layered in
   * `direction`, or, for a drawing with compound nodes (the map), the box packing of pack.ts
   * through Cytoscape's `preset` layout (no ELK: see pack.ts). `maxEdges` caps the heaviest edges
   * layered layout sees.
   */
  private async layout(direction: 'DOWN' | 'RIGHT' | 'UP', compound: boolean, maxEdges?: number): Promise<void> {
    if (compound) {
      const items = this.cy.nodes().map((n) => ({
        id: String(n.id()), ...(n.isChild() ? { parent: String(n.parent().first().id()) } : {}), ...(n.isParent() ? {} : { w: Number(n.data('w')), h: Number(n.data('h')) }),
      }));
      const positions = packPositions(items, this.aspect());
      await this.run(this.cy.nodes().filter((n) => !n.isParent()).layout({ name: 'preset', fit: false, animate: false, positions: (node: cytoscape.NodeSingular) => positions.get(String(node.id())) ?? { x: 0, y: 0 } } as cytoscape.LayoutOptions));
      return;
    }
    await this.preloadElk();
    let eles = this.cy.elements();
    if (maxEdges !== undefined && this.cy.edges().length > maxEdges) {
      const light = this.cy.edges().sort((a, b) => Number(b.data('weight')) - Number(a.data('weight'))).slice(maxEdges);
      eles = eles.difference(light);
    }
    await this.run(eles.layout({
      name: 'elk', fit: false, animate: false, nodeDimensionsIncludeLabels: true,
      elk: {
        algorithm: 'layered', 'elk.direction': direction, 'elk.layered.spacing.nodeNodeBetweenLayers': 70, 'elk.spacing.nodeNode': 18,
        'elk.layered.spacing.edgeNodeBetweenLayers': 20, 'elk.spacing.componentComponent': 40, 'elk.aspectRatio': this.aspect(),
      },
    } as cytoscape.LayoutOptions));
  }

  /** The node the initial framing centres on when the drawing does not fit: the focus, else the anchor, else the first drawn node. */
  private centre(): cytoscape.NodeCollection {
    const marked = this.cy.nodes('.focus, .anchor').first();
    return (marked.nonempty() ? marked : this.cy.nodes().filter((n) => !n.isParent()).first()) as unknown as cytoscape.NodeCollection;
  }

  /**
   * For a drawing that cannot be read whole at {@link READABLE_ZOOM}: lays out the centre and its
   * first ring on their own, as compactly as fits (ELK layered along either axis, else a grid of
   * equal cells with the centre in the middle), and the rest with ELK beside them to the right, so the initial
   * framing holds the ring at a readable zoom and the rest waits off-screen (issue 34 item 5).
   */
  private async ringFirst(direction: 'DOWN' | 'RIGHT' | 'UP'): Promise<void> {
    const centre = this.centre();
    if (centre.empty()) return;
    const ring = centre.closedNeighborhood().nodes();
    const ringEles = ring.union(ring.edgesWith(ring));
    const elkOptions = (d: 'DOWN' | 'RIGHT' | 'UP'): cytoscape.LayoutOptions => ({
      name: 'elk', fit: false, animate: false, nodeDimensionsIncludeLabels: true,
      elk: { algorithm: 'layered', 'elk.direction': d, 'elk.layered.spacing.nodeNodeBetweenLayers': 60, 'elk.spacing.nodeNode': 14, 'elk.aspectRatio': this.aspect() },
    } as cytoscape.LayoutOptions);
    let fitted = false;
    for (const d of [direction, direction === 'RIGHT' ? 'DOWN' : 'RIGHT'] as const) {
      await this.run(ringEles.layout(elkOptions(d)));
      if (this.fitZoom(ring) >= READABLE_ZOOM) {
        fitted = true;
        break;
      }
    }
    if (!fitted) {
      // A grid of equal cells sized by the widest and tallest ring node, as many columns as the
      // canvas holds at the readable zoom, the centre in the middle cell.
      const boxes = ring.map((n) => n.boundingBox({ includeLabels: true }));
      const cellW = Math.max(...boxes.map((b) => b.w)) + 16;
      const cellH = Math.max(...boxes.map((b) => b.h)) + 16;
      const width = (this.container.clientWidth - 2 * FRAME_PADDING) / READABLE_ZOOM;
      const height = (this.container.clientHeight - 2 * FRAME_PADDING) / READABLE_ZOOM;
      let cols = Math.max(1, Math.floor(width / cellW));
      if (Math.ceil(ring.length / cols) * cellH > height) cols = Math.max(cols, Math.ceil(ring.length / Math.max(1, Math.floor(height / cellH))));
      const order = ring.difference(centre).map((n) => String(n.id()));
      order.splice(Math.floor(order.length / 2), 0, String(centre.first().id()));
      const at = new Map(order.map((id, i) => [id, { x: (i % cols) * cellW, y: Math.floor(i / cols) * cellH }]));
      await this.run(ring.layout({ name: 'preset', fit: false, animate: false, positions: (n: cytoscape.NodeSingular) => at.get(String(n.id())) ?? { x: 0, y: 0 } } as cytoscape.LayoutOptions));
    }
    const rest = this.cy.nodes().difference(ring);
    if (rest.empty()) return;
    await this.run(rest.union(rest.edgesWith(rest)).layout(elkOptions(direction)));
    const ringBox = ring.boundingBox({});
    const restBox = rest.boundingBox({});
    rest.shift({ x: ringBox.x2 + 160 - restBox.x1, y: ringBox.y1 - restBox.y1 });
  }

  /** Runs `layout` and resolves at its `layoutstop`. */
  private async run(layout: cytoscape.Layouts): Promise<void> {
    const done = new Promise<void>((resolve) => layout.one('layoutstop', () => resolve()));
    layout.run();
    await done;
  }

  private aspect(): number {
    const w = this.container.clientWidth;
    const h = this.container.clientHeight;
    return w > 0 && h > 0 ? w / h : 1.6;
  }

  /** The zoom at which the whole drawing (or `eles`) fits the canvas (with the framing padding). */
  private fitZoom(eles: cytoscape.CollectionReturnValue | cytoscape.NodeCollection = this.cy.elements()): number {
    const box = eles.boundingBox({});
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
   * The initial framing (issue 34 item 5): the whole drawing when it fits at a zoom where node text
   * renders at 11 px or more ({@link READABLE_ZOOM}; at most 1.5); otherwise the focus (or the
   * `anchor` node, else the first drawn node) and its first ring, at a readable zoom, with the
   * number of nodes left outside the viewport. `data-framing` and `data-offscreen` on the canvas say which.
   */
  reset(): Framing {
    const w = this.container.clientWidth;
    const h = this.container.clientHeight;
    // One bounding box and one viewport change: each Cytoscape fit/zoom/center call recomputes the
    // drawing's bounds, which costs more than the layout on a map of a few hundred edges.
    const frame = (box: cytoscape.BoundingBox12 & cytoscape.BoundingBoxWH, zoom: number): void => {
      this.cy.viewport({ zoom, pan: { x: w / 2 - ((box.x1 + box.x2) / 2) * zoom, y: h / 2 - ((box.y1 + box.y2) / 2) * zoom } });
    };
    const fits = (box: cytoscape.BoundingBoxWH): number => Math.min((w - 2 * FRAME_PADDING) / Math.max(1, box.w), (h - 2 * FRAME_PADDING) / Math.max(1, box.h));
    let mode: Framing['mode'] = 'fit';
    // The map's straight edges run between its boxes, so its nodes bound it (edge bounds are the
    // costliest part of the first bounds computation); other views' curved, labelled edges count.
    const all = (this.cy.nodes(':parent').nonempty() ? this.cy.nodes() : this.cy.elements()).boundingBox({});
    if (this.cy.nodes().empty() || fits(all) >= READABLE_ZOOM) {
      frame(all, Math.min(1.5, fits(all)));
    } else {
      mode = 'focus';
      const centre = this.centre();
      const ring = centre.closedNeighborhood().nodes().filter((n) => !n.isParent());
      const box = ring.boundingBox({});
      const ringZoom = fits(box);
      frame(ringZoom >= READABLE_ZOOM ? box : centre.boundingBox({}), Math.min(1.5, Math.max(READABLE_ZOOM, ringZoom)));
    }
    const offscreen = this.offscreen();
    this.container.dataset.framing = mode;
    this.container.dataset.offscreen = String(offscreen);
    return { mode, offscreen };
  }

  /** Drawn nodes (compound parents aside) whose box lies partly or wholly outside the canvas (model boxes through the viewport: no render). */
  private offscreen(): number {
    const w = this.container.clientWidth;
    const h = this.container.clientHeight;
    const zoom = this.cy.zoom();
    const pan = this.cy.pan();
    return this.cy.nodes().filter((n) => {
      if (n.isParent()) return false;
      const b = n.boundingBox({ includeLabels: true });
      return b.x1 * zoom + pan.x < -0.5 || b.y1 * zoom + pan.y < -0.5 || b.x2 * zoom + pan.x > w + 0.5 || b.y2 * zoom + pan.y > h + 0.5;
    }).length;
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

  /** The distinct relations of the drawn edges, for the key: one entry per relation and drawn direction (`reversed`: drawn target → source, shown with its inverse `label`). */
  drawnRelations(): DrawnRelation[] {
    const seen = new Map<string, DrawnRelation>();
    this.cy.edges().forEach((edge) => {
      const omitted = edge.hasClass('omitted');
      const relation = omitted ? 'omitted path' : String(edge.data('relation'));
      const reversed = edge.data('reversed') === true;
      const key = `${relation}\0${reversed}`;
      if (!seen.has(key)) seen.set(key, { relation, category: String(edge.data('category')), omitted, reversed, label: omitted ? relation : reversed ? String(edge.data('label')) : relation });
    });
    return [...seen.values()].sort((a, b) => a.category.localeCompare(b.category) || a.relation.localeCompare(b.relation) || Number(a.reversed) - Number(b.reversed));
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
      edges: () => this.cy.edges().map((e) => ({ source: String(e.data('source')), target: String(e.data('target')), relation: String(e.data('relation')), label: String(e.data('label')), reversed: e.data('reversed') === true, omitted: e.hasClass('omitted') })),
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
      geometry: () => geometryOf(this.cy, this.container),
    };
  }
}

/** See GraphCanvas.inspection. */
export interface GraphInspection {
  nodes(): string[];
  edges(): { source: string; target: string; relation: string; label: string; reversed: boolean; omitted: boolean }[];
  classes(id: string): string[];
  pagePosition(id: string): { x: number; y: number } | null;
  viewport(): { zoom: number; pan: { x: number; y: number } };
  geometry(): Geometry;
}
