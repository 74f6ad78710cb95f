/**
 * The graph steps of a build: link code across files per adapter, then resolve ids, links and
 * relations of every source into one graph (@docforge/project `resolveGraph`).
 */
import { appendAll, mergeLinkOutputs, type CodeLinker, type FileLinkOutput, type GraphEdge, type LinkInput, type ModuleResolver, type SourceIssue } from '@docforge/core';
import { codeSourcePathMatcher, IncrementalResolver, resolveGraph, type Descriptor, type ResolvedGraph, type ResolveInput, type ResolveSource } from '@docforge/project';
import { codeExtensionsOf } from '@docforge/identity';
import { codeLinker } from '@docforge/identity';
import { DependencyRecorder } from '@docforge/identity';
import type { CachedSource } from './build-types.js';
import { linkDataPresent } from './lazy-link-data.js';
import type { StoredLinkCache } from '@docforge/store';
import { projectTextProblem, readProjectText } from './parse.js';
import { mergeCapabilityMaps } from './project-adapter.js';
import { withReviews } from './build-reviews.js';

/** What the link step found: cross-file edges and issues, capabilities by node id, and the set of code paths. */
export interface LinkedCode {
  edges: GraphEdge[];
  issues: SourceIssue[];
  capabilities: Map<string, string[]>;
  codePaths: Set<string>;
  /** Per calling node id, call sites without a proven target (LinkResult `unresolved_calls`); ids with none are absent. */
  unresolvedCalls: Map<string, number>;
  /** How many code files were linked again (the others kept their previous outputs). */
  linkedFiles: number;
  /** Public API names of the project's packages and the declarations they prove (LinkResult `api`), merged over adapters. */
  api: Map<string, string[]>;
}

/** What the worker keeps per adapter between builds to re-link only what a change can affect (issue 14). */
interface AdapterLinkCache {
  root: string;
  /** Per path, that file's own link output. */
  outputs: Map<string, FileLinkOutput>;
  /** Per path, the content hash its output was linked from. */
  hashes: Map<string, string>;
  /** Per path, the source its output was linked from (its `link_data` is read only when asked: lazy-link-data.ts). */
  linkData: Map<string, CachedSource>;
  /** Project texts the linker read (package.json, tsconfig.json) and what they held. */
  texts: Map<string, string | null>;
  /** The code paths of every adapter the resolver answered for. */
  codePaths: ReadonlySet<string>;
  /**
   * The `[sources].exclude` globs (JSON) the outputs were linked under (an unresolved import names the
   * one matching); null when restored at a warm start, which checked the descriptor is unchanged.
   */
  excludes: string | null;
}

/**
 * What a build worker keeps between builds for the link and resolve steps (issue 14): per adapter,
 * the link outputs; the incremental resolver and the linked edges it last resolved. One instance
 * per set of build caches (build-caches.ts).
 */
export class LinkCaches {
  /** Per code adapter id, its link outputs and what they were linked from. */
  readonly adapters = new Map<string, AdapterLinkCache>();
  /** The worker's incremental resolver, used once a build can write a delta; null until then. */
  resolver: IncrementalResolver | null = null;
  /** The linked code edges of the last resolution (an edit that re-links code is resolved from scratch). */
  lastLinkedEdges: readonly GraphEdge[] | null = null;
  /** The public API names of the last resolution (a change in them is resolved from scratch, as one in the edges). */
  lastApi: ReadonlyMap<string, readonly string[]> | null = null;

  /**
   * Drops the per-adapter link outputs and the incremental resolver kept between builds (with the
   * parse caches: descriptor or policy changed).
   */
  reset(): void {
    this.adapters.clear();
    this.resolver = null;
    this.lastLinkedEdges = null;
    this.lastApi = null;
  }

  /** The link caches in their stored form (link-cache-store.ts), for the sources of the build just published; empty when there are none. */
  forStore(): StoredLinkCache[] {
    return [...this.adapters].map(([adapter, cache]) => ({
      adapter, root: cache.root, outputs: [...cache.outputs], hashes: [...cache.hashes], texts: [...cache.texts], codePaths: [...cache.codePaths],
    }));
  }

