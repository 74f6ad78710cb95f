/**
 * The panels around the graph: the left result set, the compact descriptor card, the full
 * inspector, the semantic cards of the right panel, the hidden-node list and the relationship key.
 * Each renderer replaces its container's content and reports user actions through callbacks.
 */
import { button, el } from './dom.js';
import { CATEGORIES, categoryTitle, DIRECTION_NOTE, relationStyle } from './relations.js';
import type { DrawnRelation } from './graph.js';
import { nodeLabels } from './labels.js';
import type { GraphNode, NodeResponse, ResultSet } from './types.js';

/** A criterion of /api/filter (field name and exact value). */
export type Criterion = { field: string; value: string };

/** The descriptor pills of a node: kind, family, status, tags, language, capabilities. */
export function pillsOf(node: GraphNode): Criterion[] {
  const pills: Criterion[] = [{ field: 'kind', value: node.kind }];
  if (node.family) pills.push({ field: 'family', value: node.family });
  if (node.status) pills.push({ field: 'status', value: node.status });
  for (const tag of node.tags ?? []) pills.push({ field: 'tag', value: tag });
  if (node.language) pills.push({ field: 'language', value: node.language });
  for (const capability of node.capabilities ?? []) pills.push({ field: 'capability', value: capability });
  return pills;
}

function pill(criterion: Criterion, onPill: (c: Criterion) => void): HTMLButtonElement {
  return button(`${criterion.field}: ${criterion.value}`, () => onPill(criterion), {
    class: 'pill', 'aria-label': `Show every node with ${criterion.field} ${criterion.value}`, 'data-field': criterion.field, 'data-value': criterion.value,
  });
}

/**
 * Fills the left panel with one bounded result set; `onOpen` explores an item. Equal names carry
 * their shortest distinguishing path (`lib/transport.js`, `RefundService.requestRefund`);
 * `set.more` adds a "more" button; `back` adds a button above the list (back to the focus's categories).
 */
export function renderResults(container: HTMLElement, heading: string, set: ResultSet, onOpen: (id: string) => void, back?: { text: string; run: () => void }): void {
  const shown = set.items.length;
  const names = nodeLabels(set.items);
  const list = el('ul', { class: 'items' });
  for (const item of set.items) {
    const name = names.get(item.id) ?? item.leaf;
    list.append(el('li', { 'data-id': item.id }, button(`${name} · ${item.kind}`, () => onOpen(item.id), { title: item.id, 'aria-label': `Explore ${name} (${item.kind}), ${item.id}` })));
  }
  const children: HTMLElement[] = [
    ...(back ? [button(back.text, back.run, { class: 'back', 'aria-label': back.text })] : []),
    el('h2', {}, heading),
    el('p', { class: 'note' }, `${shown} node${shown === 1 ? '' : 's'}${set.truncated ? (set.more ? ', more available' : ', truncated (bounded result set)') : ''}`),
    list,
  ];
  if (set.truncated && set.more) children.push(button('Show more', set.more, { id: 'results-more', 'aria-label': `Show more results for ${heading}` }));
  container.replaceChildren(...children);
}

/**
 * The left panel while a focus is open and no pill is active (issue 34 item 6): the overview one
 * click away, then the focus's descriptor categories, each a button for its exact bounded result set.
 */
export function renderFocusPanel(container: HTMLElement, focus: GraphNode, name: string, actions: { onPill: (c: Criterion) => void; onOverview: () => void }): void {
  const list = el('ul', { class: 'items categories' });
  for (const criterion of pillsOf(focus)) {
    list.append(el('li', { 'data-field': criterion.field, 'data-value': criterion.value }, button(`${criterion.field}: ${criterion.value}`, () => actions.onPill(criterion), {
      'aria-label': `List every node with ${criterion.field} ${criterion.value}`,
    })));
  }
  container.replaceChildren(
    button('← Overview (architecture map)', actions.onOverview, { id: 'to-overview', class: 'back', 'aria-label': 'Back to the overview: the architecture map' }),
    el('h2', {}, `Categories of ${name}`),
    el('p', { class: 'note' }, 'Each lists every node of that category (an exact, bounded result set).'),
    list,
  );
}

