/**
 * Piscina worker entry: parses sources and builds index files off the MCP main thread
 * (DESIGN.md sections 1 and 7). One long-lived worker keeps the parse cache between builds.
 * Code adapters are imported on first use, so documentation-only projects never load a compiler.
 */
import type { CodeAdapter } from '@docforge/core';
import { runBuild, setAdapterLoader, type BuildOutcome, type BuildTask } from './build.js';

async function loadAdapter(id: string): Promise<CodeAdapter | null> {
  if (id === 'typescript') return (await import('@docforge/adapter-typescript')).typescriptAdapter;
  if (id === 'python') {
    const python = await import('@docforge/adapter-python');
    await python.initPythonAdapter();
    return python.pythonAdapter;
  }
  return null;
}

setAdapterLoader(loadAdapter);

/** Runs one build task; never rejects (errors come back as a structured outcome). */
export default async function build(task: BuildTask): Promise<BuildOutcome> {
  return runBuild(task);
}
