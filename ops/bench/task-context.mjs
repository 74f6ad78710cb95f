#!/usr/bin/env node
// Benchmark of docforge_get_task_context at 100,000 nodes (target: p95 under 100 ms). Prints
// figures; never asserts timings (the machines are shared and noisy).
// Measures (1) the library call taskContextPage in process, exact and lexical focus over all seven
// task kinds, and (2) the full MCP tool call over stdio against a spawned docforge-mcp.
// Usage: node ops/bench/task-context.mjs [--nodes 100000] [--runs 200] [--mcp-runs 100]
// The corpus is generated (ops/bench/generate.mjs) into ops/bench/out/docs-<nodes> when missing
// and reused when present; its index is built once and reused while the sources are unchanged.
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { IndexManager } from '@docforge/sync';
import { TASK_KINDS, taskContextPage } from '@docforge/retrieval';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { generateDocs } from './generate.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '../..');
const { values } = parseArgs({ options: { nodes: { type: 'string', default: '100000' }, runs: { type: 'string', default: '200' }, 'mcp-runs': { type: 'string', default: '100' } } });
const nodes = Number(values.nodes);
const RUNS = Number(values.runs);
const MCP_RUNS = Number(values['mcp-runs']);

function percentile(samples, p) {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}
const fmt = (ms) => `${ms.toFixed(ms < 10 ? 2 : 1)} ms`;
const summary = (samples) => `p50 ${fmt(percentile(samples, 50))}, p95 ${fmt(percentile(samples, 95))}, max ${fmt(Math.max(...samples))}`;
const nodeId = (i) => `N-${String(i % nodes).padStart(6, '0')}`;
const TASKS = ['refund settlement retry timeout', 'ledger journal balance alert', 'webhook token session cache', 'fraud score latency budget', 'idempotency gateway capture authorize', 'schema migration replica shard', 'incident rollback deploy config'];

const root = path.join(here, 'out', `docs-${nodes}`);
if (!existsSync(path.join(root, 'docforge.toml'))) {
  mkdirSync(path.dirname(root), { recursive: true });
  const t = performance.now();
  generateDocs(root, nodes);
  console.log(`generated ${nodes} nodes in ${fmt(performance.now() - t)}`);
}
const manager = new IndexManager({ root, noAst: false });
let t = performance.now();
const sync = await manager.sync();
console.log(`[${nodes}] sync: ${fmt(performance.now() - t)} (rebuilt ${sync.rebuilt}); ${sync.publication.counts.nodes} nodes, ${sync.publication.counts.edges} edges`);
const reader = manager.reader();
const options = {
  policyHash: '0'.repeat(64),
  binding: { project: sync.descriptor.project.id, adapter: sync.publication.adapter_version, generation: sync.publication.generation },
  declaredRelations: sync.descriptor.vocabulary.relations,
  roots: { content_roots: sync.descriptor.sources.content_roots, code_roots: sync.descriptor.sources.code_roots },
  limit: 50,
  resultCharBudget: sync.descriptor.limits.max_output_chars - 1000,
};

// The first call reads the generation's relation vocabulary once (cached per published index file).
t = performance.now();
taskContextPage(reader, { task_kind: 'change', task: 'warm up', focus_node_id: nodeId(1) }, options);
console.log(`[${nodes}] first call (reads the relation vocabulary of the generation): ${fmt(performance.now() - t)}`);

const exact = [];
const lexical = [];
let evidence = 0;
let examined = 0;
for (let i = 0; i < RUNS; i += 1) {
  const kind = TASK_KINDS[i % TASK_KINDS.length];
  let start = performance.now();
  const a = taskContextPage(reader, { task_kind: kind, task: `Work on ${nodeId(i * 7919)}`, focus_node_id: nodeId(i * 7919) }, options);
  exact.push(performance.now() - start);
  evidence += a.page.total_evidence;
  examined += a.examined_edges;
  start = performance.now();
  taskContextPage(reader, { task_kind: kind, task: TASKS[i % TASKS.length] }, options);
  lexical.push(performance.now() - start);
}
console.log(`[${nodes}] task context, exact focus (lib): ${summary(exact)} (mean ${(evidence / RUNS).toFixed(1)} evidence items, ${(examined / RUNS).toFixed(1)} edges examined)`);
console.log(`[${nodes}] task context, lexical focus (lib): ${summary(lexical)}`);
await manager.close();

const transport = new StdioClientTransport({ command: process.execPath, args: [path.join(repo, 'apps/mcp-server/dist/src/main.js'), '--project-root', root], stderr: 'ignore' });
const client = new Client({ name: 'bench', version: '1' });
await client.connect(transport);
t = performance.now();
await client.callTool({ name: 'docforge_get_task_context', arguments: { task_kind: 'change', task: 'warm up', focus_node_id: nodeId(1) } });
console.log(`[${nodes}] first MCP call (server start-up sync and vocabulary): ${fmt(performance.now() - t)}`);
const mcpExact = [];
const mcpLexical = [];
for (let i = 0; i < MCP_RUNS; i += 1) {
  const kind = TASK_KINDS[i % TASK_KINDS.length];
  let start = performance.now();
  const r = await client.callTool({ name: 'docforge_get_task_context', arguments: { task_kind: kind, task: `Work on ${nodeId(i * 104729)}`, focus_node_id: nodeId(i * 104729) } });
  mcpExact.push(performance.now() - start);
  if (r.isError) throw new Error(JSON.stringify(r.structuredContent));
  start = performance.now();
  await client.callTool({ name: 'docforge_get_task_context', arguments: { task_kind: kind, task: TASKS[i % TASKS.length] } });
  mcpLexical.push(performance.now() - start);
}
console.log(`[${nodes}] docforge_get_task_context over MCP stdio, exact focus: ${summary(mcpExact)}`);
console.log(`[${nodes}] docforge_get_task_context over MCP stdio, lexical focus: ${summary(mcpLexical)}`);
// Baseline: every MCP tool call first re-checks the cheap source identity (a full lstat walk of the
// project), so a trivial read shows the per-call floor that task context shares.
const baseline = [];
for (let i = 0; i < Math.min(MCP_RUNS, 30); i += 1) {
  const start = performance.now();
  await client.callTool({ name: 'docforge_get_node', arguments: { node_id: nodeId(i * 31), include_body: false } });
  baseline.push(performance.now() - start);
}
console.log(`[${nodes}] baseline docforge_get_node over MCP stdio (identity check floor): ${summary(baseline)}`);
await client.close();
