/**
 * Parallel parsing for large changes: `parallelism - 1` parse threads (piscina, parse-worker.ts)
 * and the build worker itself take batches from one queue.
 *
 * A parse thread has a fixed cost (issue 14, measured on 2 cores): loading its modules and the
 * code adapters, warming the JIT for the parsers again in its own isolate, and copying every
 * result to the build worker, about 1.4 s of CPU and 100 MB of peak RSS. It pays only when the
 * parse itself is several times that: a cold build of fastify's package (2.3 MB of code, 0.6 MB
 * of Markdown) took 4.5 s of CPU and 336 MB in parallel, 3.0 s and 212 MB inline, and no more
 * wall time; so did the 10,000-node corpus (39 MB of Markdown). `parsesInParallel` decides.
 */
import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import type { SourceEntry } from '@docforge/project';
import { parseBatch, type ParseBatchTask, type ParsedBatchItem } from './parse.js';

/** Below this many changed files a build always parses inline. */
export const PARALLEL_PARSE_MIN_FILES = 256;
/**
 * Parse work, in bytes of Markdown, from which a build parses on every core: about 3 s of
 * parsing in one thread, twice the fixed cost of a parse thread.
 */
export const PARALLEL_PARSE_MIN_WORK = 64 * 1024 * 1024;
/** A byte of code costs about this many bytes of Markdown to parse (TypeScript's parser and the code adapter). */
const CODE_WORK_FACTOR = 10;

/**
 * Whether a build parses these changed sources on every core (`parseInParallel`) rather than
 * inline: at least `PARALLEL_PARSE_MIN_FILES` files and `PARALLEL_PARSE_MIN_WORK` of work, where
 * a byte of code counts `CODE_WORK_FACTOR` bytes.
 */
export function parsesInParallel(entries: readonly SourceEntry[]): boolean {
  if (entries.length < PARALLEL_PARSE_MIN_FILES) return false;
  let work = 0;
  for (const entry of entries) work += entry.role === 'code' ? entry.size * CODE_WORK_FACTOR : entry.size;
  return work >= PARALLEL_PARSE_MIN_WORK;
}

/**
 * Sources per batch of a parse thread. Small batches keep the threads busy to the end (issue 14:
 * with 64, a cold build of fastify's package left the parse thread idle for a second while the
 * build worker parsed its last big batch).
 */
const PARSE_BATCH_FILES = 16;
/**
 * Sources per batch of the build worker itself, smaller still: between two of its batches it
 * hands the parse threads their next ones, so a short batch keeps their queue from running dry.
 */
const LOCAL_BATCH_FILES = 4;

let parsePool: Piscina | null = null;

/** A task that only loads a parse thread's modules and these code adapters (parse-worker.ts). */
export interface ParseWarmTask {
  warm: readonly string[];
}

/**
 * Starts the parse threads and has them load their modules and code adapters now, while the build
 * worker is still setting up, for a build that will parse in parallel (a cold build): otherwise a
 * thread asks for its first batch only once it has loaded, and the build worker, busy parsing its
 * own batch, answers late (issue 14). Never throws; the threads exit when idle (`idleTimeout`).
 * @param adapterIds code adapters the build needs (adapter-registry.ts `adaptersFor`)
 */
export function prestartParsePool(adapterIds: readonly string[]): void {
  parsePool ??= createParsePool();
  const task: ParseWarmTask = { warm: adapterIds };
  for (let i = 0; i < parseThreads(); i += 1) parsePool.run(task).catch(() => undefined);
}

function parseThreads(): number {
  return Math.max(1, availableParallelism() - 1);
}

/**
 * Parses batches on every core, so only one extra copy of a compiler is loaded on a 2-core machine.
 * @param onBatch called with the number of sources done after each finished batch
 * @returns the items in the order of `task.entries`
 */
export async function parseInParallel(task: ParseBatchTask, onBatch: (done: number) => void): Promise<ParsedBatchItem[]> {
  parsePool ??= createParsePool();
  const pool = parsePool;
  // Largest files first, so the last batches are the small ones and every thread finishes together.
  const bySize = [...task.entries].sort((a, b) => b.size - a.size);
  let next = 0;
  let done = 0;
  const take = (count: number): ParseBatchTask => {
    const entries = bySize.slice(next, next + count);
    next += entries.length;
    const knownHashes: Record<string, string> = {};
    for (const entry of entries) if (task.knownHashes[entry.path] !== undefined) knownHashes[entry.path] = task.knownHashes[entry.path]!;
    return { ...task, entries, knownHashes };
  };
  const byPath = new Map<string, ParsedBatchItem>();
  const finish = (items: readonly ParsedBatchItem[]): void => {
    for (const item of items) byPath.set(item.entry.path, item);
    done += items.length;
    onBatch(done);
  };
  const remote = async (): Promise<void> => {
    while (next < bySize.length) finish((await pool.run(take(PARSE_BATCH_FILES))) as ParsedBatchItem[]);
  };
  // Two requests per parse thread: the next batch already waits in the thread's port while the
  // build worker's event loop is busy parsing its own batch (concurrentTasksPerWorker below).
  const remotes = Array.from({ length: 2 * parseThreads() }, () => remote());
  while (next < bySize.length) {
    finish(await parseBatch(take(LOCAL_BATCH_FILES)));
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
