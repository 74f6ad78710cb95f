// Pins issue 34 (items 1-6 and 8) in headless Debian Chromium on examples/ and on pino as published (`npm pack` at test time): the first screen's architecture map, expansion in place, arrow direction against the API's edges, shortest distinguishing labels, self-explaining trivial views, readable framing (everything inside at >= 11 px, or the focus and its first ring inside with a "more off-screen" notice), the left panel following the focus, the inspector's sections; saves screenshots.
/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { BROWSER_ARTIFACTS, CHROMIUM, browserSkip } from './helpers/browser.js';
import { WorkerProcess, workerConfig } from './helpers/graph-browser.js';
import { npmPackProject } from './helpers/npm-pack.js';
import { sharedExampleProject } from './helpers/projects.js';

const skip = browserSkip(existsSync);
/** Screenshots of this file: test/dist/artifacts/browser/first-screen/<project>-<view>.png (ops/run-tests.mjs prints the parent path). */
const SHOTS = path.join(BROWSER_ARTIFACTS, 'first-screen');
/** pino as published: lib/transport.js and examples/transport.js share a file name (issue 34's own example). */
const PINO = 'pino@9.6.0';
const PINO_DESCRIPTOR = [
  'schema_version = 1', '[project]', 'id = "pino"', 'name = "pino"', '[sources]', 'content_roots = ["docs"]', 'code_roots = ["."]',
  'exclude = ["**/node_modules/**", "test/**", "benchmarks/**", "docsify/**", "build/**", ".github/**"]', '[adapter]', 'code = "typescript"', 'strategy = "ast"', '',
].join('\n');
/** Smallest node text at the initial framing, in CSS pixels. */
const MIN_TEXT_PX = 11;

interface ApiNode { id: string; kind: string; leaf: string }
interface ApiEdge { source: string; target: string; relation: string; reversed?: boolean }
interface ApiGraph { focus: string; nodes: ApiNode[]; edges: ApiEdge[] }
interface Geometry {
  width: number; height: number; zoom: number; framing: string; offscreen: number;
  nodes: { id: string; parent: boolean; label: string; x1: number; y1: number; x2: number; y2: number; fontPx: number }[];
  edges: { id: string; source: string; target: string; relation: string; label: string; reversed: boolean; labelFontPx: number; labelShown: boolean; sx: number; sy: number; tx: number; ty: number }[];
}
interface MapAnswer { groups: { id: string; path: string; kind: string; parent: string | null; expanded: boolean; expandable: boolean }[]; edges: { source: string; target: string; count: number }[]; expanded: string[] }

/** One project under test: its root, and the foci each view is shown for. */
interface Subject {
  name: string;
  root: () => string;
  /** A code module with imports (Nodes, Flow, Web). */
  module: string;
  /** Picks a function or method with Logic. */
  logic: (page: Page) => Promise<string>;
  /** A search whose answer holds two nodes with one leaf name, and the labels they must get. */
  twins?: { query: string; labels: string[] };
}

const SUBJECTS: Subject[] = [
  { name: 'examples', root: sharedExampleProject, module: 'code:src/gateway/auth-gateway.ts', logic: async () => 'code:src/shared/retry.ts#isRetryable' },
  {
    name: 'pino', root: () => npmPackProject(PINO, PINO_DESCRIPTOR, 'docforge-pino-'), module: 'code:lib/transport.js',
    logic: async (page) => {
      const functions = await api<{ items: ApiNode[] }>(page, '/api/filter?kind=function&limit=500');
      for (const f of functions.items.filter((n) => n.id.startsWith('code:lib/transport.js#'))) {
        if (await page.evaluate(async (u) => (await fetch(u)).ok, nodeUrl(f.id, '/logic'))) return f.id;
      }
      throw new Error('no function of lib/transport.js has Logic');
    },
    twins: { query: 'transport', labels: ['lib/transport.js · module', 'examples/transport.js · module'] },
  },
];

let browser: Browser;
before(async () => {
  if (skip) return;
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  mkdirSync(SHOTS, { recursive: true });
});
after(async () => {
  await browser?.close();
  if (!skip) console.log(`first-screen screenshots: ${SHOTS}`);
});

const nodeUrl = (id: string, suffix = ''): string => `/api/nodes/${encodeURIComponent(id)}${suffix}`;

async function api<T>(page: Page, url: string): Promise<T> {
  return page.evaluate(async (u) => {
    const response = await fetch(u);
    if (!response.ok) throw new Error(`${u}: ${response.status} ${await response.text()}`);
    return response.json();
  }, url) as Promise<T>;
}

