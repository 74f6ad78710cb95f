/**
 * Piscina worker entry: parses sources and builds index files off the MCP main thread
 * (DESIGN.md sections 1 and 7). One long-lived worker keeps the parse cache between builds and
 * fans large parses out to a second pool (parse-worker.ts).
 */
import { loadBuiltinAdapter } from './adapter-loader.js';
import { setAdapterLoader } from './adapter-registry.js';
import { guardStdout } from './stdout-guard.js';
import { runBuild } from './build.js';
import type { BuildOutcome, BuildTask } from './build-types.js';

// Code loaded in this thread (adapters and what they import) never reaches stdout (MCP frames only).
guardStdout();
setAdapterLoader(loadBuiltinAdapter);

/** Runs one build task; never rejects (errors come back as a structured outcome). */
export default async function build(task: BuildTask): Promise<BuildOutcome> {
  return runBuild(task);
}
