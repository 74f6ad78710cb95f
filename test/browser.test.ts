// Pins the graph browser page (issue 13, contract "Visualization boundary") in headless Chromium against a real worker on examples/: selection, card, key, inspector, pills, Flow pruning, Logic paths and bridging, client-side viewport, source highlighting, keyboard, URL fragment, accessibility; writes screenshots.
/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page, type Request } from 'playwright-core';
import { BROWSER_ARTIFACTS, CHROMIUM, browserSkip } from './helpers/browser.js';
import { WorkerProcess, workerConfig } from './helpers/graph-browser.js';
import { sharedExampleProject } from './helpers/projects.js';

// Under CI (DOCFORGE_CI=1) a missing Chromium fails these tests instead of skipping them.
const skip = browserSkip(existsSync);
const METHOD = 'code:src/gateway/auth-gateway.ts#AuthGateway.authorize';
const BRANCHY = 'code:src/shared/retry.ts#isRetryable';

interface ApiNode { id: string; kind: string; leaf: string; title: string }
interface ApiEdge { source: string; target: string; relation: string; category: string; reversed?: boolean }
interface ApiGraph { focus: string; nodes: ApiNode[]; edges: ApiEdge[] }

let worker: WorkerProcess;
let origin: string;
let browser: Browser;
let page: Page;
/** Script errors and console errors (CSP violations among them) seen by any test. */
const pageErrors: string[] = [];

before(async () => {
  if (skip) return;
  worker = new WorkerProcess(await workerConfig(sharedExampleProject()));
  origin = `http://127.0.0.1:${(await worker.next('ready')).port}`;
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  page = await browser.newPage({ viewport: { width: 1400, height: 850 } });
  // Hang guards, not timing assertions: on a loaded machine a step may take longer than Playwright's 30 s default (issue 29 item 7).
  page.setDefaultTimeout(90_000);
  page.on('pageerror', (error) => pageErrors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => void (message.type() === 'error' && pageErrors.push(`console: ${message.text()}`)));
  mkdirSync(BROWSER_ARTIFACTS, { recursive: true });
});

after(async () => {
  await browser?.close();
  await worker?.stop();
  if (!skip) console.log(`browser screenshots: ${BROWSER_ARTIFACTS}`);
});

/** Opens a fresh token URL (the visualize URL) with `fragment`, and waits for the drawing. */
async function open(fragment: string): Promise<void> {
  await page.goto('about:blank');
  await page.goto(`${origin}${(await worker.token()).url_path}${fragment}`);
  await ready();
}

async function ready(): Promise<void> {
  await page.waitForSelector('#graph[data-state="ready"]', { timeout: 90_000 });
}

/** GET an API path with the page's cookie (outside the assertions on the request log). */
async function api<T>(url: string): Promise<T> {
  return page.evaluate(async (u) => {
    const response = await fetch(u);
    if (!response.ok) throw new Error(`${u}: ${response.status} ${await response.text()}`);
    return response.json();
  }, url) as Promise<T>;
}

const nodeUrl = (id: string, suffix = ''): string => `/api/nodes/${encodeURIComponent(id)}${suffix}`;
const drawn = (): Promise<string[]> => page.evaluate(() => (window as unknown as { docforgeGraph: { nodes(): string[] } }).docforgeGraph.nodes());
const classes = (id: string): Promise<string[]> => page.evaluate((i) => (window as unknown as { docforgeGraph: { classes(id: string): string[] } }).docforgeGraph.classes(i), id);
const viewport = (): Promise<{ zoom: number; pan: { x: number; y: number } }> => page.evaluate(() => (window as unknown as { docforgeGraph: { viewport(): { zoom: number; pan: { x: number; y: number } } } }).docforgeGraph.viewport());
const drawnEdges = (): Promise<{ source: string; target: string; relation: string; omitted: boolean }[]> =>
  page.evaluate(() => (window as unknown as { docforgeGraph: { edges(): { source: string; target: string; relation: string; omitted: boolean }[] } }).docforgeGraph.edges());

