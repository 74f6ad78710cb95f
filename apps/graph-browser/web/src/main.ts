/**
 * The graph browser page (contract: Visualization boundary; issue 13): wires the panels, the
 * canvas and the worker API. Only bounded per-node endpoints are ever requested; the viewport,
 * selection, hide/restore and keyboard moves are client-side and request nothing.
 */
import { ApiError, fetchFilter, fetchGraph, fetchLogic, fetchNode, fetchOverview, fetchSearch, fetchSource, fetchStatus, type GraphKind } from './api.js';
import { byId, el } from './dom.js';
import { GraphCanvas, type Direction, type Framing } from './graph.js';
import { MapScreen } from './first-screen.js';
import { nodeLabels } from './labels.js';
import { renderCard, renderFocusPanel, renderHidden, renderInspector, renderKey, renderOverviewPanel, renderResults, renderSemanticCards, type Criterion } from './panels.js';
import { explainEmpty } from './explain.js';
import { shapeGraph, shapeLogic, stepId } from './shape.js';
import { renderSource } from './source.js';
import { parsePlace, placeHash, VIEWS, type Place, type View } from './state.js';
import type { GraphNode, GraphResponse, LogicResponse, OverviewResponse } from './types.js';

const API_VIEW: Record<Exclude<View, 'logic'>, GraphKind> = { nodes: 'neighborhood', flow: 'flow', web: 'web' };
const LOGIC_KINDS = new Set(['function', 'method']);

const graphEl = byId('graph');
const canvas = new GraphCanvas(graphEl);
const card = byId('card');
const inspector = byId('inspector');
const sourcePanel = byId('source');
const statusEl = byId('status');
const noticeEl = byId('notice');
const staleEl = byId('stale');
const moreEl = byId('more');
const explainEl = byId('explain');
/** Most nodes a category or search list shows after "Show more" (each page stays bounded by the API). */
const MAX_LISTED = 1000;
/** Largest search limit the worker accepts. */
const MAX_SEARCH_LIMIT = 200;
/** How often the page asks whether its snapshot is still the published one, in milliseconds. */
const STATUS_POLL_MS = 30_000;

let place: Place = parsePlace(location.hash, location.search);
const graphs = new Map<View, GraphResponse>();
let logic: LogicResponse | null = null;
const hidden = new Map<View, Set<string>>(VIEWS.map((v) => [v, new Set<string>()]));
const known = new Map<string, GraphNode>();
let loadedFocus: string | null = null;
let overviewAnswer: OverviewResponse | null = null;
let overviewRequest: Promise<OverviewResponse> | null = null;
/** Whether a pill, search or filter result set fills the left panel (else it follows the focus). */
let listActive = false;
const mapScreen = new MapScreen({
  canvas, card, key: byId('key'), status: (text) => setStatus(text), failure: (err) => failure(err), explore: (id) => explore(id),
  drawn: (framing) => showFraming(framing),
});

/** The "more off-screen" notice of the initial framing (issue 34 item 5). */
function showFraming(framing: Framing): void {
  moreEl.hidden = framing.mode === 'fit' || framing.offscreen === 0;
  moreEl.dataset.count = String(framing.offscreen);
  moreEl.textContent = `${framing.offscreen} more node${framing.offscreen === 1 ? '' : 's'} off-screen: this framing keeps text readable around the ${place.focus === null ? 'largest group' : 'focus and its nearest ring'}; pan or zoom out (−) to see the rest.`;
}

/** The overview answer, requested once. */
function ensureOverview(): Promise<OverviewResponse> {
  overviewRequest ??= fetchOverview().then((answer) => {
    overviewAnswer = answer;
    for (const node of answer.entries) known.set(node.id, node);
    return answer;
  });
  return overviewRequest;
}

function setStatus(text: string, error = false): void {
  statusEl.textContent = text;
  statusEl.classList.toggle('error', error);
}

/** Shows `text` in the notice bar over the canvas (never in the toolbar, so the layout never moves); '' clears it. */
function notice(text: string): void {
  noticeEl.replaceChildren(text === '' ? '' : el('span', {}, text), ...(text === '' ? [] : [el('button', { type: 'button', 'aria-label': 'Dismiss message' }, '×')]));
  noticeEl.querySelector('button')?.addEventListener('click', () => notice(''));
  noticeEl.hidden = text === '';
}

/** A failed action (search, inspect, source): the message in the notice bar; the drawing stays. */
function failure(err: unknown): void {
  notice(err instanceof ApiError ? `${err.code}: ${err.message}` : err instanceof Error ? err.message : String(err));
  if (err instanceof ApiError && err.code === 'snapshot_replaced') void checkStatus();
}

