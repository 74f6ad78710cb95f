#!/usr/bin/env node
// CPU seconds per phase of one whole-process cold build (issue 35), on a shared machine where wall
// time follows the load: runs `docforge sync --json --progress` under `/usr/bin/time -v` with a
// fresh state directory, reads every thread's CPU (user + system, /proc/PID/task/TID/stat) each time
// a progress line arrives and every 100 ms, and splits the build worker's CPU at the stage
// boundaries the progress lines mark:
//   parse  = worker start .. `parse N of N` (setup and the parse; the inline parse posts no other line)
//   resolve = .. first `write` line (link, resolve, reviews, coverage, the row maps)
//   rows   = .. last `write` line (node rows)
//   fts    = .. `publish` line (edge, source and issue rows, then the FTS5 rebuilds and the commit)
//   publish = .. worker idle (receipt, rename, parse cache, review baseline, kept caches)
// The main thread (walk, CLI) and the other threads (V8 helpers, libuv, a parse thread when the
// build parses on every core: the busiest three are named) are reported apart. Prints;
// never asserts. Usage: node ops/bench/cold-phases.mjs ROOT [--node PATH] [--runs 1] [-- NODE_FLAGS...]
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '../..');
const { values, positionals } = parseArgs({ allowPositionals: true, options: { node: { type: 'string', default: process.execPath }, runs: { type: 'string', default: '1' } } });
if (positionals.length < 1) throw new Error('usage: cold-phases.mjs ROOT [--node PATH] [--runs N] [-- NODE_FLAGS...]');
const root = path.resolve(positionals[0]);
const nodeFlags = positionals.slice(1);
const TICK = 100; // clock ticks per second (USER_HZ)
const load = () => loadavg()[0].toFixed(1);

/** CPU seconds (user, system) of every live thread of `pid`, by thread id; empty once it exited. */
function threads(pid) {
  const out = new Map();
  let tids = [];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return out;
  }
  for (const tid of tids) {
    try {
      const fields = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8').split(') ')[1].split(' ');
      out.set(tid, { user: Number(fields[11]) / TICK, system: Number(fields[12]) / TICK });
    } catch {
      // the thread ended between the listing and the read
    }
  }
  return out;
}

/** The pid of the node process GNU time started (its only child). */
function childOf(pid) {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/)[0] || null;
  } catch {
    return null;
  }
}

async function run() {
  rmSync(path.join(root, '.docforge'), { recursive: true, force: true });
  const before = load();
  const started = performance.now();
  const child = spawn('/usr/bin/time', ['-v', values.node, ...nodeFlags, path.join(repo, 'apps/cli/bin/docforge.js'), 'sync', '--json', '--progress'], { cwd: root });
  let stdout = '';
  let stderr = '';
  const marks = []; // { at, label, snap }
  let pid = null;
  let last = new Map();
  const snap = () => {
    pid ??= childOf(child.pid);
    if (pid === null) return last;
    const now = threads(pid);
    if (now.size > 0) for (const [tid, t] of now) last.set(tid, t);
    return new Map(last);
  };
  const timer = setInterval(snap, 100);
  child.stdout.on('data', (d) => { stdout += d; });
  let pending = '';
  child.stderr.on('data', (d) => {
    stderr += d;
    pending += d;
    const lines = pending.split('\n');
    pending = lines.pop();
    for (const line of lines) {
      const m = /stage (\w+): (\d+) of (\d+)/.exec(line);
      if (m) marks.push({ at: performance.now() - started, stage: m[1], done: Number(m[2]), total: Number(m[3]), snap: snap() });
    }
  });
  const code = await new Promise((resolve) => child.on('close', resolve));
  clearInterval(timer);
  if (code !== 0) throw new Error(`sync exited ${code}: ${stderr.slice(-2000)}`);
  const wall = (performance.now() - started) / 1000;
  const num = (re) => Number(re.exec(stderr)[1]);
  const user = num(/User time \(seconds\): ([\d.]+)/);
  const system = num(/System time \(seconds\): ([\d.]+)/);
  const rss = num(/Maximum resident set size \(kbytes\): (\d+)/) / 1024;
  const stats = JSON.parse(stdout).stats;
  // The build worker: the thread other than the main one with the most CPU.
  const final = last;
  const cpu = (t) => (t === undefined ? 0 : t.user + t.system);
  const worker = [...final].filter(([tid]) => tid !== pid).sort((a, b) => cpu(b[1]) - cpu(a[1]))[0][0];
  const at = (mark) => (mark === undefined ? undefined : mark.snap.get(worker));
  const parseEnd = marks.find((m) => m.stage === 'parse' && m.done === m.total);
  const writes = marks.filter((m) => m.stage === 'write');
  const publish = marks.find((m) => m.stage === 'publish');
  const bounds = [['parse', parseEnd], ['resolve', writes[0]], ['rows', writes.at(-1)], ['fts', publish], ['publish', { snap: final }]];
  let prev = { user: 0, system: 0 };
  const rows = [];
  for (const [name, mark] of bounds) {
    const t = at(mark) ?? prev;
    rows.push(`${name} ${(cpu(t) - cpu(prev)).toFixed(1)} s (sys ${(t.system - prev.system).toFixed(1)})`);
    prev = t;
  }
  const main = cpu(final.get(pid));
  const others = [...final].filter(([tid]) => tid !== pid && tid !== worker).map(([, t]) => cpu(t)).sort((a, b) => b - a);
  const rest = others.reduce((s, t) => s + t, 0);
  console.log(`cold: wall ${wall.toFixed(1)} s, CPU ${(user + system).toFixed(1)} s (user ${user.toFixed(1)}, sys ${system.toFixed(1)}), peak RSS ${rss.toFixed(0)} MB; load ${before} -> ${load()}; ${stats.nodes} nodes, ${stats.edges} edges`);
  console.log(`   build worker ${cpu(final.get(worker)).toFixed(1)} s: ${rows.join(', ')}; main thread ${main.toFixed(1)} s; other threads ${rest.toFixed(1)} s (busiest ${others.slice(0, 3).map((t) => t.toFixed(1)).join(', ')})`);
  console.log(`   stages (wall): parse ${(stats.parse_ms / 1000).toFixed(1)}, resolve ${(stats.resolve_ms / 1000).toFixed(1)}, write ${(stats.write_ms / 1000).toFixed(1)}, publish ${(stats.publish_ms / 1000).toFixed(1)}, worker total ${(stats.total_ms / 1000).toFixed(1)} s`);
}

for (let i = 0; i < Number(values.runs); i += 1) await run();
