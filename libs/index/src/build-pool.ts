/**
 * The build worker pool of an IndexManager: one long-lived piscina thread running worker.ts
 * (DESIGN.md sections 1 and 7). A whole-process command that already knows a build is coming
 * (the no-change fast path found the sources changed) may start the worker early with
 * {@link prestartBuildWorker}, so the thread loads the build modules while the main thread loads
 * the IndexManager and walks (issue 14); the next IndexManager of the process adopts that pool.
 * The thread runs the bundled worker (`dist/bundle/worker.cjs`, scripts/build-worker-bundle.mjs)
 * while that bundle is fresh, else the compiled ESM `worker.js`.
 */
import { lstatSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Piscina } from 'piscina';
import { buildHeapMb } from './adapter-timeout.js';
import type { PrepareTask } from './build-types.js';

/** piscina, loaded on first use: the launcher's no-change fast path bundles this module and never starts a pool. */
let piscina: typeof import('piscina') | null = null;

/** Receives an 'error' event of a pool (an unhandled one would kill the process; DESIGN.md section 8). */
export type PoolErrorListener = (error: unknown) => void;

interface Prestarted {
  pool: Piscina;
  errors: unknown[];
  listener: PoolErrorListener | null;
}

/**
 * The pool started before its manager existed, with the errors it emitted meanwhile. It lives in a
 * process-wide slot: the CLI launcher's bundled fast path (apps/cli fast-sync) holds its own copy
 * of this module and prestarts through it, and the ESM copy the IndexManager loads later adopts it.
 */
const PRESTARTED = Symbol.for('docforge.index.prestartedBuildPool');
const slot = globalThis as { [PRESTARTED]?: Prestarted | null };

/** `DOCFORGE_WORKER_BUNDLE=off` runs the compiled ESM worker even when the bundle is fresh (tests compare both). */
export const WORKER_BUNDLE_ENV = 'DOCFORGE_WORKER_BUNDLE';

/**
 * The file the build thread runs: `dist/bundle/worker.cjs` when it exists and no input listed in
 * its manifest (`worker.inputs.json`) is newer than it or missing, else `dist/src/worker.js`.
 * Found from this module's own location, `dist/src/` (or the fast path's bundle beside the CLI,
 * which resolves @docforge/index the same way).
 */
export function buildWorkerFile(): string {
  const esm = fileURLToPath(new URL('./worker.js', import.meta.url));
  if (process.env[WORKER_BUNDLE_ENV] === 'off') return esm;
  const bundle = path.join(path.dirname(esm), '..', 'bundle', 'worker.cjs');
  try {
    const built = statSync(bundle).mtimeMs;
    const inputs = (JSON.parse(readFileSync(bundle.replace(/\.cjs$/, '.inputs.json'), 'utf8')) as { inputs?: unknown }).inputs;
    if (!Array.isArray(inputs) || inputs.length === 0) return esm;
    const dir = path.dirname(bundle);
    for (const input of inputs) if (typeof input !== 'string' || lstatSync(path.resolve(dir, input)).mtimeMs > built) return esm;
    return bundle;
  } catch {
    return esm;
  }
}

function newPool(): Piscina {
  piscina ??= createRequire(import.meta.url)('piscina') as typeof import('piscina');
  return new piscina.Piscina({
    filename: buildWorkerFile(),
    minThreads: 1,
    maxThreads: 1,
    idleTimeout: Number.POSITIVE_INFINITY,
    resourceLimits: { maxOldGenerationSizeMb: buildHeapMb() },
  });
}

/**
 * The build pool for a manager: the prestarted one when there is one (taken once), else a new
 * one. Piscina starts its thread at once and the thread imports worker.ts before any task.
 * @param onError receives every pool 'error' event (including those emitted before adoption)
 */
export function createBuildPool(onError: PoolErrorListener): Piscina {
  const early = slot[PRESTARTED] ?? null;
  if (early !== null) {
    slot[PRESTARTED] = null;
    early.listener = onError;
    for (const error of early.errors.splice(0)) onError(error);
    return early.pool;
  }
  const pool = newPool();
  pool.on('error', onError);
  return pool;
}

/**
 * Starts the build worker now, for the next {@link createBuildPool} of this process to adopt;
 * with `prepare`, the worker's first task prepares the build (worker.ts `prepare`).
 * Idempotent while not adopted. Whoever prestarts must adopt it or call
 * {@link releasePrestartedBuildWorker}.
 */
export function prestartBuildWorker(prepare: PrepareTask | null = null): void {
  if ((slot[PRESTARTED] ?? null) !== null) return;
  const entry: Prestarted = { pool: newPool(), errors: [], listener: null };
  entry.pool.on('error', (error: unknown) => (entry.listener ? entry.listener(error) : entry.errors.push(error)));
  slot[PRESTARTED] = entry;
  // Queued before the build task: the worker warms from the publication and loads its adapters meanwhile.
  if (prepare !== null) entry.pool.run(prepare, { name: 'prepare' }).catch(() => undefined);
}

/** Destroys a prestarted pool no manager adopted (nothing when there is none). */
export async function releasePrestartedBuildWorker(): Promise<void> {
  const early = slot[PRESTARTED] ?? null;
  slot[PRESTARTED] = null;
  if (early !== null) await early.pool.destroy();
}
