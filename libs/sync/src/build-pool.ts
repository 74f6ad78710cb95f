/**
 * One build worker pool: a piscina pool of one long-lived thread running worker.ts (DESIGN.md
 * sections 1 and 7), with what it knows about its thread's start. The pools of a manager, the
 * worker file they run and the prestarted pool live in build-pools.ts.
 *
 * A pool whose thread cannot start (the worker file throws while loading) is dead: piscina stops
 * replacing a worker that fails during bootstrap, and tasks queued on it would never settle.
 * {@link runOnPool} rejects them instead ({@link poolDeath}); the manager then starts the compiled
 * worker when the bundle was the one that failed (manager.ts `runBuild`).
 *
 * A {@link BuildPool} carries its own state and methods, so a pool made by one copy of this module
 * (the CLI launcher's bundled fast path prestarts one) works unchanged in the hands of another (the
 * IndexManager's ES module copy): no process-wide slot is shared between them.
 */
import { createRequire } from 'node:module';
import type { Piscina } from 'piscina';
import { errors, type DocforgeError } from '@docforge/core';
import { BUILD_WORKER_LOADED } from '@docforge/builder';

/** Receives an 'error' event of a pool (an unhandled one would kill the process; DESIGN.md section 8). */
export type PoolErrorListener = (error: unknown) => void;

/**
 * How a pool ended up unable to run tasks: the worker file it runs, whether that is the bundle,
 * and what the thread threw while loading.
 */
export interface PoolDeath {
  /** Absolute path of the worker file whose thread could not start. */
  file: string;
  /** True when `file` is a bundle (`dist/bundle/worker.cjs` or `DOCFORGE_WORKER_BUNDLE`'s), not the compiled worker. */
  bundled: boolean;
  /** The loader's error message. */
  message: string;
}

/** `index_unavailable` for a dead pool: `details.worker_file` and `details.worker_error`. */
export function poolDeathError(death: PoolDeath): DocforgeError {
  return errors.indexUnavailable(`the build worker (${death.file}) could not start: ${death.message}`, { worker_file: death.file, worker_error: death.message });
}

/** What a {@link BuildPool} starts: the worker file, whether it is a bundle, and the thread's heap limit (its young generation is {@link BUILD_YOUNG_GENERATION_MB}). */
export interface BuildPoolStart {
  /** Absolute path of the worker file (build-pools.ts `buildWorkerFile`). */
  file: string;
  /** Whether `file` is a bundle rather than the compiled `dist/src/worker.js`. */
  bundled: boolean;
  /** Old-generation heap limit of the thread, MiB (adapter-timeout.ts `buildHeapMb`). */
  heapMb: number;
  /** How long project-owned adapter code may run in a build on this pool, ms (adapter-timeout.ts `adapterTimeoutMs`; build-run.ts). */
  adapterTimeoutMs: number;
}

/**
 * Young-generation limit of the build worker thread, MiB (issue 35): two semi-spaces of 8 MiB and
 * the new large-object space. Node 24's V8 sizes the young generation from the machine's memory, far
 * above Node 20's (16 MiB semi-spaces), and a cold build's peak RSS grew with it. Measured on
 * fastify's package, Node 24 (load 10, `--max-semi-space-size`): cold peak RSS 249 MB by default,
 * 219 MB with 16 MiB semi-spaces, 205 MB with 8, CPU time unchanged within noise (4.21, 4.08, 4.05 s).
 */
export const BUILD_YOUNG_GENERATION_MB = 24;

/**
 * How long a task's result or failure may precede the thread's BUILD_WORKER_LOADED message before
 * the file is taken for something other than the build worker (ms). The worker posts that message
 * while its module loads, before piscina hands it any task, so it arrives within one or two turns
 * of the event loop of the task's settling (the two travel on different ports); the margin covers
 * a busy host.
 */
const LOADED_GRACE_MS = 2_000;
/** The longest wait for a replacement thread that is still loading after a thread ended while loading (ms). */
const LOADED_WAIT_CAP_MS = 30_000;
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

/** A build worker pool: piscina (loaded on first use: the fast path never starts one unless a build is coming) and its start state. */
export class BuildPool {
  /** Absolute path of the worker file its thread runs. */
  readonly file: string;
  /** The watchdog of project-owned adapter code in builds on this pool, ms (build-run.ts). */
  readonly adapterTimeoutMs: number;
  readonly #bundled: boolean;
  readonly #pool: Piscina;
  #death: PoolDeath | null = null;
  #markDead: (death: PoolDeath) => void = () => undefined;
  /** Settles with the death once the pool dies; never rejects. */
  readonly #died: Promise<PoolDeath>;
  /** Whether a thread of the pool has loaded worker.ts (its BUILD_WORKER_LOADED message). */
  #loaded = false;
  #markLoaded: () => void = () => undefined;
  /** Settles once loaded; never rejects. */
  readonly #whenLoaded: Promise<void>;
  /** Set once `destroy()` was called: threads ending then are no death. */
  #destroying = false;
  #ended: NodeJS.Timeout | null = null;
  /** Threads that ended before the pool's thread said it loaded. */
  #endsWhileLoading = 0;