async function clickNode(id: string, button: 'left' | 'right' = 'left'): Promise<void> {
  const at = await page.evaluate((i) => (window as unknown as { docforgeGraph: { pagePosition(id: string): { x: number; y: number } | null } }).docforgeGraph.pagePosition(i), id);
  assert.ok(at, `${id} is drawn`);
  await page.mouse.click(at.x, at.y, { button });
}

/**
 * Selects `id` by a click on its drawn position and presses the card's Hide button of exactly that
 * node. A click can land while the layout still moves (a busy machine): it is repeated until the
 * card names `id`, so the test never hides whatever the card showed before.
 */
async function hideNode(id: string): Promise<void> {
  const hide = page.locator('#card').getByRole('button', { name: `Hide ${id}`, exact: true });
  for (let attempt = 1; ; attempt += 1) {
    await clickNode(id);
    try {
      // Longer at each attempt (2, 4, ... 10 s): a busy machine may render the card late.
      await hide.waitFor({ state: 'visible', timeout: 2_000 * attempt });
      break;
    } catch (error) {
      if (attempt >= 5) throw error;
    }
  }
  await hide.click();
  // The hide re-renders asynchronously; a ready state may still be the one from before the click.
  await page.locator(`#hidden-nodes li[data-id="${id}"]`).waitFor({ state: 'attached', timeout: 90_000 });
}

async function shot(name: string): Promise<void> {
  await page.screenshot({ path: path.join(BROWSER_ARTIFACTS, `${name}.png`) });
}

test('Nodes: left click selects, highlights incident edges and neighbors, mutes the rest, opens the card; the key names the drawn relations', { skip }, async () => {
  const loaded: string[] = [];
  const record = (r: Request): void => void loaded.push(new URL(r.url()).pathname);
  page.on('request', record);
  await open(`#focus=${encodeURIComponent(METHOD)}&view=nodes`);
  page.off('request', record);
  const apiCalls = loaded.filter((p) => p.startsWith('/api/')).sort();
  assert.deepEqual(apiCalls, ['/api/overview', '/api/status', nodeUrl(METHOD, '/neighborhood')].sort(), 'the page asks only for the overview, the snapshot status and one bounded neighborhood; Logic stays unloaded');
  const graph = await api<ApiGraph>(nodeUrl(METHOD, '/neighborhood'));
  assert.deepEqual((await drawn()).sort(), graph.nodes.map((n) => n.id).sort(), 'the bounded neighborhood is drawn as answered');
  const target = graph.nodes.find((n) => n.id !== METHOD && graph.edges.filter((e) => e.source === n.id || e.target === n.id).length >= 2) ?? graph.nodes.find((n) => n.id !== METHOD)!;
  await clickNode(target.id);
  const card = page.locator('#card');
  await card.waitFor({ state: 'visible' });
  assert.equal(await card.locator('.leaf').textContent(), target.leaf, 'the card shows the full leaf name');
  assert.equal(await card.locator('.leaf').getAttribute('title'), target.id, 'the full id is in the tooltip');
  assert.equal(await card.locator('.kind').textContent(), target.kind);
  assert.ok((await classes(target.id)).includes('selected'));
  const neighbors = new Set(graph.edges.flatMap((e) => (e.source === target.id ? [e.target] : e.target === target.id ? [e.source] : [])));
  for (const node of graph.nodes) {
    if (node.id === target.id) continue;
    const expected = neighbors.has(node.id) ? 'neighbor' : 'muted';
    assert.ok((await classes(node.id)).includes(expected), `${node.id} is ${expected}`);
  }
  const keyRelations = await page.locator('#key .entry').evaluateAll((els) => els.map((e) => e.getAttribute('data-relation')));
  assert.deepEqual(keyRelations.sort(), [...new Set(graph.edges.map((e) => e.relation))].sort(), 'the key lists exactly the drawn relations');
  const cards = await page.locator('#cards .group-card').evaluateAll((els) => els.map((e) => e.getAttribute('data-category')));
  assert.equal(cards[0], 'focus');
  assert.ok(cards.length > 1, 'contributors are grouped by category');
  const leaves = await page.locator('#cards li').evaluateAll((els) => els.map((e) => e.getAttribute('data-id')));
  assert.deepEqual(leaves.sort(), graph.nodes.filter((n) => n.id !== METHOD).map((n) => n.id).sort(), 'every contributor has a card entry');
  await shot('nodes');
});

