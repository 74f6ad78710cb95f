/**
 * Piscina worker entry for parallel parsing: reads, hashes and parses a batch of changed sources
 * for the build worker (builds of large code changes use every core; parse-pool.ts).
 */
import { loadBuiltinAdapter } from './adapter-loader.js';
import { ensureAdapters, setAdapterLoader } from '@docforge/identity';
import type { ParseWarmTask } from './parse-pool.js';
import { guardStdout } from '@docforge/stdio';
import { parseBatch, type ParseBatchTask, type ParsedBatchJson } from './parse.js';

// Code loaded in this thread (adapters and what they import) never reaches stdout (MCP frames only).
guardStdout();
setAdapterLoader(loadBuiltinAdapter);

/** Parses one batch, never rejecting for bad sources (they become issues), as JSON text (`ParsedBatchJson`); a warm task only loads adapters. */
export default async function parse(task: ParseBatchTask | ParseWarmTask): Promise<ParsedBatchJson> {
  if ('warm' in task) {
    await ensureAdapters(task.warm);
    return '[]';
  }
  return JSON.stringify(await parseBatch(task));
}
