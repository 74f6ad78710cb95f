#!/usr/bin/env node
// Cold `docforge sync` of fastify (docs, lib, types, test, fastify.js, fastify.d.ts, package.json; peer.mjs's descriptor)
// with two DocForge trees, alternating (issue 31 item 1: before and after code text): wall s, CPU user+sys s, peak RSS MB
// (/usr/bin/time -v), index file bytes and the load average at each start; medians at the end. Never asserts.
// Usage: node ops/bench/tree-compare.mjs BASE_TREE AFTER_TREE [RUNS=3]
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '../..');
if (process.argv.length < 4) {
  console.error('usage: node ops/bench/tree-compare.mjs BASE_TREE AFTER_TREE [RUNS=3]');
  process.exit(2);
}
const trees = { base: path.resolve(process.argv[2]), mine: path.resolve(process.argv[3]) };
const runs = Number(process.argv[4] ?? 3);
const DESCRIPTOR = ['schema_version = 1', '[project]', 'id = "fastify"', 'name = "Fastify"', '[sources]', 'content_roots = ["docs"]', 'code_roots = ["."]',
  'exclude = ["**/node_modules/**", "**/.git/**"]', '[adapter]', 'code = "typescript"', 'strategy = "ast"', ''].join('\n');
const out = { base: [], mine: [] };
for (let r = 0; r < runs; r += 1) {
  for (const name of r % 2 === 0 ? ['base', 'mine'] : ['mine', 'base']) {
    const root = path.join(tmpdir(), `docforge-tree-compare-${name}`);
    rmSync(root, { recursive: true, force: true });
    mkdirSync(root, { recursive: true });
    for (const part of ['docs', 'lib', 'types', 'test', 'fastify.js', 'fastify.d.ts', 'package.json']) cpSync(path.join(repo, 'node_modules/fastify', part), path.join(root, part), { recursive: true });
    writeFileSync(path.join(root, 'docforge.toml'), DESCRIPTOR);
    const load = loadavg()[0];
    const t = performance.now();
    const res = spawnSync('/usr/bin/time', ['-v', process.execPath, path.join(trees[name], 'apps/cli/bin/docforge.js'), 'sync', '--no-progress', '--json'], { cwd: root, encoding: 'utf8' });
    const wall = (performance.now() - t) / 1000;
    if (res.status !== 0) throw new Error(res.stderr);
    const rss = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(res.stderr)[1]) / 1024;
    const cpu = Number(/User time \(seconds\): ([\d.]+)/.exec(res.stderr)[1]) + Number(/System time \(seconds\): ([\d.]+)/.exec(res.stderr)[1]);
    const pub = JSON.parse(res.stdout).publication;
    const row = { wall: +wall.toFixed(2), cpu: +cpu.toFixed(2), rss: +rss.toFixed(1), bytes: pub.index_size, nodes: pub.counts.nodes, load: +load.toFixed(2) };
    out[name].push(row);
    console.log(name, JSON.stringify(row));
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (const name of ['base', 'mine']) console.log(name, 'median wall', median(out[name].map((x) => x.wall)), 'cpu', median(out[name].map((x) => x.cpu)), 'rss', median(out[name].map((x) => x.rss)), 'bytes', median(out[name].map((x) => x.bytes)));