  /**
   * Restores stored link caches (link-cache-store.ts) into caches that have none, after a warm
   * start from the publication they are bound to. A cache is restored only when it describes exactly
   * the warmed sources of its adapter: the same paths with the same content hashes, each with an
   * output; its link data is then the warmed sources' own (the parse of those very contents). A
   * cache that does not match is dropped, and that adapter links every file. Returns the ids of the
   * adapters restored.
   */
  restore(root: string, stored: readonly StoredLinkCache[], sources: ReadonlyMap<string, CachedSource>): string[] {
    const restored: string[] = [];
    for (const cache of stored) {
      if (cache.root !== root || this.adapters.has(cache.adapter)) continue;
      const mine = [...sources.values()].filter((s) => s.adapter === cache.adapter);
      const hashes = new Map(cache.hashes);
      const outputs = new Map(cache.outputs);
      if (hashes.size !== mine.length || outputs.size !== mine.length) continue;
      if (!mine.every((s) => hashes.get(s.entry.path) === s.content_hash && outputs.has(s.entry.path))) continue;
      this.adapters.set(cache.adapter, {
        root, outputs, hashes, linkData: new Map(mine.map((s) => [s.entry.path, s])), texts: new Map(cache.texts), codePaths: new Set(cache.codePaths), excludes: null,
      });
      restored.push(cache.adapter);
    }
    return restored;
  }
}

function sameElements<T>(a: readonly T[], b: readonly T[] | null): boolean {
  if (b === null || a.length !== b.length) return false;
  for (let index = 0; index < a.length; index += 1) if (a[index] !== b[index]) return false;
  return true;
}

/**
 * A source as a linker receives it: `link_data` is read from the source only when the linker reads
 * it (a warmed source parses it then: lazy-link-data.ts), and `link_data_present` says whether there
 * is any without reading it.
 */
function linkInput(source: CachedSource): LinkInput {
  return {
    path: source.entry.path,
    nodes: source.nodes,
    get link_data(): unknown {
      return source.link_data;
    },
    link_data_present: linkDataPresent(source),
  };
}

