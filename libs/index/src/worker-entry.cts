/**
 * Entry of the bundled build worker thread (issue 14): `dist/bundle/worker-entry.cjs`, bundled by
 * scripts/build-worker-bundle.mjs from this file, is what build-pool.ts hands piscina while the
 * bundle is fresh. It loads the bundled worker itself (`worker.cjs` beside it, the bundle of
 * worker.ts) through the per-user V8 code cache of @docforge/adapter-typescript/code-cache, and
 * exports its tasks unchanged, the build task wrapped so that a thread that found no valid cache
 * writes one after its first build (every function that build compiled is then in it). A one-file
 * edit on fastify's package then compiles ~30 ms less on its critical path (634 -> 606 ms median, 20 alternating runs).
 * A missing, damaged or rejected cache only means a plain load; `DOCFORGE_CODE_CACHE_DIR=off`
 * or `DOCFORGE_ACCELERATE=-worker-cache` disables it. Whatever `worker.cjs` throws while loading, this entry throws too, so a damaged
 * bundle fails the thread's start as before (build-pool.ts falls back to the compiled worker).
 */
import path = require('node:path');
import { accelerated } from '@docforge/core/accelerate';
import { codeCacheDir, loadWithCodeCache } from '@docforge/adapter-typescript/code-cache';

/** What worker.ts exports: the build task as `default`, the other tasks by name (piscina `name`). */
type WorkerModule = { default: (task: unknown) => Promise<unknown> } & Record<string, unknown>;

// import() fails in code compiled from cached data (dynamic-import.ts): the body imports project-owned
// adapters through this importer, compiled with this file as usual. The slot is DYNAMIC_IMPORT_HOOK's.
(globalThis as Record<symbol, unknown>)[Symbol.for('docforge.index.dynamicImport')] = (specifier: string): Promise<unknown> => import(specifier);

/** The bundled worker's file; `__dirname` is the bundle's folder (esbuild keeps it for platform node). */
const bundle = path.join(__dirname, 'worker.cjs');
const load = loadWithCodeCache(bundle, { cacheDir: accelerated('worker-cache') ? codeCacheDir() : null, key: 'docforge-build-worker', deferWrite: true });
const worker = load.exports as WorkerModule;

/**
 * Runs one build task (worker.ts `build`, which never rejects), then writes the code cache once
 * when this thread loaded without a valid one (code-cache.cts `commit`; never throws).
 */
async function build(task: unknown): Promise<unknown> {
  try {
    return await worker.default(task);
  } finally {
    load.commit();
  }
}

const forwarded: Record<string, unknown> = {};
for (const name of Object.keys(worker)) if (name !== 'default') forwarded[name] = worker[name];

// `__esModule`: piscina takes a module so marked as it is and looks the task name up on it.
export = { ...forwarded, __esModule: true, default: build };