const geometry = (page: Page): Promise<Geometry> => page.evaluate(() => (window as unknown as { docforgeGraph: { geometry(): Geometry } }).docforgeGraph.geometry());

/**
 * The framing rule of issue 34 item 5: with nothing off-screen, every node and every edge end lies
 * inside the canvas with node text >= 11 px; otherwise the "more off-screen" notice says how many,
 * and `centre` (the focus) and its first ring lie inside with text >= 11 px.
 */
async function assertFraming(page: Page, centre: string | null, what: string): Promise<Geometry> {
  const g = await geometry(page);
  const inside = (n: Geometry['nodes'][number]): boolean => n.x1 >= -1 && n.y1 >= -1 && n.x2 <= g.width + 1 && n.y2 <= g.height + 1;
  const leaves = g.nodes.filter((n) => !n.parent);
  assert.ok(leaves.length > 0, `${what}: something is drawn`);
  const more = page.locator('#more');
  if (g.offscreen === 0) {
    assert.deepEqual(leaves.filter((n) => !inside(n)).map((n) => n.id), [], `${what}: every node is inside the canvas`);
    const outside = g.edges.filter((e) => [e.sx, e.tx].some((x) => x < -1 || x > g.width + 1) || [e.sy, e.ty].some((y) => y < -1 || y > g.height + 1));
    assert.deepEqual(outside.map((e) => e.id), [], `${what}: no edge ends off-canvas`);
    assert.deepEqual(leaves.filter((n) => n.fontPx < MIN_TEXT_PX - 1e-6).map((n) => `${n.id} ${n.fontPx}`), [], `${what}: node text >= 11 px`);
    assert.equal(await more.isVisible(), false, `${what}: no off-screen notice when everything is in view`);
  } else {
    assert.equal(await more.isVisible(), true, `${what}: ${g.offscreen} nodes off-screen are announced`);
    assert.equal(await more.getAttribute('data-count'), String(g.offscreen));
    assert.match((await more.textContent()) ?? '', /off-screen/);
    const anchor = centre ?? leaves.find((n) => n.x1 >= 0)!.id;
    const ring = new Set([anchor, ...g.edges.flatMap((e) => (e.source === anchor ? [e.target] : e.target === anchor ? [e.source] : []))]);
    const ringNodes = leaves.filter((n) => ring.has(n.id));
    if (centre !== null) {
      assert.deepEqual(ringNodes.filter((n) => !inside(n)).map((n) => n.id), [], `${what}: the focus and its first ring are inside the canvas`);
    } else {
      assert.ok(inside(leaves.find((n) => n.id === anchor)!), `${what}: the framed group is inside the canvas`);
    }
    assert.deepEqual(ringNodes.filter((n) => n.fontPx < MIN_TEXT_PX - 1e-6).map((n) => n.id), [], `${what}: node text >= 11 px`);
  }
  assert.ok(((await page.locator('#key [data-role="direction"]').textContent()) ?? '').includes('→'), `${what}: the key states the arrow direction`);
  return g;
}

/** Every drawn edge reads in its relation's direction against the API answer: stored direction with the relation's name, or drawn reversed with an inverse wording. */
function assertDirections(g: Geometry, graph: ApiGraph, what: string): void {
  const stored = new Set(graph.edges.map((e) => `${e.source}\0${e.relation}\0${e.target}`));
  assert.ok(g.edges.length > 0, `${what}: edges are drawn`);
  for (const e of g.edges) {
    if (!e.reversed) {
      assert.ok(stored.has(`${e.source}\0${e.relation}\0${e.target}`), `${what}: ${e.source} -${e.relation}-> ${e.target} is a stored edge in this direction`);
      assert.equal(e.label, e.relation);
    } else {
      assert.ok(stored.has(`${e.target}\0${e.relation}\0${e.source}`), `${what}: a reversed ${e.relation} edge is stored the other way`);
      assert.notEqual(e.label, e.relation, `${what}: a reversed edge never carries the stored relation's name`);
      if (e.relation === 'imports') assert.equal(e.label, 'imported by');
    }
  }
}

