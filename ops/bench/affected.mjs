#!/usr/bin/env node
// Benchmark of `docforge affected` (issue 32 item 3; target: a one-file change answered in under
// 1.5 s as a new process) on a corpus of about 10,000 nodes mixing docs and code: the Markdown/TOML
// docs of generate.mjs `generateDocs` (half the nodes) beside its TypeScript tree `generateTs`,
// every fourth doc naming functions and classes of the tree in code spans (mention-derived
// `documents` edges with sections). Prints figures with the date and the load; never asserts timings.
// Usage: node ops/bench/affected.mjs [--nodes 10000] [--runs 10]
// The corpus is generated into ops/bench/out/mixed-<nodes> when missing and reused when present.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { generateMixed, NODES_PER_MODULE } from './generate.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '../..');
const CLI = path.join(repo, 'apps/cli/bin/docforge.js');
const { values } = parseArgs({ options: { nodes: { type: 'string', default: '10000' }, runs: { type: 'string', default: '10' } } });
const nodes = Number(values.nodes);
const RUNS = Number(values.runs);

const fmt = (ms) => `${ms.toFixed(0)} ms`;
function percentile(samples, p) {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** GNU time, when installed: the CPU time (user + system) of each process, a figure less bent by the load than wall time. */
const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : null;

function cli(args, input) {
  const t = performance.now();
  const [command, argv] = TIME ? [TIME, ['-f', 'cpu %U %S', process.execPath, CLI, ...args]] : [process.execPath, [CLI, ...args]];
  const run = spawnSync(command, argv, { cwd: root, encoding: 'utf8', ...(input === undefined ? {} : { input }) });
  const ms = performance.now() - t;
  if (run.status !== 0) throw new Error(`docforge ${args.join(' ')}: exit ${run.status}\n${run.stderr}`);
  const cpu = /cpu (\d+\.\d+) (\d+\.\d+)\s*$/.exec(run.stderr);
  return { ms, cpuMs: cpu ? (Number(cpu[1]) + Number(cpu[2])) * 1000 : null, stdout: run.stdout };
}

function measure(label, args, input) {
  cli(args, input); // one warm-up: the OS file cache, not the process
  const samples = [];
  const cpu = [];
  let last = null;
  for (let i = 0; i < RUNS; i += 1) {
    const r = cli(args, input);
    samples.push(r.ms);
    if (r.cpuMs !== null) cpu.push(r.cpuMs);
    last = r.stdout;
  }
  const cpuText = cpu.length > 0 ? `; CPU p50 ${fmt(percentile(cpu, 50))}` : '';
  console.log(`${label}: wall p50 ${fmt(percentile(samples, 50))}, max ${fmt(Math.max(...samples))}${cpuText} (${RUNS} new processes; load ${os.loadavg()[0].toFixed(1)})`);
  return last;
}

const root = path.join(here, 'out', `mixed-${nodes}`);
console.log(`date ${new Date().toISOString()}; load ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}; ${os.cpus().length} cpus; node ${process.version}`);
if (!existsSync(path.join(root, 'docforge.toml'))) {
  mkdirSync(path.dirname(root), { recursive: true });
  const t = performance.now();
  const modules = generateMixed(root, nodes);
  console.log(`generated ${modules} TypeScript modules and ${nodes - modules * NODES_PER_MODULE} doc nodes in ${fmt(performance.now() - t)}`);
}
// Module 149: named by docs (every fourth doc names fn/Klass/Klass.run of module n % modules for n = 1, 5, 9, …;
// the qualified `Klass149.run` resolves to a mention-derived `documents` edge).
const target = path.join('src', 'm2', 'mod149.ts');
const original = readFileSync(path.join(root, target), 'utf8');
try {
  const synced = JSON.parse(cli(['sync', '--json']).stdout);
  console.log(`[mixed ${nodes}] published: ${synced.publication?.counts?.nodes ?? '?'} nodes, ${synced.publication?.counts?.edges ?? '?'} edges`);
  // Reference in the same run: the no-change sync (a walk and the publication read) and a bare start.
  measure(`[mixed ${nodes}] reference: docforge --version`, ['--version']);
  measure(`[mixed ${nodes}] reference: docforge sync, nothing changed`, ['sync']);
  measure(`[mixed ${nodes}] affected, nothing changed`, ['affected', '--json']);
  // The body of Klass149.run, which docs name (`Klass149.run`: a mention-derived `documents` edge).
  const edited = original.replace('if (this.count > 100) break;', 'if (this.count > 1000) break;');
  if (edited === original) throw new Error(`${target} is not the generated module this benchmark edits`);
  writeFileSync(path.join(root, target), edited);
  const now = JSON.parse(measure(`[mixed ${nodes}] affected, one function body changed (sources now)`, ['affected', '--json']));
  console.log(`  changed nodes ${now.changed.nodes.length}, affected entries ${now.affected.items.length}, examined ${now.affected.examined_edges} edges, truncated ${now.affected.truncated}`);
  const diffDir = path.join(os.tmpdir(), `docforge-bench-diff-${process.pid}`);
  mkdirSync(path.join(diffDir, 'a', path.dirname(target)), { recursive: true });
  mkdirSync(path.join(diffDir, 'b', path.dirname(target)), { recursive: true });
  writeFileSync(path.join(diffDir, 'a', target), original);
  writeFileSync(path.join(diffDir, 'b', target), edited);
  const diff = spawnSync('diff', ['-u', `a/${target}`, `b/${target}`], { cwd: diffDir, encoding: 'utf8' }).stdout;
  rmSync(diffDir, { recursive: true, force: true });
  const fromDiff = JSON.parse(measure(`[mixed ${nodes}] affected --diff -, the same change on stdin`, ['affected', '--json', '--diff', '-'], diff));
  console.log(`  same answer as from the sources: ${JSON.stringify(fromDiff.affected) === JSON.stringify(now.affected)}`);
} finally {
  writeFileSync(path.join(root, target), original);
}
console.log(`load after ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
