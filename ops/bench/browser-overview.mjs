#!/usr/bin/env node
// The graph browser's first screen at scale (issue 34): on a generated corpus of about 100,000
// nodes (TypeScript modules in at least 1,000 folders, plus Markdown/TOML docs naming the code),
// the time from navigation to the token URL until the overview's architecture map finished its
// layout (`layoutstop`), in headless Debian Chromium with the worker running, median of N; and the
// size of the /api/overview answer. Prints figures with the date and the load; never asserts timings.
// Usage: node ops/bench/browser-overview.mjs [--nodes 100000] [--runs 10] [--prepare-only]
// The corpus is generated into ops/bench/out/map-<nodes> when missing and reused when present (it
// is indexed once with --no-ast semantics: the first screen never reads Logic).
import { existsSync, mkdirSync, readFileSync, realpathSync } from 'node:fs';
import { fork } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { generateMixed } from './generate.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '../..');
const { values } = parseArgs({ options: { nodes: { type: 'string', default: '100000' }, runs: { type: 'string', default: '10' }, 'prepare-only': { type: 'boolean', default: false } } });
const nodes = Number(values.nodes);
const RUNS = Number(values.runs);
/** Modules per folder: 100,000 nodes give 8,333 modules in 1,042 folders. */
const PER_FOLDER = 8;
const chromiumPath = process.env.DOCFORGE_CHROMIUM ?? '/usr/bin/chromium';
const fmt = (ms) => `${ms.toFixed(ms < 10 ? 2 : 0)} ms`;
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 === 1 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** The corpus: {@link generateMixed} with PER_FOLDER modules a folder (the TypeScript tree is half the nodes, docs under docs/gen, every fourth naming code). */
function generateCorpus(root) {
  return generateMixed(root, nodes, PER_FOLDER);
}

const root = path.join(here, 'out', `map-${nodes}`);
if (!existsSync(path.join(root, 'docforge.toml'))) {
  mkdirSync(path.dirname(root), { recursive: true });
  const modules = generateCorpus(root);
  console.log(`generated ${modules} modules in ${Math.ceil(modules / PER_FOLDER)} folders plus docs at ${root}`);
}
const currentFile = path.join(root, '.docforge', 'index', 'current.json');
if (!existsSync(currentFile)) {
  const { IndexManager } = await import('@docforge/sync');
  const started = performance.now();
  const manager = new IndexManager({ root, noAst: true });
  await manager.sync();
  await manager.close();
  console.log(`indexed in ${fmt(performance.now() - started)}`);
}
if (values['prepare-only']) process.exit(0);