  /** Starts the pool's thread now (it imports the worker file before any task). */
  constructor(start: BuildPoolStart) {
    this.file = start.file;
    this.adapterTimeoutMs = start.adapterTimeoutMs;
    this.#bundled = start.bundled;
    this.#died = new Promise<PoolDeath>((resolve) => (this.#markDead = resolve));
    this.#whenLoaded = new Promise<void>((resolve) => (this.#markLoaded = resolve));
    const piscina = createRequire(import.meta.url)('piscina') as typeof import('piscina');
    this.#pool = new piscina.Piscina({
      filename: start.file, minThreads: 1, maxThreads: 1, idleTimeout: Number.POSITIVE_INFINITY,
      resourceLimits: { maxOldGenerationSizeMb: start.heapMb, maxYoungGenerationSizeMb: BUILD_YOUNG_GENERATION_MB },
    });
    this.#watch();
  }

  #watch(): void {
    this.#pool.on('message', (message: unknown) => {
      if (typeof message !== 'object' || message === null || !(BUILD_WORKER_LOADED in message)) return;
      this.#loaded = true;
      this.#markLoaded();
    });
    // piscina replaces a thread that fails after it was ready before emitting 'error'; a thread that
    // fails while starting is not replaced, so an 'error' that leaves no thread means the pool is dead.
    this.#pool.on('error', (error: unknown) => {
      if (this.#death !== null || this.#pool.threads.length > 0) return;
      this.#declareDead(error instanceof Error ? error.message : String(error));
    });
    // A thread that ends before it said it loaded (a file that exits while loading) emits no 'error'
    // when no task was on it yet, and piscina then leaves queued tasks waiting for a thread forever.
    // Checked LOADED_GRACE_MS later: a thread that threw while loading is replaced once and its
    // replacement's 'error' (with the loader's message, the better one) comes first.
    // On a busy host the replacement may still be loading when that time is up: while only one
    // thread has ended and a replacement exists, the check waits on, up to LOADED_WAIT_CAP_MS, so
    // the loader's own message is what the pool dies with. Once a second thread ended while
    // loading (a file that exits as it loads), the first check declares the death.
    this.#pool.on('workerDestroy', () => {
      if (this.#loaded || this.#destroying) return;
      this.#endsWhileLoading += 1;
      if (this.#ended !== null) return;
      const firstEnd = Date.now();
      const check = (): void => {
        if (this.#loaded || this.#destroying) return;
        if (this.#endsWhileLoading < 2 && this.#pool.threads.length > 0 && Date.now() - firstEnd < LOADED_WAIT_CAP_MS) {
          this.#ended = setTimeout(check, LOADED_GRACE_MS);
          return;
        }
        this.#declareDead('its thread ended while loading, before it said it was the build worker');
      };
      this.#ended = setTimeout(check, LOADED_GRACE_MS);
    });
  }

  /** Adds a listener of the pool's 'error' events. */
  onError(listener: PoolErrorListener): void {
    this.#pool.on('error', listener);
  }

  /** Why the pool can no longer run tasks, or null while it can. */
  get death(): PoolDeath | null {
    return this.#death;
  }

  /** The pool's threads (their ids name the worker's standby files). */
  get threads(): readonly { threadId: number }[] {
    return this.#pool.threads;
  }

  /** Records the pool's death (once) with the loader's or the task's error message. */
  #declareDead(message: string): void {
    if (this.#death !== null) return;
    this.#death = { file: this.file, bundled: this.#bundled, message };
    this.#markDead(this.#death);
  }

  /** Destroys the pool (its thread ends; queued tasks reject). */
  async destroy(): Promise<void> {
    this.#destroying = true;
    if (this.#ended !== null) clearTimeout(this.#ended);
    return this.#pool.destroy();
  }

  /** See {@link runOnPool}. */
  async run(task: unknown, options?: Parameters<Piscina['run']>[1]): Promise<unknown> {
    if (this.#death) throw poolDeathError(this.#death);
    const run = this.#pool.run(task, options);
    run.catch(() => undefined);
    const died = this.#died.then((death) => ({ death }));
    // Only a thread still silent when the limit passes counts; one that loaded meanwhile runs its task to the end.
    const limit = this.#loaded ? null : delay(LOAD_LIMIT_MS, { stalled: true } as const);
    const never = new Promise<never>(() => undefined);
    const silent = limit === null ? never : limit.promise.then((stalled) => (this.#loaded ? never : stalled));
    let first: { result: unknown } | { error: unknown } | { death: PoolDeath } | { stalled: true };
    try {
      first = await Promise.race([run.then((result) => ({ result }), (error: unknown) => ({ error })), died, silent]);
    } finally {
      limit?.cancel();
    }
    if ('death' in first) throw poolDeathError(first.death);
    if ('stalled' in first) this.#declareDead(`it did not load as the build worker within ${LOAD_LIMIT_MS / 1000} s`);
    else if (!this.#loaded && this.#death === null) await this.#awaitLoad(died, first);
    if (this.#death !== null) throw poolDeathError(this.#death);
    if ('error' in first) throw first.error;
    return (first as { result: unknown }).result;
  }

  /** After a task settled before any thread said it loaded: waits for the load, the death or {@link LOADED_GRACE_MS}. */
  async #awaitLoad(died: Promise<{ death: PoolDeath }>, first: { result: unknown } | { error: unknown }): Promise<void> {
    const grace = delay(LOADED_GRACE_MS, 'grace' as const);
    const settled = await Promise.race([died, this.#whenLoaded.then(() => null), grace.promise]);
    grace.cancel();
    const what = 'error' in first ? (first.error instanceof Error ? first.error.message : String(first.error)) : 'a task returned without it';
    if (settled === 'grace') this.#declareDead(`it did not load as the build worker (${what})`);
  }
}

/**
 * Why `pool` can no longer run tasks, or null while it can.
 */
export function poolDeath(pool: BuildPool): PoolDeath | null {
  return pool.death;
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
export async function runOnPool(pool: BuildPool, task: unknown, options?: Parameters<Piscina['run']>[1]): Promise<unknown> {
  return pool.run(task, options);
}
