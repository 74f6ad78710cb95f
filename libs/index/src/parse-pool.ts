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
/** Sources per batch handed to one parse thread. */
const PARSE_BATCH_FILES = 64;

let parsePool: Piscina | null = null;

/**
 * Parses batches on every core, so only one extra copy of a compiler is loaded on a 2-core machine.
 * @param onBatch called with the number of sources done after each finished batch
 * @returns the items in the order of `task.entries`
 */
export async function parseInParallel(task: ParseBatchTask, onBatch: (done: number) => void): Promise<ParsedBatchItem[]> {
  parsePool ??= createParsePool();
  const pool = parsePool;
  const batches: SourceEntry[][] = [];
  for (let i = 0; i < task.entries.length; i += PARSE_BATCH_FILES) batches.push(task.entries.slice(i, i + PARSE_BATCH_FILES));
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
  const remotes = Array.from({ length: Math.max(1, availableParallelism() - 1) }, () => remote());
  while (next < batches.length) {
    const index = next++;
    finish(index, await parseBatch(batchTask(batches[index]!)));
    // Let finished remote batches be collected between local ones.
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  await Promise.all(remotes);
  return results.flat();
}

function createParsePool(): Piscina {
  const pool = new Piscina({
    filename: new URL('./parse-worker.js', import.meta.url).href,
    minThreads: 0,
    maxThreads: Math.max(1, availableParallelism() - 1),
    // Threads exit when idle so a quiet server does not keep parser heaps alive.
    idleTimeout: 5_000,
  });
  // An unhandled pool 'error' event would kill the process (DESIGN.md section 8).
  pool.on('error', () => undefined);
  return pool;
}
