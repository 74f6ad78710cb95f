/**
 * The build worker pool of an IndexManager: one long-lived piscina thread running worker.ts
 * (DESIGN.md sections 1 and 7). A whole-process command that already knows a build is coming
 * (the no-change fast path found the sources changed) may start the worker early with
 * {@link prestartBuildWorker}, so the thread loads the build modules while the main thread loads
 * the IndexManager and walks (issue 14); the next IndexManager of the process adopts that pool.
 */
import { Piscina } from 'piscina';
import { buildHeapMb } from './adapter-timeout.js';

/** Receives an 'error' event of a pool (an unhandled one would kill the process; DESIGN.md section 8). */
export type PoolErrorListener = (error: unknown) => void;

/** A pool started before its manager existed, with the errors it emitted meanwhile. */
let prestarted: { pool: Piscina; errors: unknown[]; listener: PoolErrorListener | null } | null = null;

function newPool(): Piscina {
  return new Piscina({
    filename: new URL('./worker.js', import.meta.url).href,
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
  const early = prestarted;
  if (early !== null) {
    prestarted = null;
    early.listener = onError;
    for (const error of early.errors.splice(0)) onError(error);
    return early.pool;
  }
  const pool = newPool();
  pool.on('error', onError);
  return pool;
}

/**
 * Starts the build worker now, for the next {@link createBuildPool} of this process to adopt.
 * Idempotent while not adopted. Whoever prestarts must adopt it or call
 * {@link releasePrestartedBuildWorker}.
 */
export function prestartBuildWorker(): void {
  if (prestarted !== null) return;
  const entry: { pool: Piscina; errors: unknown[]; listener: PoolErrorListener | null } = { pool: newPool(), errors: [], listener: null };
  entry.pool.on('error', (error: unknown) => (entry.listener ? entry.listener(error) : entry.errors.push(error)));
  prestarted = entry;
}

/** Destroys a prestarted pool no manager adopted (nothing when there is none). */
export async function releasePrestartedBuildWorker(): Promise<void> {
  const early = prestarted;
  prestarted = null;
  if (early !== null) await early.pool.destroy();
}
