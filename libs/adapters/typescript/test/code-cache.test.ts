// The V8 code cache of the TypeScript compiler (issue 14, code-cache.cts): created, reused, rebuilt
// when damaged or rejected, never required, and the compiler behaves the same with and without it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type * as TS from 'typescript';
import { Accelerators, codeCacheDir } from '@docforge/accelerate';
import { readDocforgeConfig } from '@docforge/core';
import { primeCompiler } from '../src/compiler.cjs';
import '../src/prime.js';
import ts from '../src/ts.cjs';

const requireHere = createRequire(import.meta.url);
const tsFile = requireHere.resolve('typescript');
const SAMPLE = "export class A<T> extends B { m(x: T): void { if (x) this.n(`t${x}`); } }\nconst f = async (a, { b } = {}) => a?.[b] ?? new A();\nmodule.exports = { f };\n";

/** Every node of a parse as `kind pos-end`, the shape a load of the compiler must not change. */
function shape(compiler: typeof TS): string[] {
  const out: string[] = [];
  for (const kind of [compiler.ScriptKind.TS, compiler.ScriptKind.JS]) {
    const sf = compiler.createSourceFile(`s.${kind}`, SAMPLE, { languageVersion: compiler.ScriptTarget.Latest, jsDocParsingMode: compiler.JSDocParsingMode.ParseNone }, false, kind);
    const visit = (node: TS.Node): void => {
      out.push(`${compiler.SyntaxKind[node.kind]} ${node.pos}-${node.end}`);
      compiler.forEachChild(node, visit);
    };
    visit(sf);
  }
  return out;
}

/** Where the worker below finds the code cache (@docforge/accelerate's one entry). */
const codeCacheModule = fileURLToPath(import.meta.resolve('@docforge/accelerate'));

/**
 * Loads the compiler in a new thread (a new V8 isolate, whose in-memory compilation cache is
 * empty, as in a build's thread) and reports the load's status, cache file and parse shape.
 */
async function load(cacheDir: string | null): Promise<{ status: string; cacheFile: string | null; shape: string[] }> {
  const worker = new Worker(`
    const { parentPort, workerData } = require('node:worker_threads');
    const { loadWithCodeCache } = require(workerData.module);
    const shape = new Function('compiler', 'SAMPLE', workerData.shape);
    const result = loadWithCodeCache(workerData.tsFile, { cacheDir: workerData.cacheDir, key: 'test', register: false, warm: (ts) => shape(ts, workerData.sample) });
    parentPort.postMessage({ status: result.status, cacheFile: result.cacheFile, shape: shape(result.exports, workerData.sample) });
  `, { eval: true, workerData: { module: codeCacheModule, tsFile, cacheDir, sample: SAMPLE, shape: `return (${shape.toString()})(compiler);` } });
  const [message] = await once(worker, 'message') as [{ status: string; cacheFile: string | null; shape: string[] }];
  await worker.terminate();
  return message;
}

test('the cache directory comes from DOCFORGE_CODE_CACHE_DIR, else XDG_CACHE_HOME/docforge/v8, else ~/.cache/docforge/v8; off disables it', () => {
  assert.equal(codeCacheDir(readDocforgeConfig({ DOCFORGE_CODE_CACHE_DIR: '/tmp/x', XDG_CACHE_HOME: '/c' })), '/tmp/x');
  assert.equal(codeCacheDir(readDocforgeConfig({ DOCFORGE_CODE_CACHE_DIR: 'off' })), null);
  assert.equal(codeCacheDir(readDocforgeConfig({ XDG_CACHE_HOME: '/c' })), path.join('/c', 'docforge', 'v8'));
  assert.equal(codeCacheDir(readDocforgeConfig({ DOCFORGE_CODE_CACHE_DIR: 'relative', XDG_CACHE_HOME: 'relative' })), path.join(homedir(), '.cache', 'docforge', 'v8'));
});

