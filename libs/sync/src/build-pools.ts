/**
 * The build worker pools of one IndexManager (build-pool.ts is one pool): which worker file they
 * run, with which limits, and the pool a whole-process command may have started early. A command
 * that already knows a build is coming (the no-change fast path found the sources changed) starts
 * the worker with {@link prestartBuildWorker}, so the thread loads the build modules while the main
 * thread loads the IndexManager and walks (issue 14); it passes the {@link PrestartedBuildPool} it
 * gets to the IndexManager (option `buildPools`), whose first pool is that one. The thread runs the
 * bundled worker (`dist/bundle/worker.cjs`, scripts/build-worker-bundle.mjs) while that bundle is
 * fresh, else the compiled ESM `worker.js`.
 */
import { lstatSync, readFileSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Accelerators } from '@docforge/accelerate';
import { readDocforgeConfig, type DocforgeConfig } from '@docforge/core';
import type { PrepareTask } from '@docforge/builder';
import { adapterTimeoutMs, buildHeapMb } from './adapter-timeout.js';
import { BuildPool, runOnPool, type PoolErrorListener } from './build-pool.js';

// The manager's one import for its pools (manager.ts).
export { poolDeath, runOnPool, type BuildPool } from './build-pool.js';

/**
 * `DOCFORGE_WORKER_BUNDLE=off` runs the compiled ESM worker even when the bundle is fresh (tests
 * compare both); an absolute path runs that file as the bundle, without the freshness check (a
 * bundle built elsewhere; tests of a bundle that cannot load). Read by libs/core config.ts.
 */
export const WORKER_BUNDLE_ENV = 'DOCFORGE_WORKER_BUNDLE';

/** What the build pools start, from the process's config ({@link buildPoolSettings}). */
export interface BuildPoolSettings {
  /** `DOCFORGE_WORKER_BUNDLE`: `off`, an absolute path, or null (anything else counts as null). */
  readonly workerBundle: string | null;
  /** The worker thread's old-generation heap limit, MiB (adapter-timeout.ts `buildHeapMb`). */
  readonly heapMb: number;
  /** The watchdog of project-owned adapter code, ms (adapter-timeout.ts `adapterTimeoutMs`). */
  readonly adapterTimeoutMs: number;
  /** The start-up accelerators (`worker-bundle`, `prestart`). */
  readonly accelerators: Accelerators;
}

/** The build pools' settings of `config` (default: this process's, read now). */
export function buildPoolSettings(config: DocforgeConfig = readDocforgeConfig()): BuildPoolSettings {
  return { workerBundle: config.workerBundle, heapMb: buildHeapMb(config), adapterTimeoutMs: adapterTimeoutMs(config), accelerators: Accelerators.from(config) };
}

/** The compiled worker, `dist/src/worker.js` beside this module (or beside the fast path's bundle, which resolves @docforge/sync the same way). */
function compiledWorker(): string {
  return fileURLToPath(new URL('./worker.js', import.meta.url));
}

/**
 * The file the build thread runs: the bundle `dist/bundle/worker.cjs` when it exists and no input
 * listed in its manifest (`worker.inputs.json`) is newer than it or missing, and the manifest
 * says it was built in this folder (they embed absolute file URLs), else `dist/src/worker.js`.
 * The compiled worker when `bundleFailed` (a bundle failed to start for these pools), and as
 * {@link WORKER_BUNDLE_ENV} says, or `DOCFORGE_ACCELERATE` (`worker-bundle`).
 * @param settings default: this process's config, read now
 */
