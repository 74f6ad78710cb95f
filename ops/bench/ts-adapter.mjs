#!/usr/bin/env node
// TypeScript adapter work on fastify's package, in process: extraction (AST strategy with Logic)
// of every .js/.ts file of lib/, test/, types/ and fastify.js, then the cross-file link step.
// Reports the minimum and median of N runs (the minimum is the least disturbed by other load on a
// shared machine) and the link statistics. Prints figures; never asserts timings.
// Usage: node ops/bench/ts-adapter.mjs [--runs 7]
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { loadTypeScriptAdapter } from '@docforge/adapter-typescript';

const { extractTypeScript, linkTypeScript } = await loadTypeScriptAdapter();

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const root = path.join(repo, 'node_modules', 'fastify');
const { values } = parseArgs({ options: { runs: { type: 'string', default: '7' } } });

function walk(dir, out) {
  for (const entry of readdirSync(dir).sort()) {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) {
      if (entry !== 'node_modules') walk(full, out);
    } else if (/\.(?:[cm]?[jt]s)$/.test(entry)) {
      out.push(path.relative(root, full).split(path.sep).join('/'));
    }
  }
  return out;
}

const paths = [...walk(path.join(root, 'lib'), []), ...walk(path.join(root, 'test'), []), ...walk(path.join(root, 'types'), []), 'fastify.js', 'fastify.d.ts'];
const texts = new Map(paths.map((p) => [p, readFileSync(path.join(root, p), 'utf8')]));
const known = new Set(paths);
const resolver = {
  hasFile: (p) => known.has(p),
  readText: (p) => {
    try {
      return readFileSync(path.join(root, p), 'utf8');
    } catch {
      return null;
    }
  },
};
const extractMs = [];
const linkMs = [];
let stats;
for (let run = 0; run < Number(values.runs); run += 1) {
  let t = performance.now();
  const extracted = paths.map((p) => ({ path: p, ...extractTypeScript({ path: p, content: texts.get(p), strategy: 'ast', logic: true }) }));
  extractMs.push(performance.now() - t);
  t = performance.now();
  stats = linkTypeScript(extracted, resolver).stats;
  linkMs.push(performance.now() - t);
}
const min = (xs) => Math.min(...xs).toFixed(0);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)].toFixed(0);
console.log(`fastify package: ${paths.length} files, ${values.runs} runs`);
console.log(`  extract: min ${min(extractMs)} ms, median ${median(extractMs)} ms`);
console.log(`  link:    min ${min(linkMs)} ms, median ${median(linkMs)} ms`);
console.log(`  calls: ${stats.calls_total} sites, ${stats.calls_resolved} resolved, ${stats.calls_unresolved} unresolved; ${stats.edges_calls} calls edges`);
