#!/usr/bin/env node
// DocForge retrieval evaluation (issue 9 item 6): builds each project with a real docforge-mcp
// process (stdio, MCP SDK client), asks every question of ops/eval/questions/<set>.json through
// docforge_search and docforge_get_task_context, and prints recall@5 and MRR per question kind
// (`docs`: questions about the documentation; `code`: "where is X implemented").
// A question's `expected` lists its accepted answers (node ids checked against the source by
// hand); a question counts as recalled at 5 when any accepted id is among the first five hits,
// and its reciprocal rank is 1 / the rank of the first accepted id (0 when none is returned).
// Sets: examples (bundled), fastify (installed package), koa (koa 2.16.4 packed from the npm registry,
// code only: its tarball ships no docs), asyncio (CPython's /usr/lib/python3.11/asyncio, code only) and
// npm (the npm CLI 10.9.9 packed from the npm registry: docs/content Markdown and lib/ code), express
// (express 4.21.2 from the npm registry, code only), undici (undici 8.14.1: docs/docs Markdown and code)
// ws (ws 8.18.3 from the npm registry, code only), objx (Debian's Go sources of objx 0.5.0, code only) and pyjwt
// (Debian's python3-jwt 2.6.0, code only), piscina (the installed piscina 5.3.2: docs/docs Markdown and src/ TypeScript)
// semver (the installed semver 7.8.6, code only), findmyway (the installed find-my-way 9.10.2, code only) and commander
// (commander 14.0.3 from the npm registry, code only), qs (qs 6.14.0 from the npm registry, code only) and markdownit
// (the installed markdown-it 14.3.3: lib/ only; change tasks whose answers are the callers of the function changed) and
// markdownitcode (the same package: lib/ code and its README as a file content root; code and doc questions).
// Usage: node ops/eval/run.mjs [--set examples|fastify|koa|asyncio|npm|express|undici|ws|objx|pyjwt|piscina|semver|findmyway|commander|qs|markdownit|markdownitcode] [--verbose] [--json FILE]
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '../..');
const outDir = path.join(here, 'out');
const { values } = parseArgs({ options: { set: { type: 'string' }, verbose: { type: 'boolean', default: false }, json: { type: 'string' } } });

/** Hits considered per tool (the rank of an answer beyond it counts as not found). */
const DEPTH = 10;

/** A fresh copy of the bundled example project. */
function examplesCorpus() {
  const root = path.join(outDir, 'examples');
  rmSync(root, { recursive: true, force: true });
  cpSync(path.join(repo, 'examples'), root, { recursive: true, filter: (src) => !src.split(path.sep).includes('.docforge') });
  return root;
}

/** A project made of the installed fastify package, as ops/bench/code.mjs builds it. */
export function fastifyCorpus(root = path.join(outDir, 'fastify')) {
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  const fastify = path.join(repo, 'node_modules', 'fastify');
  for (const name of ['docs', 'lib', 'types', 'test', 'fastify.js', 'fastify.d.ts', 'package.json']) {
    cpSync(path.join(fastify, name), path.join(root, name), { recursive: true });
  }
  writeFileSync(path.join(root, 'docforge.toml'), [
    'schema_version = 1', '[project]', 'id = "fastify"', 'name = "Fastify"', '[sources]', 'content_roots = ["docs"]', 'code_roots = ["."]',
    'exclude = ["**/node_modules/**", "**/.git/**"]', '[adapter]', 'code = "typescript"', 'strategy = "ast"', '',
  ].join('\n'));
  return root;
}

/** The koa version the koa question set was written from (ops/eval/questions/koa.json `source`). */
const KOA_VERSION = '2.16.4';
/** Where the asyncio question set's sources are read from (ops/eval/questions/asyncio.json `source`). */
const ASYNCIO_DIR = '/usr/lib/python3.11/asyncio';

/** A descriptor with the given roots, as `docforge init` writes it for a package without docs. */
function writeDescriptor(root, id, contentRoots, code) {
  writeFileSync(path.join(root, 'docforge.toml'), [
    'schema_version = 1', '[project]', `id = "${id}"`, `name = "${id}"`, '[sources]',
    `content_roots = ${JSON.stringify(contentRoots)}`, 'code_roots = ["."]',
    'exclude = ["**/node_modules/**", "**/.git/**", "**/__pycache__/**"]', '[adapter]', `code = "${code}"`, 'strategy = "ast"', '',
  ].join('\n'));
}

