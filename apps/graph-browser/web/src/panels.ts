/**
 * The panels around the graph: the left result set, the compact descriptor card, the full
 * inspector, the semantic cards of the right panel, the hidden-node list and the relationship key.
 * Each renderer replaces its container's content and reports user actions through callbacks.
 */
import { button, el } from './dom.js';
import { CATEGORIES, categoryTitle, relationStyle } from './relations.js';
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
 * Where a node lives, to tell equal labels apart: the owning class/namespace and file of a code
 * symbol (`code:src/a.ts#Ledger.refund` → `Ledger · a.ts`), else the file name of its source.
 */
export function contextOf(node: GraphNode): string {
  const hash = node.id.indexOf('#');
  const file = node.source_path ?? (hash > 0 ? node.id.slice(node.id.indexOf(':') + 1, hash) : '');
  const base = file.split('/').pop() ?? '';
  if (hash > 0) {
    const qualified = node.id.slice(hash + 1);
    const owner = qualified.endsWith(`.${node.leaf}`) ? qualified.slice(0, -node.leaf.length - 1) : qualified.includes('.') ? qualified.slice(0, qualified.lastIndexOf('.')) : '';
    return owner ? `${owner} · ${base}` : base;
  }
  return base;
}

/**
 * Fills the left panel with one bounded result set; `onOpen` explores an item. Labels that occur
 * more than once (and code members) carry their owner and file; `set.more` adds a "more" button.
 */
export function renderResults(container: HTMLElement, heading: string, set: ResultSet, onOpen: (id: string) => void): void {
  const shown = set.items.length;
  const counts = new Map<string, number>();
  for (const item of set.items) counts.set(`${item.leaf}\0${item.kind}`, (counts.get(`${item.leaf}\0${item.kind}`) ?? 0) + 1);
  const list = el('ul', { class: 'items' });
  for (const item of set.items) {
    const leaf = item.leaf;
    const context = contextOf(item);
    const showContext = context !== '' && ((counts.get(`${leaf}\0${item.kind}`) ?? 0) > 1 || (item.id.includes('#') && context.includes(' · ')));
    const text = showContext ? `${leaf} · ${item.kind} — ${context}` : `${leaf} · ${item.kind}`;
    list.append(el('li', { 'data-id': item.id }, button(text, () => onOpen(item.id), { title: item.id, 'aria-label': `Explore ${leaf} (${item.kind}${showContext ? `, in ${context}` : ''}), ${item.id}` })));
  }
  const children: HTMLElement[] = [
    el('h2', {}, heading),
    el('p', { class: 'note' }, `${shown} node${shown === 1 ? '' : 's'}${set.truncated ? (set.more ? ', more available' : ', truncated (bounded result set)') : ''}`),
    list,
  ];
  if (set.truncated && set.more) children.push(button('Show more', set.more, { id: 'results-more', 'aria-label': `Show more results for ${heading}` }));
  container.replaceChildren(...children);
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
      el('p', {}, 'Pick a kind, search, or choose a node in the left panel, then Explore it to draw its neighborhood.')),
    el('div', { class: 'group-card', 'data-category': 'kinds' }, el('h2', {}, 'Nodes by kind'), list),
  );
}

/** The compact descriptor card of the selected node. */
export function renderCard(container: HTMLElement, node: GraphNode, actions: { onPill: (c: Criterion) => void; buttons: { text: string; label: string; run: () => void }[] }): void {
  container.replaceChildren(
    el('div', { class: 'leaf', title: node.id }, node.leaf),
    el('div', { class: 'kind' }, node.kind),
    el('div', { class: 'title' }, node.title),
    el('div', { class: 'pills' }, ...pillsOf(node).map((c) => pill(c, actions.onPill))),
    el('div', { class: 'actions' }, ...actions.buttons.map((b) => button(b.text, b.run, { 'aria-label': b.label }))),
  );
  container.hidden = false;
}

