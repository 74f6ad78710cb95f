/**
 * The build worker pool of an IndexManager: one long-lived piscina thread running worker.ts
 * (DESIGN.md sections 1 and 7). A whole-process command that already knows a build is coming
 * (the no-change fast path found the sources changed) may start the worker early with
 * {@link prestartBuildWorker}, so the thread loads the build modules while the main thread loads
 * the IndexManager and walks (issue 14); the next IndexManager of the process adopts that pool.
 * The thread runs the bundled worker (`dist/bundle/worker.cjs`, scripts/build-worker-bundle.mjs) while that bundle is fresh, else the compiled ESM `worker.js`.
 *
 * A pool whose thread cannot start (the worker file throws while loading) is dead: piscina stops
 * replacing a worker that fails during bootstrap, and tasks queued on it would never settle.
 * {@link runOnPool} rejects them instead ({@link poolDeath}); the manager then starts the compiled
 * worker when the bundle was the one that failed (manager.ts `runBuild`).
 */
import { lstatSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Piscina } from 'piscina';
import { accelerated, errors, type DocforgeError } from '@docforge/core';
import { buildHeapMb } from './adapter-timeout.js';
import { BUILD_WORKER_LOADED, type PrepareTask } from '@docforge/build';

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
/** Set once a pool running the bundled worker died at start: this process runs the compiled worker from then on. */
const BUNDLE_FAILED = Symbol.for('docforge.index.workerBundleFailed');
const slot = globalThis as { [PRESTARTED]?: Prestarted | null; [BUNDLE_FAILED]?: boolean };

/**
 * How a pool ended up unable to run tasks: the worker file it runs, whether that is the bundle,
 * and what the thread threw while loading. Plain data: the launcher's bundled copy of this module
 * may record it and the IndexManager's copy read it.
 */
export interface PoolDeath {
  /** Absolute path of the worker file whose thread could not start. */
  file: string;
  /** True when `file` is a bundle (`dist/bundle/worker.cjs` or {@link WORKER_BUNDLE_ENV}'s), not the compiled worker. */
  bundled: boolean;
  /** The loader's error message. */
  message: string;
}

/** `index_unavailable` for a dead pool: `details.worker_file` and `details.worker_error`. */
export function poolDeathError(death: PoolDeath): DocforgeError {
  return errors.indexUnavailable(`the build worker (${death.file}) could not start: ${death.message}`, { worker_file: death.file, worker_error: death.message });
}

interface PoolState {
  file: string;
  death: PoolDeath | null;
  /** Settles with the death once the pool dies; never rejects. */
  died: Promise<PoolDeath>;
  /** Whether a thread of the pool has loaded worker.ts (its BUILD_WORKER_LOADED message). */
  loaded: boolean;
  /** Settles once `loaded` is true; never rejects. */
  whenLoaded: Promise<void>;
  /** Records the pool's death (once) with the loader's or the task's error message. */
  declareDead: (message: string) => void;
  /** Set once `destroy()` was called on the pool: threads ending then are no death. */
  destroying: boolean;
}

/** Keyed by the pools this module made (each copy of the module tracks its own; the prestarted pool carries its state along). */
const POOL_STATES = Symbol.for('docforge.index.buildPoolStates');
const states: WeakMap<Piscina, PoolState> = ((globalThis as { [POOL_STATES]?: WeakMap<Piscina, PoolState> })[POOL_STATES] ??= new WeakMap());

/**
 * `DOCFORGE_WORKER_BUNDLE=off` runs the compiled ESM worker even when the bundle is fresh (tests
 * compare both); an absolute path runs that file as the bundle, without the freshness check (a
 * bundle built elsewhere; tests of a bundle that cannot load).
 */
export const WORKER_BUNDLE_ENV = 'DOCFORGE_WORKER_BUNDLE';

/**
 * The file the build thread runs: the bundle `dist/bundle/worker.cjs` when it exists and no input
 * listed in its manifest (`worker.inputs.json`) is newer than it or missing, and the manifest
 * says it was built in this folder (they embed absolute file URLs), else `dist/src/worker.js`.
 * Found from this module's own location, `dist/src/` (or the fast path's bundle beside the CLI,
 * which resolves @docforge/sync the same way). The compiled worker once a bundle failed to start
 * in this process ({@link poolDeath}), and as {@link WORKER_BUNDLE_ENV} says, or `DOCFORGE_ACCELERATE` (`worker-bundle`).
 */
