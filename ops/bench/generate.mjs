#!/usr/bin/env node
// Synthetic project generator for benchmarks: deterministic Markdown+TOML documentation trees
// (front matter nodes with typed relations) and TypeScript source trees.
// Usage: node ops/bench/generate.mjs docs --nodes 10000 --out DIR
//        node ops/bench/generate.mjs ts --files 2000 --out DIR
import { cpSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';

/** Mulberry32: a small deterministic PRNG so every run generates the same corpus. */
export function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * `n` items of `items` drawn without replacement by a partial Fisher-Yates shuffle seeded by
 * {@link prng}, in draw order (the audits' seeded samples: same items, n and seed, same draw).
 */
export function drawWithoutReplacement(items, n, seed) {
  const random = prng(seed);
  const pool = [...items];
  const out = [];
  for (let i = 0; i < Math.min(n, pool.length); i += 1) {
    const j = i + Math.floor(random() * (pool.length - i));
    [pool[i], pool[j]] = [pool[j], pool[i]];
    out.push(pool[i]);
  }
  return out;
}

const DOMAIN_WORDS = ('payment ledger refund settlement idempotency gateway fraud score retry timeout queue worker journal balance ' +
  'account currency capture authorize reverse dispute webhook token session cache index schema migration replica shard ' +
  'latency throughput budget alert runbook incident rollback deploy config secret audit policy compliance report export ' +
  'import batch stream event handler router module service adapter client server request response header cookie').split(' ');
const SYLLABLES = 'ka lo mi nu pe ra si to vu za be co di fa gu he ji ko lu ma ne po qu re sa te vi wo xa yo'.split(' ');
const VOCABULARY_SIZE = 30_000;

/**
 * A realistic vocabulary: 30,000 pseudo-words drawn with a Zipf distribution (exponent 1.05), the
 * domain words placed at ranks 40-400 so they are common but not in every page. (The first
 * version drew 100 words uniformly, so every query term matched ~95% of the nodes: a worst case.)
 */
function buildVocabulary() {
  const words = [];
  for (let i = 0; words.length < VOCABULARY_SIZE; i += 1) {
    let n = i;
    let w = '';
    do {
      w += SYLLABLES[n % SYLLABLES.length];
      n = Math.floor(n / SYLLABLES.length);
    } while (n > 0);
    words.push(w);
  }
  DOMAIN_WORDS.forEach((w, i) => words.splice(40 + i * 5, 0, w));
  const cumulative = new Float64Array(words.length);
  let total = 0;
  for (let r = 0; r < words.length; r += 1) {
    total += 1 / Math.pow(r + 1, 1.05);
    cumulative[r] = total;
  }
  return { words, cumulative, total };
}
const VOCAB = buildVocabulary();

function drawWord(rand) {
  const x = rand() * VOCAB.total;
  let lo = 0;
  let hi = VOCAB.cumulative.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (VOCAB.cumulative[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return VOCAB.words[lo];
}

/** The word of a given Zipf rank (0-based), for picking benchmark queries of known frequency. */
export function wordOfRank(rank) {
  return VOCAB.words[rank];
}

const KINDS = ['requirement', 'component', 'decision', 'runbook', 'test', 'document'];
const RELATIONS = ['depends_on', 'implements', 'relates_to', 'verifies', 'governs', 'calls', 'reads', 'writes', 'documents', 'tested_by'];
const FAMILIES = ['payments', 'ledger', 'fraud', 'platform', 'reporting'];

function sentence(rand, n) {
  const words = [];
  for (let i = 0; i < n; i += 1) words.push(drawWord(rand));
  const s = words.join(' ');
  return s[0].toUpperCase() + s.slice(1) + '.';
}

/** Writes a documentation project of `nodes` nodes (one Markdown file each, 1 in 50 as TOML records of 5). */
export function generateDocs(out, nodes, seed = 42) {
  rmSync(out, { recursive: true, force: true });
  const rand = prng(seed);
  mkdirSync(path.join(out, 'docs'), { recursive: true });
  writeFileSync(path.join(out, 'docforge.toml'), `schema_version = 1\n[project]\nid = "bench-${nodes}"\nname = "Benchmark ${nodes}"\n[sources]\ncontent_roots = ["docs"]\n[adapter]\ncode = "none"\n[limits]\nmax_results = 200\n`);
  const id = (i) => `N-${String(i).padStart(6, '0')}`;
  let files = 0;
  let i = 0;
  while (i < nodes) {
    const dir = path.join(out, 'docs', `area-${String(Math.floor(i / 200)).padStart(4, '0')}`);
    mkdirSync(dir, { recursive: true });
    const relations = (n) => {
      const rel = {};
      const count = 1 + Math.floor(rand() * 4);
      for (let k = 0; k < count && n > 0; k += 1) {
        const r = RELATIONS[Math.floor(rand() * RELATIONS.length)];
        const target = id(Math.floor(rand() * n));
        (rel[r] ??= new Set()).add(target);
      }
      return Object.entries(rel).map(([r, t]) => `${r} = [${[...t].map((x) => `"${x}"`).join(', ')}]`).join('\n');
    };
    if (i % 250 === 249 && i + 5 <= nodes) {
      let text = '';
      for (let k = 0; k < 5; k += 1, i += 1) {
        text += `[[node]]\nid = "${id(i)}"\nkind = "test"\ntitle = "${sentence(rand, 4).slice(0, -1)}"\nfamily = "${FAMILIES[i % FAMILIES.length]}"\ntags = ["t${i % 17}"]\nbody = "${sentence(rand, 30)}"\n[node.relations]\n${relations(i)}\n\n`;
      }
      writeFileSync(path.join(dir, `records-${i}.toml`), text);
      files += 1;
      continue;
    }
    const title = sentence(rand, 5).slice(0, -1);
    const body = [];
    for (let p = 0; p < 4; p += 1) body.push(`## Section ${p + 1}\n\n${sentence(rand, 25)} ${sentence(rand, 20)}`);
    const link = i > 0 && rand() < 0.3 ? `\nSee also [another page](../area-${String(Math.floor((i - 1) / 200)).padStart(4, '0')}/n-${i - 1}.md).\n` : '';
    writeFileSync(path.join(dir, `n-${i}.md`), `+++\nid = "${id(i)}"\nkind = "${KINDS[i % KINDS.length]}"\ntitle = "${title}"\nfamily = "${FAMILIES[i % FAMILIES.length]}"\nstatus = "accepted"\ntags = ["t${i % 17}", "w${i % 5}"]\n\n[relations]\n${relations(i)}\n+++\n# ${title}\n\n${body.join('\n\n')}\n${link}`);
    files += 1;
    i += 1;
  }
  return { nodes, files };
}

/**
 * Writes a TypeScript tree of `files` modules with classes, functions, imports and calls,
 * `perFolder` modules per folder (src/m0, src/m1, ...; default 50).
 */
export function generateTs(out, files, seed = 7, perFolder = 50) {
  rmSync(out, { recursive: true, force: true });
  const rand = prng(seed);
  mkdirSync(path.join(out, 'src'), { recursive: true });
  mkdirSync(path.join(out, 'docs'), { recursive: true });
  writeFileSync(path.join(out, 'docforge.toml'), `schema_version = 1\n[project]\nid = "bench-ts-${files}"\nname = "TS ${files}"\n[sources]\ncontent_roots = ["docs"]\ncode_roots = ["src"]\n[adapter]\ncode = "typescript"\nstrategy = "ast"\n`);
  writeFileSync(path.join(out, 'docs', 'index.md'), '# Synthetic TypeScript tree\n\nSee [module 0](../src/m0/mod0.ts).\n');
  for (let f = 0; f < files; f += 1) {
    const dir = path.join(out, 'src', `m${Math.floor(f / perFolder)}`);
    mkdirSync(dir, { recursive: true });
    const imports = [];
    const calls = [];
    for (let k = 0; k < 3 && f > 0; k += 1) {
      const t = Math.floor(rand() * f);
      imports.push(`import { fn${t}, Klass${t} } from '../m${Math.floor(t / perFolder)}/mod${t}';`);
      calls.push(`  const r${k} = fn${t}(x + ${k});\n  if (r${k} > 10) {\n    total += new Klass${t}().run(r${k});\n  } else {\n    for (let i = 0; i < r${k}; i += 1) { if (i % 3 === 0) continue; total += i; }\n  }`);
    }
    writeFileSync(path.join(dir, `mod${f}.ts`), `${[...new Set(imports)].join('\n')}\n\n/** Function ${f}. */\nexport function fn${f}(x: number): number {\n  let total = 0;\n${calls.join('\n')}\n  try {\n    total += helper${f}(x);\n  } catch (error) {\n    return -1;\n  } finally {\n    total += 1;\n  }\n  return total;\n}\n\nfunction helper${f}(x: number): number {\n  switch (x % 3) {\n    case 0: return x;\n    case 1:\n    case 2: return x * 2;\n    default: throw new Error('never');\n  }\n}\n\nexport class Klass${f} {\n  private count = 0;\n  run(v: number): number {\n    while (this.count < v) { this.count += 1; if (this.count > 100) break; }\n    return this.step(v);\n  }\n  async step(v: number): Promise<number> {\n    return fn${f}(v - 1);\n  }\n}\n`);
  }
  return { files };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values, positionals } = parseArgs({ options: { nodes: { type: 'string' }, files: { type: 'string' }, out: { type: 'string' } }, allowPositionals: true });
  const kind = positionals[0];
  if (!values.out || (kind !== 'docs' && kind !== 'ts')) {
    console.error('usage: generate.mjs docs --nodes N --out DIR | ts --files N --out DIR');
    process.exit(2);
  }
  const result = kind === 'docs' ? generateDocs(path.resolve(values.out), Number(values.nodes ?? 10000)) : generateTs(path.resolve(values.out), Number(values.files ?? 2000));
  console.log(JSON.stringify(result));
}

/** Nodes per generated TypeScript module: the module, fn, helper, Klass, Klass.run, Klass.step (and the count field when indexed). */
export const NODES_PER_MODULE = 6;

/**
 * The mixed corpus of the issue-32 benchmarks (affected.mjs, task-context-change.mjs): about
 * `nodes` nodes, half a TypeScript tree ({@link generateTs}) and half the docs of
 * {@link generateDocs} under docs/gen, every fourth page naming `fnN`, `KlassN` and `KlassN.run`
 * of module N in code spans (mention-derived `documents` edges with sections), `perFolder` modules
 * a folder (the graph browser's map benchmark asks for 8). Returns the module count.
 */
export function generateMixed(root, nodes, perFolder = 50) {
  const modules = Math.round(nodes / 2 / NODES_PER_MODULE);
  generateTs(root, modules, 7, perFolder);
  const docsTmp = `${root}.docs`;
  generateDocs(docsTmp, nodes - modules * NODES_PER_MODULE);
  cpSync(path.join(docsTmp, 'docs'), path.join(root, 'docs', 'gen'), { recursive: true });
  rmSync(docsTmp, { recursive: true, force: true });
  let n = 0;
  for (const area of readdirSync(path.join(root, 'docs', 'gen')).sort()) {
    for (const file of readdirSync(path.join(root, 'docs', 'gen', area)).sort()) {
      if (!file.endsWith('.md') || n++ % 4 !== 0) continue;
      const m = n % modules;
      const full = path.join(root, 'docs', 'gen', area, file);
      writeFileSync(full, `${readFileSync(full, 'utf8')}\n## Code\n\nThis page is implemented by \`fn${m}\` and \`Klass${m}\` (see \`Klass${m}.run\`).\n`);
    }
  }
  return modules;
}
