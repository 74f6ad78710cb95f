#!/usr/bin/env node
// Code indexing benchmark: a real docforge-mcp process over stdio (MCP SDK client), timing
// docforge_sync cold, with no change and after a one-file edit, on a copy of the fastify package
// (docs, lib, types, test) and on a synthetic TypeScript tree. Reports wall time, files/s and the
// server's peak RSS (VmHWM of /proc/PID/status, which includes its worker threads).
// Prints figures; never asserts timings (shared, noisy machines).
// Usage: node ops/bench/code.mjs [--ts-files 2000] [--runs 30] [--edits 10] [--only fastify|ts] [--no-ast]
import { appendFileSync, cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { generateTs } from './generate.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '../..');
const outDir = path.join(here, 'out');
const { values } = parseArgs({
  options: {
    'ts-files': { type: 'string', default: '2000' },
    runs: { type: 'string', default: '30' },
    edits: { type: 'string', default: '10' },
    only: { type: 'string' },
    'no-ast': { type: 'boolean', default: false },
  },
});
const RUNS = Number(values.runs);
const EDITS = Number(values.edits);

function percentile(samples, p) {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}
const ms = (x) => `${x.toFixed(x < 10 ? 2 : x < 100 ? 1 : 0)} ms`;

function memory(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return {
    rss: Number(/VmRSS:\s+(\d+)/.exec(status)[1]) / 1024,
    hwm: Number(/VmHWM:\s+(\d+)/.exec(status)[1]) / 1024,
  };
}

/** Copies the fastify package (docs, lib, types, test and root files) into a fresh project. */
function fastifyCorpus() {
  const root = path.join(outDir, 'code-fastify');
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  const fastify = path.join(repo, 'node_modules', 'fastify');
  for (const name of ['docs', 'lib', 'types', 'test', 'fastify.js', 'fastify.d.ts', 'package.json']) {
    cpSync(path.join(fastify, name), path.join(root, name), { recursive: true });
  }
  writeFileSync(path.join(root, 'docforge.toml'), [
    'schema_version = 1', '[project]', 'id = "fastify"', 'name = "Fastify"', '[sources]', 'content_roots = ["docs"]', 'code_roots = ["."]',
    'exclude = ["**/node_modules/**", "**/.git/**"]', '[adapter]', 'code = "typescript"', 'strategy = "ast"', '',
  ].join('\n'));
  return { name: 'fastify package (docs, lib, types, test)', root, editFile: path.join(root, 'lib', 'route.js') };
}

function tsCorpus(files) {
  const root = path.join(outDir, `code-ts-${files}`);
  if (!existsSync(path.join(root, 'docforge.toml'))) generateTs(root, files);
  rmSync(path.join(root, '.docforge'), { recursive: true, force: true });
  return { name: `synthetic TypeScript tree (${files} files)`, root, editFile: path.join(root, 'src', 'm0', 'mod0.ts') };
}

async function bench(corpus) {
  const args = [path.join(repo, 'apps/mcp-server/dist/src/main.js'), '--project-root', corpus.root, '--log-level', 'warn'];
  if (values['no-ast']) args.push('--no-ast');
  const transport = new StdioClientTransport({ command: process.execPath, args, stderr: 'ignore' });
  const client = new Client({ name: 'bench-code', version: '1' });
  await client.connect(transport);
  const pid = transport.pid;
  const sync = async () => {
    const t = performance.now();
    const response = await client.callTool({ name: 'docforge_sync', arguments: {} });
    const elapsed = performance.now() - t;
    const envelope = response.structuredContent;
    if (!envelope.ok) throw new Error(`sync failed: ${JSON.stringify(envelope.error)}`);
    return { elapsed, result: envelope.result };
  };
  const idle = memory(pid);
  const cold = await sync();
  const afterCold = memory(pid);
  const noChange = [];
  for (let i = 0; i < RUNS; i += 1) {
    const r = await sync();
    if (r.result.rebuilt) throw new Error('no-change sync rebuilt');
    noChange.push(r.elapsed);
  }
  const edits = [];
  let lastEdit;
  for (let i = 0; i < EDITS; i += 1) {
    appendFileSync(corpus.editFile, `\n// bench edit ${i}\n`);
    const r = await sync();
    if (!r.result.rebuilt) throw new Error('edit did not rebuild');
    edits.push(r.elapsed);
    lastEdit = r.result.build;
  }
  const counts = cold.result.counts;
  const end = memory(pid);
  await client.close();
  const files = counts.sources;
  console.log(`\n== ${corpus.name}${values['no-ast'] ? ' [--no-ast]' : ''}`);
  console.log(`   ${files} files, ${counts.nodes} nodes, ${counts.edges} edges, ${counts.logic_steps} Logic steps, ${counts.issues} issues`);
  console.log(`   cold:          ${ms(cold.elapsed)} wall (${(files / (cold.elapsed / 1000)).toFixed(0)} files/s; worker build ${ms(cold.result.build.total_ms)}, mode ${cold.result.build.mode})`);
  console.log(`   no-change:     p50 ${ms(percentile(noChange, 50))}, p95 ${ms(percentile(noChange, 95))} (identity walk ${ms(cold.result.identity_ms)} on the cold call)`);
  console.log(`   one-file edit: p50 ${ms(percentile(edits, 50))}, p95 ${ms(percentile(edits, 95))} (last: mode ${lastEdit.mode}, parsed ${lastEdit.parsed}, reused ${lastEdit.reused}, worker ${ms(lastEdit.total_ms)})`);
  console.log(`   server RSS:    idle ${idle.rss.toFixed(0)} MB, after cold ${afterCold.rss.toFixed(0)} MB, end ${end.rss.toFixed(0)} MB, peak (VmHWM) ${end.hwm.toFixed(0)} MB`);
}

console.log(`load average before: ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
mkdirSync(outDir, { recursive: true });
if (values.only !== 'ts') await bench(fastifyCorpus());
if (values.only !== 'fastify') await bench(tsCorpus(Number(values['ts-files'])));
console.log(`\nload average after: ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