for (const subject of SUBJECTS) {
  describe(`${subject.name}`, { skip }, () => {
    let worker: WorkerProcess;
    let origin: string;
    let page: Page;
    const errors: string[] = [];
    before(async () => {
      worker = new WorkerProcess(await workerConfig(subject.root(), { workerId: `first-screen-${subject.name}` }));
      origin = `http://127.0.0.1:${(await worker.next('ready')).port}`;
      page = await browser.newPage({ viewport: { width: 1400, height: 850 } });
      // Hang guards, not timing assertions: on a loaded machine a step may take longer than Playwright's 30 s default (issue 29 item 7).
      page.setDefaultTimeout(90_000);
      page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
      page.on('console', (message) => void (message.type() === 'error' && errors.push(`console: ${message.text()}`)));
    });
    after(async () => {
      await page?.close();
      await worker?.stop();
    });
    const open = async (fragment: string, state: 'overview' | 'ready' = 'ready'): Promise<void> => {
      await page.goto('about:blank');
      await page.goto(`${origin}${(await worker.token()).url_path}${fragment}`);
      await page.waitForSelector(`#graph[data-state="${state}"]`, { timeout: 90_000 });
    };
    const shot = (view: string): Promise<Buffer> => page.screenshot({ path: path.join(SHOTS, `${subject.name}-${view}.png`) });

    test('the first screen is the architecture map: groups with aggregated edges drawn source group to target group, readable, and a group expands in place', async () => {
      await open('', 'overview');
      const answer = await api<{ map: MapAnswer }>(page, '/api/overview');
      const g = await assertFraming(page, null, 'first screen');
      await shot('first-screen');
      const rootGroup = answer.map.groups.find((x) => x.path === '' && x.parent === null);
      assert.deepEqual(g.nodes.map((n) => n.id).sort(), answer.map.groups.filter((x) => x !== rootGroup).map((x) => x.id).sort(), 'every group but the project root is drawn');
      assert.deepEqual(g.edges.map((e) => `${e.source}>${e.target}`).sort(), answer.map.edges.map((e) => `${e.source}>${e.target}`).sort(), 'each aggregated edge runs from its source group to its target group');
      const compound = new Set(g.nodes.filter((n) => n.parent).map((n) => n.id));
      assert.deepEqual([...compound].sort(), answer.map.groups.filter((x) => x.expanded && x !== rootGroup).map((x) => x.id).sort(), 'expanded groups are compound nodes');
      const target = answer.map.groups.find((x) => x.kind === 'folder' && x.expandable && !x.expanded)!;
      const at = await page.evaluate((i) => (window as unknown as { docforgeGraph: { pagePosition(id: string): { x: number; y: number } | null } }).docforgeGraph.pagePosition(i), target.id);
      assert.ok(at, 'the group is drawn');
      await page.mouse.click(at.x, at.y);
      await page.locator('#card button', { hasText: 'Expand' }).click();
      const expanded = await api<{ map: MapAnswer }>(page, `/api/overview?${[...answer.map.expanded, target.id].map((id) => `expand=${encodeURIComponent(id)}`).join('&')}`);
      const opened = expanded.map.groups.find((x) => x.path === target.path)!;
      await page.waitForFunction((id) => (window as unknown as { docforgeGraph: { nodes(): string[] } }).docforgeGraph.nodes().includes(id), expanded.map.groups.find((x) => x.parent === opened.id)!.id);
      const after = await geometry(page);
      assert.ok(after.nodes.some((n) => n.id === opened.id && n.parent), 'the group is a compound node now');
      assert.deepEqual(after.nodes.filter((n) => expanded.map.groups.find((x) => x.id === n.id)?.parent === opened.id).length, expanded.map.groups.filter((x) => x.parent === opened.id).length, 'its children are drawn inside it');
      await shot('first-screen-expanded');
    });

    test('Nodes, Flow and Web: arrows in the relation\'s direction against the API, readable framing; Flow\'s imports read "imported by"', async () => {
      for (const [view, apiView] of [['nodes', 'neighborhood'], ['flow', 'flow'], ['web', 'web']] as const) {
        await open(`#focus=${encodeURIComponent(subject.module)}&view=${view}`);
        const graph = await api<ApiGraph>(page, nodeUrl(subject.module, `/${apiView}`));
        const g = await assertFraming(page, subject.module, `${view} of ${subject.module}`);
        assertDirections(g, graph, view);
        if (view === 'flow') {
          assert.ok(g.edges.some((e) => e.relation === 'imports' && e.reversed && e.label === 'imported by'), 'Flow draws imported modules upstream with "imported by"');
          assert.ok(await page.locator('#key .entry[data-relation="imports"][data-direction="inverse"]').count() > 0, 'the key names the inverse wording');
        }
        await shot(view);
      }
    });

    test('Logic: readable framing and edge labels of at least 11 px', async () => {
      const id = await subject.logic(page);
      await open(`#focus=${encodeURIComponent(id)}&view=logic`);
      const g = await assertFraming(page, null, `logic of ${id}`);
      const inView = g.edges.filter((e) => e.labelShown && [e.sx, e.tx].every((x) => x >= 0 && x <= g.width) && [e.sy, e.ty].every((y) => y >= 0 && y <= g.height));
      assert.deepEqual(inView.filter((e) => e.labelFontPx < MIN_TEXT_PX - 1e-6).map((e) => `${e.label} ${e.labelFontPx}`), [], 'Logic edge labels are readable');
      await shot('logic');
    });

    test('the left panel follows the focus; the overview is one click away; the inspector has labelled sections with hashes folded', async () => {
      await open(`#focus=${encodeURIComponent(subject.module)}&view=nodes`);
      const categories = await page.locator('#results ul.categories li').evaluateAll((els) => els.map((e) => `${e.getAttribute('data-field')}=${e.getAttribute('data-value')}`));
      assert.ok(categories.includes('kind=module'), `the focus's categories: ${categories.join(', ')}`);
      await page.locator('#results ul.categories li[data-field="kind"] button').click();
      await page.locator('#results h2', { hasText: 'kind = module' }).waitFor();
      const modules = await api<{ items: ApiNode[] }>(page, '/api/filter?kind=module');
      assert.deepEqual(await page.locator('#results ul.items:not(.categories) li').evaluateAll((els) => els.map((e) => e.getAttribute('data-id'))), modules.items.map((n) => n.id), 'the exact bounded category result set');
      await page.locator('#results button.back').click();
      await page.locator('#results ul.categories').waitFor();
      const at = await page.evaluate((i) => (window as unknown as { docforgeGraph: { pagePosition(id: string): { x: number; y: number } | null } }).docforgeGraph.pagePosition(i), subject.module);
      await page.mouse.click(at!.x, at!.y, { button: 'right' });
      const inspector = page.locator('#inspector');
      await inspector.waitFor({ state: 'visible' });
      for (const section of ['Identity', 'Source', 'Relations']) assert.equal(await inspector.locator(`section[data-section="${section}"] h2`).textContent(), section);
      assert.equal(await inspector.locator('details[data-section="Hashes"]').getAttribute('open'), null, 'hashes are folded');
      assert.equal(await inspector.locator('dt', { hasText: 'content_hash' }).isVisible(), false);
      assert.equal(await inspector.locator('dd', { hasText: /^—$/ }).count(), 0, 'no dash-filled empty fields');
      await shot('inspector');
      await page.keyboard.press('Escape');
      await page.locator('#to-overview').click();
      await page.waitForSelector('#graph[data-state="overview"]', { timeout: 90_000 });
    });

    test('Flow of a document explains what Flow follows and offers Web', async () => {
      await open('', 'overview');
      const documents = await api<{ items: ApiNode[] }>(page, '/api/filter?kind=document&limit=50');
      let lone: string | null = null;
      for (const d of documents.items) {
        if ((await api<ApiGraph>(page, nodeUrl(d.id, '/flow'))).nodes.length === 1 && (await api<ApiGraph>(page, nodeUrl(d.id, '/web'))).nodes.length > 1) {
          lone = d.id;
          break;
        }
      }
      assert.ok(lone, 'a document whose Flow is the document alone and whose Web has content');
      await open(`#focus=${encodeURIComponent(lone)}&view=flow`);
      const explain = page.locator('#explain');
      await explain.waitFor({ state: 'visible' });
      assert.match((await explain.textContent()) ?? '', /Flow follows .*structure, implementation and dependency/);
      await shot('flow-document');
      await explain.locator('button[data-view="web"]').click();
      await page.waitForFunction(() => location.hash.includes('view=web') && document.getElementById('graph')!.dataset.state === 'ready', undefined, { timeout: 90_000 });
      assert.equal(await explain.isVisible(), false);
      assert.ok((await geometry(page)).nodes.length > 1, 'Web has content');
    });

    if (subject.twins) {
      const twins = subject.twins;
      test('equal file names are told apart by their shortest distinguishing path', async () => {
        await open(`#focus=${encodeURIComponent(subject.module)}&view=nodes`);
        await page.locator('#search-input').fill(twins.query);
        await page.locator('#search-button').click();
        await page.locator('#results h2', { hasText: `Search: ${twins.query}` }).waitFor();
        const texts = await page.locator('#results li button').allTextContents();
        for (const label of twins.labels) assert.ok(texts.includes(label), `${label} in ${texts.join(' | ')}`);
        assert.equal(new Set(texts).size, texts.length, 'no two results read the same');
      });
    }

    test('no script error and no CSP violation', () => {
      assert.deepEqual(errors, []);
    });
  });
}
