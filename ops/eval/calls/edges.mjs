#!/usr/bin/env node
// Draws a seeded random sample of DocForge's `calls` edges on installed packages nobody here wrote
// (issue 31: "0 false call edges on a sample of at least 300 edges from two packages"), for
// verdicts written by a person who reads the source (ops/eval/calls/edges-<pkg>.json).
// Builds a copy of the package (its code, tests and docs) with DocForge, reads every `calls` edge
// from the index through the sync library's reader (outgoing `calls` of every module, function and
// method node; no SQL here), sorts them (source, target, line), and draws N with a seeded PRNG
// (mulberry32, partial Fisher-Yates). For each drawn edge it prints file:line, the call's source
// line, the target and the target's declaration line.
// With --check it compares the drawn edges with the committed verdict file: the same edges in the
// same order, every verdict set, and how many are "false" (exit 1 when any differs or is false).
// Usage: node ops/eval/calls/edges.mjs [--pkg fastify|pino] [--n 150] [--seed 31] [--json] [--check]
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { IndexManager } from '@docforge/sync';
import { drawWithoutReplacement } from '../../bench/generate.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '../../..');
const { values } = parseArgs({
  options: {
    pkg: { type: 'string', multiple: true },
    n: { type: 'string', default: '150' },
    seed: { type: 'string', default: '31' },
    json: { type: 'boolean', default: false },
    check: { type: 'boolean', default: false },
  },
});

/** What each package contributes to its project: the package's own code, tests and docs. */
const PACKAGES = {
  fastify: { copy: ['docs', 'lib', 'types', 'test', 'fastify.js', 'fastify.d.ts', 'package.json'], content: 'docs' },
  pino: { copy: ['docs', 'lib', 'test', 'pino.js', 'pino.d.ts', 'browser.js', 'file.js', 'bin.js', 'package.json'], content: 'docs' },
};

/** A fresh copy of an installed package with a DocForge descriptor. */
function project(pkg) {
  const spec = PACKAGES[pkg];
  if (spec === undefined) throw new Error(`unknown package ${pkg} (known: ${Object.keys(PACKAGES).join(', ')})`);
  const source = path.join(repo, 'node_modules', pkg);
  const root = path.join(here, '..', 'out', `edges-${pkg}`);
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  for (const name of spec.copy) if (existsSync(path.join(source, name))) cpSync(path.join(source, name), path.join(root, name), { recursive: true });
  writeFileSync(path.join(root, 'docforge.toml'), [
    'schema_version = 1', '[project]', `id = "${pkg}"`, `name = "${pkg}"`, '[sources]', `content_roots = ["${spec.content}"]`, 'code_roots = ["."]',
    'exclude = ["**/node_modules/**", "**/.git/**"]', '[adapter]', 'code = "typescript"', 'strategy = "ast"', '',
  ].join('\n'));
  const version = JSON.parse(readFileSync(path.join(source, 'package.json'), 'utf8')).version;
  return { root, version };
}

/** Every `calls` edge of the index, sorted by source, target and line. */
function allCallEdges(reader) {
  const edges = [];
  for (let after = null; ;) {
    const page = reader.nodesByFilter({ kinds: ['module', 'function', 'method'] }, 1000, after);
    for (const item of page.items) {
      for (const edge of reader.edges(item.id, 'outgoing', ['calls'], 100_000)) edges.push(edge);
    }
    if (!page.truncated || page.items.length === 0) break;
    after = page.items.at(-1).id;
  }
  const key = (e) => `${e.source_id}\u0000${e.target_id}\u0000${String(e.line).padStart(8, '0')}`;
  return edges.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

async function sample(pkg, n, seed) {
  const { root, version } = project(pkg);
  const manager = new IndexManager({ root, noAst: false });
  await manager.sync();
  const reader = manager.reader();
  const edges = allCallEdges(reader);
  const lines = new Map();
  const lineText = (file, line) => {
    if (!lines.has(file)) lines.set(file, readFileSync(path.join(root, file), 'utf8').split('\n'));
    return (lines.get(file)[line - 1] ?? '').trim();
  };
  const drawn = drawWithoutReplacement(edges, n, seed).map((edge, index) => {
    const target = reader.getNode(edge.target_id);
    return {
      index,
      site: `${edge.source_path}:${edge.line}`,
      call: lineText(edge.source_path, edge.line),
      source_id: edge.source_id,
      target_id: edge.target_id,
      target_at: target ? `${target.source_path}:${target.start_line}` : null,
      target_line: target ? lineText(target.source_path, target.start_line) : null,
    };
  });
  await manager.close();
  return { pkg, version, seed, n, population: edges.length, drawn };
}

/** Compares a drawn sample with its committed verdicts; returns the problems found. */
function check(result) {
  const file = path.join(here, `edges-${result.pkg}.json`);
  if (!existsSync(file)) return [`${file} is missing`];
  const committed = JSON.parse(readFileSync(file, 'utf8'));
  const problems = [];
  if (committed.seed !== result.seed || committed.edges.length !== result.drawn.length) problems.push(`seed or size differs (${committed.seed}/${committed.edges.length} vs ${result.seed}/${result.drawn.length})`);
  result.drawn.forEach((edge, i) => {
    const c = committed.edges[i];
    if (c === undefined || c.source_id !== edge.source_id || c.target_id !== edge.target_id || c.site !== edge.site) problems.push(`#${i} differs: drawn ${edge.site} ${edge.source_id} -> ${edge.target_id}`);
    else if (c.verdict !== 'correct') problems.push(`#${i} ${edge.site} ${edge.target_id}: verdict ${c.verdict} (${c.reason})`);
  });
  return problems;
}

const n = Number(values.n);
const seed = Number(values.seed);
if (!Number.isInteger(n) || n < 1 || !Number.isInteger(seed)) throw new Error('--n must be a positive integer and --seed an integer');
let failed = false;
for (const pkg of values.pkg ?? ['fastify', 'pino']) {
  const result = await sample(pkg, n, seed);
  if (values.check) {
    const problems = check(result);
    console.log(`${pkg} ${result.version}: ${result.drawn.length} of ${result.population} calls edges (seed ${seed}): ${problems.length === 0 ? 'all verdicts correct' : `${problems.length} problem(s)`}`);
    for (const problem of problems) console.log(`  ${problem}`);
    failed ||= problems.length > 0;
  } else if (values.json) {
    console.log(JSON.stringify(result, null, 1));
  } else {
    console.log(`# ${pkg} ${result.version}: ${result.drawn.length} of ${result.population} calls edges, seed ${seed}`);
    for (const e of result.drawn) {
      console.log(`#${e.index} ${e.site}  ${e.call}\n    ${e.source_id} -> ${e.target_id}  [${e.target_at}] ${e.target_line}`);
    }
  }
}
if (failed) process.exitCode = 1;
