/**
 * Parallel parsing for large changes (code, or much documentation): `parallelism - 1` parse threads
 * (piscina, parse-worker.ts) and the build worker itself take batches from one queue; items come
 * back in the order of the entries, whichever thread parsed them.
 *
 * A parse thread pays only where parsing costs much more than copying its result back (issue 14,
 * CPU time per thread measured on 2 cores). Each thread costs about 0.45 s of CPU to start (its
 * modules, the code adapters, the JIT warming the parsers again in its own isolate) and 100 MB of
 * peak RSS, and the build worker deserializes every result it sends. For Markdown that copy costs
 * as much as the parse: on the 10,000-node corpus the build worker spent 1.76 s of CPU in its
 * parse step with a parse thread and 1.63-1.82 s without. For code it is cheaper than the
 * TypeScript parse, but on fastify's package (2.3 MB of code) the build worker's parse step only
 * went from 1.0 s to 0.86 s of CPU, for 1.4 s more CPU in all and 336 instead of 212 MB of peak
 * RSS. So only the code counted, and `parsesInParallel` asks for several times fastify's.
 *
 * Issue 35 let documentation in: a thread answers one JSON string per batch (no second copy in the
 * build worker), batches of small pages grow to 128 KiB, and content bytes count a third. On 40,000
 * generated pages the build worker's parse then took 4.0 s of CPU instead of 6.4-6.8 s inline, for
 * 17-20% more CPU in all (ops/bench/parse-pool.mjs; docs/architecture.md has the whole-build figures).
 */
import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import { ownValue, setOwn } from '@docforge/core';
import type { SourceEntry } from '@docforge/project';
import { loadDescriptor } from '@docforge/project';
import { parseBatch, type ParseBatchTask, type ParsedBatchItem, type ParsedBatchJson } from './parse.js';

/** Below this many changed files a build always parses inline. */
export const PARALLEL_PARSE_MIN_FILES = 256;
/** Bytes of changed code from which a build parses on every core: about 2.5 s of parsing in one thread. */
export const PARALLEL_PARSE_MIN_CODE_BYTES = 6 * 1024 * 1024;
/**
 * A content byte counts this fraction of a code byte toward `PARALLEL_PARSE_MIN_CODE_BYTES`: Markdown
 * parses about three times faster per byte than TypeScript (issue 35), so documentation alone goes
 * parallel from 18 MiB, about 2.4 s of parsing in one thread (the 20,000-node corpus holds 22 MiB).
 */
export const CONTENT_BYTE_WEIGHT = 1 / 3;

/**
 * Whether a build parses these changed sources on every core (`ParsePool.parse`) rather than
 * inline: at least `PARALLEL_PARSE_MIN_FILES` files holding `PARALLEL_PARSE_MIN_CODE_BYTES` of
 * code, a content byte counting `CONTENT_BYTE_WEIGHT` of a code byte.
 */
export function parsesInParallel(entries: readonly SourceEntry[]): boolean {
  if (entries.length < PARALLEL_PARSE_MIN_FILES) return false;
  let weighted = 0;
  for (const entry of entries) weighted += entry.role === 'code' ? entry.size : entry.size * CONTENT_BYTE_WEIGHT;
  return weighted >= PARALLEL_PARSE_MIN_CODE_BYTES;
}

/**
 * Sources per batch of a parse thread, and bytes a batch of more sources may reach. Small batches
 * keep the threads busy to the end (issue 14: with 64 files, a cold build of fastify's package left
 * the parse thread idle for a second while the build worker parsed its last big batch); the byte
 * bound lets a batch of small pages grow, since each batch pays a fixed cost (the thread loads the
 * descriptor, the build worker receives one message): about 100 pages of 1.2 KB (issue 35).
 */
const PARSE_BATCH = { files: 16, bytes: 128 * 1024 };
/**
 * The same for the build worker's own batches, smaller still: between two of its batches it hands
 * the parse threads their next ones, so a short batch keeps their queue from running dry.
 */
const LOCAL_BATCH = { files: 4, bytes: 32 * 1024 };

/** A task that only loads a parse thread's modules and these code adapters (parse-worker.ts). */
export interface ParseWarmTask {
  warm: readonly string[];
}