/** The npm CLI version the npm question set was written from (ops/eval/questions/npm.json `source`). */
const NPM_VERSION = '10.9.9';

/** A registry package as published: `npm pack name@version` (cached in out/cache), extracted whole into root. */
function packedCorpus(root, name, version) {
  const cache = path.join(outDir, 'cache');
  const tarball = path.join(cache, `${name}-${version}.tgz`);
  if (!existsSync(tarball)) {
    mkdirSync(cache, { recursive: true });
    execFileSync('npm', ['pack', `${name}@${version}`, '--pack-destination', cache, '--loglevel', 'warn'], { stdio: ['ignore', 'ignore', 'inherit'] });
  }
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  execFileSync('tar', ['xzf', tarball, '-C', root, '--strip-components=1']);
  return root;
}

/** koa as published (`npm pack koa@KOA_VERSION`), code only. */
function koaCorpus(root = path.join(outDir, 'koa')) {
  packedCorpus(root, 'koa', KOA_VERSION);
  writeDescriptor(root, 'koa', [], 'typescript');
  return root;
}

/** The npm CLI as published (`npm pack npm@NPM_VERSION`): Markdown docs under docs/content, code from the
 * whole package; its bundled dependencies (node_modules/) are excluded by the descriptor. */
function npmCorpus(root = path.join(outDir, 'npm')) {
  packedCorpus(root, 'npm', NPM_VERSION);
  writeDescriptor(root, 'npm', ['docs/content'], 'typescript');
  return root;
}

/** The express version the express question set was written from (ops/eval/questions/express.json `source`). */
const EXPRESS_VERSION = '4.21.2';
/** The undici version the undici question set was written from (ops/eval/questions/undici.json `source`). */
const UNDICI_VERSION = '8.14.1';

/** express as published (`npm pack express@EXPRESS_VERSION`), code only: its tarball ships no docs. */
function expressCorpus(root = path.join(outDir, 'express')) {
  packedCorpus(root, 'express', EXPRESS_VERSION);
  writeDescriptor(root, 'express', [], 'typescript');
  return root;
}

/** undici as published (`npm pack undici@UNDICI_VERSION`): Markdown docs under docs/docs, code from the whole package. */
function undiciCorpus(root = path.join(outDir, 'undici')) {
  packedCorpus(root, 'undici', UNDICI_VERSION);
  writeDescriptor(root, 'undici', ['docs/docs'], 'typescript');
  return root;
}

/** The ws version the ws question set was written from (ops/eval/questions/ws.json `source`). */
const WS_VERSION = '8.18.3';

/** ws as published (`npm pack ws@WS_VERSION`), code only: its tarball ships no docs. */
function wsCorpus(root = path.join(outDir, 'ws')) {
  packedCorpus(root, 'ws', WS_VERSION);
  writeDescriptor(root, 'ws', [], 'typescript');
  return root;
}

/** Where the objx question set's sources are read from (ops/eval/questions/objx.json `source`; Debian's golang-github-stretchr-objx-dev). */
const OBJX_DIR = '/usr/share/gocode/src/github.com/stretchr/objx';

/** objx's Go sources as Debian ships them, code only, with the Go adapter. */
function objxCorpus(root = path.join(outDir, 'objx')) {
  if (!existsSync(OBJX_DIR)) throw new Error(`the objx set reads ${OBJX_DIR} (apt-get install golang-github-stretchr-objx-dev), which is not on this machine`);
  rmSync(root, { recursive: true, force: true });
  cpSync(OBJX_DIR, root, { recursive: true });
  writeDescriptor(root, 'objx', [], 'go');
  return root;
}

/** A project holding a copy of the standard library's asyncio package as `asyncio/`. */
function asyncioCorpus(root = path.join(outDir, 'asyncio')) {
  if (!existsSync(path.join(ASYNCIO_DIR, '__init__.py'))) {
    throw new Error(`the asyncio set reads ${ASYNCIO_DIR} (CPython 3.11's standard library), which is not on this machine`);
  }
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  cpSync(ASYNCIO_DIR, path.join(root, 'asyncio'), { recursive: true, filter: (src) => path.basename(src) !== '__pycache__' });
  writeDescriptor(root, 'asyncio', [], 'python');
  return root;
}

/** Where the pyjwt question set's sources are read from (ops/eval/questions/pyjwt.json `source`; Debian's python3-jwt 2.6.0). */
const PYJWT_DIR = '/usr/lib/python3/dist-packages/jwt';

