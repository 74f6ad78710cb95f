/**
 * Parallel parsing for cold builds and large changes: `parallelism - 1` parse threads (piscina,
 * parse-worker.ts) and the build worker itself take batches from one queue.
 */
import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import type { SourceEntry } from '@docforge/project';
import { parseBatch, type ParseBatchTask, type ParsedBatchItem } from './parse.js';

/** Below this many changed files a build parses inline; above it, on every core. */
export const PARALLEL_PARSE_MIN_FILES = 256;
/**
 * Sources per batch. Small batches keep the threads busy to the end (issue 14: with 64, a cold
 * build of fastify's package left the parse thread idle for a second while the build worker
 * parsed its last big batch).
 */
const PARSE_BATCH_FILES = 16;

let parsePool: Piscina | null = null;

/**
 * Parses batches on every core, so only one extra copy of a compiler is loaded on a 2-core machine.
 * @param onBatch called with the number of sources done after each finished batch
 * @returns the items in the order of `task.entries`
 */
export async function parseInParallel(task: ParseBatchTask, onBatch: (done: number) => void): Promise<ParsedBatchItem[]> {
  parsePool ??= createParsePool();
  const pool = parsePool;
  // Largest files first, so the last batches are the small ones and both threads finish together.
  const bySize = task.entries.map((entry, index) => ({ entry, index })).sort((a, b) => b.entry.size - a.entry.size || a.index - b.index);
  const batches: SourceEntry[][] = [];
  for (let i = 0; i < bySize.length; i += PARSE_BATCH_FILES) batches.push(bySize.slice(i, i + PARSE_BATCH_FILES).map((x) => x.entry));
  const results: ParsedBatchItem[][] = new Array<ParsedBatchItem[]>(batches.length);
  let next = 0;
  let done = 0;
  const batchTask = (entries: SourceEntry[]): ParseBatchTask => {
    const knownHashes: Record<string, string> = {};
    for (const entry of entries) if (task.knownHashes[entry.path] !== undefined) knownHashes[entry.path] = task.knownHashes[entry.path]!;
    return { ...task, entries, knownHashes };
  };
  const finish = (index: number, items: ParsedBatchItem[]): void => {
    results[index] = items;
    done += batches[index]!.length;
    onBatch(done);
  };
  const remote = async (): Promise<void> => {
    while (next < batches.length) {
      const index = next++;
      finish(index, (await pool.run(batchTask(batches[index]!))) as ParsedBatchItem[]);
    }
  };
  // Two requests per parse thread: the next batch already waits in the thread's port while the
  // build worker's event loop is busy parsing its own batch (concurrentTasksPerWorker below).
  const remotes = Array.from({ length: 2 * Math.max(1, availableParallelism() - 1) }, () => remote());
  while (next < batches.length) {
    const index = next++;
    finish(index, await parseBatch(batchTask(batches[index]!)));
    // Let finished remote batches be collected between local ones.
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  await Promise.all(remotes);
  const byPath = new Map<string, ParsedBatchItem>();
  for (const items of results) for (const item of items) byPath.set(item.entry.path, item);
  return task.entries.map((entry) => byPath.get(entry.path)!);
}

function createParsePool(): Piscina {
  const pool = new Piscina({
    filename: new URL('./parse-worker.js', import.meta.url).href,
    minThreads: 0,
    maxThreads: Math.max(1, availableParallelism() - 1),
    // Parsing is synchronous: a second task only queues in the thread, it never runs concurrently.
    concurrentTasksPerWorker: 2,
    // Threads exit when idle so a quiet server does not keep parser heaps alive.
    idleTimeout: 5_000,
  });
  // An unhandled pool 'error' event would kill the process (DESIGN.md section 8).
  pool.on('error', () => undefined);
  return pool;
}
