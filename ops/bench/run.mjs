#!/usr/bin/env node
// DocForge benchmarks: cold index, no-change sync, one-file-edit sync, search and impact latency,
// MCP server RSS. Prints figures; never asserts timings (the machines are shared and noisy).
// Usage: node ops/bench/run.mjs [--sizes 10000,100000] [--skip-rss] [--search-only] [--code]
// --search-only: cold index, then only the search figures (no sync or impact runs, no RSS).
import { appendFileSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { IndexManager } from '@docforge/sync';
import { searchNodes, traverse } from '@docforge/retrieval';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { generateDocs, wordOfRank } from './generate.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '../..');
const outDir = path.join(here, 'out');
const { values } = parseArgs({ options: { sizes: { type: 'string', default: '10000,100000' }, 'skip-rss': { type: 'boolean', default: false }, 'search-only': { type: 'boolean', default: false }, runs: { type: 'string', default: '200' } } });
const sizes = values.sizes.split(',').map(Number);
const RUNS = Number(values.runs);

export function percentile(samples, p) {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}
const fmt = (ms) => `${ms.toFixed(ms < 10 ? 2 : 1)} ms`;

async function timed(fn) {
  const t = performance.now();
  const r = await fn();
  return [performance.now() - t, r];
}

/** No-change and one-file-edit sync figures of the corpus at `root`. */
async function syncFigures(n, root, manager) {
  const noChange = [];
  for (let i = 0; i < 30; i += 1) noChange.push((await timed(() => manager.sync()))[0]);
  console.log(`[${n}] no-change sync (server, watched): p50 ${fmt(percentile(noChange, 50))}, p95 ${fmt(percentile(noChange, 95))}`);
  const walker = new IndexManager({ root, noAst: false });
  const walked = [];
  for (let i = 0; i < 30; i += 1) walked.push((await timed(() => walker.sync()))[0]);
  await walker.close();
  console.log(`[${n}] no-change sync (identity walk, as the CLI): p50 ${fmt(percentile(walked, 50))}, p95 ${fmt(percentile(walked, 95))}`);
  const edits = [];
  const editFile = path.join(root, 'docs', 'area-0000', 'n-3.md');
  for (let i = 0; i < 10; i += 1) {
    appendFileSync(editFile, `\nEdited paragraph ${i} about settlement.\n`);
    const [ms, r] = await timed(() => manager.sync());
    if (!r.rebuilt) throw new Error('edit did not rebuild');
    edits.push(ms);
  }
  console.log(`[${n}] one-file-edit sync: p50 ${fmt(percentile(edits, 50))}, p95 ${fmt(percentile(edits, 95))} (mode ${(await manager.sync()).stats?.mode ?? 'delta'})`);
}

async function benchDocs(n) {
  const root = path.join(outDir, `docs-${n}`);
  if (!existsSync(path.join(root, 'docforge.toml'))) {
    mkdirSync(outDir, { recursive: true });
    const [ms] = await timed(() => generateDocs(root, n));
    console.log(`generated ${n} nodes in ${fmt(ms)}`);
  }
  rmSync(path.join(root, '.docforge'), { recursive: true, force: true });
  // As in the MCP server: the source watcher stands for the identity walk while nothing changes.
  const manager = new IndexManager({ root, noAst: false, watchSources: true });
  const [coldMs, cold] = await timed(() => manager.sync());
  const s = cold.stats;
  console.log(`[${n}] cold index: ${fmt(coldMs)} (walk ${fmt(cold.identity_ms)}, parse ${fmt(s.parse_ms)}, resolve ${fmt(s.resolve_ms)}, write ${fmt(s.write_ms)}, publish ${fmt(s.publish_ms)}); ${s.nodes} nodes, ${s.edges} edges`);
  if (!values['search-only']) await syncFigures(n, root, manager);
  const reader = manager.reader();
  // Queries of known frequency: domain words (Zipf ranks 40-400), mid and rare pseudo-words, an id.
  const queries = ['idempotency', 'refund settlement', 'ledger journal', 'webhook token', 'fraud score', 'latency budget alert', 'N-000123',
    wordOfRank(1000), `${wordOfRank(2000)} ${wordOfRank(5000)}`, wordOfRank(10000)];
  const search = [];
  for (let i = 0; i < RUNS; i += 1) search.push((await timed(() => searchNodes(reader, queries[i % queries.length], 20)))[0]);
  console.log(`[${n}] search (limit 20, realistic terms): p50 ${fmt(percentile(search, 50))}, p95 ${fmt(percentile(search, 95))}`);
  const common = [];
  for (let i = 0; i < 40; i += 1) common.push((await timed(() => searchNodes(reader, `${wordOfRank(i % 4)} ${wordOfRank(4 + (i % 4))}`, 20)))[0]);
  console.log(`[${n}] search worst case (two of the 8 most common words, in most nodes): p50 ${fmt(percentile(common, 50))}, p95 ${fmt(percentile(common, 95))}`);
  if (values['search-only']) {
    await manager.close();
    return root;
  }
  const impact = [];
  let last;
  for (let i = 0; i < RUNS; i += 1) {
    const id = `N-${String((i * 7919) % n).padStart(6, '0')}`;
    const [ms, r] = await timed(() => traverse(reader, id, { direction: 'incoming', depth: 3, limit: 200 }));
    impact.push(ms);
    last = r;
  }
  console.log(`[${n}] impact depth 3 (limit 200): p50 ${fmt(percentile(impact, 50))}, p95 ${fmt(percentile(impact, 95))} (last: ${last.items.length} items, ${last.examined_edges} edges examined)`);
  await manager.close();
  return root;
}

async function serverRss(root) {
  const transport = new StdioClientTransport({ command: process.execPath, args: [path.join(repo, 'apps/mcp-server/dist/src/main.js'), '--project-root', root], stderr: 'ignore' });
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(transport);
  await client.callTool({ name: 'docforge_bootstrap', arguments: {} });
  for (let i = 0; i < 50; i += 1) await client.callTool({ name: 'docforge_search', arguments: { query: 'refund ledger', limit: 20 } });
  await client.callTool({ name: 'docforge_impact', arguments: { node_id: 'N-000001', depth: 3 } });
  const pid = transport.pid;
  const { readFileSync } = await import('node:fs');
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const rss = Number(/VmRSS:\s+(\d+)/.exec(status)[1]) / 1024;
  const hwm = Number(/VmHWM:\s+(\d+)/.exec(status)[1]) / 1024;
  await client.close();
  return { rss, hwm };
}

for (const n of sizes) {
  const root = await benchDocs(n);
  if (!values['skip-rss'] && !values['search-only']) {
    const { rss, hwm } = await serverRss(root);
    console.log(`[${n}] docforge-mcp RSS after bootstrap+queries: ${rss.toFixed(0)} MB (peak ${hwm.toFixed(0)} MB)`);
  }
}
