#!/usr/bin/env node
// Generated published tool schemas (issue 29 item 7): paired alternating docforge-mcp starts of two
// server bundles of one checkout, --before (e.g. dist/bundle/main-before.cjs, built from the compiled
// tree whose define-tool.js still computes the schemas with loadToolSchema) and --after (the tree as
// built, reading protocol/src/generated/published-tools.ts), on a copy of examples/ whose index is
// current; the order is swapped every pair. Both run through the same two-line runner (require the
// bundle, call its runMain), so the launcher's own bundle checks (the same on both sides) are not in
// the figures. Each start is timed from spawn to the answer of tools/list (sent after initialize's
// answer); stdin then closes and the server exits. CPU is user + system of the whole child from
// /usr/bin/time. Also checks that both sides answer tools/list with the same bytes. Prints each
// side's median, the median paired saving (before minus after) in ms and as % of the before median,
// its quartiles and min/max. Timings are printed, never asserted.
// Usage: node ops/bench/published-tools-start.mjs --before BUNDLE --after BUNDLE [--pairs 15] [--out results.json]
//    or: node ops/bench/published-tools-start.mjs --make-before [--pairs 15] [--out results.json]
// Both bundles must lie in apps/mcp-server/dist/bundle/ (their externals resolve from there).
// --make-before (after `npm run -s build`) bundles the compiled tree as the "before" side itself, into
// dist/bundle/main-before-bench.cjs (removed at the end): the options of apps/mcp-server/scripts/
// build-bundle.mjs, with define-tool.js importing loadToolSchema in place of publishedTool, i.e. every
// start computing the published schemas again; the "after" side is the built dist/bundle/main.cjs.
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const { values } = parseArgs({ options: { pairs: { type: 'string', default: '15' }, before: { type: 'string' }, after: { type: 'string' }, 'make-before': { type: 'boolean' }, out: { type: 'string' } } });
const BUNDLE_DIR = path.join(REPO, 'apps', 'mcp-server', 'dist', 'bundle');
if (values['make-before']) {
  values.before = await bundleComputingSchemas(path.join(BUNDLE_DIR, 'main-before-bench.cjs'));
  values.after ??= path.join(BUNDLE_DIR, 'main.cjs');
}
if (!values.before || !values.after) throw new Error('usage: --before BUNDLE --after BUNDLE, or --make-before');

/**
 * Bundles apps/mcp-server/dist/src/run-main.js as build-bundle.mjs does, but with define-tool.js
 * calling loadToolSchema (the schemas computed at every start) instead of publishedTool; returns `outfile`.
 */
async function bundleComputingSchemas(outfile) {
  const { build } = await import('esbuild');
  const { ownImportMetaUrl } = await import('../../libs/sync/scripts/own-import-meta-url.mjs');
  const { directCompilerDefault } = await import('../../libs/sync/scripts/direct-compiler-default.mjs');
  const computing = {
    name: 'define-tool-computes-schemas',
    setup(builder) {
      builder.onLoad({ filter: /[\\/]mcp-server[\\/]dist[\\/]src[\\/]define-tool\.js$/ }, (args) => {
        const text = readFileSync(args.path, 'utf8');
        const patched = text.replace('import { publishedTool, ', 'import { loadToolSchema as publishedTool, ');
        if (patched === text) throw new Error(`${args.path} no longer imports publishedTool: update the bench`);
        return { contents: patched, loader: 'js' };
      });
    },
  };
  await build({
    entryPoints: [path.join(REPO, 'apps', 'mcp-server', 'dist', 'src', 'run-main.js')], outfile, bundle: true, format: 'cjs', platform: 'node', target: 'node20',
    external: ['better-sqlite3', 'piscina', 'typescript'], plugins: [computing, directCompilerDefault, ownImportMetaUrl],
    alias: { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' }, minifyWhitespace: true, minifySyntax: true, logLevel: 'warning',
  });
  return outfile;
}
const PAIRS = Number(values.pairs);
const BUNDLES = { before: path.resolve(values.before), after: path.resolve(values.after) };
const RUNNER = 'require(process.argv[1]).runMain(process.argv.slice(2), {})';

const work = path.join(tmpdir(), `docforge-published-tools-${process.pid}`);
const root = path.join(work, 'examples');
cpSync(path.join(REPO, 'examples'), root, { recursive: true });
rmSync(path.join(root, '.docforge'), { recursive: true, force: true });
execFileSync(process.execPath, [path.join(REPO, 'apps', 'cli', 'bin', 'docforge.js'), 'sync', '--no-progress', '-C', root], { stdio: 'ignore' });

const INITIALIZE = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'published-tools-bench', version: '0' } } };
const LIST = [{ jsonrpc: '2.0', method: 'notifications/initialized' }, { jsonrpc: '2.0', id: 2, method: 'tools/list' }];

