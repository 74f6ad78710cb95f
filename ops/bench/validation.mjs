#!/usr/bin/env node
// Benchmark of validation time (issue 32: target after <= 1.5x before) on a corpus of about 10,000
// nodes mixing docs and code, whole processes: cold (state removed, `docforge sync --json`: parse,
// link, resolve with the drift and coverage passes, write, publish; then `docforge validate --json`)
// with the build's stage times, and warm (no change: `docforge validate --json` alone), for two builds of DocForge in the same run, alternated
// so load drifts hit both alike. Prints figures; never asserts timings (shared, noisy machines).
// Usage: node ops/bench/validation.mjs --before DIR [--after DIR] [--runs 5] [--docs 8000] [--ts-files 350]
//   DIR: a built checkout of DocForge (`npm ci && npm run build`), e.g. main before issue 32 made
//   with `git worktree add /tmp/df-before <commit>`; --after defaults to this checkout.
// The corpus (ops/bench/out/validation-<docs>-<files>) is generateDocs + generateTs, plus, in
// every 10th page, a section naming code (`KlassN.run`, `fnN()`, a missing member and path) and a
// parameter table, so the mention, drift and parameter passes have work to do.
import { appendFileSync, existsSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { generateDocs, generateTs } from './generate.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '../..');
const { values } = parseArgs({ options: { before: { type: 'string' }, after: { type: 'string', default: repo }, runs: { type: 'string', default: '5' }, docs: { type: 'string', default: '8000' }, 'ts-files': { type: 'string', default: '350' } } });
if (values.before === undefined) throw new Error('--before DIR (a built DocForge checkout) is required');
const RUNS = Number(values.runs);
const docs = Number(values.docs);
const files = Number(values['ts-files']);
const fmt = (ms) => `${ms.toFixed(0)} ms`;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const root = path.join(here, 'out', `validation-${docs}-${files}`);
if (!existsSync(path.join(root, 'docforge.toml'))) {
  generateDocs(root, docs);
  const code = `${root}-ts`;
  generateTs(code, files);
  renameSync(path.join(code, 'src'), path.join(root, 'src'));
  rmSync(code, { recursive: true, force: true });
  writeFileSync(path.join(root, 'docforge.toml'), `schema_version = 1\n[project]\nid = "bench-validation"\nname = "Validation bench"\n[sources]\ncontent_roots = ["docs"]\ncode_roots = ["src"]\n[adapter]\ncode = "typescript"\nstrategy = "ast"\n[limits]\nmax_results = 200\n`);
  let page = 0;
  for (const area of readdirSync(path.join(root, 'docs')).sort()) {
    for (const name of readdirSync(path.join(root, 'docs', area)).sort()) {
      if (!name.endsWith('.md') || page++ % 10 !== 0) continue;
      const f = page % files;
      appendFileSync(path.join(root, 'docs', area, name), `\n## Code\n\nSee \`Klass${f}.run\`, \`fn${f}()\`, \`Klass${f}.gone()\` and \`src/m${f}/missing.ts\`.\n\n### \`Klass${f}.run(v)\`\n\n| Name | Type |\n|---|---|\n| \`v\` | number |\n| \`w\` | number |\n`);
    }
  }
}

/** One CLI command of `checkout` as a new process in the corpus: its wall time in ms and its JSON output. */
function cli(checkout, args) {
  const t = performance.now();
  const r = spawnSync(process.execPath, [path.join(checkout, 'apps/cli/bin/docforge.js'), ...args], { cwd: root, encoding: 'utf8', maxBuffer: 1 << 28 });
  const ms = performance.now() - t;
  if (r.status !== 0 && r.status !== 1) throw new Error(`${args[0]} failed (${r.status}): ${r.stderr.slice(0, 2000)}`);
  return { ms, out: JSON.parse(r.stdout) };
}

/** A cold validation: state removed, `sync --json` (the build computes every finding), then `validate --json` (the listing). */
function coldValidation(checkout) {
  rmSync(path.join(root, '.docforge'), { recursive: true, force: true });
  const sync = cli(checkout, ['sync', '--json']);
  const validate = cli(checkout, ['validate', '--json', '--limit', '10000']);
  const codes = {};
  for (const i of validate.out.issues) codes[i.code] = (codes[i.code] ?? 0) + 1;
  const stats = sync.out.stats ?? {};
  return { ms: sync.ms + validate.ms, resolve: stats.resolve_ms ?? NaN, build: stats.total_ms ?? NaN, nodes: stats.nodes, total: validate.out.total, codes };
}

const builds = [['before', values.before], ['after', values.after]];
const samples = { before: { cold: [], warm: [], resolve: [], build: [] }, after: { cold: [], warm: [], resolve: [], build: [] } };
const seen = {};
console.log(`${new Date().toISOString()} load ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}, ${os.cpus().length} cpus, corpus ${root}`);
for (let i = 0; i < RUNS; i += 1) {
  for (const [name, checkout] of i % 2 === 0 ? builds : [...builds].reverse()) {
    const cold = coldValidation(checkout);
    for (const key of ['resolve', 'build']) samples[name][key].push(cold[key]);
    samples[name].cold.push(cold.ms);
    seen[name] = cold;
    samples[name].warm.push(cli(checkout, ['validate', '--json', '--limit', '10000']).ms);
  }
}
for (const [name] of builds) {
  const s = samples[name];
  console.log(`[${name}] ${seen[name].nodes} nodes; validation cold (sync + validate): median ${fmt(median(s.cold))} (${s.cold.map(fmt).join(', ')}); build ${fmt(median(s.build))}, resolve stage ${fmt(median(s.resolve))}; warm validate: median ${fmt(median(s.warm))}; findings ${seen[name].total} ${JSON.stringify(seen[name].codes)}`);
}
const ratio = (key) => (median(samples.after[key]) / median(samples.before[key])).toFixed(2);
console.log(`after/before (medians): cold validation ${ratio('cold')}x, build ${ratio('build')}x, resolve stage ${ratio('resolve')}x, warm validate ${ratio('warm')}x`);
console.log(`${new Date().toISOString()} load ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}`);