test('the visualize URL forms (?focus= and ?q= after the token) open the focus or fill the left panel with the search', { skip }, async () => {
  await page.goto(`${origin}${(await worker.token()).url_path}&focus=${encodeURIComponent(METHOD)}`);
  await ready();
  assert.ok((await drawn()).includes(METHOD));
  assert.equal(await page.locator('#cards [data-category="focus"] .leaf').getAttribute('title'), METHOD);
  await page.goto(`${origin}${(await worker.token()).url_path}&q=${encodeURIComponent('idempotency key')}`);
  await page.locator('#results h2', { hasText: 'Search: idempotency key' }).waitFor();
  const expected = await api<{ items: { node: ApiNode }[] }>(`/api/search?q=${encodeURIComponent('idempotency key')}`);
  assert.ok(expected.items.length > 0);
  assert.deepEqual(await page.locator('#results li').evaluateAll((els) => els.map((e) => e.getAttribute('data-id'))), expected.items.map((i) => i.node.id));
  await page.locator('#search-input').fill('ledger');
  await page.locator('#search-button').click();
  await page.locator('#results h2', { hasText: 'Search: ledger' }).waitFor();
  await page.locator('#results li button').first().click();
  await ready();
  const first = (await api<{ items: { node: ApiNode }[] }>('/api/search?q=ledger')).items[0]!.node.id;
  assert.ok((await page.evaluate(() => location.hash)).includes(encodeURIComponent(first)), 'a result explores its node');
});

test('right click opens the full inspector with relations both ways and the source location', { skip }, async () => {
  await open(`#focus=${encodeURIComponent(METHOD)}&view=nodes`);
  const full = await api<{ node: { id: string }; outgoing: unknown[]; incoming: unknown[]; source: { path: string; start_line: number; end_line: number } }>(nodeUrl(METHOD));
  await clickNode(METHOD, 'right');
  const inspector = page.locator('#inspector');
  await inspector.waitFor({ state: 'visible' });
  assert.equal(await inspector.locator('.leaf').textContent(), METHOD);
  assert.equal(await inspector.locator('[data-role="location"]').textContent(), `${full.source.path}:${full.source.start_line}-${full.source.end_line}`);
  assert.equal(await inspector.locator('ul[data-direction="out"] li button').count(), full.outgoing.length);
  assert.equal(await inspector.locator('ul[data-direction="in"] li button').count(), full.incoming.length);
  assert.ok(full.outgoing.length > 0 && full.incoming.length > 0);
});

test('a descriptor pill fills the left panel with that exact bounded category result set', { skip }, async () => {
  await open(`#focus=${encodeURIComponent(METHOD)}&view=nodes`);
  await clickNode(METHOD);
  await page.locator('#card .pill[data-field="kind"]').click();
  await page.locator('#results h2', { hasText: 'kind = method' }).waitFor();
  const expected = await api<{ items: ApiNode[] }>('/api/filter?kind=method');
  const shown = await page.locator('#results li').evaluateAll((els) => els.map((e) => e.getAttribute('data-id')));
  assert.deepEqual(shown, expected.items.map((n) => n.id));
  assert.ok(expected.items.length > 1 && expected.items.every((n) => n.kind === 'method'));
});

/** The nodes joined to the focus (directed both ways, or ignoring direction) by `links`. */
function joined(links: { s: string; t: string }[], focus: string, directed: boolean): Set<string> {
  const keep = new Set([focus]);
  const steps: ((l: { s: string; t: string }, at: string) => string | null)[] = directed
    ? [(l, at) => (l.s === at ? l.t : null), (l, at) => (l.t === at ? l.s : null)]
    : [(l, at) => (l.s === at ? l.t : l.t === at ? l.s : null)];
  for (const step of steps) {
    const stack = [focus];
    const seen = new Set(stack);
    while (stack.length > 0) {
      const at = stack.pop()!;
      for (const l of links) {
        const to = step(l, at);
        if (to !== null && !seen.has(to)) {
          seen.add(to);
          keep.add(to);
          stack.push(to);
        }
      }
    }
  }
  return keep;
}