/** A failed view load: the message, and an empty canvas and panels, never the previous view's graph. */
function loadFailure(err: unknown): void {
  failure(err);
  clearDrawing();
  graphEl.dataset.state = 'error';
  setStatus(`${place.focus ?? ''} · ${place.view} · not available`, true);
}

function clearDrawing(): void {
  canvas.clear();
  moreEl.hidden = true;
  explainEl.hidden = true;
  byId('paths').hidden = true;
  byId('cards').replaceChildren();
  renderKey(byId('key'), []);
  renderHidden(byId('hidden-nodes'), [], 0, restore);
}

/** The kind of the focus when the page knows it (from a loaded graph, Logic or list). */
function focusKind(): string | undefined {
  if (place.focus === null) return undefined;
  if (logic?.owner.id === place.focus) return logic.owner.kind;
  return known.get(place.focus)?.kind;
}

/** Offers the Logic tab only where Logic can exist: a function or method focus, in a snapshot that allows Logic. */
function updateLogicTab(): void {
  const tab = document.querySelector<HTMLButtonElement>('#views button[data-view="logic"]');
  if (!tab) return;
  const kind = focusKind();
  const allowed = overviewAnswer?.logic_allowed !== false && place.focus !== null && (kind === undefined || LOGIC_KINDS.has(kind));
  tab.disabled = !allowed;
  tab.title = allowed ? 'Logic: static control paths of this function or method' : place.focus === null ? 'Logic needs a focused function or method' : `Logic exists for functions and methods only${kind ? ` (this is a ${kind})` : ''}`;
}

/** Asks the worker whether its snapshot is still the published one; shows the generation and, when not, the stale banner. */
async function checkStatus(): Promise<void> {
  try {
    const status = await fetchStatus();
    byId('generation').textContent = `Snapshot: generation ${status.served.generation}`;
    staleEl.hidden = status.current;
    staleEl.dataset.published = status.published === null ? '' : String(status.published.generation);
    if (!status.current) {
      const now = status.published === null ? 'the project has no valid publication now' : `the project has since published generation ${status.published.generation}`;
      staleEl.textContent = `This page shows generation ${status.served.generation}; ${now}. This view keeps its exact snapshot: call docforge_visualize again to open the current one.`;
    }
  } catch {
    // The status is advisory; a failure here changes nothing on the page.
  }
}

/** One source of truth for the place: `?focus=`/`?view=` of the visualize URL move into the fragment (history.replaceState). */
function canonicalUrl(): void {
  const params = new URLSearchParams(location.search);
  if (!params.has('focus') && !params.has('view')) return;
  const current = parsePlace(location.hash, location.search);
  params.delete('focus');
  params.delete('view');
  const rest = params.toString();
  history.replaceState(null, '', `${location.pathname}${rest ? `?${rest}` : ''}${current.focus !== null ? placeHash(current) : ''}`);
}

/** Records `next` in the URL fragment; the hashchange handler loads it. */
function go(next: Place): void {
  const hash = placeHash(next);
  if (location.hash === hash) void load();
  else location.hash = hash;
}

/** Explicit Explore neighborhood: `id` replaces the root. */
function explore(id: string): void {
  go({ focus: id, view: place.view === 'logic' ? 'nodes' : place.view });
}

function isLogicOwner(node: GraphNode | undefined): boolean {
  return node !== undefined && LOGIC_KINDS.has(node.kind);
}

async function load(): Promise<void> {
  canonicalUrl();
  place = parsePlace(location.hash, location.search);
  for (const button of document.querySelectorAll<HTMLButtonElement>('#views button')) button.setAttribute('aria-pressed', String(button.dataset.view === place.view));
  closeOverlays();
  notice('');
  void checkStatus();
  if (place.focus === null) {
    await showMap();
    return;
  }
  if (loadedFocus !== place.focus) {
    graphs.clear();
    logic = null;
    for (const set of hidden.values()) set.clear();
    loadedFocus = place.focus;
    listActive = false;
  }
  updateLogicTab();
  graphEl.dataset.state = 'loading';
  setStatus(`Loading ${place.view}…`);
  try {
    const kind = focusKind();
    if (place.view === 'logic' && kind !== undefined && !LOGIC_KINDS.has(kind)) {
      throw new ApiError(404, 'logic_not_found', `${known.get(place.focus)?.leaf ?? place.focus} is a ${kind}; Logic exists for functions and methods only.`);
    }
    if (place.view === 'logic') {
      if (logic === null || logic.owner.id !== place.focus) logic = await fetchLogic(place.focus);
    } else if (!graphs.has(place.view)) {
      graphs.set(place.view, await fetchGraph(API_VIEW[place.view], place.focus));
    }
    await draw();
  } catch (err) {
    loadFailure(err);
  }
  updateLogicTab();
}

