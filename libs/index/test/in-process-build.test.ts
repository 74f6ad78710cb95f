// Pins the in-process build pool (in-process-build.ts, issue 14): which projects may build in the
// calling thread, which files it refuses to load there (the caller then starts a worker thread),
// and that the pool it returns behaves as the single worker thread does: the prepare first, one
// task at a time in call order, results that do not share objects with the module, named tasks
// only, and a destroy that stops the module's parse threads and refuses later tasks.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { IN_PROCESS_BUILD_ENV, IN_PROCESS_MAX_INDEX_BYTES, inProcessBuildAllowed, inProcessBuildPool } from '../src/in-process-build.js';
import type { PrepareTask } from '../src/build-types.js';

let dir: string;
before(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'docforge-in-process-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

const PREPARE: PrepareTask = { root: '/nowhere', stateDir: '/nowhere/.docforge', logicAllowed: true };

/** A CommonJS module with the build worker's handlers that records what ran (globalThis.__inProcessLog). */
const FAKE_WORKER = `
const log = (globalThis.__inProcessLog ??= []);
const kept = { value: 1 };
exports.prepare = async (task) => { log.push('prepare:' + task.root); await new Promise((r) => setTimeout(r, 20)); log.push('prepared'); return true; };
exports.default = async (task) => { log.push('build:' + task.n); kept.value = task.n; return { ok: true, kept }; };
exports.prime = () => ({ primed: true });
exports.awaitStandby = async () => false;
exports.shutdown = async () => { log.push('shutdown'); };
`;

function moduleFile(name: string, text: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, text);
  return file;
}

test('a project builds in process while its published index is small and the variable does not turn it off', () => {
  const saved = process.env[IN_PROCESS_BUILD_ENV];
  try {
    delete process.env[IN_PROCESS_BUILD_ENV];
    assert.equal(inProcessBuildAllowed(4_456_448), true);
    assert.equal(inProcessBuildAllowed(IN_PROCESS_MAX_INDEX_BYTES), true);
    assert.equal(inProcessBuildAllowed(IN_PROCESS_MAX_INDEX_BYTES + 1), false);
    for (const bad of [Number.NaN, -1, Number.POSITIVE_INFINITY]) assert.equal(inProcessBuildAllowed(bad), false, String(bad));
    process.env[IN_PROCESS_BUILD_ENV] = '0';
    assert.equal(inProcessBuildAllowed(1024), false);
    process.env[IN_PROCESS_BUILD_ENV] = '1';
    assert.equal(inProcessBuildAllowed(1024), true);
  } finally {
    if (saved === undefined) delete process.env[IN_PROCESS_BUILD_ENV];
    else process.env[IN_PROCESS_BUILD_ENV] = saved;
  }
});

test('no pool for a file that is not a CommonJS bundle, throws while loading or lacks a handler', () => {
  assert.equal(inProcessBuildPool(moduleFile('worker.js', FAKE_WORKER), PREPARE), null);
  assert.equal(inProcessBuildPool(moduleFile('throws.cjs', "throw new Error('cannot load');"), PREPARE), null);
  assert.equal(inProcessBuildPool(moduleFile('syntax.cjs', 'exports.default = async (task) => {'), PREPARE), null);
  assert.equal(inProcessBuildPool(moduleFile('empty.cjs', 'module.exports = {};'), PREPARE), null);
  assert.equal(inProcessBuildPool(moduleFile('partial.cjs', FAKE_WORKER.replace(/exports\.shutdown = .*\n/, '')), PREPARE), null);
  assert.equal(inProcessBuildPool(path.join(dir, 'missing.cjs'), PREPARE), null);
});

test('the pool runs the prepare first and tasks in call order, returns clones, and after destroy refuses tasks', async () => {
  const log: string[] = ((globalThis as { __inProcessLog?: string[] }).__inProcessLog ??= []);
  log.length = 0;
  const pool = inProcessBuildPool(moduleFile('fake-worker.cjs', FAKE_WORKER), PREPARE);
  assert.ok(pool !== null);
  assert.deepEqual(pool.threads, []);
  const first = pool.run({ n: 1 }) as Promise<{ ok: boolean; kept: { value: number } }>;
  const second = pool.run({ n: 2 }) as Promise<{ ok: boolean; kept: { value: number } }>;
  const one = await first;
  const two = await second;
  assert.deepEqual(log, ['prepare:/nowhere', 'prepared', 'build:1', 'build:2']);
  // Each result is a copy taken when its task ended, as a result crossing from a thread would be.
  assert.equal(one.kept.value, 1);
  assert.equal(two.kept.value, 2);
  assert.notEqual(one.kept, two.kept);
  assert.deepEqual(await pool.run({}, { name: 'prime' }), { primed: true });
  await assert.rejects(pool.run({}, { name: 'nothing' }), /no task named "nothing"/);
  assert.equal(pool.on('error', () => undefined), pool);
  await pool.destroy();
  assert.equal(log.at(-1), 'shutdown');
  await assert.rejects(pool.run({ n: 3 }), /destroyed/);
  await pool.destroy();
  assert.equal(log.filter((l) => l === 'shutdown').length, 1);
});
