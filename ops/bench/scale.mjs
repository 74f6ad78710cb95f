#!/usr/bin/env node
// Scale figures of issue 35 on a generated documentation corpus (ops/bench/generate.mjs `docs`):
//  - cold index as a whole process (`docforge sync`): wall, CPU (user + system, all threads) and
//    peak RSS (/usr/bin/time -v), with the build's stage times;
//  - a running docforge-mcp: RSS after bootstrap, then one-file edits seen by it, the clock running
//    from the file write to the first answer (docforge_search for a word only the edit adds) that
//    reflects it (ops/bench/edit-stages.mjs gives the same edit's build stages in-process).
// Load averages are printed with every figure (the machine is shared). Prints; never asserts.
// Usage: node ops/bench/scale.mjs [--nodes 100000] [--edits 5] [--skip-cold] [--skip-edit] [--node PATH]
import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { generateDocs } from './generate.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '../..');
const { values } = parseArgs({
  options: {
    nodes: { type: 'string', default: '100000' },
    edits: { type: 'string', default: '5' },
    'skip-cold': { type: 'boolean', default: false },
    'skip-edit': { type: 'boolean', default: false },
    node: { type: 'string', default: process.execPath },
  },
});
const N = Number(values.nodes);
const load = () => loadavg().map((x) => x.toFixed(1)).join(' ');
const sec = (ms) => `${(ms / 1000).toFixed(2)} s`;

/** The whole-process cold build: wall, CPU and peak RSS from GNU time, the build stats from --json. */
function cold(root) {
  rmSync(path.join(root, '.docforge'), { recursive: true, force: true });
  const before = load();
  const started = performance.now();
  const r = spawnSync('/usr/bin/time', ['-v', values.node, path.join(repo, 'apps/cli/bin/docforge.js'), 'sync', '--json', '--no-progress'],
    { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const wall = performance.now() - started;
  if (r.status !== 0) throw new Error(`cold sync exited ${r.status}: ${r.stderr.slice(-2000)}`);
  const num = (re) => Number(re.exec(r.stderr)[1]);
  const cpu = num(/User time \(seconds\): ([\d.]+)/) + num(/System time \(seconds\): ([\d.]+)/);
  const rss = num(/Maximum resident set size \(kbytes\): (\d+)/) / 1024;
  const s = JSON.parse(r.stdout).stats;
  console.log(`cold (${N} nodes): wall ${sec(wall)}, CPU ${cpu.toFixed(1)} s, peak RSS ${rss.toFixed(0)} MB; load ${before} -> ${load()}`);
  console.log(`   stages: parse ${sec(s.parse_ms)}, resolve ${sec(s.resolve_ms)}, write ${sec(s.write_ms)}, publish ${sec(s.publish_ms)}, worker total ${sec(s.total_ms)}`);
}

function memory(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return { rss: Number(/VmRSS:\s+(\d+)/.exec(status)[1]) / 1024, hwm: Number(/VmHWM:\s+(\d+)/.exec(status)[1]) / 1024 };
}

/** CPU seconds (user + system, all threads) the process `pid` has used. */
function cpuSeconds(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** Waits until `pid` used under 0.05 s of CPU over a second, twice in a row (its idle-time work done). */
async function quiet(pid) {
  let calm = 0;
  while (calm < 2) {
    const before = cpuSeconds(pid);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    calm = cpuSeconds(pid) - before < 0.05 ? calm + 1 : 0;
  }
}

/** Whether a docforge_search answer lists a node (the edited page's). */
function hasHit(response) {
  const result = response.structuredContent?.result;
  return Array.isArray(result?.items) && result.items.length > 0;
}

/** One-file edits seen by a running docforge-mcp (which syncs from its source watcher before answering). */
async function edits(root) {
  const transport = new StdioClientTransport({ command: values.node, args: [path.join(repo, 'apps/mcp-server/dist/src/main.js'), '--project-root', root, '--log-level', 'warn'], stderr: 'ignore' });
  const client = new Client({ name: 'bench-scale', version: '1' });
  await client.connect(transport);
  const pid = transport.pid;
  let t = performance.now();
  await client.callTool({ name: 'docforge_bootstrap', arguments: {} });
  await client.callTool({ name: 'docforge_search', arguments: { query: 'refund ledger', limit: 20 } });
  const boot = performance.now() - t;
  await quiet(pid);
  const afterBoot = memory(pid);
  console.log(`server: bootstrap + first search ${sec(boot)}, RSS ${afterBoot.rss.toFixed(0)} MB (peak ${afterBoot.hwm.toFixed(0)} MB); load ${load()}`);
  const editFile = path.join(root, 'docs', 'area-0000', 'n-3.md');
  const seen = [];
  for (let i = 0; i < Number(values.edits); i += 1) {
    // Idle time between edits, as a user's: the server's idle-time work (priming, the standby copy)
    // finishes before the next edit.
    await quiet(pid);
    const word = `zqscale${Date.now().toString(36)}x${i}`;
    t = performance.now();
    appendFileSync(editFile, `\nEdited paragraph naming ${word}.\n`);
    let polls = 0;
    for (;;) {
      polls += 1;
      const response = await client.callTool({ name: 'docforge_search', arguments: { query: word, limit: 5 } });
      if (hasHit(response)) break;
      if (performance.now() - t > 600_000) throw new Error('edit not seen within 10 min');
    }
    seen.push(performance.now() - t);
    console.log(`   edit ${i}: seen after ${sec(seen[i])} (${polls} answer(s)); load ${load()}`);
  }
  const end = memory(pid);
  await client.close();
  const sorted = [...seen].sort((a, b) => a - b);
  console.log(`edit seen by the running server: median ${sec(sorted[Math.floor(sorted.length / 2)])}, max ${sec(sorted.at(-1))}; server RSS ${end.rss.toFixed(0)} MB (peak ${end.hwm.toFixed(0)} MB)`);
}

console.log(`node ${spawnSync(values.node, ['--version'], { encoding: 'utf8' }).stdout.trim()}, ${new Date().toISOString()}, load ${load()}`);
const root = path.join(here, 'out', `docs-${N}`);
if (!existsSync(path.join(root, 'docforge.toml'))) {
  mkdirSync(path.dirname(root), { recursive: true });
  await generateDocs(root, N);
}
if (!values['skip-cold']) cold(root);
if (!values['skip-edit']) await edits(root);