/**
 * The overview of the right panel when nothing is focused: a prompt, the snapshot counts, and the
 * node kinds (most frequent first) as buttons that list that kind in the left panel.
 */
export function renderOverviewPanel(container: HTMLElement, overview: { project_id: string; counts: { nodes: number; edges: number; issues: number }; nodes_by_kind: Record<string, number> }, onKind: (kind: string) => void): void {
  const kinds = Object.entries(overview.nodes_by_kind).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const list = el('ul', { class: 'items' });
  for (const [kind, count] of kinds) {
    list.append(el('li', { 'data-kind': kind }, button(`${kind} (${count})`, () => onKind(kind), { 'aria-label': `List every ${kind} node (${count})` })));
  }
  container.replaceChildren(
    el('h2', {}, 'Overview'),
    el('div', { class: 'group-card', 'data-category': 'overview' },
      el('div', { class: 'leaf' }, overview.project_id),
      el('p', { class: 'note' }, `${overview.counts.nodes} nodes, ${overview.counts.edges} edges, ${overview.counts.issues} issues`),
      el('p', {}, 'The canvas shows the architecture map: select a group to expand it or to explore a module. Or pick a kind, search, or choose a node in the left panel and Explore it.')),
    el('div', { class: 'group-card', 'data-category': 'kinds' }, el('h2', {}, 'Nodes by kind'), list),
  );
}

/** The compact descriptor card of the selected node. */
export function renderCard(container: HTMLElement, node: GraphNode, actions: { onPill: (c: Criterion) => void; buttons: { text: string; label: string; run: () => void }[] }): void {
  container.replaceChildren(
    el('div', { class: 'leaf', title: node.id }, node.leaf),
    el('div', { class: 'kind' }, node.kind),
    el('div', { class: 'title' }, node.title),
    // Where it lives, so two cards of equal names read apart.
    ...(node.source_path ? [el('div', { class: 'note', 'data-role': 'where' }, `${node.source_path}${node.start_line ? `:${node.start_line}` : ''}`)] : []),
    el('div', { class: 'pills' }, ...pillsOf(node).map((c) => pill(c, actions.onPill))),
    el('div', { class: 'actions' }, ...actions.buttons.map((b) => button(b.text, b.run, { 'aria-label': b.label }))),
  );
  container.hidden = false;
}

function valueText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return value.map((v) => valueText(v)).join(', ');
  return JSON.stringify(value);
}

/** Whether a field has something to show (empty strings, lists and null are left out). */
function present(value: unknown): boolean {
  return value !== null && value !== undefined && value !== '' && !(Array.isArray(value) && value.length === 0);
}

/** A `<dl>` of the present fields among `names` of `node`. */
function fieldList(node: Record<string, unknown>, names: readonly string[]): HTMLElement {
  const list = el('dl');
  for (const name of names) if (present(node[name])) list.append(el('dt', {}, name), el('dd', {}, valueText(node[name])));
  return list;
}

/** Inspector fields by section; anything else goes to the folded "More fields". */
const IDENTITY_FIELDS = ['kind', 'title', 'family', 'authority', 'status', 'tags', 'language', 'capabilities', 'origin'] as const;
const SOURCE_FIELDS = ['source_path', 'start_line', 'end_line'] as const;
const TEXT_FIELDS = ['summary', 'body'] as const;
const SKIPPED_FIELDS = new Set<string>(['id', 'leaf', 'anchors', ...IDENTITY_FIELDS, ...SOURCE_FIELDS, ...TEXT_FIELDS]);

/**
 * The full inspector in labelled sections (issue 34 item 6): Identity (name, id, descriptors),
 * Source (location, anchors, the source action), Relations (both ways), then folded Text, Hashes
 * and any further fields. Empty fields are left out rather than shown as dashes.
 */
