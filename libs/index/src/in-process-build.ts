/**
 * The build of a one-shot `docforge sync` in the CLI's own main thread (issue 14). A whole-process
 * sync that already knows a build is coming (the no-change fast path found the sources changed)
 * has nothing else to do while it builds, and a worker thread costs it a new isolate: Node
 * compiles its internal modules again for that isolate (~55 ms on the 2-core VM, no startup
 * snapshot for worker threads in Node 20) and tears its heap down before the process may exit
 * (~20-35 ms). Here the build worker's module (the bundled `dist/bundle/worker.cjs`, worker.ts)
 * is loaded with `require` into the calling thread and its handlers are called directly; the
 * IndexManager adopts the result as it adopts a prestarted thread (build-pool.ts).
 *
 * Only where a thread buys nothing: never in a long-lived process (the MCP server keeps its main
 * thread free for requests), never with a project-owned adapter (its watchdog stops a hung
 * `extract()` by terminating the thread; the no-change check does not prepare such builds), only
 * while the published index is at most {@link IN_PROCESS_MAX_INDEX_BYTES} (the thread's heap limit,
 * `DOCFORGE_BUILD_HEAP_MB`, is for the large builds), only when the package's own worker bundle is
 * fresh (none named by `DOCFORGE_WORKER_BUNDLE`) and loads as the build worker;
 * `DOCFORGE_BUILD_IN_PROCESS=0` turns it off. `DOCFORGE_CLI_TRACE=1` says which ran. Anything else, or a
 * bundle that fails to load here, means the worker thread, as before.
 */
import { createRequire } from 'node:module';
import type { Piscina } from 'piscina';
import type { BuildOutcome, BuildTask, PrepareTask } from './build-types.js';

/** `DOCFORGE_BUILD_IN_PROCESS=0` keeps every build in a worker thread (tests compare both). */
export const IN_PROCESS_BUILD_ENV = 'DOCFORGE_BUILD_IN_PROCESS';

/**
 * The largest published index (bytes) whose next one-shot build runs in the main thread: 64 MiB,
 * some 20,000 nodes (fastify's package: 4.4 MB); larger projects build in the worker thread, whose
 * heap limit scales with the machine.
 */
export const IN_PROCESS_MAX_INDEX_BYTES = 64 * 1024 * 1024;

/** The part of a piscina pool the IndexManager and build-run.ts use; an in-process pool has it too. */
export type BuildPool = Pick<Piscina, 'run' | 'destroy' | 'threads' | 'on'>;

/** The handlers worker.ts exports (its piscina task names; `default` runs a build). */
interface BuildWorkerModule {
  default: (task: BuildTask) => Promise<BuildOutcome>;
  prepare: (task: PrepareTask) => Promise<boolean>;
  prime: (task: unknown) => unknown;
  awaitStandby: () => Promise<boolean>;
  shutdown: () => Promise<void>;
}

function isBuildWorkerModule(value: unknown): value is BuildWorkerModule {
  if (typeof value !== 'object' || value === null) return false;
  const handlers = value as Record<string, unknown>;
  return ['default', 'prepare', 'prime', 'awaitStandby', 'shutdown'].every((name) => typeof handlers[name] === 'function');
}

/**
 * Whether the next build of a one-shot sync may run in this thread: not turned off by
 * {@link IN_PROCESS_BUILD_ENV}, and a published index of at most {@link IN_PROCESS_MAX_INDEX_BYTES}.
 * @param indexBytes size of the published index file (publication `index_size`)
 */
export function inProcessBuildAllowed(indexBytes: number): boolean {
  return process.env[IN_PROCESS_BUILD_ENV] !== '0' && Number.isFinite(indexBytes) && indexBytes >= 0 && indexBytes <= IN_PROCESS_MAX_INDEX_BYTES;
}

/**
 * Loads the build worker's module from `file` into this thread and returns a pool that runs its
 * handlers here, having started `prepare` (the warm start and adapter loads run now, before the
 * caller goes on). Null, with nothing loaded that matters, when `file` is not a CommonJS bundle
 * (the compiled ESM worker loads only asynchronously) or does not load as the build worker; the
 * caller then starts a worker thread. Never throws.
 *
 * The pool runs one task at a time in call order, as the single worker thread does; results are
 * structured clones (as if they had crossed a thread); `transferList` and `signal` are ignored
 * (progress ports work within one thread; a signal only serves the project-owned adapter's
 * watchdog, which never runs here). `destroy()` stops the module's parse threads; later runs reject.
 * @param file absolute path of the worker file (build-pool.ts `buildWorkerFile`)
 */
export function inProcessBuildPool(file: string, prepare: PrepareTask): BuildPool | null {
  if (!file.endsWith('.cjs')) return null;
  let handlers: BuildWorkerModule;
  try {
    const loaded: unknown = createRequire(import.meta.url)(file);
    if (!isBuildWorkerModule(loaded)) return null;
    handlers = loaded;
  } catch {
    return null;
  }
  let destroyed = false;
  let queue: Promise<unknown> = Promise.resolve();
  const run = (task: unknown, options?: Parameters<Piscina['run']>[1]): Promise<unknown> => {
    const name = options?.name ?? 'default';
    const next = queue.then(async () => {
      if (destroyed) throw new Error('the in-process build pool was destroyed');
      const handler = (handlers as unknown as Record<string, ((task: unknown) => unknown) | undefined>)[name];
      if (typeof handler !== 'function') throw new Error(`the build worker has no task named ${JSON.stringify(name)}`);
      return structuredClone(await handler(task));
    });
    queue = next.catch(() => undefined);
    return next;
  };
  const pool = {
    run,
    threads: [],
    destroy: async (): Promise<void> => {
      if (destroyed) return;
      destroyed = true;
      await queue;
      await handlers.shutdown().catch(() => undefined);
    },
    // No thread, so no 'error' or 'message' events: listeners are accepted and never called.
    on: (): BuildPool => pool,
  } as unknown as BuildPool;
  run(prepare, { name: 'prepare' }).catch(() => undefined);
  return pool;
}
