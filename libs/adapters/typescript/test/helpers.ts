// Shared helpers for the adapter tests: compact renderings of Logic and in-memory resolvers.
import { extractTypeScript, linkTypeScript } from '../src/adapter.js';
import type { TsExtractResult } from '../src/index.js';
import type { LinkResult, ModuleResolver } from '@docforge/core';

/** Extracts a fixture with Logic on. */
export function extractWithLogic(path: string, content: string): TsExtractResult {
  return extractTypeScript({ path, content, strategy: 'ast', logic: true });
}

/** Steps of one owner as `step kind "label" start-end` lines. */
export function renderSteps(result: TsExtractResult, ownerId: string): string[] {
  return result.logic_steps
    .filter((s) => s.owner_id === ownerId)
    .map((s) => `${s.step} ${s.kind} ${JSON.stringify(s.label)} ${s.start_line}-${s.end_line}`);
}

/** Flows of one owner as `from>to kind[label]` strings, in stored order. */
export function renderFlows(result: TsExtractResult, ownerId: string): string[] {
  return result.logic_flows
    .filter((f) => f.owner_id === ownerId)
    .map((f) => `${f.from_step}>${f.to_step} ${f.kind}${f.label ? `[${f.label}]` : ''}`);
}

/** A resolver over an in-memory map of project-relative paths to text. */
export function memoryResolver(files: Readonly<Record<string, string>>): ModuleResolver {
  return {
    hasFile: (path) => Object.prototype.hasOwnProperty.call(files, path) && !path.endsWith('.json'),
    readText: (path) => (Object.prototype.hasOwnProperty.call(files, path) ? files[path]! : null),
  };
}

/** Extracts (strategy ast, no Logic) and links the in-memory `files` (path -> text) as one project. */
export function linkFiles(files: Record<string, string>): LinkResult {
  const inputs = Object.keys(files).sort()
    .map((p) => ({ path: p, ...extractTypeScript({ path: p, content: files[p]!, strategy: 'ast', logic: false }) }));
  return linkTypeScript(inputs, memoryResolver(files));
}

/** The sorted targets of the `calls` edges from `owner` in `result`. */
export function callsFrom(result: LinkResult, owner: string): string[] {
  return result.edges.filter((e) => e.relation === 'calls' && e.source_id === owner).map((e) => e.target_id).sort();
}
