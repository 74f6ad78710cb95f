// Pins what happens when the build worker's thread cannot start (the worker file throws while it
// loads, as a damaged or half-written dist/bundle/worker.cjs does): tasks reject with
// index_unavailable instead of waiting forever for a thread piscina will not start again, and a
// sync whose bundle fails builds once more on the compiled worker and publishes what a full build
// writes. Each case runs in a child process: a failed bundle switches its whole process to the
// compiled worker (build-pool.ts), and a hang must fail the test, not stall the suite.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { WORKER_BUNDLE_ENV } from '../src/index.js';
import { appendCommentEdit, fullBuildOf, indexRows } from './full-build.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const examples = path.resolve(here, '../../../../examples');
const src = (file: string): string => JSON.stringify(new URL(`../src/${file}`, import.meta.url).href);

let dir: string;
let badBundle: string;
before(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'docforge-worker-start-'));
  badBundle = path.join(dir, 'worker.cjs');
  writeFileSync(badBundle, "throw new Error('a bundle that cannot load');\n");
});
after(() => rmSync(dir, { recursive: true, force: true }));

/** Runs an ES module script in a child with the bad bundle (or `bundle`) chosen; its stdout parsed as JSON. The timeout only bounds a hang. */
function child(script: string, bundle = badBundle): Record<string, unknown> {
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    encoding: 'utf8', timeout: 120_000, env: { ...process.env, [WORKER_BUNDLE_ENV]: bundle },
  });
  return JSON.parse(out) as Record<string, unknown>;
}

/** The nodes and edges of a published index file, as sorted rows. */
const nodesOf = (root: string, file: string): Record<'nodes' | 'edges', string[]> => indexRows(root, file, {
  nodes: 'SELECT id, kind, title, body, source_path, start_line, end_line, content_hash FROM nodes ORDER BY id',
  edges: 'SELECT source_id, relation, target_id, source_path, line FROM edges ORDER BY 1, 2, 3, 4, 5',
});

/** A copy of examples/ at `dir/name`, without state or rendered output. */
function examplesCopy(name: string): string {
  const root = path.join(dir, name);
  cpSync(examples, root, { recursive: true, filter: (file) => !file.split(path.sep).some((part) => part === '.docforge' || part === 'site') });
  return root;
}

/** A child script that syncs `root` with a new IndexManager and prints the outcome and the warnings. */
const syncScript = (root: string): string => `
  import { IndexManager } from ${src('index.js')};
  const warnings = [];
  const manager = new IndexManager({ root: ${JSON.stringify(root)}, noAst: false, onWarning: (message) => warnings.push(message) });
  const report = await manager.sync();
  await manager.close();
  console.log(JSON.stringify({ rebuilt: report.rebuilt, error: report.sync_error?.code ?? null, file: report.publication?.index_file ?? null, warnings }));
`;

test('a task on a pool whose thread cannot start rejects with index_unavailable, and its manager\'s pools then run the compiled worker', () => {
  const result = child(`
    import { BuildPools, poolDeath, runOnPool } from ${src('index.js')};
    const pools = new BuildPools();
    const chosen = pools.workerFile();
    const errors = [];
    const pool = pools.create((error) => errors.push(String(error)));
    let code = null, details = null;
    try { await runOnPool(pool, {}, { name: 'awaitStandby' }); } catch (error) { code = error.code; details = error.details; }
    let again = null;
    try { await runOnPool(pool, {}, { name: 'awaitStandby' }); } catch (error) { again = error.code; }
    const death = poolDeath(pool);
    await pool.destroy();
    console.log(JSON.stringify({ chosen, code, details, again, death, after: pools.workerFile(), errors }));
  `);
  assert.equal(result.chosen, badBundle);
  assert.equal(result.code, 'index_unavailable');
  assert.equal((result.details as Record<string, unknown>).worker_file, badBundle);
  assert.match(String((result.details as Record<string, unknown>).worker_error), /a bundle that cannot load/);
  assert.equal(result.again, 'index_unavailable', 'a dead pool rejects at once');
  assert.deepEqual(result.death, { file: badBundle, bundled: true, message: 'a bundle that cannot load' });
  assert.match(String(result.after), /dist[\\/]src[\\/]worker\.js$/);
  assert.ok((result.errors as string[]).length >= 1, 'the pool error reached the listener');
});

test('a sync whose bundled worker cannot start builds on the compiled worker, cold and after an edit, and publishes what a full build writes', async () => {
  const root = examplesCopy('project');
  const script = syncScript(root);
  for (const step of ['cold', 'edit']) {
    if (step === 'edit') appendCommentEdit(root);
    const result = child(script);
    assert.equal(result.error, null, `${step}: the sync succeeded`);
    assert.equal(result.rebuilt, true, `${step}: the sync published`);
    assert.ok((result.warnings as string[]).includes('the bundled build worker could not start; running the compiled worker'), `${step}: ${JSON.stringify(result.warnings)}`);
    assert.deepEqual(nodesOf(root, String(result.file)), await fullBuildOf(root, nodesOf));
  }
});

