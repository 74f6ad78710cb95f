/**
 * The graph steps of a build: link code across files per adapter, then resolve ids, links and
 * relations of every source into one graph (@docforge/project `resolveGraph`).
 */
import { realpathSync } from 'node:fs';
import path from 'node:path';
import type { GraphEdge, SourceIssue } from '@docforge/core';
import { codeSourcePathMatcher, resolveGraph, type Descriptor, type ResolvedGraph, type ResolveSource } from '@docforge/project';
import { codeExtensionsOf } from './adapter-manifests.js';
import { codeAdapter } from './adapter-registry.js';
import type { CachedSource } from './build-types.js';
import { readProjectText } from './parse.js';
import { mergeCapabilityMaps } from './project-adapter.js';

/** What the link step found: cross-file edges and issues, capabilities by node id, and the set of code paths. */
export interface LinkedCode {
  edges: GraphEdge[];
  issues: SourceIssue[];
  capabilities: Map<string, string[]>;
  codePaths: Set<string>;
  /** Per calling node id, call sites without a proven target (LinkResult `unresolved_calls`); ids with none are absent. */
  unresolvedCalls: Map<string, number>;
}

/** Links the code sources of each loaded adapter across files (imports, calls, heritage). */
export function linkCode(root: string, current: ReadonlyMap<string, CachedSource>): LinkedCode {
  const linked: LinkedCode = { edges: [], issues: [], capabilities: new Map(), codePaths: new Set(), unresolvedCalls: new Map() };
  const byAdapter = new Map<string, CachedSource[]>();
  for (const source of current.values()) {
    if (source.adapter === null) continue;
    linked.codePaths.add(source.entry.path);
    const list = byAdapter.get(source.adapter) ?? [];
    list.push(source);
    byAdapter.set(source.adapter, list);
  }
  const resolver = {
    hasFile: (p: string): boolean => linked.codePaths.has(p),
    readText: (p: string): string | null => readProjectText(root, p),
  };
  for (const [id, sources] of byAdapter) {
    const adapter = codeAdapter(id);
    if (!adapter) continue;
    const result = adapter.link(sources.map((s) => ({ path: s.entry.path, nodes: s.nodes, link_data: s.link_data })), resolver);
    linked.edges.push(...result.edges);
    linked.issues.push(...result.issues);
    mergeCapabilityMaps(linked.capabilities, result.capabilities);
    for (const [owner, count] of Object.entries(result.unresolved_calls ?? {})) {
      if (Number.isInteger(count) && count > 0) linked.unresolvedCalls.set(owner, (linked.unresolvedCalls.get(owner) ?? 0) + count);
    }
  }
  return linked;
}

/**
 * Resolves every source plus the linked code edges into one graph. The pseudo-source of linked
 * edges sorts first, so resolveGraph sees sources in path order and need not sort. A link to a
 * path where the walk would have found a code file of the configured adapters, but did not, is a
 * `broken_link`; so is an extensionless link naming no page and no existing path (lstat only).
 */
export function resolveSources(descriptor: Descriptor, current: ReadonlyMap<string, CachedSource>, linked: LinkedCode): ResolvedGraph {
  const sources: ResolveSource[] = [{ path: '\u0000link', nodes: [], edges: linked.edges, links: [] }];
  for (const s of current.values()) sources.push({ path: s.entry.path, nodes: s.nodes, edges: s.edges, links: s.links });
  const isCodeSourcePath = codeSourcePathMatcher(descriptor, codeExtensionsOf(descriptor.adapter.code));
  // realpath only (never read): an extensionless link to an existing non-page file or directory
  // inside the root is no broken_link; one reaching outside through a link counts as missing.
  let rootReal: string | null = null;
  const pathExists = (rel: string): boolean => {
    try {
      rootReal ??= realpathSync(descriptor.root);
      const real = realpathSync(path.join(descriptor.root, rel));
      return real === rootReal || real.startsWith(rootReal.endsWith(path.sep) ? rootReal : rootReal + path.sep);
    } catch {
      return false;
    }
  };
  return resolveGraph({ descriptor, sources, codePaths: linked.codePaths, isCodeSourcePath, pathExists });
}