/** What Flow/Web must still show once `hidden` is hidden: every node not cut off from the focus by it. */
function expectedAfterHiding(graph: ApiGraph, hidden: string): Set<string> {
  const all = graph.edges.map((e) => (e.reversed ? { s: e.target, t: e.source } : { s: e.source, t: e.target }));
  const rest = all.filter((l) => l.s !== hidden && l.t !== hidden);
  const cut = (directed: boolean): string[] => [...joined(all, graph.focus, directed)].filter((id) => !joined(rest, graph.focus, directed).has(id));
  const gone = new Set([hidden, ...cut(true), ...cut(false)]);
  return new Set(graph.nodes.map((n) => n.id).filter((id) => !gone.has(id)));
}

test('Flow: hiding a node prunes the upstream branch it disconnected and keeps what still leads to the focus; restore brings it back', { skip }, async () => {
  await open(`#focus=${encodeURIComponent(METHOD)}&view=flow`);
  const flow = await api<ApiGraph>(nodeUrl(METHOD, '/flow'));
  assert.deepEqual((await drawn()).sort(), flow.nodes.map((n) => n.id).sort());
  await shot('flow');
  const candidates = flow.nodes.filter((n) => n.id !== METHOD).map((n) => ({ id: n.id, keep: expectedAfterHiding(flow, n.id) }));
  const best = candidates.sort((a, b) => a.keep.size - b.keep.size)[0];
  assert.ok(best && best.keep.size < flow.nodes.length - 1, 'hiding some Flow node disconnects an upstream branch');
  await hideNode(best.id);
  await ready();
  assert.deepEqual((await drawn()).sort(), [...best.keep].sort(), 'exactly the nodes that still lead to the focus remain');
  assert.equal(await page.locator('#pruned-count').textContent(), `${flow.nodes.length - 1 - best.keep.size} pruned with them`);
  await page.locator(`#hidden-nodes li[data-id="${best.id}"] button`).click();
  await ready();
  assert.deepEqual((await drawn()).sort(), flow.nodes.map((n) => n.id).sort(), 'restore brings every node back');
});

test('Web draws the bounded contributors into the focus', { skip }, async () => {
  await open(`#focus=${encodeURIComponent(METHOD)}&view=web`);
  const web = await api<ApiGraph>(nodeUrl(METHOD, '/web'));
  assert.deepEqual((await drawn()).sort(), web.nodes.map((n) => n.id).sort());
  const keyRelations = await page.locator('#key .entry').evaluateAll((els) => els.map((e) => e.getAttribute('data-relation')));
  assert.deepEqual(keyRelations.sort(), [...new Set(web.edges.map((e) => e.relation))].sort(), 'the key is regenerated for Web');
  await shot('web');
});