test('the compiler code cache is created, then reused, and the compiler parses the same either way', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'docforge-code-cache-'));
  try {
    const first = await load(dir);
    assert.equal(first.status, 'created');
    assert.ok(first.cacheFile !== null && readdirSync(dir).length === 1 && readdirSync(dir)[0] === path.basename(first.cacheFile));
    const second = await load(dir);
    assert.equal(second.status, 'reused', 'V8 accepted the cached data (cachedDataRejected false)');
    assert.equal(second.cacheFile, first.cacheFile);
    const plain = shape(requireHere('typescript') as typeof TS);
    assert.deepEqual(second.shape, plain);
    assert.deepEqual(first.shape, plain);
    assert.deepEqual((await load(null)).shape, plain);
    assert.equal((await load(null)).status, 'off');
    assert.deepEqual(readdirSync(dir).filter((name) => name.endsWith('.tmp')), [], 'no temporary file is left behind');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a damaged or rejected cache file is rebuilt, and a cache that cannot be written is no error', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'docforge-code-cache-'));
  try {
    const file = (await load(dir)).cacheFile!;
    const bytes = readFileSync(file);
    // A flipped byte in the cached data: the checksum catches it before V8 sees it.
    bytes[bytes.length >> 1] ^= 0xff;
    writeFileSync(file, bytes);
    const damaged = await load(dir);
    assert.equal(damaged.status, 'rebuilt');
    assert.equal((await load(dir)).status, 'reused');
    // Data with a valid checksum that V8 rejects (e.g. made by another V8 build).
    const junk = Buffer.alloc(4096, 7);
    writeFileSync(file, Buffer.concat([readFileSync(file).subarray(0, 8), createHash('sha256').update(junk).digest(), junk]));
    const rejected = await load(dir);
    assert.equal(rejected.status, 'rebuilt');
    assert.deepEqual(rejected.shape, shape(requireHere('typescript') as typeof TS));
    assert.equal((await load(dir)).status, 'reused');
    writeFileSync(file, 'short');
    assert.equal((await load(dir)).status, 'rebuilt');
    // A FIFO under the cache file's name (reading it would block until a writer came): not read, replaced.
    rmSync(file);
    execFileSync('mkfifo', [file]);
    assert.equal((await load(dir)).status, 'rebuilt');
    assert.ok(statSync(file).isFile(), 'the next write replaced the FIFO with a cache file');
    assert.equal((await load(dir)).status, 'reused');
    // A file where the directory should be: the compiler still loads.
    const blocked = path.join(dir, 'blocked');
    writeFileSync(blocked, '');
    const unwritable = await load(path.join(blocked, 'v8'));
    assert.equal(unwritable.status, 'failed');
    assert.deepEqual(unwritable.shape, shape(requireHere('typescript') as typeof TS));
    // A directory under /proc, where Node 20's recursive mkdir never returns: the load goes on without a cache.
    const underProc = await load('/proc/docforge-code-cache-test/v8');
    assert.equal(underProc.status, 'failed');
    assert.deepEqual(underProc.shape, shape(requireHere('typescript') as typeof TS));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the adapter compiler is the one require("typescript") returns in its thread', () => {
  assert.equal(ts, createRequire(tsFile)(tsFile));
  assert.equal(primeCompiler(Accelerators.from(readDocforgeConfig()))?.exports ?? ts, ts);
});