function valueText(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** The full inspector: every field, relations both ways, source location. */
export function renderInspector(container: HTMLElement, full: NodeResponse, actions: { onOpen: (id: string) => void; onSource: () => void; onClose: () => void }): void {
  const fields = el('dl');
  for (const [name, value] of Object.entries(full.node)) fields.append(el('dt', {}, name), el('dd', {}, valueText(value)));
  if (full.body_truncated) fields.append(el('dt', {}, 'body_truncated'), el('dd', {}, 'true'));
  fields.append(el('dt', {}, 'logic_steps'), el('dd', {}, String(full.logic_steps)));
  const relations = (direction: 'out' | 'in'): HTMLElement => {
    const rows = direction === 'out' ? full.outgoing : full.incoming;
    const list = el('ul', { class: 'items', 'data-direction': direction });
    for (const row of rows) {
      const otherId = direction === 'out' ? row.edge.target : row.edge.source;
      const label = `${direction === 'out' ? '→' : '←'} ${row.edge.relation} ${row.other ? `${row.other.leaf} · ${row.other.kind}` : otherId}`;
      list.append(el('li', {}, button(label, () => row.other && actions.onOpen(otherId), {
        title: `${otherId} (${categoryTitle(row.edge.category)}; ${row.source_path}:${row.line})`,
        'aria-label': `Explore ${otherId} (${row.edge.relation}, ${direction === 'out' ? 'outgoing' : 'incoming'})`,
      })));
    }
    if (rows.length === 0) list.append(el('li', { class: 'note' }, 'none'));
    const truncated = direction === 'out' ? full.outgoing_truncated : full.incoming_truncated;
    if (truncated) list.append(el('li', { class: 'note' }, 'truncated (bounded)'));
    return list;
  };
  container.replaceChildren(
    el('div', { class: 'actions' }, button('Close', actions.onClose, { 'aria-label': 'Close inspector' }), button('Open source', actions.onSource, { 'aria-label': `Open the source of ${full.node.id}` })),
    el('h2', {}, 'Node'),
    el('div', { class: 'leaf' }, full.node.id),
    el('p', { class: 'note', 'data-role': 'location' }, `${full.source.path}:${full.source.start_line}-${full.source.end_line}`),
    fields,
    el('h2', {}, 'Outgoing relations'),
    relations('out'),
    el('h2', {}, 'Incoming relations'),
    relations('in'),
  );
  container.hidden = false;
}

/** One contributor in a semantic card. */
export interface Contributor { node: GraphNode; relation: string; category: string }

/** The right panel's semantic cards: the focus, then contributors grouped by relation category. */
export function renderSemanticCards(container: HTMLElement, focus: GraphNode | undefined, contributors: readonly Contributor[], actions: { onSelect: (id: string) => void; onExplore: (id: string) => void }): void {
  const children: HTMLElement[] = [el('h2', {}, 'Focus')];
  if (focus) children.push(el('div', { class: 'group-card', 'data-category': 'focus' }, el('div', { class: 'leaf', title: focus.id }, focus.leaf), el('div', { class: 'kind' }, focus.kind)));
  for (const { category, title } of CATEGORIES) {
    const members = contributors.filter((c) => c.category === category);
    if (members.length === 0) continue;
    const list = el('ul', { class: 'items' });
    for (const m of members) {
      list.append(el('li', { 'data-id': m.node.id },
        button(`${m.node.leaf} · ${m.node.kind}`, () => actions.onSelect(m.node.id), { title: `${m.node.id} (${m.relation})`, 'aria-label': `Select ${m.node.leaf} (${m.node.kind}, ${m.relation}), ${m.node.id}` }),
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
  for (const node of hidden) {
    list.append(el('li', { 'data-id': node.id }, el('span', { title: node.id }, `${node.leaf} · ${node.kind}`), button('Restore', () => onRestore(node.id), { 'aria-label': `Restore ${node.id}` })));
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

/** The relationship key of the visible drawing, regenerated after every draw. */
export function renderKey(container: HTMLElement, relations: readonly { relation: string; category: string; omitted: boolean }[]): void {
  const entries = relations.map((r) => {
    const style = r.omitted ? { color: '#adb5bd', pattern: 'dashed', arrow: 'triangle' } : relationStyle(r.relation, r.category);
    return el('span', { class: 'entry', 'data-relation': r.relation, 'data-category': r.category }, swatch(style.color, style.pattern), `${r.relation} (${r.omitted ? 'hidden steps' : categoryTitle(r.category)}, ${style.pattern}, ${style.arrow})`);
  });
  container.replaceChildren(el('strong', {}, 'Key:'), ...(entries.length > 0 ? entries : [el('span', { class: 'note' }, 'no relations drawn')]));
}