/** One start: ms from spawn to tools/list's answer, the child's CPU ms, and the answer's text. */
function start(side) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn('/usr/bin/time', ['-f', 'cpu %U %S', process.execPath, '-e', RUNNER, BUNDLES[side], '--project-root', root, '--log-level', 'error'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let list;
    let listText = '';
    let stdout = '';
    let stderr = '';
    const send = (frames) => child.stdin.write(frames.map((frame) => `${JSON.stringify(frame)}\n`).join(''));
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      stdout += chunk;
      let at;
      while ((at = stdout.indexOf('\n')) >= 0) {
        const line = stdout.slice(0, at);
        stdout = stdout.slice(at + 1);
        const message = JSON.parse(line);
        if (message.id === 1) send(LIST);
        if (message.id === 2) {
          list = performance.now() - t0;
          listText = line;
          child.stdin.end();
        }
      }
    });
    child.stderr.setEncoding('utf8').on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('exit', (code) => {
      const cpu = /cpu ([\d.]+) ([\d.]+)\s*$/.exec(stderr);
      if (code !== 0 || list === undefined || cpu === null) reject(new Error(`docforge-mcp (${side}) exited ${code}:\n${stderr}`));
      else resolve({ list, cpu: (Number(cpu[1]) + Number(cpu[2])) * 1000, listText });
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

// Warm-up (page cache), and the same tools/list bytes on both sides.
const warm = [await start('before'), await start('after')];
if (warm[0].listText !== warm[1].listText) throw new Error('before and after answer tools/list differently');
const started = new Date().toISOString();
const loads = [loadavg()[0]];
const pairs = [];
for (let i = 0; i < PAIRS; i += 1) {
  const order = i % 2 === 0 ? ['before', 'after'] : ['after', 'before'];
  const pair = {};
  for (const side of order) {
    const { listText: _text, ...figures } = await start(side);
    pair[side] = figures;
  }
  pairs.push(pair);
  loads.push(loadavg()[0]);
}
const rows = [];
for (const figure of ['list', 'cpu']) {
  const saved = pairs.map((p) => p.before[figure] - p.after[figure]);
  const before = median(pairs.map((p) => p.before[figure]));
  const row = {
    figure, pairs: PAIRS, before_median_ms: before, after_median_ms: median(pairs.map((p) => p.after[figure])),
    saving_median_ms: median(saved), saving_pct: (100 * median(saved)) / before,
    saving_q1_ms: quantile(saved, 0.25), saving_q3_ms: quantile(saved, 0.75), saving_min_ms: Math.min(...saved), saving_max_ms: Math.max(...saved),
  };
  rows.push(row);
  const f = (x) => x.toFixed(0);
  console.log(`${figure.padEnd(4)} before ${f(row.before_median_ms)} ms, after ${f(row.after_median_ms)} ms: saving ${f(row.saving_median_ms)} ms (${row.saving_pct.toFixed(1)}%), IQR ${f(row.saving_q1_ms)}..${f(row.saving_q3_ms)}, min/max ${f(row.saving_min_ms)}..${f(row.saving_max_ms)}`);
}
const summary = { node: process.version, started, ended: new Date().toISOString(), load_min: Math.min(...loads), load_max: Math.max(...loads), rows, raw: pairs };
console.log(`${process.version}, ${started} .. ${summary.ended}, load average ${summary.load_min.toFixed(1)}-${summary.load_max.toFixed(1)}`);
if (values.out) writeFileSync(values.out, `${JSON.stringify(summary, null, 2)}\n`);
rmSync(work, { recursive: true, force: true });
if (values['make-before']) rmSync(values.before, { force: true });
