/**
 * Piscina worker entry: parses sources and builds index files off the MCP main thread
 * (DESIGN.md sections 1 and 7). One long-lived worker keeps the parse cache between builds.
 */
import { typescriptAdapter } from '@docforge/adapter-typescript';
import { initPythonAdapter, pythonAdapter } from '@docforge/adapter-python';
import { registerCodeAdapter, runBuild, type BuildOutcome, type BuildTask } from './build.js';

let ready: Promise<void> | null = null;

async function prepare(): Promise<void> {
  registerCodeAdapter(typescriptAdapter);
  try {
    await initPythonAdapter();
    registerCodeAdapter(pythonAdapter);
  } catch {
    // Without its grammar the Python adapter is unavailable; adapter_version reports it.
  }
}

/** Runs one build task; never rejects (errors come back as a structured outcome). */
export default async function build(task: BuildTask): Promise<BuildOutcome> {
  ready ??= prepare();
  await ready;
  return runBuild(task);
}
