#!/usr/bin/env node
// Viewer benchmark (issue 12): time from a docforge_visualize call to the first API answer of the
// graph browser (token traded for the cookie, then GET /api/overview), on a copy of examples/ whose
// index is already synchronized. Cold: no viewer manager runs (the call spawns the manager and a
// worker). Manager warm: the manager runs, the project has no worker. Warm: the worker is reused.
// Prints figures; never asserts timings. Targets (issue 12): cold < 1 s, warm < 100 ms.
// Usage: node ops/bench/viewer.mjs [--runs 20] [--cold-runs 5]   (after npx tsc -b)
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { IpcClient, viewerRuntimePaths } from '@docforge/ipc';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const { values } = parseArgs({ options: { runs: { type: 'string', default: '20' }, 'cold-runs': { type: 'string', default: '5' } } });
const RUNS = Number(values.runs);
const COLD_RUNS = Number(values['cold-runs']);

function percentile(samples, p) {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}
const fmt = (ms) => `${ms.toFixed(ms < 10 ? 2 : 1)} ms`;
const summary = (xs) => `p50 ${fmt(percentile(xs, 50))}, p95 ${fmt(percentile(xs, 95))}, max ${fmt(Math.max(...xs))} (${xs.length} runs)`;

const runtimeDir = mkdtempSync(path.join(tmpdir(), 'dfv-bench-run-'));
const root = mkdtempSync(path.join(tmpdir(), 'dfv-bench-proj-'));
cpSync(path.join(repo, 'examples'), root, { recursive: true, filter: (src) => !src.includes(`${path.sep}.docforge`) });
const env = { ...process.env, DOCFORGE_VIEWER_RUNTIME_DIR: runtimeDir };
const socket = viewerRuntimePaths(env).socket;

async function shutdownManager() {
  try {
    const c = await IpcClient.connect(socket, { client: 'bench', timeoutMs: 2000 });
    await c.request('shutdown', {});
    c.close();
  } catch {
    /* none running */
  }
  // Wait until the socket no longer answers, so the next cold run really starts a manager.
  for (;;) {
    try {
      (await IpcClient.connect(socket, { client: 'bench', timeoutMs: 200 })).close();
      await new Promise((r) => setTimeout(r, 20));
    } catch {
      return;
    }
  }
}

async function call(client, name, args = {}) {
  const r = await client.callTool({ name, arguments: args });
  if (r.isError) throw new Error(`${name}: ${JSON.stringify(r.structuredContent.error)}`);
  return r.structuredContent.result;
}

/** One visualize -> token trade -> first API answer; returns [visualize ms, total ms, reused]. */
async function once(client) {
  const t0 = performance.now();
  const v = await call(client, 'docforge_visualize', {});
  const t1 = performance.now();
  const trade = await fetch(v.url, { redirect: 'manual' });
  await trade.arrayBuffer();
  const cookie = trade.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
  const api = await fetch(new URL('/api/overview', v.url), { headers: { cookie } });
  if (api.status !== 200) throw new Error(`/api/overview answered ${api.status}`);
  await api.json();
  return [t1 - t0, performance.now() - t0, v.worker.reused];
}

const transport = new StdioClientTransport({ command: process.execPath, args: [path.join(repo, 'apps/mcp-server/dist/src/main.js'), '--project-root', root], env, stderr: 'ignore' });
const client = new Client({ name: 'bench-viewer', version: '1' });
await client.connect(transport);
try {
  await call(client, 'docforge_sync');
  const cold = [];
  const coldCall = [];
  for (let i = 0; i < COLD_RUNS; i += 1) {
    await shutdownManager();
    const [callMs, total] = await once(client);
    cold.push(total);
    coldCall.push(callMs);
  }
  const managerWarm = [];
  for (let i = 0; i < COLD_RUNS; i += 1) {
    await call(client, 'docforge_stop_visualization');
    managerWarm.push((await once(client))[1]);
  }
  const warm = [];
  const warmCall = [];
  for (let i = 0; i < RUNS; i += 1) {
    const [callMs, total, reused] = await once(client);
    if (!reused) throw new Error('the warm run started a worker');
    warm.push(total);
    warmCall.push(callMs);
  }
  console.log(`viewer cold (no manager): visualize -> first API answer ${summary(cold)}; the visualize call alone p50 ${fmt(percentile(coldCall, 50))}`);
  console.log(`viewer manager warm, new worker: visualize -> first API answer ${summary(managerWarm)}`);
  // Breakdown from the manager's own log (pino `time`, epoch ms): worker fork -> ready.
  const log = readFileSync(viewerRuntimePaths(env).log, 'utf8').split('\n').filter(Boolean).map((l) => { try { return JSON.parse(l); } catch { return null; } }).filter(Boolean);
  const forked = new Map(log.filter((e) => e.msg === 'worker forked').map((e) => [e.worker_id, e.time]));
  const starts = log.filter((e) => e.msg === 'worker ready' && forked.has(e.worker_id)).map((e) => e.time - forked.get(e.worker_id));
  console.log(`machine: ${cpus().length} cores, load average ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);
  console.log(`worker start (fork -> ready, from the manager log): ${summary(starts)}`);
  console.log(`viewer warm (worker reused): visualize -> first API answer ${summary(warm)}; the visualize call alone p50 ${fmt(percentile(warmCall, 50))}`);
} finally {
  await client.close();
  await shutdownManager();
  rmSync(runtimeDir, { recursive: true, force: true });
  rmSync(root, { recursive: true, force: true });
}
