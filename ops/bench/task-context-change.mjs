#!/usr/bin/env node
// Benchmark of docforge_get_task_context with task_kind "change", including the affected docs,
// requirements and tests of its focus (issue 32 item 3; target: p95 under 200 ms in a running
// server) on the mixed 10k-node corpus of affected.mjs (generate.mjs `generateMixed`: a TypeScript
// tree and docs naming its functions and classes). A spawned docforge-mcp over stdio through the
// MCP SDK client, after one warm-up call; exact focus on code nodes the docs name (`KlassN.run`,
// `fnN`, `KlassN`, modules) and lexical focus on task texts. Prints the date, the load, p50/p95/max
// and how many affected items each answer held; never asserts timings (shared, noisy machines).
// Usage: node ops/bench/task-context-change.mjs [--nodes 10000] [--runs 200]
import { existsSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { generateMixed, NODES_PER_MODULE } from './generate.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '../..');
const { values } = parseArgs({ options: { nodes: { type: 'string', default: '10000' }, runs: { type: 'string', default: '200' } } });
const nodes = Number(values.nodes);
const RUNS = Number(values.runs);
const modules = Math.round(nodes / 2 / NODES_PER_MODULE);

function percentile(samples, p) {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}
const fmt = (ms) => `${ms.toFixed(1)} ms`;
const summary = (samples) => `p50 ${fmt(percentile(samples, 50))}, p95 ${fmt(percentile(samples, 95))}, max ${fmt(Math.max(...samples))} (n=${samples.length})`;
const load = () => os.loadavg().map((l) => l.toFixed(2)).join(' ');

const root = path.join(here, 'out', `mixed-${nodes}`);
console.log(`date ${new Date().toISOString()}; load ${load()}; ${os.cpus().length} cpus; node ${process.version}`);
if (!existsSync(path.join(root, 'docforge.toml'))) {
  mkdirSync(path.dirname(root), { recursive: true });
  generateMixed(root, nodes);
  console.log(`generated ${modules} TypeScript modules and the docs of ${nodes - modules * NODES_PER_MODULE} nodes into ${root}`);
}

/** The code id of module f's member (generateTs layout: src/m<f/50>/mod<f>.ts). */
const codeId = (f, member) => `code:src/m${Math.floor(f / 50)}/mod${f}.ts${member ? `#${member}` : ''}`;
const FOCI = (i) => {
  const f = (i * 7919) % modules;
  return [codeId(f, `Klass${f}.run`), codeId(f, `fn${f}`), codeId(f, `Klass${f}`), codeId(f, '')][i % 4];
};
const TASKS = ['change the retry loop of Klass run', 'rename fn and update its callers', 'refund settlement retry timeout', 'ledger journal balance alert'];

const transport = new StdioClientTransport({ command: process.execPath, args: [path.join(repo, 'apps/mcp-server/dist/src/main.js'), '--project-root', root], stderr: 'ignore' });
const client = new Client({ name: 'bench', version: '1' });
await client.connect(transport);
let t = performance.now();
const first = await client.callTool({ name: 'docforge_sync', arguments: {} });
if (first.isError) throw new Error(JSON.stringify(first.structuredContent));
console.log(`[mixed ${nodes}] first call, docforge_sync (a build when the index is missing or stale): ${fmt(performance.now() - t)}`);
t = performance.now();
await client.callTool({ name: 'docforge_get_task_context', arguments: { task_kind: 'change', task: 'warm up', focus_node_id: FOCI(0) } });
console.log(`[mixed ${nodes}] first get_task_context (reads the generation's vocabulary): ${fmt(performance.now() - t)}`);

const exact = [];
const lexical = [];
const affectedCounts = [];
let items = 0;
for (let i = 0; i < RUNS; i += 1) {
  let start = performance.now();
  const r = await client.callTool({ name: 'docforge_get_task_context', arguments: { task_kind: 'change', task: `Change ${FOCI(i)}`, focus_node_id: FOCI(i) } });
  exact.push(performance.now() - start);
  if (r.isError) throw new Error(JSON.stringify(r.structuredContent));
  const result = r.structuredContent.result;
  items += result.page.total_evidence;
  affectedCounts.push(result.items.filter((x) => x.role === 'affected').length);
  start = performance.now();
  const l = await client.callTool({ name: 'docforge_get_task_context', arguments: { task_kind: 'change', task: TASKS[i % TASKS.length] } });
  lexical.push(performance.now() - start);
  if (l.isError) throw new Error(JSON.stringify(l.structuredContent));
}
const withAffected = affectedCounts.filter((c) => c > 0).length;
console.log(`[mixed ${nodes}] get_task_context (change) over MCP stdio, exact focus: ${summary(exact)}; load ${load()}`);
console.log(`  mean ${(items / RUNS).toFixed(1)} evidence items; ${withAffected} of ${RUNS} answers held affected items (mean ${(affectedCounts.reduce((a, b) => a + b, 0) / RUNS).toFixed(1)} on the first page)`);
console.log(`[mixed ${nodes}] get_task_context (change) over MCP stdio, lexical focus: ${summary(lexical)}; load ${load()}`);
// The per-call floor every tool shares (the cheap source identity check of each call).
const floor = [];
for (let i = 0; i < 30; i += 1) {
  const start = performance.now();
  await client.callTool({ name: 'docforge_get_node', arguments: { node_id: FOCI(i), include_body: false } });
  floor.push(performance.now() - start);
}
console.log(`[mixed ${nodes}] reference: docforge_get_node over MCP stdio (identity check floor): ${summary(floor)}`);
await client.close();
console.log(`load after ${load()}`);