test('Logic: the static paths of a function; hiding a step bridges its predecessors and successors with an omitted path', { skip }, async () => {
  await open(`#focus=${encodeURIComponent(BRANCHY)}&view=logic`);
  const logic = await api<{ steps: { step: number; label: string; kind: string }[]; flows: { from_step: number; to_step: number }[] }>(nodeUrl(BRANCHY, '/logic'));
  assert.equal((await drawn()).length, logic.steps.length);
  const label = (n: number): string => logic.steps.find((s) => s.step === n)!.label;
  const paths = await page.locator('#paths li').allTextContents();
  assert.deepEqual(paths.sort(), [
    [0, 1, 2, 4].map(label).join(' → '),
    [0, 1, 3, 4].map(label).join(' → '),
  ].sort(), 'both branches of isRetryable are listed as static paths');
  await shot('logic');
  const branch = logic.steps.find((s) => s.kind === 'branch')!;
  await hideNode(`step:${branch.step}`);
  await ready();
  const bridges = (await drawnEdges()).filter((e) => e.omitted).map((e) => `${e.source}>${e.target}`).sort();
  const preds = logic.flows.filter((f) => f.to_step === branch.step).map((f) => f.from_step);
  const succs = logic.flows.filter((f) => f.from_step === branch.step).map((f) => f.to_step);
  assert.deepEqual(bridges, preds.flatMap((p) => succs.map((s) => `step:${p}>step:${s}`)).sort());
  assert.ok((await page.locator('#key .entry[data-relation="omitted path"]').count()) === 1, 'the key names the omitted path');
  assert.deepEqual((await page.locator('#paths li').allTextContents()).sort(), [
    `${label(0)} → [omitted: ${label(branch.step)}] → ${label(2)} → ${label(4)}`,
    `${label(0)} → [omitted: ${label(branch.step)}] → ${label(3)} → ${label(4)}`,
  ].sort(), 'no path disappears; the hidden step is named');
  // A second hidden step on one branch: the bridge spans both hidden steps, in path order.
  const retryable = logic.steps.find((s) => s.label === 'return error.retryable;')!;
  await hideNode(`step:${retryable.step}`);
  await ready();
  const labels = await page.evaluate(() => (window as unknown as { docforgeGraph: { edges(): { omitted: boolean; source: string; target: string }[] } }).docforgeGraph.edges().filter((e) => e.omitted).map((e) => `${e.source}>${e.target}`).sort());
  const exit = logic.steps.find((s) => s.kind === 'exit')!;
  const other = succs.find((s) => s !== retryable.step)!;
  assert.deepEqual(labels, [`step:${preds[0]}>step:${exit.step}`, `step:${preds[0]}>step:${other}`].sort(), 'the omitted path runs from the entry past both hidden steps to the exit');
  assert.deepEqual((await page.locator('#paths li').allTextContents()).sort(), [
    `${label(0)} → [omitted: ${label(branch.step)}] → ${label(other)} → ${label(exit.step)}`,
    `${label(0)} → [omitted: ${label(branch.step)} → ${label(retryable.step)}] → ${label(exit.step)}`,
  ].sort(), 'each path names the steps it omits');
  assert.equal(await page.locator('#hidden-nodes li').count(), 2);
});