export function buildWorkerFile(): string {
  const esm = fileURLToPath(new URL('./worker.js', import.meta.url));
  const chosen = process.env[WORKER_BUNDLE_ENV];
  if (chosen === 'off' || slot[BUNDLE_FAILED] === true) return esm;
  if (chosen !== undefined && path.isAbsolute(chosen)) return chosen;
  if (!accelerated('worker-bundle')) return esm;
  const dir = path.join(path.dirname(esm), '..', 'bundle');
  const entry = path.join(dir, 'worker.cjs');
  try {
    const built = statSync(entry).mtimeMs;
    const manifest = JSON.parse(readFileSync(path.join(dir, 'worker.inputs.json'), 'utf8')) as { inputs?: unknown; built_in?: unknown };
    const inputs = manifest.inputs;
    if (!Array.isArray(inputs) || inputs.length === 0) return esm;
    // The bundle embeds its modules' absolute file URLs: one built in another folder (a moved checkout) is stale.
    if (manifest.built_in !== realpathSync(dir)) return esm;
    for (const input of inputs) if (typeof input !== 'string' || lstatSync(path.resolve(dir, input)).mtimeMs > built) return esm;
    return entry;
  } catch {
    return esm;
  }
}

function newPool(): Piscina {
  piscina ??= createRequire(import.meta.url)('piscina') as typeof import('piscina');
  const file = buildWorkerFile();
  const pool = new piscina.Piscina({
    filename: file,
    minThreads: 1,
    maxThreads: 1,
    idleTimeout: Number.POSITIVE_INFINITY,
    resourceLimits: { maxOldGenerationSizeMb: buildHeapMb() },
  });
  let markDead: (death: PoolDeath) => void = () => undefined;
  let markLoaded: () => void = () => undefined;
  const state: PoolState = {
    file, death: null, died: new Promise<PoolDeath>((resolve) => (markDead = resolve)),
    loaded: false, whenLoaded: new Promise<void>((resolve) => (markLoaded = resolve)), declareDead: () => undefined, destroying: false,
  };
  states.set(pool, state);
  pool.on('message', (message: unknown) => {
    if (typeof message !== 'object' || message === null || !(BUILD_WORKER_LOADED in message)) return;
    state.loaded = true;
    markLoaded();
  });
  state.declareDead = (message: string): void => {
    if (state.death !== null) return;
    const bundled = file !== fileURLToPath(new URL('./worker.js', import.meta.url));
    if (bundled) slot[BUNDLE_FAILED] = true;
    state.death = { file, bundled, message };
    markDead(state.death);
  };
  // piscina replaces a thread that fails after it was ready before emitting 'error'; a thread that
  // fails while starting is not replaced, so an 'error' that leaves no thread means the pool is dead.
  pool.on('error', (error: unknown) => {
    if (state.death !== null || pool.threads.length > 0) return;
    state.declareDead(error instanceof Error ? error.message : String(error));
  });
  // A thread that ends before it said it loaded (a file that exits while loading) emits no 'error'
  // when no task was on it yet, and piscina then leaves queued tasks waiting for a thread forever.
  // Checked LOADED_GRACE_MS later: a thread that threw while loading is replaced once and its
  // replacement's 'error' (with the loader's message, the better one) comes first.
  let ended: NodeJS.Timeout | null = null;
  const destroy = pool.destroy.bind(pool);
  pool.destroy = async (): Promise<void> => {
    state.destroying = true;
    if (ended !== null) clearTimeout(ended);
    return destroy();
  };
  pool.on('workerDestroy', () => {
    if (state.loaded || state.destroying || ended !== null) return;
    ended = setTimeout(() => {
      if (!state.loaded && !state.destroying) state.declareDead('its thread ended while loading, before it said it was the build worker');
    }, LOADED_GRACE_MS);
  });
  return pool;
}