test('a module is read as UTF-8 whether or not its bytes are all ASCII, with and without a cache', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'docforge-code-cache-text-'));
  try {
    const { loadWithCodeCache } = requireHere(codeCacheModule) as typeof import('@docforge/accelerate');
    const texts = { ascii: 'plain ASCII text', utf8: 'naïve café ✓ 𝄞 — ünïcödé' };
    for (const [name, text] of Object.entries(texts)) {
      const file = path.join(dir, `${name}.cjs`);
      writeFileSync(file, `module.exports = { text: ${JSON.stringify(text)}, length: ${text.length} };\n`, 'utf8');
      for (const cacheDir of [path.join(dir, 'cache'), path.join(dir, 'cache'), null]) {
        const result = loadWithCodeCache(file, { cacheDir, key: name, register: false });
        assert.deepEqual(result.exports, { text, length: text.length }, `${name} (${result.status})`);
      }
    }
    // Both were cached, then reused.
    assert.equal(readdirSync(path.join(dir, 'cache')).length, 2);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('writing a cache removes the same module\'s cache files unchanged for over 7 days and its temporary files over an hour old, and nothing else', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'docforge-code-cache-prune-'));
  try {
    const { loadWithCodeCache, STALE_CACHE_MS } = requireHere(codeCacheModule) as typeof import('@docforge/accelerate');
    const file = path.join(dir, 'm.cjs');
    writeFileSync(file, 'module.exports = 1;\n');
    const cacheDir = path.join(dir, 'cache');
    mkdirSync(cacheDir);
    const hex = (c: string): string => c.repeat(24);
    const age = { old: (STALE_CACHE_MS + 3600_000) / 1000, recent: 60, oldTemp: 2 * 3600, recentTemp: 60 };
    const files: Record<string, number> = {
      [`m-${hex('a')}.v8cache`]: age.old, // an earlier build of m: removed
      [`m-${hex('b')}.v8cache`]: age.recent, // another checkout's m, in use: kept
      [`m-parser-${hex('c')}.v8cache`]: age.old, // another module (m-parser): kept
      [`m-${hex('d')}.v8cache.123-0-abcdef12.tmp`]: age.oldTemp, // a dead writer's temp: removed
      [`m-${hex('e')}.v8cache.456-1-abcdef12.tmp`]: age.recentTemp, // a live writer's temp: kept
      [`m-${hex('f')}.v8cache.notes`]: age.old, // not a cache or temp name: kept
      'other.txt': age.old,
    };
    const now = Date.now() / 1000;
    for (const [name, seconds] of Object.entries(files)) {
      writeFileSync(path.join(cacheDir, name), 'x');
      utimesSync(path.join(cacheDir, name), now - seconds, now - seconds);
    }
    const result = loadWithCodeCache(file, { cacheDir, key: 'prune', register: false });
    assert.equal(result.status, 'created');
    assert.deepEqual(readdirSync(cacheDir).sort(), [
      path.basename(result.cacheFile!), `m-${hex('b')}.v8cache`, `m-${hex('e')}.v8cache.456-1-abcdef12.tmp`, `m-${hex('f')}.v8cache.notes`, `m-parser-${hex('c')}.v8cache`, 'other.txt',
    ].sort());
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('import() works in a module loaded with and without a cache (built-in modules and file URLs), as under require', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'docforge-code-cache-import-'));
  try {
    const { loadWithCodeCache } = requireHere(codeCacheModule) as typeof import('@docforge/accelerate');
    const target = path.join(dir, 'target.mjs');
    writeFileSync(target, 'export const answer = 42;\n');
    const file = path.join(dir, 'importer.cjs');
    writeFileSync(file, `exports.load = async () => [(await import('node:path')).sep, (await import(${JSON.stringify(pathToFileURL(target).href)})).answer];\n`);
    const cacheDir = path.join(dir, 'cache');
    const statuses: string[] = [];
    for (const options of [{ cacheDir }, { cacheDir }, { cacheDir: null }]) {
      const result = loadWithCodeCache(file, { ...options, key: 'import', register: false });
      statuses.push(result.status);
      assert.deepEqual(await (result.exports as { load: () => Promise<unknown[]> }).load(), [path.sep, 42], result.status);
    }
    assert.deepEqual(statuses, ['created', 'reused', 'off']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a module rewritten with the same size and mtime gets a cache of its own, never the old compiled code', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'docforge-code-cache-content-'));
  try {
    const { loadWithCodeCache } = requireHere(codeCacheModule) as typeof import('@docforge/accelerate');
    const file = path.join(dir, 'same.cjs');
    const cacheDir = path.join(dir, 'cache');
    writeFileSync(file, "exports.word = () => 'exported';\n");
    const st = statSync(file);
    const first = loadWithCodeCache(file, { cacheDir, key: 'same', register: false });
    assert.equal((first.exports as { word: () => string }).word(), 'exported');
    // As an upgrade unpacked by npm (fixed mtimes) or `cp -p` may leave it: same length, same mtime.
    writeFileSync(file, "exports.word = () => 'EXPORTED';\n");
    utimesSync(file, st.atime, st.mtime);
    assert.equal(statSync(file).size, st.size);
    const second = loadWithCodeCache(file, { cacheDir, key: 'same', register: false });
    assert.equal((second.exports as { word: () => string }).word(), 'EXPORTED');
    assert.equal(second.status, 'created');
    assert.notEqual(second.cacheFile, first.cacheFile);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a reused cache file is marked used (mtime renewed when over an hour old); a write keeps the module\'s 4 most recently used files', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'docforge-code-cache-lru-'));
  try {
    const { loadWithCodeCache, CACHE_FILES_PER_MODULE } = requireHere(codeCacheModule) as typeof import('@docforge/accelerate');
    assert.equal(CACHE_FILES_PER_MODULE, 4);
    const file = path.join(dir, 'n.cjs');
    const cacheDir = path.join(dir, 'cache');
    writeFileSync(file, 'module.exports = 1;\n');
    const made = loadWithCodeCache(file, { cacheDir, key: 'lru', register: false });
    const now = Date.now() / 1000;
    utimesSync(made.cacheFile!, now - 7200, now - 7200);
    assert.equal(loadWithCodeCache(file, { cacheDir, key: 'lru', register: false }).status, 'reused');
    assert.ok(Date.now() - statSync(made.cacheFile!).mtimeMs < 60_000, 'its mtime now tells its last use');
    // Five other builds of n, used 1-5 hours ago (the one just reused is the most recent).
    const others = [1, 2, 3, 4, 5].map((hours) => {
      const name = path.join(cacheDir, `n-${String(hours).repeat(24)}.v8cache`);
      writeFileSync(name, 'x');
      utimesSync(name, now - hours * 3600, now - hours * 3600);
      return name;
    });
    writeFileSync(file, 'module.exports = 2;\n');
    const rebuilt = loadWithCodeCache(file, { cacheDir, key: 'lru', register: false });
    assert.equal(rebuilt.status, 'created');
    assert.deepEqual(readdirSync(cacheDir).sort(), [rebuilt.cacheFile!, made.cacheFile!, others[0]!, others[1]!].map((f) => path.basename(f)).sort());
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
