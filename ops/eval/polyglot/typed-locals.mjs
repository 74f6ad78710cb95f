#!/usr/bin/env node
// Draws a seeded random sample of the call edges only the proven-locals rule gives (tree-sitter adapters 1.2.4: `x.m()` where
// x's declaration proves its type, LanguageSpec.typedBinds), for verdicts written by a person who reads the source
// (ops/eval/polyglot/typed-locals-<lang>.json). Each input is extracted once and linked twice: as extracted, and with every
// call's receiver proof removed (such a call then resolves to nothing); the edges of the first link missing from the second
// are the population. Prints per edge: file:line, the source line, the line declaring the receiver, the target's declaration.
// Inputs: go: testify 1.8.1, yaml.v3 and go-spew (Debian's golang-*-dev under /usr/share/gocode; go-spew has no go.mod there,
// its module line is supplied); java: java.util from openjdk-17-source's src.zip; csharp: edge-js 26.1.0's .cs files as
// ops/eval/polyglot/edges.mjs --lang csharp leaves them in ops/eval/out/polyglot-csharp.
// Usage: node ops/eval/polyglot/typed-locals.mjs [--lang go|java|csharp] [--n 50] [--seed 33] [--json]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadTreeAdapters } from '@docforge/adapter-treesitter';
import { drawWithoutReplacement } from '../../bench/generate.mjs';

const GOCODE = '/usr/share/gocode/src';
const INPUTS = {
  go: [
    { name: 'testify', root: `${GOCODE}/github.com/stretchr/testify`, module: null },
    { name: 'yaml.v3', root: `${GOCODE}/gopkg.in/yaml.v3`, module: null },
    { name: 'go-spew', root: `${GOCODE}/github.com/davecgh/go-spew`, module: 'github.com/davecgh/go-spew' },
  ],
  java: [{ name: 'java.util', zip: ['/usr/lib/jvm/java-17-openjdk-amd64/lib/src.zip', 'java.base/java/util/*'] }],
  // The copy ops/eval/polyglot/edges.mjs --lang csharp makes (npm pack edge-js@26.1.0); run that first.
  csharp: [{ name: 'edge-js', root: path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', 'out', 'polyglot-csharp'), module: null }],
};
const EXT = { go: ['.go'], java: ['.java'], csharp: ['.cs'] };

function readTree(root, exts, names) {
  const out = {};
  const walk = (dir) => {
    for (const name of readdirSync(dir).sort()) {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (exts.some((e) => name.endsWith(e)) || names.includes(name)) out[path.relative(root, full).split(path.sep).join('/')] = readFileSync(full, 'utf8');
    }
  };
  walk(root);
  return out;
}

function textsOf(input, lang) {
  if (input.zip === undefined) return { ...readTree(input.root, EXT[lang], ['go.mod']), ...(input.module ? { 'go.mod': `module ${input.module}\n` } : {}) };
  const tmp = mkdtempSync(path.join(tmpdir(), 'typed-'));
  execFileSync('unzip', ['-q', input.zip[0], input.zip[1], '-d', tmp]);
  const texts = readTree(tmp, EXT[lang], []);
  rmSync(tmp, { recursive: true, force: true });
  return texts;
}

const key = (e) => `${e.source_id}\u0000${e.relation}\u0000${e.target_id}`;

async function population(lang) {
  const family = await loadTreeAdapters();
  await family.initTreeLanguage(lang);
  const adapter = family.treeAdapter(lang);
  const out = [];
  for (const input of INPUTS[lang]) {
    const texts = textsOf(input, lang);
    const paths = Object.keys(texts).filter((p) => EXT[lang].some((e) => p.endsWith(e))).sort();
    const parsed = paths.map((p) => ({ path: p, ...adapter.extract({ path: p, content: texts[p], strategy: 'ast', logic: false }) }));
    const resolver = { hasFile: (p) => p in texts && paths.includes(p), readText: (p) => texts[p] ?? null };
    const strip = parsed.map((f) => ({ ...f, link_data: { ...f.link_data, calls: f.link_data.calls.map(({ recv, ...call }) => call) } }));
    const without = new Set(adapter.link(strip, resolver).edges.map(key));
    const nodes = new Map(parsed.flatMap((f) => f.nodes).map((n) => [n.id, n]));
    const lines = (file) => (texts[file] ?? '').split('\n');
    for (const e of adapter.link(parsed, resolver).edges) {
      if (e.relation !== 'calls' || without.has(key(e))) continue;
      const target = nodes.get(e.target_id);
      out.push({ input: input.name, site: `${e.source_path}:${e.line}`, source_text: lines(e.source_path)[e.line - 1]?.trim() ?? '', source_id: e.source_id, target_id: e.target_id,
        target_at: target ? `${target.source_path}:${target.start_line}` : null, target_text: target ? lines(target.source_path)[target.start_line - 1]?.trim() : null });
    }
  }
  return out.sort((a, b) => (`${a.input}\u0000${key(a)}` < `${b.input}\u0000${key(b)}` ? -1 : 1));
}

const { values } = parseArgs({ options: { lang: { type: 'string', default: 'go' }, n: { type: 'string', default: '50' }, seed: { type: 'string', default: '33' }, json: { type: 'boolean', default: false } } });
const all = await population(values.lang);
const drawn = drawWithoutReplacement(all, Number(values.n), Number(values.seed)).map((e, index) => ({ index, ...e }));
const counts = Object.fromEntries(INPUTS[values.lang].map((i) => [i.name, all.filter((e) => e.input === i.name).length]));
if (values.json) console.log(JSON.stringify({ lang: values.lang, seed: Number(values.seed), n: Number(values.n), population: counts, drawn }, null, 1));
else {
  console.log(`# ${values.lang}: ${drawn.length} of ${all.length} edges only the proven-locals rule gives (seed ${values.seed}; ${JSON.stringify(counts)})`);
  for (const e of drawn) console.log(`#${e.index} ${e.input} ${e.site}  ${e.source_text}\n    ${e.source_id} -> ${e.target_id}  [${e.target_at}] ${e.target_text}`);
}