/** A project holding a copy of Debian's PyJWT package as `jwt/`, code only, with the Python adapter. */
function pyjwtCorpus(root = path.join(outDir, 'pyjwt')) {
  if (!existsSync(path.join(PYJWT_DIR, 'api_jwt.py'))) throw new Error(`the pyjwt set reads ${PYJWT_DIR} (apt-get install python3-jwt), which is not on this machine`);
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  cpSync(PYJWT_DIR, path.join(root, 'jwt'), { recursive: true, filter: (src) => path.basename(src) !== '__pycache__' });
  writeDescriptor(root, 'pyjwt', [], 'python');
  return root;
}

/** A project made of the installed piscina package (ops/eval/questions/piscina.json `source`): its docs, TypeScript
 * sources, tests, README and package.json; dist/ (compiled from src/) is left out as a build output. */
function piscinaCorpus(root = path.join(outDir, 'piscina')) {
  return installedPartsCorpus(root, 'piscina', 'piscina', ['docs', 'src', 'test', 'README.md', 'package.json'], ['docs/docs']);
}

/**
 * A project at `root` made of the named parts (files or folders) of the installed package `pkg`, with a
 * docforge.toml of project id `id`, the given content roots and the TypeScript adapter.
 */
function installedPartsCorpus(root, id, pkg, parts, contentRoots) {
  const installed = path.join(repo, 'node_modules', pkg);
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  for (const name of parts) cpSync(path.join(installed, name), path.join(root, name), { recursive: true });
  writeDescriptor(root, id, contentRoots, 'typescript');
  return root;
}

/** A project made of the installed semver package (ops/eval/questions/semver.json `source`), copied whole; code only. */
function semverCorpus(root = path.join(outDir, 'semver')) {
  rmSync(root, { recursive: true, force: true });
  cpSync(path.join(repo, 'node_modules', 'semver'), root, { recursive: true });
  writeDescriptor(root, 'semver', [], 'typescript');
  return root;
}

/** A project made of the installed find-my-way package (ops/eval/questions/findmyway.json `source`), copied whole; code only. */
function findMyWayCorpus(root = path.join(outDir, 'findmyway')) {
  rmSync(root, { recursive: true, force: true });
  cpSync(path.join(repo, 'node_modules', 'find-my-way'), root, { recursive: true });
  writeDescriptor(root, 'findmyway', [], 'typescript');
  return root;
}

/** The commander version the commander question set was written from (ops/eval/questions/commander.json `source`). */
const COMMANDER_VERSION = '14.0.3';

/** commander as published (`npm pack commander@COMMANDER_VERSION`), code only: its README at the root is its only doc. */
function commanderCorpus(root = path.join(outDir, 'commander')) {
  packedCorpus(root, 'commander', COMMANDER_VERSION);
  writeDescriptor(root, 'commander', [], 'typescript');
  return root;
}

/** The qs version the qs question set was written from (ops/eval/questions/qs.json `source`). */
const QS_VERSION = '6.14.0';

/** qs as published (`npm pack qs@QS_VERSION`), code only: its README at the root is its only doc. */
function qsCorpus(root = path.join(outDir, 'qs')) {
  packedCorpus(root, 'qs', QS_VERSION);
  writeDescriptor(root, 'qs', [], 'typescript');
  return root;
}

/** A project made of the installed markdown-it package (ops/eval/questions/markdownit.json `source`): lib/ and package.json; code only. */
function markdownItCorpus(root = path.join(outDir, 'markdownit')) {
  return installedPartsCorpus(root, 'markdownit', 'markdown-it', ['lib', 'package.json'], []);
}

/** A project made of the installed markdown-it package (ops/eval/questions/markdownitcode.json `source`): lib/, index.mjs,
 * bin/, package.json and README.md, its only document, as a file content root; dist/ (built from lib/) is left out. */
function markdownItCodeCorpus(root = path.join(outDir, 'markdownitcode')) {
  return installedPartsCorpus(root, 'markdownitcode', 'markdown-it', ['lib', 'bin', 'index.mjs', 'README.md', 'package.json'], ['README.md']);
}

/** Corpus builder per question set. */
const CORPORA = {
  examples: examplesCorpus, fastify: () => fastifyCorpus(), koa: () => koaCorpus(), asyncio: () => asyncioCorpus(), npm: () => npmCorpus(),
  express: () => expressCorpus(), undici: () => undiciCorpus(), ws: () => wsCorpus(), objx: () => objxCorpus(), pyjwt: () => pyjwtCorpus(),
  piscina: () => piscinaCorpus(), semver: () => semverCorpus(), findmyway: () => findMyWayCorpus(),
  commander: () => commanderCorpus(), qs: () => qsCorpus(), markdownit: () => markdownItCorpus(), markdownitcode: () => markdownItCodeCorpus(),
};