const current = JSON.parse(readFileSync(currentFile, 'utf8'));
const projectRoot = realpathSync(root);
const config = {
  worker_id: `benchmap${process.pid}`, project_root: projectRoot, project_id: current.project_id,
  index_path: path.join(projectRoot, '.docforge', 'index', current.index_file),
  signature: { generation: current.generation, source_identity: current.source_identity, index_file: current.index_file, index_ino: current.index_ino, index_size: current.index_size },
  no_ast: true,
};
const worker = fork(path.join(repo, 'apps/graph-browser/bin/graph-browser.js'), [], { env: { ...process.env, DOCFORGE_WORKER_CONFIG: JSON.stringify(config) }, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
const port = await new Promise((resolve, reject) => {
  worker.on('message', (m) => (m.type === 'ready' ? resolve(m.port) : m.type === 'fatal' ? reject(new Error(JSON.stringify(m))) : undefined));
  worker.on('exit', (code) => reject(new Error(`worker exited ${code}`)));
});
let tokens = 0;
const token = () => new Promise((resolve) => {
  const id = `bench${tokens++}`;
  const listener = (m) => {
    if (m.type === 'token' && m.request_id === id) {
      worker.off('message', listener);
      resolve(m.url_path);
    }
  };
  worker.on('message', listener);
  worker.send({ type: 'issue_token', request_id: id });
});

const { chromium } = await import('playwright-core');
const browser = await chromium.launch({ executablePath: chromiumPath, args: ['--no-sandbox'] });
const page = await browser.newPage({ viewport: { width: 1400, height: 850 } });
const inPage = [];
/** CPU time of the page's main thread from navigation to the framed map (ms): steadier than wall time on a loaded machine. */
const cpu = [];
/** Page-clock milestones of each run (ms since navigation start). */
const stages = [];
const outside = [];
let bytes = 0;
let drawn = { groups: 0, edges: 0 };
// One warm-up navigation (the worker computes the map once per snapshot), then RUNS measured ones.
for (let run = 0; run <= RUNS; run += 1) {
  const url = `http://127.0.0.1:${port}${await token()}`;
  await page.goto('about:blank');
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const threadTime = async () => (await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'ThreadTime')?.value ?? NaN;
  const cpuBefore = await threadTime();
  const started = performance.now();
  await page.goto(url);
  await page.waitForSelector('#graph[data-state="overview"]', { timeout: 120_000 });
  const elapsed = performance.now() - started;
  const cpuAfter = await threadTime();
  // ThreadTime: CPU seconds of the renderer's main thread (a new renderer process counts from its start).
  cpu.push((cpuAfter >= cpuBefore ? cpuAfter - cpuBefore : cpuAfter) * 1000);
  await cdp.detach();
  const layoutStop = Number(await page.locator('#graph').getAttribute('data-layout-stop-ms'));
  if (run === 0) {
    cpu.pop();
    const sizes = await page.evaluate(async () => {
      const text = await (await fetch('/api/overview')).text();
      const body = JSON.parse(text);
      return { total: new TextEncoder().encode(text).byteLength, parts: Object.fromEntries(Object.entries(body).map(([k, v]) => [k, JSON.stringify(v).length])), groups: JSON.stringify(body.map.groups).length, edges: JSON.stringify(body.map.edges).length };
    });
    bytes = sizes.total;
    console.log(`overview parts (characters): ${JSON.stringify(sizes.parts)}; map groups ${sizes.groups}, map edges ${sizes.edges}`);
    drawn = await page.evaluate(() => ({ groups: window.docforgeGraph.nodes().length, edges: window.docforgeGraph.edges().length }));
    console.log(`warm-up: ${fmt(elapsed)} (the worker's first map of the snapshot)`);
    continue;
  }
  inPage.push(layoutStop);
  outside.push(elapsed);
  stages.push(await page.evaluate(() => {
    const nav = performance.getEntriesByType('navigation')[0];
    const api = performance.getEntriesByType('resource').find((e) => e.name.includes('/api/overview'));
    const mark = (name) => performance.getEntriesByName(name)[0]?.startTime ?? NaN;
    return { html: nav.responseEnd, script: nav.domContentLoadedEventEnd, requested: api?.startTime ?? NaN, answered: api?.responseEnd ?? NaN, parsed: mark('overview-answer'), drawStart: mark('draw-start'), added: mark('draw-added'), laid: mark('draw-laid'), framed: mark('draw-framed') };
  }));
}
const load = os.loadavg().map((x) => x.toFixed(2)).join(', ');
console.log(`${new Date().toISOString()} load average ${load}`);
console.log(`[${nodes} nodes, ${current.project_id}] first screen: navigation → overview layoutstop median ${fmt(median(inPage))} (page clock; min ${fmt(Math.min(...inPage))}, max ${fmt(Math.max(...inPage))}), ${fmt(median(outside))} from the driver; ${RUNS} runs`);
console.log(`the page's main thread, navigation to the framed map: CPU time median ${fmt(median(cpu))} (min ${fmt(Math.min(...cpu))}, max ${fmt(Math.max(...cpu))})`);
const stage = (key) => fmt(median(stages.map((x) => x[key])));
console.log(`medians (page clock): page HTML ${stage('html')}, app script run ${stage('script')}, /api/overview asked ${stage('requested')} and answered ${stage('answered')}, the answer in the page's hands ${stage('parsed')}, drawing started ${stage('drawStart')}, elements added ${stage('added')}, laid out (layoutstop) ${stage('laid')}, framed ${stage('framed')}`);
console.log(`overview answer ${(bytes / 1024).toFixed(1)} KB; drawn ${drawn.groups} nodes and ${drawn.edges} aggregated edges`);
await browser.close();
worker.send({ type: 'shutdown' });