/** Draws the current view from the loaded data (no request). */
async function draw(): Promise<void> {
  const answered = performance.now();
  const view = place.view;
  const hiddenHere = hidden.get(view)!;
  const paths = byId('paths');
  let hiddenNodes: GraphNode[] = [];
  let pruned = 0;
  let truncated = false;
  let framing: Framing = { mode: 'fit', offscreen: 0 };
  let drawnCount = -1;
  if (view === 'logic') {
    if (!logic) return;
    const shaped = shapeLogic(logic, hiddenHere);
    framing = await canvas.draw(shaped.nodes, shaped.edges, { direction: 'DOWN' });
    renderSemanticCards(byId('cards'), logic.owner, [], { onSelect: select, onExplore: explore });
    const list = el('ol', { class: 'paths' });
    for (const path of shaped.paths) list.append(el('li', { 'data-steps': path.ids.join(' ') }, path.text));
    paths.replaceChildren(el('h2', {}, `Static paths (${shaped.paths.length})`), list);
    paths.hidden = false;
    hiddenNodes = logic.steps.filter((s) => hiddenHere.has(stepId(s.step))).map((s) => ({ id: stepId(s.step), kind: s.kind, title: s.label, leaf: s.label, tags: [], capabilities: [] }));
    truncated = logic.truncated;
  } else {
    const graph = graphs.get(view);
    if (!graph) return;
    for (const node of graph.nodes) known.set(node.id, node);
    const shaped = shapeGraph(graph, hiddenHere, view !== 'nodes');
    framing = await canvas.draw(shaped.nodes, shaped.edges, { direction: view === 'web' ? 'RIGHT' : 'DOWN' });
    drawnCount = shaped.nodes.length;
    renderSemanticCards(byId('cards'), known.get(graph.focus), shaped.contributors, { onSelect: select, onExplore: explore });
    paths.hidden = true;
    hiddenNodes = graph.nodes.filter((n) => hiddenHere.has(n.id));
    pruned = shaped.pruned;
    truncated = graph.truncated;
  }
  renderKey(byId('key'), canvas.drawnRelations());
  renderHidden(byId('hidden-nodes'), hiddenNodes, pruned, restore);
  showFraming(framing);
  const focusShown = place.view === 'logic' ? logic?.owner : known.get(place.focus ?? '');
  explainEmpty(explainEl, view, drawnCount, focusShown ? (nodeLabels([focusShown]).get(focusShown.id) ?? focusShown.leaf) : (place.focus ?? ''), (next) => go({ focus: place.focus, view: next }));
  renderLeftForFocus();
  await new Promise((resolve) => requestAnimationFrame(resolve));
  graphEl.dataset.renderMs = String(Math.round(performance.now() - answered));
  graphEl.dataset.state = 'ready';
  const focusNode = place.view === 'logic' ? logic?.owner : known.get(place.focus ?? '');
  setStatus(`${focusNode ? focusNode.leaf : place.focus} · ${view}${truncated ? ' · truncated (bounded)' : ''}`);
}

function closeOverlays(): void {
  card.hidden = true;
  inspector.hidden = true;
  sourcePanel.hidden = true;
}

/** Left activation: selects `id` (null clears) and opens its compact card. */
function select(id: string | null): void {
  canvas.select(id);
  inspector.hidden = true;
  sourcePanel.hidden = true;
  if (id === null) {
    card.hidden = true;
    return;
  }
  const node = place.view === 'logic' ? stepNode(id) : known.get(id);
  if (!node) return;
  const isFocus = id === place.focus;
  const buttons: { text: string; label: string; run: () => void }[] = [];
  if (place.view !== 'logic' && !isFocus) buttons.push({ text: 'Explore neighborhood', label: `Explore the neighborhood of ${node.id}`, run: () => explore(node.id) });
  if (!isFocus) buttons.push({ text: 'Hide', label: `Hide ${node.id}`, run: () => hide(node.id) });
  if (place.view !== 'logic') {
    buttons.push({ text: 'Inspect', label: `Inspect ${node.id}`, run: () => void inspect(node.id) });
    buttons.push({ text: 'Source', label: `Open the source of ${node.id}`, run: () => void openSource(node.id) });
    if (isLogicOwner(node)) buttons.push({ text: 'Logic', label: `Show the Logic of ${node.id}`, run: () => go({ focus: node.id, view: 'logic' }) });
  }
  renderCard(card, node, { onPill: (c) => void showCategory(c), buttons });
}

