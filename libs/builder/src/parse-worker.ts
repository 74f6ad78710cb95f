/**
 * Piscina worker entry for parallel parsing: reads, hashes and parses a batch of changed sources
 * for the build worker (builds of large code changes use every core; parse-pool.ts).
 */
import { loadBuiltinAdapter } from './adapter-loader.js';
import { ensureAdapters, setAdapterLoader } from '@docforge/identity';
import type { ParseWarmTask } from './parse-pool.js';
import { guardStdout } from '@docforge/stdio';
import { parseBatch, type ParseBatchTask, type ParsedBatchItem } from './parse.js';

// Code loaded in this thread (adapters and what they import) never reaches stdout (MCP frames only).
guardStdout();
setAdapterLoader(loadBuiltinAdapter);

/** Parses one batch, never rejecting for bad sources (they become issues); a warm task only loads adapters. */
export default async function parse(task: ParseBatchTask | ParseWarmTask): Promise<ParsedBatchItem[]> {
  if ('warm' in task) {
    await ensureAdapters(task.warm);
    return [];
  }
  return parseBatch(task);
}
