#!/usr/bin/env node
// Benchmark of issue 8 item 1: search and context hitting a ~5 MB single node (target < 200 ms),
// and the latency of a `ping` sent while such a request runs over MCP stdio (target < 100 ms);
// also get_node and get_context by id and task context on the big node.
// Prints figures; never asserts timings. Usage: node ops/bench/large-node.mjs [--mb 5] [--runs 20]
import { mkdirSync, rmSync, writeFileSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { IndexManager } from '@docforge/sync';
import { searchNodes, contextPage } from '@docforge/retrieval';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const { values } = parseArgs({ options: { mb: { type: 'string', default: '5' }, runs: { type: 'string', default: '20' } } });
const RUNS = Number(values.runs);
const fmt = (ms) => `${ms.toFixed(ms < 10 ? 2 : 1)} ms`;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const max = (xs) => Math.max(...xs);

const root = mkdtempSync(path.join(os.tmpdir(), 'docforge-bench-large-'));
mkdirSync(path.join(root, 'docs'));
writeFileSync(path.join(root, 'docforge.toml'), 'schema_version = 1\n[project]\nid = "large-node"\nname = "Large node"\n[sources]\ncontent_roots = ["docs"]\ncode_roots = []\n[adapter]\ncode = "none"\n');
const line = 'zebra lorem\n';
writeFileSync(path.join(root, 'docs/big.md'), `# Big\n\n${line.repeat(Math.ceil((Number(values.mb) * 1024 * 1024) / line.length))}`);
writeFileSync(path.join(root, 'docs/small.md'), '# Small\n\nOne zebra.\n');

try {
  const manager = new IndexManager({ root, noAst: false });
  let t = performance.now();
  await manager.sync();
  console.log(`index build (${values.mb} MB node): ${fmt(performance.now() - t)}`);
  const reader = manager.reader();
  const time = (fn) => {
    const samples = [];
    for (let i = 0; i < RUNS; i += 1) {
      t = performance.now();
      fn();
      samples.push(performance.now() - t);
    }
    return samples;
  };
  const search = time(() => searchNodes(reader, 'zebra', 10));
  console.log(`in-process search "zebra": median ${fmt(median(search))}, max ${fmt(max(search))}`);
  const binding = { project: 'large-node', adapter: 'bench', generation: 1 };
  const context = time(() => contextPage(reader, null, { query: 'zebra' }, { binding, limit: 50, resultCharBudget: 55_000, maxResults: 200 }));
  console.log(`in-process context query "zebra": median ${fmt(median(context))}, max ${fmt(max(context))}`);
  await manager.close();

  const transport = new StdioClientTransport({ command: process.execPath, args: [path.join(repo, 'apps/mcp-server/dist/src/main.js'), '--project-root', root], stderr: 'ignore' });
  const client = new Client({ name: 'bench', version: '0' });
  await client.connect(transport);
  await client.callTool({ name: 'docforge_search', arguments: { query: 'warmup' } });
  // Each tool in turn. Per run one ping goes out right after the call and one halfway through the
  // call's median round trip (measured in a warm-up), when the server is inside the handler: the
  // ping's latency is how long a client waits for an unrelated answer while the call runs.
  const requests = [
    ['docforge_search', { query: 'zebra' }],
    ['docforge_get_context', { query: 'zebra' }],
    ['docforge_get_context', { node_id: 'big' }],
    ['docforge_get_node', { node_id: 'big' }],
    ['docforge_get_task_context', { task_kind: 'change', task: 'zebra lorem' }],
  ];
  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  const allPings = [];
  for (const [name, args] of requests) {
    const warm = [];
    for (let i = 0; i < 5; i += 1) {
      t = performance.now();
      await client.callTool({ name, arguments: args });
      warm.push(performance.now() - t);
    }
    const halfway = median(warm) / 2;
    const calls = [];
    const pings = [];
    for (let i = 0; i < RUNS; i += 1) {
      t = performance.now();
      const call = client.callTool({ name, arguments: args }).then(() => performance.now() - t);
      const timedPing = async (delay) => {
        if (delay > 0) await sleep(delay);
        const start = performance.now();
        await client.ping();
        return performance.now() - start;
      };
      const [c, p0, p1] = await Promise.all([call, timedPing(0), timedPing(halfway)]);
      calls.push(c);
      pings.push(p0, p1);
    }
    allPings.push(...pings);
    console.log(`MCP ${name} ${JSON.stringify(args)}: round trip median ${fmt(median(calls))}, max ${fmt(max(calls))}; ping meanwhile median ${fmt(median(pings))}, max ${fmt(max(pings))}`);
  }
  console.log(`MCP ping sent during any of them: median ${fmt(median(allPings))}, max ${fmt(max(allPings))}`);
  await client.close();
} finally {
  rmSync(root, { recursive: true, force: true });
}