function stepNode(id: string): GraphNode | undefined {
  const step = logic?.steps.find((s) => stepId(s.step) === id);
  return step ? { id, kind: step.kind, title: `lines ${step.start_line}-${step.end_line}`, leaf: step.label, tags: [], capabilities: [] } : undefined;
}

/** Hides a non-focus node client-side (Flow and Web prune what it disconnected). */
function hide(id: string): void {
  if (id === place.focus) return;
  hidden.get(place.view)!.add(id);
  card.hidden = true;
  void draw();
}

function restore(id: string): void {
  hidden.get(place.view)!.delete(id);
  void draw();
}

/** Right click: the full inspector (one bounded node request). */
async function inspect(id: string): Promise<void> {
  if (place.view === 'logic') return;
  try {
    const full = await fetchNode(id);
    card.hidden = true;
    renderInspector(inspector, full, { onOpen: explore, onSource: () => void openSource(id), onClose: () => (inspector.hidden = true) });
    inspector.querySelector('button')?.focus();
  } catch (err) {
    failure(err);
  }
}

async function openSource(id: string): Promise<void> {
  try {
    const source = await fetchSource(id);
    closeOverlays();
    renderSource(sourcePanel, source, () => {
      sourcePanel.hidden = true;
      graphEl.focus();
    });
    sourcePanel.querySelector('button')?.focus();
  } catch (err) {
    failure(err);
  }
}

/** Descriptor pill: the exact bounded category result set in the left panel. */
async function showCategory(criterion: Criterion, after: string | null = null, shown: GraphNode[] = []): Promise<void> {
  try {
    const set = await fetchFilter({ [criterion.field]: criterion.value }, after);
    for (const node of set.items) known.set(node.id, node);
    const items = [...shown, ...set.items];
    const next = set.next_after;
    const more = next && items.length < MAX_LISTED ? () => void showCategory(criterion, next, items) : undefined;
    listActive = true;
    renderResults(byId('results'), `${criterion.field} = ${criterion.value}`, { items, truncated: set.truncated, ...(more ? { more } : {}) }, explore, backToFocus());
  } catch (err) {
    failure(err);
  }
}

async function search(query: string, limit = 50): Promise<void> {
  try {
    const answer = await fetchSearch(query, limit);
    const items = answer.items.map((i) => i.node);
    for (const node of items) known.set(node.id, node);
    const more = limit < MAX_SEARCH_LIMIT ? () => void search(query, Math.min(MAX_SEARCH_LIMIT, limit * 2)) : undefined;
    listActive = true;
    renderResults(byId('results'), `Search: ${query}`, { items, truncated: answer.truncated, ...(more ? { more } : {}) }, explore, backToFocus());
  } catch (err) {
    failure(err);
  }
}

/** Fills the left panel with the overview's entry nodes (no focus, no list chosen). */
function renderOverviewList(answer: OverviewResponse): void {
  renderResults(byId('results'), `Overview: ${answer.project_id} (${answer.counts.nodes} nodes, ${answer.counts.edges} edges)`, { items: answer.entries, truncated: answer.truncated }, explore);
}

/** The first screen: the architecture map in the canvas, the node kinds on the right, the entry nodes on the left. */
async function showMap(): Promise<void> {
  clearDrawing();
  updateLogicTab();
  graphEl.dataset.state = 'loading';
  setStatus('Loading the architecture map…');
  try {
    const answer = await ensureOverview();
    performance.mark('overview-answer');
    if (place.focus !== null) return;
    // The map first (the first screen's drawing), the panels after it.
    const drawn = mapScreen.show(answer);
    updateLogicTab();
    renderOverviewPanel(byId('cards'), answer, (kind) => void showCategory({ field: 'kind', value: kind }));
    if (!listActive) renderOverviewList(answer);
    await drawn;
    graphEl.dataset.state = 'overview';
  } catch (err) {
    loadFailure(err);
  }
}

/** The left panel while a focus is open and no list is chosen: the focus's categories and the way back to the overview. */
function renderLeftForFocus(): void {
  if (listActive || place.focus === null) return;
  const focusNode = place.view === 'logic' ? logic?.owner : known.get(place.focus);
  if (!focusNode) return;
  renderFocusPanel(byId('results'), focusNode, focusNode.leaf, { onPill: (c) => void showCategory(c), onOverview: () => go({ focus: null, view: 'nodes' }) });
}

