#!/usr/bin/env node
// Graph-browser endpoint latency (issue 12): forks the real worker (apps/graph-browser/bin) on the
// current index of a synthetic documentation project, trades a token for the session cookie, then
// times sequential GETs of /api/nodes/{id}/neighborhood (and, for reference, /flow and /web) over
// one keep-alive connection, measured at the client. Prints figures; never asserts (target: p95 of
// the neighborhood endpoint under 50 ms at 100,000 nodes).
// Usage: node ops/bench/viewer-endpoint.mjs [--nodes 100000] [--runs 500]   (after `npx tsc -b`)
import { fork } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { IndexManager } from '@docforge/sync';
import { readPublication } from '@docforge/store';
import { generateDocs } from './generate.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '../..');
const { values } = parseArgs({ options: { nodes: { type: 'string', default: '100000' }, runs: { type: 'string', default: '500' } } });
const N = Number(values.nodes);
const RUNS = Number(values.runs);

function percentile(samples, p) {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}
const fmt = (ms) => `${ms.toFixed(ms < 10 ? 2 : 1)} ms`;

const root = path.join(here, 'out', `docs-${N}`);
if (!existsSync(path.join(root, 'docforge.toml'))) {
  mkdirSync(path.dirname(root), { recursive: true });
  generateDocs(root, N);
}
const manager = new IndexManager({ root, noAst: false });
const started = performance.now();
const report = await manager.sync();
console.log(`[${N}] index ${report.rebuilt ? 'built' : 'current'} in ${fmt(performance.now() - started)}`);
const publication = readPublication(manager.layout());
const indexDir = manager.layout().indexDir;
await manager.close();
const { generation, source_identity, index_file, index_ino, index_size } = publication;
const config = { worker_id: 'bench', project_root: root, project_id: publication.project_id, index_path: path.join(indexDir, index_file), signature: { generation, source_identity, index_file, index_ino, index_size }, no_ast: false };

const forkedAt = performance.now();
const child = fork(path.join(repo, 'apps/graph-browser/bin/graph-browser.js'), [], { env: { ...process.env, DOCFORGE_WORKER_CONFIG: JSON.stringify(config), DOCFORGE_LOG_LEVEL: 'warn' }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
const next = (type) => new Promise((resolve, reject) => {
  const on = (m) => {
    if (m.type === type) { child.off('message', on); resolve(m); } else if (m.type === 'fatal') reject(new Error(m.message));
  };
  child.on('message', on);
});
const ready = await next('ready');
console.log(`[${N}] worker ready in ${fmt(performance.now() - forkedAt)} (fork to listening)`);
child.send({ type: 'issue_token', request_id: 'bench' });
const token = await next('token');
const base = `http://127.0.0.1:${ready.port}`;
const traded = await fetch(base + token.url_path, { redirect: 'manual' });
const cookie = traded.headers.get('set-cookie').split(';')[0];

async function measure(view, runs) {
  const samples = [];
  let nodes = 0;
  for (let i = 0; i < runs; i += 1) {
    const id = `N-${String((i * 7919) % N).padStart(6, '0')}`;
    const t = performance.now();
    const response = await fetch(`${base}/api/nodes/${encodeURIComponent(id)}/${view}`, { headers: { cookie } });
    const body = await response.json();
    samples.push(performance.now() - t);
    if (response.status !== 200) throw new Error(`${view} ${id}: ${response.status} ${JSON.stringify(body)}`);
    nodes += body.nodes.length;
  }
  console.log(`[${N}] ${view}: p50 ${fmt(percentile(samples, 50))}, p95 ${fmt(percentile(samples, 95))}, max ${fmt(Math.max(...samples))} over ${runs} requests (mean ${(nodes / runs).toFixed(1)} nodes per answer)`);
}

const first = performance.now();
await fetch(`${base}/api/overview`, { headers: { cookie } });
console.log(`[${N}] first /api/overview: ${fmt(performance.now() - first)}`);
await measure('neighborhood', 20); // warm-up (statement cache, page cache)
await measure('neighborhood', RUNS);
await measure('flow', Math.min(RUNS, 200));
await measure('web', Math.min(RUNS, 200));
child.send({ type: 'shutdown' });