export function renderInspector(container: HTMLElement, full: NodeResponse, actions: { onOpen: (id: string) => void; onSource: () => void; onClose: () => void }): void {
  const node = full.node as unknown as Record<string, unknown>;
  const relations = (direction: 'out' | 'in'): HTMLElement => {
    const rows = direction === 'out' ? full.outgoing : full.incoming;
    const names = nodeLabels(rows.flatMap((r) => (r.other ? [r.other] : [])));
    const list = el('ul', { class: 'items', 'data-direction': direction });
    for (const row of rows) {
      const otherId = direction === 'out' ? row.edge.target : row.edge.source;
      const other = row.other ? `${names.get(row.other.id) ?? row.other.leaf} · ${row.other.kind}` : otherId;
      const label = direction === 'out' ? `→ ${row.edge.relation} ${other}` : `← ${other} ${row.edge.relation} this`;
      list.append(el('li', {}, button(label, () => row.other && actions.onOpen(otherId), {
        title: `${otherId} (${categoryTitle(row.edge.category)}; ${row.source_path}:${row.line})`,
        'aria-label': `Explore ${otherId} (${row.edge.relation}, ${direction === 'out' ? 'outgoing' : 'incoming'})`,
      })));
    }
    if (rows.length === 0) list.append(el('li', { class: 'note' }, 'none'));
    if (direction === 'out' ? full.outgoing_truncated : full.incoming_truncated) list.append(el('li', { class: 'note' }, 'truncated (bounded)'));
    return list;
  };
  const hashes = Object.keys(node).filter((k) => /hash/.test(k) && !SKIPPED_FIELDS.has(k));
  const others = Object.keys(node).filter((k) => !SKIPPED_FIELDS.has(k) && !hashes.includes(k));
  const section = (name: string, ...children: (Node | string)[]): HTMLElement => el('section', { class: 'inspector-section', 'data-section': name, 'aria-label': name }, el('h2', {}, name), ...children);
  const folded = (name: string, ...children: (Node | string)[]): HTMLElement => el('details', { class: 'inspector-section', 'data-section': name }, el('summary', {}, name), ...children);
  const anchors = Array.isArray(node.anchors) ? node.anchors.length : 0;
  container.replaceChildren(
    el('div', { class: 'actions' }, button('Close', actions.onClose, { 'aria-label': 'Close inspector' }), button('Open source', actions.onSource, { 'aria-label': `Open the source of ${full.node.id}` })),
    section('Identity', el('div', { class: 'name' }, full.node.leaf), el('div', { class: 'leaf' }, full.node.id), fieldList(node, IDENTITY_FIELDS)),
    section('Source',
      el('p', { class: 'note', 'data-role': 'location' }, `${full.source.path}:${full.source.start_line}-${full.source.end_line}`),
      el('p', { class: 'note' }, `${anchors} recognized anchor${anchors === 1 ? '' : 's'}; Logic: ${full.logic_steps} step${full.logic_steps === 1 ? '' : 's'}`)),
    section('Relations', el('h3', {}, `Outgoing (${full.outgoing.length}${full.outgoing_truncated ? '+' : ''})`), relations('out'), el('h3', {}, `Incoming (${full.incoming.length}${full.incoming_truncated ? '+' : ''})`), relations('in')),
    folded('Text', fieldList(node, TEXT_FIELDS), ...(full.body_truncated ? [el('p', { class: 'note' }, 'body truncated (bounded)')] : [])),
    folded('Hashes', fieldList(node, hashes)),
    ...(others.length > 0 ? [folded('More fields', fieldList(node, others))] : []),
  );
  container.hidden = false;
}

/** One contributor in a semantic card. */
export interface Contributor { node: GraphNode; relation: string; category: string }