function sameApi(a: ReadonlyMap<string, readonly string[]>, b: ReadonlyMap<string, readonly string[]> | null): boolean {
  if (b === null || a.size !== b.size) return false;
  for (const [name, ids] of a) if (!sameElements(ids, b.get(name) ?? null)) return false;
  return true;
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Links one adapter's files, incrementally when the adapter supports it and this worker linked the
 * same root before with the same project texts: only changed, added and removed files and the files
 * reaching them through imports are linked again; the others keep their previous output. The merge
 * is what the adapter's full `link` returns (edges sorted and unique, issues in path order).
 */
function linkAdapter(
  caches: LinkCaches, root: string, adapter: CodeLinker, sources: readonly CachedSource[], resolver: ModuleResolver, codePaths: ReadonlySet<string>, excludes: string,
): { edges: GraphEdge[]; issues: SourceIssue[]; capabilities: Record<string, string[]>; unresolved: Record<string, number>; linked: number; api: Record<string, string[]> } {
  const files = sources.map(linkInput);
  if (adapter.linkFiles === undefined) {
    const result = adapter.link(files, resolver);
    return { edges: result.edges, issues: result.issues, capabilities: result.capabilities ?? {}, unresolved: result.unresolved_calls ?? {}, linked: files.length, api: result.api ?? {} };
  }
  const recorded = new Map<string, string | null>();
  const recording: ModuleResolver = {
    hasFile: (p) => resolver.hasFile(p),
    readText: (p) => {
      if (!recorded.has(p)) recorded.set(p, resolver.readText(p));
      return recorded.get(p)!;
    },
    unreadable: (p) => resolver.unreadable?.(p) ?? null,
    excludedBy: (p) => resolver.excludedBy?.(p) ?? null,
    ...(resolver.options === undefined ? {} : { options: resolver.options }),
  };
  const cache = caches.adapters.get(adapter.id);
  let usable = cache !== undefined && cache.root === root && (cache.excludes === null || cache.excludes === excludes);
  if (usable) for (const [p, text] of cache!.texts) if (resolver.readText(p) !== text) usable = false;
  const hashes = new Map(sources.map((s) => [s.entry.path, s.content_hash]));
  const linkData = new Map<string, CachedSource>(sources.map((s) => [s.entry.path, s]));
  const previousSources = usable ? cache!.linkData : null;
  let plan = previousSources !== null ? {
    changed: new Set(sources.filter((s) => cache!.hashes.get(s.entry.path) !== s.content_hash).map((s) => s.entry.path)),
    previous: cache!.outputs,
    pathsChanged: cache!.codePaths.size !== codePaths.size || [...codePaths].some((p) => !cache!.codePaths.has(p)),
    previousLinkData: { get: (p: string): unknown => previousSources.get(p)?.link_data },
  } : null;
  let result = adapter.linkFiles(files, recording, plan);
  if (!result.reusable && plan !== null) {
    // A cycle or the depth limit was reached: results may depend on the linking order, so link everything.
    plan = null;
    result = adapter.linkFiles(files, recording, null);
  }
  const outputs = new Map<string, FileLinkOutput>();
  for (const path of [...hashes.keys()].sort(compareText)) {
    const output = result.files.get(path) ?? (plan !== null ? plan.previous.get(path) : undefined);
    if (output !== undefined) outputs.set(path, output);
  }
  if (result.reusable) {
    caches.adapters.set(adapter.id, { root, outputs, hashes, linkData, texts: plan !== null ? new Map([...cache!.texts, ...recorded]) : recorded, codePaths: new Set(codePaths), excludes });
  } else {
    caches.adapters.delete(adapter.id);
  }
  const { edges, issues, unresolved } = mergeLinkOutputs(outputs.values());
  // Whole-input findings (public_api_bounded, malformed_package_json) come with every call, never from a kept output.
  appendAll(issues, result.api_issues ?? []);
  return { edges, issues, capabilities: result.capabilities, unresolved, linked: result.files.size, api: result.api ?? {} };
}

/**
 * Links the code sources of each loaded adapter across files (imports, calls, heritage); with an
 * incremental adapter, only what the changed files can affect (see {@link linkAdapter}). Every
 * project text a linker reads (also to check its link cache) is first recorded in `dependencies`
 * (build-dependencies.ts), so the published identity covers it. `exclude`: the descriptor's
 * `[sources].exclude` globs and the one matching a path (`excludeGlobOf`), answered to linkers as
 * `ModuleResolver.excludedBy`; link outputs are reused only under the same globs.
 */
export function linkCode(
  caches: LinkCaches, root: string, current: ReadonlyMap<string, CachedSource>, dependencies: DependencyRecorder | null = null,
  options: Readonly<Record<string, Readonly<Record<string, unknown>>>> = {},
  exclude: { globs: readonly string[]; matching: (rel: string) => string | null } = { globs: [], matching: () => null },
): LinkedCode {
  const linked: LinkedCode = { edges: [], issues: [], capabilities: new Map(), codePaths: new Set(), unresolvedCalls: new Map(), linkedFiles: 0, api: new Map() };
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
    readText: (p: string): string | null => {
      dependencies?.read(p);
      return readProjectText(root, p);
    },
    unreadable: (p: string): string | null => projectTextProblem(root, p),
    excludedBy: exclude.matching,
    options,
  };
  for (const [id, sources] of byAdapter) {
    const adapter = codeLinker(id);
    if (!adapter) continue;
    const result = linkAdapter(caches, root, adapter, sources, resolver, linked.codePaths, JSON.stringify(exclude.globs));
    linked.linkedFiles += result.linked;
    appendAll(linked.edges, result.edges);
    appendAll(linked.issues, result.issues);
    mergeCapabilityMaps(linked.capabilities, result.capabilities);
    mergeCapabilityMaps(linked.api, result.api);
    for (const [owner, count] of Object.entries(result.unresolved)) {
      if (Number.isInteger(count) && count > 0) linked.unresolvedCalls.set(owner, (linked.unresolvedCalls.get(owner) ?? 0) + count);
    }
  }
  return linked;
}