/** The back button of a list shown while a focus is open. */
function backToFocus(): { text: string; run: () => void } | undefined {
  if (place.focus === null) return undefined;
  return { text: '← Back to the categories of the focus', run: () => { listActive = false; renderLeftForFocus(); } };
}

function onKey(event: KeyboardEvent): void {
  if (place.focus === null) {
    mapKey(event);
    return;
  }
  const current = canvas.selection() ?? (place.view === 'logic' ? null : place.focus);
  const arrows: Record<string, Direction> = { ArrowLeft: 'left', ArrowRight: 'right', ArrowUp: 'up', ArrowDown: 'down' };
  if (event.key in arrows) {
    event.preventDefault();
    if (current === null) {
      const first = canvas.drawnNodes()[0];
      if (first) select(first);
      return;
    }
    const next = canvas.neighborToward(current, arrows[event.key]!) ?? (canvas.selection() === null ? current : null);
    if (next) select(next);
  } else if (event.key === ' ') {
    event.preventDefault();
    canvas.centerSelection();
  } else if (event.key === 'Enter') {
    const selected = canvas.selection();
    if (selected && place.view !== 'logic') explore(selected);
  } else if (event.key === 'Delete' || event.key === 'h') {
    const selected = canvas.selection();
    if (selected) hide(selected);
  } else if (event.key === 'Escape') {
    select(null);
    closeOverlays();
  }
}

/** Keys on the map: arrows move between groups, Enter expands (or explores a module), Space centers, Escape clears. */
function mapKey(event: KeyboardEvent): void {
  const arrows: Record<string, Direction> = { ArrowLeft: 'left', ArrowRight: 'right', ArrowUp: 'up', ArrowDown: 'down' };
  const current = mapScreen.selection();
  if (event.key in arrows) {
    event.preventDefault();
    const next = current === null ? canvas.drawnNodes()[0] : canvas.neighborToward(current, arrows[event.key]!);
    if (next) mapScreen.select(next);
  } else if (event.key === 'Enter' && current !== null) {
    mapScreen.activate(current);
  } else if (event.key === ' ') {
    event.preventDefault();
    canvas.centerSelection();
  } else if (event.key === 'Escape') {
    mapScreen.select(null);
  }
}

function wire(): void {
  canvas.onTap((id) => {
    if (place.focus === null) mapScreen.select(id);
    else select(id);
    graphEl.focus({ preventScroll: true });
  });
  canvas.onContext((id) => void (place.focus !== null && inspect(id)));
  graphEl.addEventListener('contextmenu', (event) => event.preventDefault());
  graphEl.addEventListener('keydown', onKey);
  for (const button of document.querySelectorAll<HTMLButtonElement>('#views button')) {
    button.addEventListener('click', () => go({ focus: place.focus, view: button.dataset.view as View }));
  }
  byId('zoom-in').addEventListener('click', () => canvas.zoomBy(1.25));
  byId('zoom-out').addEventListener('click', () => canvas.zoomBy(0.8));
  byId('zoom-reset').addEventListener('click', () => canvas.reset());
  byId('center-selection').addEventListener('click', () => canvas.centerSelection());
  byId<HTMLFormElement>('search-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const query = byId<HTMLInputElement>('search-input').value.trim();
    if (query.length > 0) void search(query);
  });
  byId<HTMLFormElement>('filter-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const value = byId<HTMLInputElement>('filter-value').value.trim();
    if (value.length > 0) void showCategory({ field: byId<HTMLSelectElement>('filter-field').value, value });
  });
  window.addEventListener('hashchange', () => void load());
  // Escape closes the source view and the inspector wherever the keyboard focus is (README: Escape clears).
  document.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape' || (sourcePanel.hidden && inspector.hidden)) return;
    event.preventDefault();
    event.stopPropagation();
    sourcePanel.hidden = true;
    inspector.hidden = true;
    graphEl.focus({ preventScroll: true });
  }, true);
  document.addEventListener('visibilitychange', () => void (document.visibilityState === 'visible' && checkStatus()));
  window.setInterval(() => void checkStatus(), STATUS_POLL_MS);
}

canonicalUrl();
wire();
Object.defineProperty(window, 'docforgeGraph', { value: Object.freeze(canvas.inspection()) });
const initialQuery = new URLSearchParams(location.search).get('q');
if (initialQuery) {
  byId<HTMLInputElement>('search-input').value = initialQuery;
  void search(initialQuery);
} else {
  void ensureOverview().then(() => updateLogicTab(), (err: unknown) => failure(err));
}
void load();
