// Issue 35: every route a build parses by gives the same parse, so the same graph (a build's graph is
// a function of its walk and these items: build-session.ts keeps the walk's order whichever route
// ran). Routes: inline in the build worker with the parser module (parser-build.cts), parse threads
// beside the build worker (ParsePool.parse, what a large cold build takes), and a thread that loads the
// whole TypeScript compiler (DOCFORGE_TS_PARSER=whole). Inputs: examples/, fastify's npm package (docs,
// lib, types, test) and a generated documentation corpus (ops/bench/generate.mjs, as the scale benchmarks). Runs on every Node; CI's Node 24 leg runs it too (.ci/run NODE22_TESTS).
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { loadDescriptor, walkSources } from '@docforge/project';
import { typescriptManifest } from '@docforge/adapter-typescript';
import { readDocforgeConfig } from '@docforge/core';
import { setAdapterLoader } from '@docforge/identity';
import { loadBuiltinAdapter } from '../src/adapter-loader.js';
import { parseBatch, type ParseBatchTask, type ParsedBatchItem } from '../src/parse.js';
import { ParsePool } from '../src/parse-pool.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '../../../..');
const scratch = realpathSync(mkdtempSync(path.join(tmpdir(), 'docforge-parse-routes-')));
after(() => rmSync(scratch, { recursive: true, force: true }));
setAdapterLoader(loadBuiltinAdapter);

/** A copy of fastify's package with the descriptor ops/bench/peer.mjs gives it. */
function fastifyProject(): string {
  const root = path.join(scratch, 'fastify');
  mkdirSync(root, { recursive: true });
  const fastify = path.join(repo, 'node_modules', 'fastify');
  for (const part of ['docs', 'lib', 'types', 'test', 'fastify.js', 'fastify.d.ts', 'package.json']) {
    cpSync(path.join(fastify, part), path.join(root, part), { recursive: true });
  }
  writeFileSync(path.join(root, 'docforge.toml'), [
    'schema_version = 1', '[project]', 'id = "fastify"', 'name = "Fastify"', '[sources]', 'content_roots = ["docs"]', 'code_roots = ["."]',
    'exclude = ["**/node_modules/**", "**/.git/**"]', '[adapter]', 'code = "typescript"', 'strategy = "ast"', '',
  ].join('\n'));
  return root;
}

/** The parse task of a whole cold build of `root`. */
function coldTask(root: string): ParseBatchTask {
  const entries = walkSources(loadDescriptor(root), [...typescriptManifest.extensions]).entries;
  return { root, entries, knownHashes: {}, logicAllowed: true };
}

/**
 * `task` parsed in a new thread whose environment says DOCFORGE_TS_PARSER=whole, and which compiler
 * that thread had loaded when it finished ('parser' or 'whole', primeCompiler's report).
 */
function parseWithWholeCompiler(task: ParseBatchTask): Promise<{ items: ParsedBatchItem[]; module: string | undefined }> {
  const parseUrl = pathToFileURL(path.join(here, '../src/parse.js')).href;
  const loaderUrl = pathToFileURL(path.join(here, '../src/adapter-loader.js')).href;
  const source = `
    import { workerData, parentPort } from 'node:worker_threads';
    import { createRequire } from 'node:module';
    import { setAdapterLoader } from '@docforge/identity';
        const { loadBuiltinAdapter } = await import(${JSON.stringify(loaderUrl)});
    const { parseBatch } = await import(${JSON.stringify(parseUrl)});
    setAdapterLoader(loadBuiltinAdapter);
    const items = await parseBatch(workerData);
    const adapter = createRequire(import.meta.resolve('@docforge/adapter-typescript'));
    const primed = adapter('./compiler.cjs').primeCompiler({});
    parentPort.postMessage({ items, module: primed?.module });
  `;
  // An eval'd module resolves bare names from the current directory: run it as a file inside this package.
  const file = path.join(here, `.parse-routes-whole-${process.pid}.mjs`);
  writeFileSync(file, source);
  const worker = new Worker(file, { workerData: task, env: { ...process.env, DOCFORGE_TS_PARSER: 'whole' } });
  return new Promise((resolve, reject) => {
    worker.once('message', (message: { items: ParsedBatchItem[]; module: string | undefined }) => resolve(message));
    worker.once('error', reject);
  }).finally(() => {
    rmSync(file, { force: true });
    void worker.terminate();
  }) as Promise<{ items: ParsedBatchItem[]; module: string | undefined }>;
}

/** Which compiler this thread loaded ('parser' or 'whole'), as primeCompiler reports it once one is loaded. */
async function compilerLoadedHere(): Promise<string | undefined> {
  const adapter = createRequire(import.meta.resolve('@docforge/adapter-typescript'));
  // Once a compiler is loaded primeCompiler only reports which one (it reads no accelerators then).
  const compiler = adapter('./compiler.cjs') as { primeCompiler(accelerators: object): { module: string } | null };
  return compiler.primeCompiler({})?.module;
}

/** A documentation corpus of ops/bench/generate.mjs (the scale benchmarks' kind, 1,500 nodes): pages of TOML front matter, relations and links. */
async function generatedDocs(): Promise<string> {
  const root = path.join(scratch, 'generated');
  const { generateDocs } = (await import(pathToFileURL(path.join(repo, 'ops', 'bench', 'generate.mjs')).href)) as { generateDocs: (out: string, nodes: number) => unknown };
  generateDocs(root, 1_500);
  return root;
}

const projects: readonly (readonly [string, () => string | Promise<string>, boolean])[] = [
  ['examples/', () => path.join(repo, 'examples'), true],
  ["fastify's package", fastifyProject, true],
  // Documentation only, parsed in batches of many pages each (parse-pool.ts PARSE_BATCH), as a large documentation build is (issue 35).
  ['a generated documentation corpus', generatedDocs, false],
];

for (const [name, project, withCode] of projects) {
  test(`every parse route gives the same parse of ${name}`, async () => {
    const task = coldTask(await project());
    assert.ok(task.entries.some((entry) => entry.role === 'content'));
    assert.equal(task.entries.some((entry) => entry.role === 'code'), withCode);
    const inline = await parseBatch(task);
    assert.equal(inline.length, task.entries.length);
    const config = readDocforgeConfig();
    // With every accelerator on (CI's test legs but the accelerators-off one) the inline route uses the parser module.
    if (withCode && config.tsParser !== 'whole' && (config.accelerateText ?? '') === '') {
      assert.equal(await compilerLoadedHere(), 'parser', 'the inline route parsed with the parser module');
    }
    const pool = new ParsePool();
    assert.deepEqual(await pool.parse(task, () => undefined), inline, 'parse threads beside the build worker');
    pool.prestart(['typescript']);
    assert.deepEqual(await pool.parse(task, () => undefined), inline, 'parse threads started ahead of the build');
    const whole = await parseWithWholeCompiler(task);
    if (withCode) assert.equal(whole.module, 'whole', 'the thread parsed with the whole compiler');
    assert.deepEqual(whole.items, inline, 'the whole TypeScript compiler');
  });
}