async function connect(root) {
  const args = [path.join(repo, 'apps/mcp-server/dist/src/main.js'), '--project-root', root, '--log-level', 'warn'];
  const transport = new StdioClientTransport({ command: process.execPath, args, stderr: 'ignore' });
  const client = new Client({ name: 'docforge-eval', version: '1' });
  await client.connect(transport);
  const call = async (name, args) => {
    // A first call builds the index; on a loaded machine that outlasts the SDK's 60 s default.
    const response = await client.callTool({ name, arguments: args }, undefined, { timeout: 600_000 });
    const envelope = response.structuredContent;
    if (!envelope.ok) throw new Error(`${name} failed: ${JSON.stringify(envelope.error)}`);
    return envelope.result;
  };
  return { client, call };
}

function rankOf(ids, expected) {
  const i = ids.findIndex((id) => expected.includes(id));
  return i < 0 ? null : i + 1;
}

function summarize(rows) {
  const n = rows.length;
  if (n === 0) return { n, recall5: 0, mrr: 0 };
  const recall5 = rows.filter((r) => r.rank !== null && r.rank <= 5).length / n;
  const mrr = rows.reduce((s, r) => s + (r.rank === null ? 0 : 1 / r.rank), 0) / n;
  return { n, recall5, mrr };
}

async function evaluate(set) {
  const build = CORPORA[set];
  if (build === undefined) throw new Error(`unknown set ${set}; one of ${Object.keys(CORPORA).join(', ')}`);
  const file = JSON.parse(readFileSync(path.join(here, 'questions', `${set}.json`), 'utf8'));
  const root = build();
  const { client, call } = await connect(root);
  const t = performance.now();
  await call('docforge_sync', {});
  const buildMs = performance.now() - t;
  const rows = [];
  for (const q of file.questions) {
    const search = await call('docforge_search', { query: q.question, limit: DEPTH });
    const searchIds = search.items.map((i) => i.id);
    const task = await call('docforge_get_task_context', { task_kind: q.task_kind ?? (q.kind === 'code' ? 'implementation' : 'change'), task: q.question });
    const taskIds = task.items.filter((i) => i.type === 'evidence').map((i) => i.id).slice(0, DEPTH);
    rows.push({ ...q, search: rankOf(searchIds, q.expected), task: rankOf(taskIds, q.expected), top_search: searchIds.slice(0, 3), top_task: taskIds.slice(0, 3) });
  }
  await client.close();
  const report = { set, build_ms: Math.round(buildMs), kinds: {} };
  console.log(`\n== ${set}: ${file.questions.length} questions (cold build ${report.build_ms} ms)`);
  for (const kind of ['docs', 'code']) {
    const of = rows.filter((r) => r.kind === kind);
    const s = summarize(of.map((r) => ({ rank: r.search })));
    const tc = summarize(of.map((r) => ({ rank: r.task })));
    report.kinds[kind] = { questions: of.length, search: s, task_context: tc };
    if (of.length === 0) {
      console.log(`   ${kind.padEnd(4)} ( 0 q)  no questions of this kind in the set`);
      continue;
    }
    console.log(`   ${kind.padEnd(4)} (${String(of.length).padStart(2)} q)  search: recall@5 ${s.recall5.toFixed(3)}  MRR ${s.mrr.toFixed(3)}   task context: recall@5 ${tc.recall5.toFixed(3)}  MRR ${tc.mrr.toFixed(3)}`);
  }
  if (values.verbose) {
    for (const r of rows) {
      if (r.search === 1 && r.task === 1) continue;
      console.log(`   [${r.kind}] ${JSON.stringify(r.question)}  search rank ${r.search ?? '-'} ${JSON.stringify(r.top_search)}  task rank ${r.task ?? '-'} ${JSON.stringify(r.top_task)}`);
    }
  }
  report.questions = rows.map((r) => ({ question: r.question, kind: r.kind, search_rank: r.search, task_rank: r.task }));
  return report;
}

const sets = values.set ? [values.set] : Object.keys(CORPORA);
const reports = [];
for (const set of sets) reports.push(await evaluate(set));
if (values.json) writeFileSync(values.json, `${JSON.stringify(reports, null, 1)}\n`);
