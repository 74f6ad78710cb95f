/**
 * The first screen's controller (issue 34 item 1): draws the architecture map of the overview,
 * selects a group (its card: what it holds, Expand or Collapse, and Explore for a module), and
 * expands or collapses groups in place through the overview endpoint, sending back only group ids
 * that earlier answers minted. Nothing here builds a path or a query of its own.
 */
import { fetchOverview } from './api.js';
import { button, el } from './dom.js';
import type { Framing, GraphCanvas } from './graph.js';
import { MAP_LAYOUT_EDGES, shapeMap, type MapGroup, type OverviewMap } from './map.js';
import type { OverviewResponse } from './types.js';

/** What the map screen needs from the page. */
export interface MapScreenHost {
  canvas: GraphCanvas;
  card: HTMLElement;
  key: HTMLElement;
  /** Shows the status line. */
  status(text: string): void;
  /** Reports a failed request. */
  failure(err: unknown): void;
  /** Explores the neighborhood of a node (drill-down from a module). */
  explore(id: string): void;
  /** Called after every map drawing with its framing. */
  drawn(framing: Framing): void;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** The map screen: the current map answer and its expanded state. */
export class MapScreen {
  private map: OverviewMap | null = null;
  private names = new Map<string, string>();
  private selected: string | null = null;

  constructor(private readonly host: MapScreenHost) {}

  /** Draws the map of `overview` (the automatic first screen, or the last expansion state). */
  async show(overview: OverviewResponse): Promise<Framing> {
    if (this.map === null) this.map = overview.map;
    return this.draw();
  }

  private async draw(): Promise<Framing> {
    const map = this.map!;
    const shaped = shapeMap(map);
    this.names = shaped.names;
    this.selected = null;
    this.host.card.hidden = true;
    const framing = await this.host.canvas.draw(shaped.nodes, shaped.edges, { direction: 'RIGHT', layoutEdges: MAP_LAYOUT_EDGES });
    renderMapKey(this.host.key);
    const leaves = map.groups.filter((g) => !g.expanded).length;
    this.host.status(`Architecture map · ${plural(leaves, 'group')} · ${plural(map.edges.length, 'aggregated edge')}${map.truncated ? ' · bounded (more exists)' : ''}`);
    this.host.drawn(framing);
    return framing;
  }

  /** The group `id` of the drawn map, if any. */
  group(id: string): MapGroup | undefined {
    return this.map?.groups.find((g) => g.id === id);
  }

  /** The selected group, if any. */
  selection(): string | null {
    return this.selected;
  }

  /** Selects a group (null clears) and opens its card. */
  select(id: string | null): void {
    this.host.canvas.select(id);
    this.selected = id;
    const group = id === null ? undefined : this.group(id);
    if (group === undefined) {
      this.host.card.hidden = true;
      return;
    }
    const name = this.names.get(group.id) ?? group.label;
    const buttons: HTMLButtonElement[] = [];
    if (group.expandable && !group.expanded) buttons.push(button('Expand', () => void this.expand(group.id), { 'aria-label': `Expand ${name}` }));
    if (group.expanded) buttons.push(button('Collapse', () => void this.collapse(group.id), { 'aria-label': `Collapse ${name}` }));
    if (group.node_id !== undefined) {
      const nodeId = group.node_id;
      buttons.push(button('Explore neighborhood', () => this.host.explore(nodeId), { 'aria-label': `Explore the neighborhood of ${nodeId}` }));
    }
    this.host.card.replaceChildren(
      el('div', { class: 'leaf', title: group.path || './' }, name),
      el('div', { class: 'kind' }, group.kind === 'file' ? (group.doc_nodes > group.code_nodes ? 'document file' : 'module') : group.kind),
      el('div', { class: 'title' }, `${group.path || './'}: ${plural(group.files, 'file')}, ${group.code_nodes} code and ${group.doc_nodes} documentation nodes`),
      el('div', { class: 'actions' }, ...buttons),
    );
    this.host.card.hidden = false;
  }

  /** Enter on a group: expand it, collapse it, or explore its module. */
  activate(id: string): void {
    const group = this.group(id);
    if (group === undefined) return;
    if (group.expandable && !group.expanded) void this.expand(id);
    else if (group.node_id !== undefined) this.host.explore(group.node_id);
  }

  /** Expands `id` in place: the map again with every expanded group plus this one. */
  async expand(id: string): Promise<void> {
    if (this.map === null) return;
    await this.request([...this.map.expanded.filter((g) => g !== id), id]);
  }

  /** Collapses `id` and every expanded group inside it. */
  async collapse(id: string): Promise<void> {
    if (this.map === null) return;
    const inside = new Set([id]);
    for (const g of this.map.groups) if (g.parent !== null && inside.has(g.parent)) inside.add(g.id);
    await this.request(this.map.expanded.filter((g) => !inside.has(g)));
  }

  private async request(expand: string[]): Promise<void> {
    try {
      const answer = await fetchOverview(expand);
      this.map = answer.map;
      await this.draw();
    } catch (err) {
      this.host.failure(err);
    }
  }
}

/** The key of the map: what the two colours mean and which way aggregated arrows point. */
function renderMapKey(container: HTMLElement): void {
  const swatch = (cls: string, text: string): HTMLElement => el('span', { class: 'entry', 'data-group': cls }, el('span', { class: `box ${cls}`, 'aria-hidden': 'true' }), text);
  container.replaceChildren(
    el('strong', {}, 'Key:'),
    el('span', { class: 'direction', 'data-role': 'direction' }, 'Arrows run source → target in each relation\'s direction (A → B: A imports, calls or documents B); width grows with the edge count; select a group to read its edges.'),
    swatch('group-code', 'code (folders, modules)'),
    swatch('group-docs', 'documentation'),
    el('span', { class: 'entry' }, 'box in a box: expanded folder; dashed: what a bound left out'),
  );
}
