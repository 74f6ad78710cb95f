#!/usr/bin/env node
// Graph browser benchmark (issue 13): on a generated 100,000-node project, the time the page takes
// to render a bounded neighborhood (Nodes, Flow, Web) after the worker's API answered, in headless
// Chromium. The page records it on #graph[data-render-ms] (from the parsed answer to the first
// frame after the ELK layout). Prints figures; asserts nothing.
// Usage: node ops/bench/browser.mjs [--nodes 100000] [--runs 20]
import { fork } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { IndexManager } from '@docforge/sync';
import { chromium } from 'playwright-core';
import { generateDocs } from './generate.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '../..');
const { values } = parseArgs({ options: { nodes: { type: 'string', default: '100000' }, runs: { type: 'string', default: '20' } } });
const n = Number(values.nodes);
const runs = Number(values.runs);
const chromiumPath = process.env.DOCFORGE_CHROMIUM ?? '/usr/bin/chromium';
const fmt = (ms) => `${ms.toFixed(ms < 10 ? 2 : 1)} ms`;
const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];

const root = path.join(here, 'out', `docs-${n}`);
if (!existsSync(path.join(root, 'docforge.toml'))) {
  mkdirSync(path.dirname(root), { recursive: true });
  generateDocs(root, n);
  console.log(`generated ${n} nodes at ${root}`);
}
const currentFile = path.join(root, '.docforge', 'index', 'current.json');
if (!existsSync(currentFile)) {
  const started = performance.now();
  const manager = new IndexManager({ root, noAst: false });
  await manager.sync();
  await manager.close();
  console.log(`indexed in ${fmt(performance.now() - started)}`);
}
const current = JSON.parse(readFileSync(currentFile, 'utf8'));
const projectRoot = realpathSync(root);
const config = {
  worker_id: `bench${process.pid}`, project_root: projectRoot, project_id: current.project_id,
  index_path: path.join(projectRoot, '.docforge', 'index', current.index_file),
  signature: { generation: current.generation, source_identity: current.source_identity, index_file: current.index_file, index_ino: current.index_ino, index_size: current.index_size },
  no_ast: false,
};
const worker = fork(path.join(repo, 'apps/graph-browser/bin/graph-browser.js'), [], { env: { ...process.env, DOCFORGE_WORKER_CONFIG: JSON.stringify(config) }, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
const port = await new Promise((resolve, reject) => {
  worker.on('message', (m) => (m.type === 'ready' ? resolve(m.port) : m.type === 'fatal' ? reject(new Error(JSON.stringify(m))) : undefined));
  worker.on('exit', (code) => reject(new Error(`worker exited ${code}`)));
});
const tokenPath = await new Promise((resolve) => {
  worker.on('message', (m) => m.type === 'token' && resolve(m.url_path));
  worker.send({ type: 'issue_token', request_id: 'bench' });
});

const browser = await chromium.launch({ executablePath: chromiumPath, args: ['--no-sandbox'] });
const page = await browser.newPage({ viewport: { width: 1400, height: 850 } });
const ids = Array.from({ length: runs }, (_, i) => `N-${String((i * 7919 + 17) % n).padStart(6, '0')}`);
await page.goto(`http://127.0.0.1:${port}${tokenPath}#focus=${encodeURIComponent(ids[0])}&view=nodes`);
await page.waitForSelector('#graph[data-state="ready"], #graph[data-state="error"]', { timeout: 60_000 });
for (const view of ['nodes', 'flow', 'web']) {
  const render = [];
  const api = [];
  const sizes = [];
  for (const id of ids) {
    await page.evaluate(() => performance.clearResourceTimings());
    await page.evaluate(([focus, v]) => { location.hash = new URLSearchParams({ focus, view: v }).toString(); }, [id, view]);
    await page.waitForFunction(([focus, v]) => {
      const graph = document.getElementById('graph');
      return location.hash.includes(encodeURIComponent(focus)) && location.hash.includes(v) && (graph.dataset.state === 'ready' || graph.dataset.state === 'error');
    }, [id, view], { timeout: 60_000 });
    const state = await page.locator('#graph').getAttribute('data-state');
    if (state !== 'ready') throw new Error(`${view} ${id}: ${await page.locator('#status').textContent()}`);
    render.push(Number(await page.locator('#graph').getAttribute('data-render-ms')));
    const timing = await page.evaluate(() => performance.getEntriesByType('resource').filter((e) => e.name.includes('/api/nodes/')).map((e) => e.responseEnd - e.startTime));
    if (timing.length > 0) api.push(timing[timing.length - 1]);
    sizes.push(await page.evaluate(() => window.docforgeGraph.nodes().length));
  }
  console.log(`[${n}] ${view}: render after the API answered p50 ${fmt(pct(render, 50))}, p95 ${fmt(pct(render, 95))}, max ${fmt(Math.max(...render))}; API round trip p50 ${fmt(pct(api, 50))}; ${Math.min(...sizes)}-${Math.max(...sizes)} nodes drawn (${runs} foci)`);
}
await browser.close();
worker.send({ type: 'shutdown' });
