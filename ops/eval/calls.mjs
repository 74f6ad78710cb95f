#!/usr/bin/env node
// Precision and recall of DocForge's `calls` edges on a hand-labelled sample of call sites from
// fastify's lib/ (ops/eval/calls/sites.json; drawn by ops/eval/calls/sample.mjs, labelled by
// reading the source). Builds a copy of fastify's package (docs, lib, types, test, fastify.js)
// with DocForge, then for each labelled site finds its calling node (the innermost function or
// method node whose span holds the line, else the module) and its `calls` edges for that site:
// at the site's line the edge whose target has the callee's name, else every edge whose target
// has that name (an edge carries the line of the first call of its target in the owner), else an
// edge at that line to the labelled target (a call through an aliased export).
// A site is predicted when that set is not empty, and correct when it is exactly the labelled
// target. Precision = correct / predicted; recall = correct / sites with a labelled target.
// Prints figures; asserts nothing. Usage: node ops/eval/calls.mjs [--verbose]
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { IndexManager } from '@docforge/sync';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '../..');
const { values } = parseArgs({ options: { verbose: { type: 'boolean', default: false } } });
const labels = JSON.parse(readFileSync(path.join(here, 'calls', 'sites.json'), 'utf8'));

/** A fresh copy of fastify's package with a DocForge descriptor (the corpus of ops/bench/code.mjs). */
function fastifyProject() {
  const root = path.join(here, 'out', 'calls-fastify');
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  const fastify = path.join(repo, 'node_modules', 'fastify');
  const version = JSON.parse(readFileSync(path.join(fastify, 'package.json'), 'utf8')).version;
  if (version !== labels.fastify_version) console.log(`warning: labels are for fastify ${labels.fastify_version}, node_modules has ${version}`);
  for (const name of ['docs', 'lib', 'types', 'test', 'fastify.js', 'fastify.d.ts', 'package.json']) {
    cpSync(path.join(fastify, name), path.join(root, name), { recursive: true });
  }
  writeFileSync(path.join(root, 'docforge.toml'), [
    'schema_version = 1', '[project]', 'id = "fastify"', 'name = "Fastify"', '[sources]', 'content_roots = ["docs"]', 'code_roots = ["."]',
    'exclude = ["**/node_modules/**", "**/.git/**"]', '[adapter]', 'code = "typescript"', 'strategy = "ast"', '',
  ].join('\n'));
  return root;
}

/** The simple name a callee text calls: `a.b.f` → f, `new X` → X, `f.call` → f, `o[kX]` → [kX]. */
function calleeName(callee) {
  let text = callee.replace(/^new /, '');
  if (/\.(call|apply)$/.test(text)) text = text.replace(/\.(call|apply)$/, '');
  const bracket = /(\[[^\]]*\])$/.exec(text);
  if (bracket) return bracket[1];
  return text.split('.').pop();
}

/** The simple name of a node id's last qualified segment (`code:a.js#A.b` → b, `#A.[kX]` → [kX]). */
function targetName(id) {
  const hash = id.indexOf('#');
  const qualified = hash < 0 ? '' : id.slice(hash + 1);
  const match = /(\[[^\]]*\]|[^.]+)$/.exec(qualified);
  return match ? match[1] : '';
}

const root = fastifyProject();
const manager = new IndexManager({ root, noAst: false });
const started = performance.now();
const report = await manager.sync();
const buildMs = performance.now() - started;
const reader = manager.reader();

// Function and method nodes of the labelled files, with spans (for the innermost-owner lookup).
const files = new Set(labels.sites.map((s) => s.file));
const spans = new Map();
for (let after = null; ;) {
  const page = reader.nodesByFilter({ kinds: ['function', 'method'] }, 1000, after);
  for (const item of page.items) {
    if (!files.has(item.source_path)) continue;
    const node = reader.getNode(item.id);
    const list = spans.get(item.source_path) ?? [];
    list.push({ id: node.id, start: node.start_line, end: node.end_line });
    spans.set(item.source_path, list);
  }
  if (!page.truncated || page.items.length === 0) break;
  after = page.items.at(-1).id;
}

function ownerOf(file, line) {
  let best = null;
  for (const span of spans.get(file) ?? []) {
    if (span.start <= line && line <= span.end && (best === null || span.end - span.start <= best.end - best.start)) best = span;
  }
  return best?.id ?? `code:${file}`;
}

let predicted = 0;
let correct = 0;
let withTarget = 0;
const misses = [];
const wrong = [];
for (const site of labels.sites) {
  const owner = ownerOf(site.file, site.line);
  const name = calleeName(site.callee);
  const isNew = site.callee.startsWith('new ');
  const all = reader.edges(owner, 'outgoing', ['calls'], 10_000);
  const named = all.filter((e) => {
    const target = targetName(e.target_id);
    if (target === name) return true;
    return isNew && target === 'constructor' && targetName(e.target_id.slice(0, -'.constructor'.length)) === name;
  });
  // An edge's line is the first call of that target in the owner: prefer the named edge at the site's line.
  const atLine = all.filter((e) => e.line === site.line);
  const namedAtLine = atLine.filter((e) => named.includes(e));
  let chosen = [...new Set((namedAtLine.length > 0 ? namedAtLine : named).map((e) => e.target_id))];
  const expected = site.expected === 'unresolvable' ? null : site.expected;
  // A target reached through an aliased export (`exist: checkExistence`) has another name: an
  // edge from the owner at the site's line to the labelled target counts as this site's.
  if (chosen.length === 0 && expected !== null && atLine.some((e) => e.target_id === expected)) chosen = [expected];
  if (expected !== null) withTarget += 1;
  if (chosen.length > 0) {
    predicted += 1;
    if (chosen.length === 1 && chosen[0] === expected) correct += 1;
    else wrong.push({ site, owner, chosen });
  } else if (expected !== null) {
    misses.push({ site, owner });
  }
}

const pct = (a, b) => (b === 0 ? 'n/a' : `${((100 * a) / b).toFixed(1)}%`);
const totalCalls = report.stats ? `${report.stats.edges} edges in all` : '';
console.log(`fastify ${labels.fastify_version}: cold build ${buildMs.toFixed(0)} ms (${report.stats?.nodes ?? '?'} nodes, ${totalCalls}; link ${report.stats?.link_ms?.toFixed(0) ?? '?'} ms)`);
console.log(`sample: ${labels.sites.length} call sites, ${withTarget} with a project target, ${labels.sites.length - withTarget} unresolvable`);
console.log(`calls edges: ${predicted} sites predicted, ${correct} correct`);
console.log(`precision ${pct(correct, predicted)} (${correct}/${predicted}), recall ${pct(correct, withTarget)} (${correct}/${withTarget})`);
if (wrong.length > 0) {
  console.log('wrong or unproven predictions:');
  for (const w of wrong) console.log(`  ${w.site.file}:${w.site.line} ${w.site.callee} expected ${w.site.expected}, got ${w.chosen.join(', ')} (from ${w.owner})`);
}
if (values.verbose) {
  console.log('missed targets:');
  for (const m of misses) console.log(`  ${m.site.file}:${m.site.line} ${m.site.callee} -> ${m.site.expected} (owner ${m.owner})`);
}
await manager.close();