test('zoom, pan, reset and Space-center change only the viewport and request nothing', { skip }, async () => {
  await open(`#focus=${encodeURIComponent(METHOD)}&view=nodes`);
  const graph = await api<ApiGraph>(nodeUrl(METHOD, '/neighborhood'));
  const other = graph.nodes.find((n) => n.id !== METHOD)!;
  await clickNode(other.id);
  const requests: string[] = [];
  const record = (r: Request): void => void requests.push(r.url());
  page.on('request', record);
  try {
    const start = await viewport();
    await page.locator('#zoom-in').click();
    const zoomed = await viewport();
    assert.ok(zoomed.zoom > start.zoom, 'zoom in');
    await page.locator('#zoom-out').click();
    assert.ok((await viewport()).zoom < zoomed.zoom, 'zoom out');
    const box = (await page.locator('#graph').boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    const beforeWheel = await viewport();
    await page.mouse.wheel(0, -300);
    await page.waitForFunction((z) => (window as unknown as { docforgeGraph: { viewport(): { zoom: number } } }).docforgeGraph.viewport().zoom !== z, beforeWheel.zoom);
    const beforeDrag = await viewport();
    await page.mouse.move(box.x + 15, box.y + 15);
    await page.mouse.down();
    await page.mouse.move(box.x + 115, box.y + 75, { steps: 8 });
    await page.mouse.up();
    const dragged = await viewport();
    assert.ok(Math.abs(dragged.pan.x - beforeDrag.pan.x) > 50, 'left-button drag pans');
    await page.locator('#zoom-reset').click();
    const reset = await viewport();
    assert.ok(Math.abs(reset.zoom - start.zoom) < 1e-6 && Math.abs(reset.pan.x - start.pan.x) < 1, 'reset restores the fitted framing');
    await page.locator('#graph').focus();
    await page.keyboard.press('Space');
    const centered = await viewport();
    const at = await page.evaluate((i) => (window as unknown as { docforgeGraph: { pagePosition(id: string): { x: number; y: number } } }).docforgeGraph.pagePosition(i), other.id);
    assert.ok(Math.abs(at.x - (box.x + box.width / 2)) < 2 && Math.abs(at.y - (box.y + box.height / 2)) < 2, 'Space centers the selection');
    assert.ok(centered.pan.x !== reset.pan.x || centered.pan.y !== reset.pan.y);
  } finally {
    page.off('request', record);
  }
  assert.deepEqual(requests, [], 'the viewport never requests anything');
});

test('the source view highlights exactly the node lines and navigates to anchors', { skip }, async () => {
  await open(`#focus=${encodeURIComponent(METHOD)}&view=nodes`);
  const full = await api<{ source: { start_line: number; end_line: number } }>(nodeUrl(METHOD));
  await clickNode(METHOD);
  await page.locator('#card button', { hasText: 'Source' }).click();
  await page.locator('#source').waitFor({ state: 'visible' });
  const highlighted = await page.locator('#source .line.hl').evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-line'))));
  const expected = Array.from({ length: full.source.end_line - full.source.start_line + 1 }, (_, i) => full.source.start_line + i);
  assert.deepEqual(highlighted, expected);
  await shot('source');
  const requirement = (await api<{ items: ApiNode[] }>('/api/filter?kind=requirement')).items[0]!;
  await page.locator('#source button', { hasText: 'Back to graph' }).click();
  await open(`#focus=${encodeURIComponent(requirement.id)}&view=nodes`);
  await clickNode(requirement.id);
  await page.locator('#card button', { hasText: 'Source' }).click();
  const source = await api<{ anchors: { slug: string; line: number }[] }>(nodeUrl(requirement.id, '/source'));
  assert.ok(source.anchors.length > 0, 'a requirement document has recognized anchors');
  const anchor = source.anchors[source.anchors.length - 1]!;
  await page.locator(`#source li[data-slug="${anchor.slug}"] button`).click();
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-line')), String(anchor.line), 'the anchor navigates to its line');
});

test('keyboard: arrow keys move along edges, Enter explores; the fragment records focus and view and reopens them', { skip }, async () => {
  await open(`#focus=${encodeURIComponent(METHOD)}&view=nodes`);
  const graph = await api<ApiGraph>(nodeUrl(METHOD, '/neighborhood'));
  const neighbors = new Set(graph.edges.flatMap((e) => (e.source === METHOD ? [e.target] : e.target === METHOD ? [e.source] : [])));
  await page.locator('#graph').focus();
  let moved: string | null = null;
  for (const key of ['ArrowDown', 'ArrowUp', 'ArrowRight', 'ArrowLeft']) {
    await page.keyboard.press(key);
    moved = (await drawn()).find((id) => id !== METHOD && neighbors.has(id)) ?? null;
    const selected = await page.evaluate(() => document.querySelector('#card .leaf')?.getAttribute('title') ?? null);
    if (selected !== null && selected !== METHOD) {
      moved = selected;
      break;
    }
  }
  assert.ok(moved && neighbors.has(moved), 'an arrow key selected a direct neighbor of the focus');
  await page.keyboard.press('Enter');
  await page.waitForFunction((id) => decodeURIComponent(location.hash).includes(id), moved);
  await ready();
  await page.locator('#views button[data-view="flow"]').click();
  await ready();
  const hash = await page.evaluate(() => location.hash);
  assert.equal(hash, `#${new URLSearchParams({ focus: moved, view: 'flow' }).toString()}`);
  await page.reload();
  await ready();
  assert.equal(await page.locator('#views button[aria-pressed="true"]').textContent(), 'Flow');
  assert.ok((await drawn()).includes(moved));
});

test('accessibility: every control is labelled and reachable with the Tab key', { skip }, async () => {
  await open(`#focus=${encodeURIComponent(METHOD)}&view=nodes`);
  await clickNode(METHOD);
  await page.locator('#card').waitFor({ state: 'visible' });
  const controls = await page.evaluate(() => {
    const all = [...document.querySelectorAll<HTMLElement>('button, input, select, a[href], [tabindex]')].filter((e) => e.tabIndex >= 0 && e.offsetParent !== null);
    all.forEach((e, i) => e.setAttribute('data-a11y', String(i)));
    const name = (e: HTMLElement): string => {
      const labelled = e.getAttribute('aria-label') ?? (e.id ? document.querySelector(`label[for="${e.id}"]`)?.textContent : null) ?? e.textContent;
      return (labelled ?? '').trim();
    };
    return all.map((e) => ({ key: e.getAttribute('data-a11y')!, name: name(e), tag: e.tagName }));
  });
  assert.ok(controls.length > 20, `${controls.length} controls`);
  assert.deepEqual(controls.filter((c) => c.name.length === 0), [], 'every control has an accessible name');
  const reached = new Set<string>();
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  for (let i = 0; i < controls.length + 5; i++) {
    await page.keyboard.press('Tab');
    const key = await page.evaluate(() => document.activeElement?.getAttribute('data-a11y') ?? null);
    if (key !== null) reached.add(key);
  }
  assert.deepEqual(controls.filter((c) => !reached.has(c.key)).map((c) => `${c.tag} ${c.name}`), [], 'every control is reached by Tab');
});

const CLASS = 'code:src/ledger/ledger.ts#Ledger';
const logicTab = (): ReturnType<Page['locator']> => page.locator('#views button[data-view="logic"]');

test('Logic is offered only for functions and methods; an unavailable view shows its error over an empty canvas without moving the toolbar', { skip }, async () => {
  await open(`#focus=${encodeURIComponent(CLASS)}&view=nodes`);
  const toolbarHeight = (await page.locator('#toolbar').boundingBox())!.height;
  assert.equal(await logicTab().isDisabled(), true, 'no Logic tab for a class');
  await clickNode(CLASS);
  assert.equal(await page.locator('#card button', { hasText: 'Logic' }).count(), 0, 'no Logic action on a class card');
  // The Web graph is loaded first, then the Logic URL of the class: never the Web graph under the Logic tab.
  await page.locator('#views button[data-view="web"]').click();
  await ready();
  assert.ok((await drawn()).length > 1);
  await page.evaluate((id) => { location.hash = `#focus=${encodeURIComponent(id)}&view=logic`; }, CLASS);
  await page.waitForSelector('#graph[data-state="error"]');
  assert.deepEqual(await drawn(), [], 'the previous view is not left drawn');
  assert.match((await page.locator('#notice').textContent()) ?? '', /logic_not_found/);
  assert.equal((await page.locator('#toolbar').boundingBox())!.height, toolbarHeight, 'the error never wraps the toolbar');
  await open(`#focus=${encodeURIComponent(METHOD)}&view=nodes`);
  assert.equal(await logicTab().isDisabled(), false, 'a method offers Logic');
  assert.equal(await page.locator('#notice').isVisible(), false);
});

test('a focus with ~25 neighbours is framed at a readable zoom (labels legible, the rest reachable by panning); Logic paths wrap inside the panel', { skip }, async () => {
  for (const id of ['CMP-LEDGER', 'CMP-REFUND-SERVICE']) {
    await open(`#focus=${id}&view=nodes`);
    assert.ok((await drawn()).length >= 15, `${id} has a large neighbourhood`);
    const { zoom } = await viewport();
    assert.ok(zoom >= 0.75 - 1e-6, `${id}: zoom ${zoom} keeps 11px labels legible`);
    const at = await page.evaluate((i) => (window as unknown as { docforgeGraph: { pagePosition(id: string): { x: number; y: number } | null } }).docforgeGraph.pagePosition(i), id);
    const box = (await page.locator('#graph').boundingBox())!;
    assert.ok(at && at.x > box.x && at.x < box.x + box.width && at.y > box.y && at.y < box.y + box.height, 'the focus is in view');
    await shot(`readable-${id}`);
  }
  await open(`#focus=${encodeURIComponent(BRANCHY)}&view=logic`);
  const overflow = await page.locator('#paths').evaluate((e) => e.scrollWidth - e.clientWidth);
  assert.ok(overflow <= 0, 'the static paths never overflow the right panel');
});

test('Escape closes the source view; selecting while it is open shows a usable card; the header says truncated only when lines were cut', { skip }, async () => {
  await open('#focus=CMP-REFUND-SERVICE&view=nodes');
  const service = 'code:src/refunds/refund-service.ts#RefundService';
  await clickNode(service);
  await page.locator('#card button', { hasText: 'Source' }).click();
  await page.locator('#source').waitFor({ state: 'visible' });
  const source = await api<{ first_line: number; lines: string[]; total_lines: number }>(nodeUrl(service, '/source'));
  const header = (await page.locator('#source [data-role="source-path"]').textContent()) ?? '';
  assert.ok(source.first_line > 1, 'the window starts after line 1 (context)');
  assert.doesNotMatch(header, /truncated/, 'a window with context is not called truncated');
  assert.match(header, new RegExp(`${source.first_line - 1} lines? above not shown`));
  await page.keyboard.press('Escape');
  await page.locator('#source').waitFor({ state: 'hidden' });
  await clickNode(service);
  await page.locator('#card button', { hasText: 'Source' }).click();
  await page.locator('#source').waitFor({ state: 'visible' });
  await page.locator('#cards li button').first().click();
  await page.locator('#source').waitFor({ state: 'hidden' });
  await page.locator('#card').waitFor({ state: 'visible' });
  await page.locator('#card button', { hasText: 'Hide' }).click();
  // The hide re-renders asynchronously: wait for its list entry (a timeout fails the test) rather
  // than for a ready state the graph may still show from before the click.
  await page.locator('#hidden-nodes li').first().waitFor({ state: 'attached', timeout: 90_000 }).catch(() => undefined);
  await ready();
  assert.equal(await page.locator('#hidden-nodes li').count(), 1, 'the card button works after the source view');
});

test('overview lists node kinds in the right panel; lists page with "Show more"; equal labels carry their shortest distinguishing path', { skip }, async () => {
  await page.goto('about:blank');
  await page.goto(`${origin}${(await worker.token()).url_path}`);
  await page.waitForSelector('#graph[data-state="overview"]');
  const overview = await api<{ nodes_by_kind: Record<string, number> }>('/api/overview');
  const kinds = await page.locator('#cards [data-kind]').evaluateAll((els) => els.map((e) => e.getAttribute('data-kind')));
  assert.deepEqual([...kinds].sort(), Object.keys(overview.nodes_by_kind).sort(), 'every kind is offered');
  await page.locator('#cards [data-kind="method"] button').click();
  await page.locator('#results h2', { hasText: 'kind = method' }).waitFor();
  assert.equal(await page.locator('#results li').count(), overview.nodes_by_kind.method);
  await page.locator('#search-input').fill('requestRefund');
  await page.locator('#search-button').click();
  await page.locator('#results h2', { hasText: 'Search: requestRefund' }).waitFor();
  const texts = await page.locator('#results li button').allTextContents();
  assert.equal(new Set(texts).size, texts.length, `labels are distinct: ${texts.join(' | ')}`);
  assert.ok(texts.some((t) => /^RefundService\.requestRefund · method$/.test(t)), `equal method names carry their class: ${texts.join(' | ')}`);
  // Paging: a search whose bounded answer is cut offers "Show more", which asks for a larger bounded page.
  await page.locator('#search-input').fill('refund');
  await page.locator('#search-button').click();
  await page.locator('#results h2', { hasText: 'Search: refund' }).waitFor();
  const first = await page.locator('#results li').count();
  const answer = await api<{ truncated: boolean }>('/api/search?q=refund&limit=50');
  if (answer.truncated) {
    await page.locator('#results-more').click();
    await page.waitForFunction((n) => document.querySelectorAll('#results li').length > n, first);
  }
});

test('the ?focus= of the visualize URL becomes the fragment after the token trade (one source of truth)', { skip }, async () => {
  await page.goto(`${origin}${(await worker.token()).url_path}&focus=CMP-LEDGER`);
  await ready();
  assert.equal(await page.evaluate(() => location.search), '');
  assert.equal(await page.evaluate(() => location.hash), '#focus=CMP-LEDGER&view=nodes');
  await page.locator('#cards li button', { hasText: 'Explore' }).first().click();
  await ready();
  assert.equal(await page.evaluate(() => location.search), '', 'exploring never brings the query back');
  assert.doesNotMatch(await page.evaluate(() => location.href), /CMP-LEDGER/);
});

test('no script error and no Content-Security-Policy violation in any of the above', { skip }, () => {
  assert.deepEqual(pageErrors, []);
});