/** The right panel's semantic cards: the focus, then contributors grouped by relation category. */
export function renderSemanticCards(container: HTMLElement, focus: GraphNode | undefined, contributors: readonly Contributor[], actions: { onSelect: (id: string) => void; onExplore: (id: string) => void }): void {
  const children: HTMLElement[] = [el('h2', {}, 'Focus')];
  const names = nodeLabels([...(focus ? [focus] : []), ...contributors.map((c) => c.node)]);
  if (focus) children.push(el('div', { class: 'group-card', 'data-category': 'focus' }, el('div', { class: 'leaf', title: focus.id }, names.get(focus.id) ?? focus.leaf), el('div', { class: 'kind' }, focus.kind)));
  for (const { category, title } of CATEGORIES) {
    const members = contributors.filter((c) => c.category === category);
    if (members.length === 0) continue;
    const list = el('ul', { class: 'items' });
    for (const m of members) {
      list.append(el('li', { 'data-id': m.node.id },
        button(`${names.get(m.node.id) ?? m.node.leaf} · ${m.node.kind}`, () => actions.onSelect(m.node.id), { title: `${m.node.id} (${m.relation})`, 'aria-label': `Select ${names.get(m.node.id) ?? m.node.leaf} (${m.node.kind}, ${m.relation}), ${m.node.id}` }),
        button('Explore', () => actions.onExplore(m.node.id), { 'aria-label': `Explore neighborhood of ${m.node.id}` })));
    }
    children.push(el('div', { class: 'group-card', 'data-category': category }, el('h2', {}, title), list));
  }
  container.replaceChildren(...children);
}

/** The list of hidden nodes with their restore buttons. */
export function renderHidden(container: HTMLElement, hidden: readonly GraphNode[], pruned: number, onRestore: (id: string) => void): void {
  if (hidden.length === 0) {
    container.replaceChildren();
    return;
  }
  const list = el('ul', { class: 'items' });
  const names = nodeLabels(hidden);
  for (const node of hidden) {
    list.append(el('li', { 'data-id': node.id }, el('span', { title: node.id }, `${names.get(node.id) ?? node.leaf} · ${node.kind}`), button('Restore', () => onRestore(node.id), { 'aria-label': `Restore ${node.id}` })));
  }
  container.replaceChildren(el('h2', {}, 'Hidden'), list, el('p', { class: 'note', id: 'pruned-count' }, `${pruned} pruned with them`));
}

function swatch(color: string, pattern: string): SVGSVGElement {
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('width', '34');
  svg.setAttribute('height', '10');
  svg.setAttribute('aria-hidden', 'true');
  const line = document.createElementNS(ns, 'line');
  for (const [k, v] of Object.entries({ x1: '0', y1: '5', x2: '28', y2: '5', stroke: color, 'stroke-width': '2' })) line.setAttribute(k, v);
  if (pattern === 'dashed') line.setAttribute('stroke-dasharray', '6 3');
  if (pattern === 'dotted') line.setAttribute('stroke-dasharray', '2 3');
  const head = document.createElementNS(ns, 'polygon');
  head.setAttribute('points', '28,1 34,5 28,9');
  head.setAttribute('fill', color);
  svg.append(line, head);
  return svg;
}

/**
 * The relationship key of the visible drawing, regenerated after every draw: the direction rule
 * first (every view), then one entry per drawn relation and direction (an inverse wording names
 * the stored relation it reads against).
 */
export function renderKey(container: HTMLElement, relations: readonly DrawnRelation[], note: string = DIRECTION_NOTE): void {
  const entries = relations.map((r) => {
    const style = r.omitted ? { color: '#adb5bd', pattern: 'dashed', arrow: 'triangle' } : relationStyle(r.relation, r.category);
    const what = r.reversed ? `${r.label} (stored as ${r.relation}, drawn target → source)` : r.relation;
    return el('span', { class: 'entry', 'data-relation': r.relation, 'data-category': r.category, 'data-direction': r.reversed ? 'inverse' : 'stored' },
      swatch(style.color, style.pattern), `${what} (${r.omitted ? 'hidden steps' : categoryTitle(r.category)}, ${style.pattern}, ${style.arrow})`);
  });
  container.replaceChildren(el('strong', {}, 'Key:'), el('span', { class: 'direction', 'data-role': 'direction' }, note), ...(entries.length > 0 ? entries : [el('span', { class: 'note' }, 'no relations drawn')]));
}
