#!/usr/bin/env node
// Draws a seeded random sample of the cross-file edges (imports, calls, inherits, implements, tested_by) DocForge's tree-sitter
// adapters give on real code nobody here wrote (issue 33: "0 false edges in a sample of at least 50 edges, drawn by a seeded
// sampler and committed"), for verdicts written by a person who reads the source (ops/eval/polyglot/edges-<lang>.json).
// Inputs, from Debian packages (.ci/run installs them): Go: testify (golang-github-stretchr-testify-dev, /usr/share/gocode);
// Rust: bytes 1.2.1 (librust-bytes-dev, /usr/share/cargo/registry); Java: java.util.concurrent from openjdk-17-source's src.zip;
// C#: the .cs files of the npm package edge-js 26.1.0 (`npm pack`); Ruby: thor 1.2.1 (ruby-thor, /usr/share/rubygems-integration);
// PHP: monolog 2.9.1 and psr/log 1.1.4 (php-monolog, /usr/share/php, with a composer.json holding their upstream PSR-4 mappings);
// C: tree-sitter's C runtime in web-tree-sitter 0.25.10's lib/; C++: better-sqlite3 12.11.1's src/ (both npm dependencies here).
// Builds a copy of each with DocForge (IndexManager, strategy ast), reads every edge of those relations from the index through
// the sync library's reader, sorts them (relation, source, target, line), draws N with mulberry32 (partial Fisher-Yates) and prints
// file:line, the source line, the target and its declaration line. --check compares a fresh draw with the committed verdicts.
// Usage: node ops/eval/polyglot/edges.mjs [--lang go|rust|java|csharp|ruby|php|c|cpp] [--n 50] [--seed 33] [--json] [--check]
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync, cpSync as copy } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { IndexManager } from '@docforge/sync';
import { drawWithoutReplacement } from '../../bench/generate.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '..', '..', '..');
const RELATIONS = ['imports', 'calls', 'inherits', 'implements', 'tested_by'];

/** Each language's input: the package, how to put its sources into a folder, the adapter id. */
export const INPUTS = {
  go: { pkg: 'golang-github-stretchr-testify-dev 1.8.1', adapter: 'go', fill: (dir) => copy('/usr/share/gocode/src/github.com/stretchr/testify', dir, { recursive: true, dereference: true }) },
  rust: { pkg: 'librust-bytes-dev 1.2.1', adapter: 'rust', fill: (dir) => copy('/usr/share/cargo/registry/bytes-1.2.1', dir, { recursive: true, dereference: true }) },
  csharp: {
    pkg: 'edge-js 26.1.0 (npm pack; its .cs files)', adapter: 'csharp',
    fill: (dir) => {
      const tmp = `${dir}.pack`;
      rmSync(tmp, { recursive: true, force: true });
      mkdirSync(tmp, { recursive: true });
      execFileSync('npm', ['pack', 'edge-js@26.1.0', '--silent'], { cwd: tmp, stdio: ['ignore', 'ignore', 'inherit'] });
      execFileSync('tar', ['xzf', 'edge-js-26.1.0.tgz'], { cwd: tmp });
      copy(path.join(tmp, 'package', 'src'), path.join(dir, 'src'), { recursive: true });
      copy(path.join(tmp, 'package', 'lib', 'bootstrap', 'Dummy.cs'), path.join(dir, 'lib', 'bootstrap', 'Dummy.cs'), { recursive: true });
      rmSync(tmp, { recursive: true, force: true });
    },
  },
  ruby: { pkg: 'ruby-thor 1.2.1', adapter: 'ruby', fill: (dir) => copy('/usr/share/rubygems-integration/all/gems/thor-1.2.1', dir, { recursive: true, dereference: true }) },
  php: {
    pkg: 'php-monolog 2.9.1 with php-psr-log 1.1.4 (/usr/share/php; composer.json with the upstream PSR-4 mappings written for the installed layout)', adapter: 'php',
    fill: (dir) => {
      copy('/usr/share/php/Monolog', path.join(dir, 'Monolog'), { recursive: true, dereference: true });
      copy('/usr/share/php/Psr', path.join(dir, 'Psr'), { recursive: true, dereference: true });
      // Debian's generated autoloaders are no upstream code.
      for (const generated of ['Monolog/autoload.php', 'Psr/Log/autoload.php']) rmSync(path.join(dir, generated), { force: true });
      writeFileSync(path.join(dir, 'composer.json'), JSON.stringify({ autoload: { 'psr-4': { 'Monolog\\': 'Monolog/', 'Psr\\Log\\': 'Psr/Log/' } } }, null, 1));
    },
  },
  c: {
    pkg: "web-tree-sitter 0.25.10 lib/ (tree-sitter's C runtime, .c and .h, from node_modules)", adapter: 'cpp',
    fill: (dir) => copy(path.join(repo, 'node_modules', 'web-tree-sitter', 'lib'), dir, { recursive: true, dereference: true, filter: (src) => !/\.(wasm|map|cjs|js)$/.test(src) }),
  },
  cpp: {
    pkg: 'better-sqlite3 12.11.1 src/ (its C++ addon, .cpp and .hpp, from node_modules)', adapter: 'cpp',
    fill: (dir) => copy(path.join(repo, 'node_modules', 'better-sqlite3', 'src'), dir, { recursive: true, dereference: true }),
  },
  java: {
    pkg: 'openjdk-17-source (java.base/java/util/concurrent)', adapter: 'java',
    fill: (dir) => {
      const zip = '/usr/lib/jvm/java-17-openjdk-amd64/lib/src.zip';
      const tmp = `${dir}.unzip`;
      rmSync(tmp, { recursive: true, force: true });
      execFileSync('unzip', ['-q', zip, 'java.base/java/util/concurrent/*', '-d', tmp]);
      copy(path.join(tmp, 'java.base'), dir, { recursive: true });
      rmSync(tmp, { recursive: true, force: true });
    },
  },
};