/**
 * How long a task's result or failure may precede the thread's BUILD_WORKER_LOADED message before
 * the file is taken for something other than the build worker (ms). The worker posts that message
 * while its module loads, before piscina hands it any task, so it arrives within one or two turns
 * of the event loop of the task's settling (the two travel on different ports); the margin covers
 * a busy host.
 */
const LOADED_GRACE_MS = 2_000;
/**
 * How long a task may wait on a pool whose thread never said it loaded (ms): the bundled worker
 * loads in well under a second here, so a file still silent after this long (one whose handler
 * never settles) is not the build worker.
 */
const LOAD_LIMIT_MS = 60_000;

/** A promise of `value` after `ms`, and the function that cancels its timer (so no timer keeps a process alive). */
function delay<T>(ms: number, value: T): { promise: Promise<T>; cancel: () => void } {
  let timer: NodeJS.Timeout | undefined;
  const promise = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(value), ms);
  });
  return { promise, cancel: () => clearTimeout(timer) };
}

/**
 * Why `pool` can no longer run tasks, or null while it can (or when this module did not make it).
 */
export function poolDeath(pool: Piscina): PoolDeath | null {
  return states.get(pool)?.death ?? null;
}

/**
 * `pool.run(task, options)`, except that it rejects with the pool's `index_unavailable` error
 * ({@link poolDeathError}) as soon as the pool is dead, instead of waiting forever for a thread that
 * never starts. The task itself stays queued until the pool is destroyed; its rejection then is
 * swallowed here. piscina hands the first tasks to its first thread before that thread has loaded
 * the worker file; when such a task settles before any thread said it loaded, this waits until a
 * thread loads (then the task's own result or error is returned) or the pool dies. A file that
 * never says it loaded is not the build worker (empty, exporting no function or another one,
 * exiting while it loads, a handler that returns anything or never settles): the pool is dead
 * after {@link LOADED_GRACE_MS} past the task's settling, after its thread ended, or after
 * {@link LOAD_LIMIT_MS} of waiting, so a damaged bundle falls back instead of hanging a sync.
 * @throws whatever the task throws; `index_unavailable` when the pool is dead
 */
export async function runOnPool(pool: Piscina, task: unknown, options?: Parameters<Piscina['run']>[1]): Promise<unknown> {
  const state = states.get(pool);
  if (state === undefined) return pool.run(task, options);
  if (state.death) throw poolDeathError(state.death);
  const run = pool.run(task, options);
  run.catch(() => undefined);
  const died = state.died.then((death) => ({ death }));
  // Only a thread still silent when the limit passes counts; one that loaded meanwhile runs its task to the end.
  const limit = state.loaded ? null : delay(LOAD_LIMIT_MS, { stalled: true } as const);
  const never = new Promise<never>(() => undefined);
  const silent = limit === null ? never : limit.promise.then((stalled) => (state.loaded ? never : stalled));
  let first: { result: unknown } | { error: unknown } | { death: PoolDeath } | { stalled: true };
  try {
    first = await Promise.race([run.then((result) => ({ result }), (error: unknown) => ({ error })), died, silent]);
  } finally {
    limit?.cancel();
  }
  if ('death' in first) throw poolDeathError(first.death);
  if ('stalled' in first) state.declareDead(`it did not load as the build worker within ${LOAD_LIMIT_MS / 1000} s`);
  else if (!state.loaded && state.death === null) {
    const grace = delay(LOADED_GRACE_MS, 'grace' as const);
    const settled = await Promise.race([died, state.whenLoaded.then(() => null), grace.promise]);
    grace.cancel();
    const what = 'error' in first ? (first.error instanceof Error ? first.error.message : String(first.error)) : 'a task returned without it';
    if (settled === 'grace') state.declareDead(`it did not load as the build worker (${what})`);
  }
  if (state.death !== null) throw poolDeathError(state.death);
  if ('error' in first) throw first.error;
  return (first as { result: unknown }).result;
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
  if (prepare !== null) runOnPool(entry.pool, prepare, { name: 'prepare' }).catch(() => undefined);
}

/** Destroys a prestarted pool no manager adopted (nothing when there is none). */
export async function releasePrestartedBuildWorker(): Promise<void> {
  const early = slot[PRESTARTED] ?? null;
  slot[PRESTARTED] = null;
  if (early !== null) await early.pool.destroy();
}
