/**
 * Piscina worker entry for parallel parsing: reads, hashes and parses a batch of changed sources
 * for the build worker (cold builds and large changes use every core).
 */
import { loadBuiltinAdapter } from './adapter-loader.js';
import { setAdapterLoader } from './adapter-registry.js';
import { guardStdout } from './stdout-guard.js';
import { parseBatch, type ParseBatchTask, type ParsedBatchItem } from './parse.js';

// Code loaded in this thread (adapters and what they import) never reaches stdout (MCP frames only).
guardStdout();
setAdapterLoader(loadBuiltinAdapter);

/** Parses one batch; never rejects for bad sources (they become issues). */
export default async function parse(task: ParseBatchTask): Promise<ParsedBatchItem[]> {
  return parseBatch(task);
}