export function buildWorkerFile(settings: BuildPoolSettings = buildPoolSettings(), bundleFailed = false): string {
  const esm = compiledWorker();
  const chosen = settings.workerBundle;
  if (chosen === 'off' || bundleFailed) return esm;
  if (chosen !== null && path.isAbsolute(chosen)) return chosen;
  if (!settings.accelerators.on('worker-bundle')) return esm;
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

/** A new pool running {@link buildWorkerFile}. */
function startPool(settings: BuildPoolSettings, bundleFailed: boolean): BuildPool {
  const file = buildWorkerFile(settings, bundleFailed);
  return new BuildPool({ file, bundled: file !== compiledWorker(), heapMb: settings.heapMb, adapterTimeoutMs: settings.adapterTimeoutMs });
}

/**
 * A build worker started before its IndexManager existed, with the 'error' events it emitted
 * meanwhile. Taken by the first {@link BuildPools.create} of the manager it is given to; whoever
 * prestarts calls {@link release} once the command is over (it destroys the pool only when no
 * manager took it).
 */
export class PrestartedBuildPool {
  readonly #pool: BuildPool;
  readonly #errors: unknown[] = [];
  #listener: PoolErrorListener | null = null;
  #taken = false;

  /** Starts the worker now; with `prepare`, its first task prepares the build (worker.ts `prepare`). */
  constructor(settings: BuildPoolSettings, prepare: PrepareTask | null) {
    this.#pool = startPool(settings, false);
    this.#pool.onError((error: unknown) => (this.#listener ? this.#listener(error) : this.#errors.push(error)));
    // Queued before the build task: the worker warms from the publication and loads its adapters meanwhile.
    if (prepare !== null) runOnPool(this.#pool, prepare, { name: 'prepare' }).catch(() => undefined);
  }

  /** The pool, once (null when taken or released already); `onError` receives its errors, those emitted before too. */
  take(onError: PoolErrorListener): BuildPool | null {
    if (this.#taken) return null;
    this.#taken = true;
    this.#listener = onError;
    for (const error of this.#errors.splice(0)) onError(error);
    return this.#pool;
  }

  /** Destroys the pool when no manager took it (a build that did not happen); nothing otherwise. */
  async release(): Promise<void> {
    if (this.#taken) return;
    this.#taken = true;
    await this.#pool.destroy();
  }
}

/**
 * Starts the build worker now (a build is coming), for the IndexManager the caller then gives it
 * to (option `buildPools`: `new BuildPools(settings, prestarted)`).
 * @param prepare what the worker's first task prepares (worker.ts `prepare`), or null
 * @param settings default: this process's config, read now
 */
export function prestartBuildWorker(prepare: PrepareTask | null = null, settings: BuildPoolSettings = buildPoolSettings()): PrestartedBuildPool {
  return new PrestartedBuildPool(settings, prepare);
}

/** The build pools of one IndexManager: the prestarted one first, then new ones; the compiled worker once a bundled one died. */
export class BuildPools {
  readonly #settings: BuildPoolSettings;
  readonly #prestarted: PrestartedBuildPool | null;
  #last: BuildPool | null = null;
  #bundleFailed = false;

  /**
   * @param settings default: this process's config, read now
   * @param prestarted the pool a command started early, taken by the first {@link create}
   */
  constructor(settings: BuildPoolSettings = buildPoolSettings(), prestarted: PrestartedBuildPool | null = null) {
    this.#settings = settings;
    this.#prestarted = prestarted;
  }

  /** The settings the pools start with. */
  get settings(): BuildPoolSettings {
    return this.#settings;
  }

  /**
   * The next pool: the prestarted one when it was not taken yet, else a new one (its thread starts
   * at once and imports the worker before any task), on the compiled worker once a pool of these
   * running the bundle died at start.
   * @param onError receives every pool 'error' event (including those emitted before it was taken)
   */
  create(onError: PoolErrorListener): BuildPool {
    if (this.#last?.death?.bundled === true) this.#bundleFailed = true;
    const early = this.#prestarted?.take(onError) ?? null;
    if (early !== null) return (this.#last = early);
    const pool = startPool(this.#settings, this.#bundleFailed);
    pool.onError(onError);
    return (this.#last = pool);
  }

  /** The worker file the next new pool runs ({@link buildWorkerFile}). */
  workerFile(): string {
    if (this.#last?.death?.bundled === true) this.#bundleFailed = true;
    return buildWorkerFile(this.#settings, this.#bundleFailed);
  }
}

/** A pool for a caller without a manager (tests): `new BuildPools().create(onError)`. */
export function createBuildPool(onError: PoolErrorListener, settings: BuildPoolSettings = buildPoolSettings()): BuildPool {
  return new BuildPools(settings).create(onError);
}