/** The resolver's input for the sources of a build and its linked code edges; `pathExists` answers are recorded in `dependencies`. */
function resolveInput(descriptor: Descriptor, current: ReadonlyMap<string, CachedSource>, linked: LinkedCode, dependencies: DependencyRecorder | null): ResolveInput {
  const sources: ResolveSource[] = [{ path: '\u0000link', nodes: [], edges: linked.edges, links: [], api: linked.api }];
  for (const s of current.values()) sources.push({ path: s.entry.path, nodes: s.nodes, edges: s.edges, links: s.links, content_hash: s.content_hash });
  const isCodeSourcePath = codeSourcePathMatcher(descriptor, codeExtensionsOf(descriptor.adapter.code));
  // realpath only (never read): an extensionless link to an existing non-page file or directory
  // inside the root is no broken_link; one reaching outside through a link counts as missing.
  const probe = dependencies ?? new DependencyRecorder(descriptor.root);
  const pathExists = (rel: string): boolean => probe.exists(rel);
  return { descriptor, sources, codePaths: linked.codePaths, isCodeSourcePath, pathExists };
}

/**
 * Resolves every source plus the linked code edges into one graph. The pseudo-source of linked
 * edges sorts first, so resolveGraph sees sources in path order and need not sort. A link to a
 * path where the walk would have found a code file of the configured adapters, but did not, is a
 * `broken_link`; so is an extensionless link naming no page and no existing path (realpath only;
 * each path asked is recorded in `dependencies`, build-dependencies.ts).
 * With `incremental` (a build that can write a delta) and the same linked code edges as the last
 * call, the worker's {@link IncrementalResolver} resolves again only what changed since its last
 * call (the same graph); otherwise from scratch, and the incremental state is dropped. Call {@link LinkCaches.reset} when the descriptor changes.
 */
export function resolveSources(
  caches: LinkCaches, descriptor: Descriptor, current: ReadonlyMap<string, CachedSource>, linked: LinkedCode, incremental = false, dependencies: DependencyRecorder | null = null,
): ResolvedGraph {
  const input = resolveInput(descriptor, current, linked, dependencies);
  // Re-linked code changes many code edges at once (the pseudo-source of linked edges): resolving
  // from scratch is then cheaper than the incremental bookkeeping, so only edits that leave the
  // linked edges as they were (documentation, or code whose links did not change) go incremental.
  const linkedSame = sameElements(linked.edges, caches.lastLinkedEdges) && sameApi(linked.api, caches.lastApi);
  caches.lastLinkedEdges = linked.edges;
  caches.lastApi = linked.api;
  let graph: ResolvedGraph;
  if (!incremental || !linkedSame) {
    caches.resolver = null;
    graph = resolveGraph(input);
  } else {
    caches.resolver ??= new IncrementalResolver();
    graph = caches.resolver.update(input);
  }
  // Review stamps join the relations they name (issue 32 item 1); unmatched ones are findings.
  const reviewed = withReviews(graph, current);
  return reviewed.issues.length === 0 ? reviewed.graph : { ...reviewed.graph, issues: [...reviewed.graph.issues, ...reviewed.issues] };
}

/**
 * Primes the caches' {@link IncrementalResolver} with the sources and linked code edges of the
 * last build, which resolved from scratch: its first, fuller pass (about twice a plain resolution)
 * then runs while the worker is idle instead of inside the next one-file edit. Returns the token
 * of the primed output (the same graph as that build's), or null when there is nothing to prime:
 * a resolver is already active, `linked` is not the last build's, or the pass failed. Never throws.
 */
export function primeResolver(caches: LinkCaches, descriptor: Descriptor, current: ReadonlyMap<string, CachedSource>, linked: LinkedCode): object | null {
  if (caches.resolver !== null || linked.edges !== caches.lastLinkedEdges) return null;
  const resolver = new IncrementalResolver();
  caches.resolver = resolver;
  try {
    return resolver.update(resolveInput(descriptor, current, linked, null)).delta?.token ?? null;
  } catch {
    // A failed pass leaves no resolver: the next build resolves from scratch, as without one.
    caches.resolver = null;
    return null;
  }
}