test('a bundle that loads but is not the build worker (empty, another handler, handlers returning anything, exiting) makes the pool dead instead of hanging, and a sync falls back', async () => {
  const variants: Record<string, string> = {
    // An empty file and one exporting an object fail alike (piscina: no handler function exported).
    empty: '',
    'another handler': "module.exports = async () => { throw new Error('not the build worker'); };\n",
    // Handlers for every task name that return something: no error at all, only the missing handshake.
    'returning handlers': 'module.exports = new Proxy({}, { get: (_, key) => (key === "then" ? undefined : async () => 42) });\n',
    exiting: 'process.exit(3);\n',
  };
  for (const [name, text] of Object.entries(variants)) {
    const file = path.join(dir, `${name.replace(' ', '-')}.cjs`);
    writeFileSync(file, text);
    const result = child(`
      import { createBuildPool, poolDeath, runOnPool } from ${src('index.js')};
      const pool = createBuildPool(() => undefined);
      let code = null, details = null;
      try { await runOnPool(pool, {}, { name: 'awaitStandby' }); } catch (error) { code = error.code; details = error.details; }
      const death = poolDeath(pool);
      await pool.destroy();
      console.log(JSON.stringify({ code, details, death }));
    `, file);
    assert.equal(result.code, 'index_unavailable', name);
    assert.equal((result.details as Record<string, unknown>).worker_file, file, name);
    assert.match(String((result.details as Record<string, unknown>).worker_error), /did not load as the build worker|ended while loading/, name);
    assert.equal((result.death as Record<string, unknown>).bundled, true, name);
  }
  // A truncated bundle (an interrupted build, a full disk): the sync builds on the compiled worker.
  const root = examplesCopy('project-empty-bundle');
  const result = child(syncScript(root), path.join(dir, 'empty.cjs'));
  assert.equal(result.error, null);
  assert.equal(result.rebuilt, true);
  assert.ok((result.warnings as string[]).includes('the bundled build worker could not start; running the compiled worker'), JSON.stringify(result.warnings));
  assert.deepEqual(nodesOf(root, String(result.file)), await fullBuildOf(root, nodesOf));
});

test('a prestarted worker whose thread exits while loading, before any task reached it, makes the adopting sync fall back instead of hanging', () => {
  const exiting = path.join(dir, 'exit-at-load.cjs');
  writeFileSync(exiting, 'process.exit(0);\n');
  const root = examplesCopy('project-exit-at-load');
  // As the launcher does: the worker starts, then (later) a manager adopts it; here the thread has ended by then.
  const result = child(`
    import { BuildPools, IndexManager, prestartBuildWorker } from ${src('index.js')};
    const early = prestartBuildWorker(null);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const warnings = [];
    const manager = new IndexManager({ root: ${JSON.stringify(root)}, noAst: false, onWarning: (message, details) => warnings.push([message, details?.message ?? null]), buildPools: new BuildPools(undefined, early) });
    const report = await manager.sync();
    await manager.close();
    console.log(JSON.stringify({ rebuilt: report.rebuilt, error: report.sync_error?.code ?? null, warnings }));
  `, exiting);
  assert.equal(result.error, null);
  assert.equal(result.rebuilt, true);
  assert.deepEqual((result.warnings as unknown[][]).find(([message]) => String(message).startsWith('the bundled build worker')),
    ['the bundled build worker could not start; running the compiled worker', 'its thread ended while loading, before it said it was the build worker']);
});

test('the build worker thread runs with the old-generation limit of its settings and a young generation of BUILD_YOUNG_GENERATION_MB (issue 35)', () => {
  const file = path.join(dir, 'limits.cjs');
  writeFileSync(file, [
    "const { parentPort, resourceLimits } = require('node:worker_threads');",
    "parentPort.postMessage({ docforgeBuildWorkerLoaded: true });",
    'module.exports = async () => resourceLimits;', '',
  ].join('\n'));
  const result = child(`
    import { BUILD_YOUNG_GENERATION_MB, createBuildPool, runOnPool } from ${src('index.js')};
    const pool = createBuildPool(() => undefined);
    const limits = await runOnPool(pool, {});
    await pool.destroy();
    console.log(JSON.stringify({ limits, young: BUILD_YOUNG_GENERATION_MB }));
  `, file);
  const limits = result.limits as Record<string, number>;
  assert.equal(result.young, 24);
  assert.equal(limits.maxYoungGenerationSizeMb, 24);
  assert.ok(limits.maxOldGenerationSizeMb! > 0, JSON.stringify(limits));
});