/** A fresh copy of a language's input with a DocForge descriptor; its root. */
export function project(lang, outDir = path.join(here, '..', 'out', `polyglot-${lang}`)) {
  const input = INPUTS[lang];
  if (input === undefined) throw new Error(`unknown language ${lang} (known: ${Object.keys(INPUTS).join(', ')})`);
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(path.dirname(outDir), { recursive: true });
  input.fill(outDir);
  mkdirSync(path.join(outDir, 'docforge-docs'), { recursive: true });
  writeFileSync(path.join(outDir, 'docforge-docs', 'index.md'), `# ${lang}\n`);
  writeFileSync(path.join(outDir, 'docforge.toml'), [
    'schema_version = 1', '[project]', `id = "polyglot-${lang}"`, `name = "${lang}"`, '[sources]', 'content_roots = ["docforge-docs"]', 'code_roots = ["."]',
    'exclude = ["**/node_modules/**", "**/.git/**", "**/vendor/**", "**/target/**"]', '[adapter]', `code = "${input.adapter}"`, 'strategy = "ast"',
    // What `docforge init` writes for a C-only project: its .h files are C.
    ...(lang === 'c' ? ['[adapter.c]', 'headers = "c"'] : []), '',
  ].join('\n'));
  return outDir;
}

/** Every edge of RELATIONS out of code nodes, sorted. */
function allEdges(reader) {
  const edges = [];
  for (let after = null; ;) {
    const page = reader.nodesByFilter({}, 1000, after);
    for (const item of page.items) {
      if (!item.id.startsWith('code:')) continue;
      for (const edge of reader.edges(item.id, 'outgoing', RELATIONS, 100_000)) edges.push(edge);
    }
    if (!page.truncated || page.items.length === 0) break;
    after = page.items.at(-1).id;
  }
  const key = (e) => `${e.relation}\u0000${e.source_id}\u0000${e.target_id}\u0000${String(e.line).padStart(8, '0')}`;
  return edges.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

async function sample(lang, n, seed) {
  const root = project(lang);
  const manager = new IndexManager({ root, noAst: false });
  await manager.sync();
  const reader = manager.reader();
  const edges = allEdges(reader);
  const cache = new Map();
  const lineText = (file, line) => {
    if (!cache.has(file)) cache.set(file, readFileSync(path.join(root, file), 'utf8').split('\n'));
    return (cache.get(file)[line - 1] ?? '').trim();
  };
  const population = Object.fromEntries(RELATIONS.map((r) => [r, edges.filter((e) => e.relation === r).length]));
  const drawn = drawWithoutReplacement(edges, n, seed).map((edge, index) => {
    const target = reader.getNode(edge.target_id);
    return {
      index, relation: edge.relation, site: `${edge.source_path}:${edge.line}`, source_text: lineText(edge.source_path, edge.line),
      source_id: edge.source_id, target_id: edge.target_id,
      target_at: target ? `${target.source_path}:${target.start_line}` : null, target_text: target ? lineText(target.source_path, target.start_line) : null,
    };
  });
  await manager.close();
  return { lang, package: INPUTS[lang].pkg, seed, n, population, drawn };
}

function check(result) {
  const file = path.join(here, `edges-${result.lang}.json`);
  if (!existsSync(file)) return [`${file} is missing`];
  const committed = JSON.parse(readFileSync(file, 'utf8'));
  const problems = [];
  if (committed.seed !== result.seed || committed.edges.length !== result.drawn.length) problems.push(`seed or size differs (${committed.seed}/${committed.edges.length} vs ${result.seed}/${result.drawn.length})`);
  result.drawn.forEach((edge, i) => {
    const c = committed.edges[i];
    if (c === undefined || c.source_id !== edge.source_id || c.target_id !== edge.target_id || c.site !== edge.site || c.relation !== edge.relation) problems.push(`#${i} differs: drawn ${edge.relation} ${edge.site} ${edge.source_id} -> ${edge.target_id}`);
    else if (c.verdict !== 'correct') problems.push(`#${i} ${edge.site} ${edge.target_id}: verdict ${c.verdict} (${c.reason})`);
  });
  return problems;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      lang: { type: 'string', multiple: true },
      n: { type: 'string', default: '50' },
      seed: { type: 'string', default: '33' },
      json: { type: 'boolean', default: false },
      check: { type: 'boolean', default: false },
    },
  });
  const n = Number(values.n);
  const seed = Number(values.seed);
  let failed = false;
  for (const lang of values.lang ?? Object.keys(INPUTS)) {
    const result = await sample(lang, n, seed);
    if (values.check) {
      const problems = check(result);
      console.log(`${lang} (${result.package}): ${result.drawn.length} edges drawn (seed ${seed}, population ${JSON.stringify(result.population)}): ${problems.length === 0 ? 'all verdicts correct' : `${problems.length} problem(s)`}`);
      for (const problem of problems) console.log(`  ${problem}`);
      failed ||= problems.length > 0;
    } else if (values.json) {
      console.log(JSON.stringify(result, null, 1));
    } else {
      console.log(`# ${lang} (${result.package}): ${result.drawn.length} edges, seed ${seed}, population ${JSON.stringify(result.population)}`);
      for (const e of result.drawn) console.log(`#${e.index} ${e.relation} ${e.site}  ${e.source_text}\n    ${e.source_id} -> ${e.target_id}  [${e.target_at}] ${e.target_text}`);
    }
  }
  if (failed) process.exitCode = 1;
}