function parseThreads(): number {
  return Math.max(1, availableParallelism() - 1);
}

/**
 * The parse threads of one build worker (process-wide in effect: one per build worker thread),
 * started on first use; owned by that worker's build caches (build-caches.ts).
 */
export class ParsePool {
  private pool: Piscina | null = null;

  /**
   * Starts the parse threads and has them load their modules and code adapters now, while the build
   * worker is still setting up, for a build that will parse in parallel (a cold build): otherwise a
   * thread asks for its first batch only once it has loaded, and the build worker, busy parsing its
   * own batch, answers late (issue 14). Never throws; the threads exit when idle (`idleTimeout`).
   * @param adapterIds code adapters the build needs (adapter-registry.ts `adaptersFor`)
   */
  prestart(adapterIds: readonly string[]): void {
    const pool = this.threads();
    const task: ParseWarmTask = { warm: adapterIds };
    for (let i = 0; i < parseThreads(); i += 1) pool.run(task).catch(() => undefined);
  }

  /**
   * Parses batches on every core, so only one extra copy of a compiler is loaded on a 2-core machine.
   * @param onBatch called with the number of sources done after each finished batch
   * @returns the items in the order of `task.entries`
   */
  parse(task: ParseBatchTask, onBatch: (done: number) => void): Promise<ParsedBatchItem[]> {
    return parseOnPool(this.threads(), task, onBatch);
  }

  private threads(): Piscina {
    this.pool ??= createParsePool();
    return this.pool;
  }
}

/** {@link ParsePool.parse} on `pool`: the build worker and the parse threads take batches from one queue. */
async function parseOnPool(pool: Piscina, task: ParseBatchTask, onBatch: (done: number) => void): Promise<ParsedBatchItem[]> {
  // Largest files first, so the last batches are the small ones and every thread finishes together.
  const bySize = [...task.entries].sort((a, b) => b.size - a.size);
  // The build worker's own batches share one load of the descriptor.
  const descriptor = loadDescriptor(task.root);
  let next = 0;
  let done = 0;
  const take = (bound: { files: number; bytes: number }): ParseBatchTask => {
    let end = next;
    let bytes = 0;
    while (end < bySize.length && (end - next < bound.files || bytes + bySize[end]!.size <= bound.bytes)) bytes += bySize[end++]!.size;
    const entries = bySize.slice(next, end);
    next = end;
    const knownHashes: Record<string, string> = {};
    for (const entry of entries) {
      const known = ownValue(task.knownHashes, entry.path);
      if (known !== undefined) setOwn(knownHashes, entry.path, known);
    }
    return { ...task, entries, knownHashes };
  };
  const byPath = new Map<string, ParsedBatchItem>();
  const finish = (items: readonly ParsedBatchItem[]): void => {
    for (const item of items) byPath.set(item.entry.path, item);
    done += items.length;
    onBatch(done);
  };
  const remote = async (): Promise<void> => {
    while (next < bySize.length) finish(JSON.parse((await pool.run(take(PARSE_BATCH))) as ParsedBatchJson) as ParsedBatchItem[]);
  };
  // Two requests per parse thread: the next batch already waits in the thread's port while the
  // build worker's event loop is busy parsing its own batch (concurrentTasksPerWorker below).
  const remotes = Array.from({ length: 2 * parseThreads() }, () => remote());
  while (next < bySize.length) {
    finish(await parseBatch(take(LOCAL_BATCH), descriptor));
    // Let finished remote batches be collected, and new ones sent, between local ones.
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  await Promise.all(remotes);
  return task.entries.map((entry) => byPath.get(entry.path)!);
}

function createParsePool(): Piscina {
  const pool = new Piscina({
    filename: new URL('./parse-worker.js', import.meta.url).href,
    minThreads: 0,
    maxThreads: parseThreads(),
    // Parsing is synchronous: a second task only queues in the thread, it never runs concurrently.
    concurrentTasksPerWorker: 2,
    // Threads exit when idle so a quiet server does not keep parser heaps alive.
    idleTimeout: 5_000,
  });
  // An unhandled pool 'error' event would kill the process (DESIGN.md section 8).
  pool.on('error', () => undefined);
  return pool;
}
