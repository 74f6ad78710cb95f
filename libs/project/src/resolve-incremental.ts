/**
 * Incremental graph resolution (issue 14): the same graph as {@link resolveGraph} of resolve.ts,
 * recomputed only where a change can reach. The resolver keeps, per source, what it contributed
 * (candidate edges, issues, mention counts) and every lookup it made (node ids, paths, the code
 * name tables, the file system); per node id, its definitions in path order. An update finds the
 * sources whose parse changed, recomputes the winners of the ids they define, and resolves again
 * only the changed sources and those whose lookups saw a winner, path or name table that changed
 * (and every source that consulted the file system, which can change unseen). Buckets of candidate
 * edges are merged again only for the source ids they touched.
 */
import { appendAll, type GraphEdge, type GraphNode, type SourceIssue } from '@docforge/core';
import { allowedRelations, type ResolveDelta, type ResolvedGraph, type ResolveInput } from './resolve.js';
import {
  codeNames, compare, compareIssues, finishBucket, resolveSourceRefs, sameCodeNames,
  type CodeNames, type MentionCounts, type RefContext, type RefRecorder, type ResolveSource,
} from './resolve-refs.js';

/** What the resolver remembers of one source. */
interface SourceState {
  source: ResolveSource;
  /** Its nodes by start line (stable), as the duplicate-id pass sees them. */
  ordered: readonly GraphNode[];
  candidates: GraphEdge[];
  issues: SourceIssue[];
  counts: MentionCounts;
  ids: Set<string>;
  paths: Set<string>;
  names: boolean;
  fileSystem: boolean;
  /** A pseudo-source (path starting with NUL, the linked code edges) looked up some `code:` id; those are not recorded one by one. */
  anyCode: boolean;
}

/** Paths of pseudo-sources (linked code edges): their many `code:` lookups are recorded as one coarse dependency. */
function pseudoSource(path: string): boolean {
  return path.startsWith('\u0000');
}

/** One source id's merged edges and their `undeclared_relation` warnings. */
interface FinishedBucket {
  edges: GraphEdge[];
  issues: SourceIssue[];
  mentions: number;
}

function sameArray<T>(a: readonly T[], b: readonly T[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let index = 0; index < a.length; index += 1) if (a[index] !== b[index]) return false;
  return true;
}

function byStartLine(nodes: readonly GraphNode[]): readonly GraphNode[] {
  return nodes.length > 1 ? [...nodes].sort((a, b) => a.start_line - b.start_line) : nodes;
}

function addTo(index: Map<string, Set<string>>, key: string, path: string): void {
  const set = index.get(key);
  if (set === undefined) index.set(key, new Set([path]));
  else set.add(path);
}

function removeFrom(index: Map<string, Set<string>>, key: string, path: string): void {
  const set = index.get(key);
  if (set === undefined) return;
  set.delete(path);
  if (set.size === 0) index.delete(key);
}

/** What changed between the previous input and this one. */
interface SourceChanges {
  incoming: Map<string, ResolveSource>;
  /** Paths of sources new or with new nodes, edges or links. */
  changed: string[];
  /** Paths of sources gone. */
  removed: string[];
  /** `changed` and `removed`: sources whose previous contribution is dropped. */
  replaced: Set<string>;
  /** Nodes of each changed source by start line. */
  ordered: Map<string, readonly GraphNode[]>;
}

/** The `duplicate_id` error of a definition that lost to `winner`. */
function duplicateIssue(id: string, def: { path: string; node: GraphNode }, winner: GraphNode): SourceIssue {
  return {
    severity: 'error',
    code: 'duplicate_id',
    message: `${def.path}:${def.node.start_line}: duplicate id "${id}" (already defined at ${winner.source_path}:${winner.start_line}); this definition is ignored`,
    path: def.path,
    line: def.node.start_line,
    node_id: id,
  };
}

/** Resolves one source afresh, recording its lookups (a pseudo-source's `code:` lookups as one coarse dependency). */
function resolveSource(path: string, source: ResolveSource, ordered: readonly GraphNode[], ctx: RefContext): SourceState {
  const state: SourceState = {
    source, ordered,
    candidates: [], issues: [], counts: { edges: 0, linked: 0, bare_leaf: 0, ambiguous: 0 },
    ids: new Set(), paths: new Set(), names: false, fileSystem: false, anyCode: false,
  };
  const coarse = pseudoSource(path);
  const recorder: RefRecorder = {
    id: (id) => {
      if (coarse && id.startsWith('code:')) state.anyCode = true;
      else state.ids.add(id);
    },
    path: (p) => state.paths.add(p),
    names: () => { state.names = true; },
    fileSystem: () => { state.fileSystem = true; },
  };
  resolveSourceRefs(source, ctx, (edge) => state.candidates.push(edge), state.issues, state.counts, recorder);
  return state;
}

/**
 * A resolver that keeps its state between calls: `update` returns exactly what `resolveGraph`
 * returns for the same input, doing work in proportion to what changed since the previous call.
 * Sources are compared by the identity of their `nodes`, `edges` and `links` elements, so a
 * changed source must come with new objects (parses are never mutated in place).
 */
export class IncrementalResolver {
  private relationsKey: string | null = null;
  private readonly sources = new Map<string, SourceState>();
  /** Source paths in path order (null: rebuild on use). */
  private order: string[] | null = null;
  /** Per node id: its definitions in (path, start line) order; the first wins. */
  private readonly definers = new Map<string, { path: string; node: GraphNode }[]>();
  private readonly winners = new Map<string, GraphNode>();
  private readonly lost = new Map<string, Set<string>>();
  private readonly duplicates = new Map<string, SourceIssue[]>();
  private readonly firstNodeOf = new Map<string, string>();
  private readonly sourcePaths = new Set<string>();
  private codePaths = new Set<string>();
  private readonly idDependents = new Map<string, Set<string>>();
  private readonly pathDependents = new Map<string, Set<string>>();
  private readonly namesDependents = new Set<string>();
  private readonly fileSystemDependents = new Set<string>();
  /** Pseudo-sources depending on every `code:` id (see `anyCode`). */
  private readonly codeDependents = new Set<string>();
  private names: CodeNames | null = null;
  /** Per source id: candidate edges per contributing source path. */
  private readonly buckets = new Map<string, Map<string, GraphEdge[]>>();
  private readonly finished = new Map<string, FinishedBucket>();
  private readonly totals: MentionCounts = { edges: 0, linked: 0, bare_leaf: 0, ambiguous: 0 };
  private nodes: GraphNode[] = [];
  /** Identifies the last output (null after `clear`). */
  private token: object | null = null;

  /**
   * Resolves `input` (same contract as `resolveGraph`; sources may come in any order) and
   * remembers it for the next call. The returned arrays are new; their elements are shared.
   */
  update(input: ResolveInput): ResolvedGraph {
    const relationsKey = JSON.stringify(input.descriptor.vocabulary.relations);
    if (this.relationsKey !== relationsKey) this.clear();
    this.relationsKey = relationsKey;
    const base = this.token;
    const changes = this.diffSources(input);
    const touched = this.updateDefinitions(changes);
    const { changedIds, idsChanged } = this.updateWinners(touched, changes.replaced);
    const changedPaths = this.updatePaths(input, changes);
    const namesChanged = this.updateNames(changes, changedIds);
    const dirtyBuckets = this.resolveDirty(input, changes, changedIds, changedPaths, namesChanged);
    const buckets = this.mergeBuckets(input, dirtyBuckets);
    return this.assemble(base, changedIds, idsChanged, buckets);
  }

  /** Step 1: which sources changed, appeared or disappeared (an unchanged source keeps its state, with the new input object). */
  private diffSources(input: ResolveInput): SourceChanges {
    const incoming = new Map<string, ResolveSource>();
    for (const source of input.sources) incoming.set(source.path, source);
    const changed: string[] = [];
    const removed: string[] = [];
    for (const [path, source] of incoming) {
      const state = this.sources.get(path);
      if (state === undefined || !sameArray(state.source.nodes, source.nodes) || !sameArray(state.source.edges, source.edges) || !sameArray(state.source.links, source.links)) {
        changed.push(path);
      } else {
        state.source = source;
      }
    }
    for (const path of this.sources.keys()) if (!incoming.has(path)) removed.push(path);
    if (changed.length > 0 || removed.length > 0) this.order = null;
    const ordered = new Map<string, readonly GraphNode[]>();
    for (const path of changed) ordered.set(path, byStartLine(incoming.get(path)!.nodes));
    return { incoming, changed, removed, replaced: new Set([...changed, ...removed]), ordered };
  }

  /**
   * Step 2a: drops the definitions of replaced sources and inserts those of changed sources, each
   * id's list kept in path order. Returns every id defined before or after by a replaced source.
   */
  private updateDefinitions(changes: SourceChanges): Set<string> {
    const { changed, replaced, ordered } = changes;
    const touched = new Set<string>();
    for (const path of replaced) {
      const state = this.sources.get(path);
      if (state === undefined) continue;
      for (const node of state.ordered) touched.add(node.id);
    }
    for (const path of changed) for (const node of ordered.get(path)!) touched.add(node.id);
    for (const id of touched) {
      const before = this.definers.get(id) ?? [];
      for (const def of before.slice(1)) this.lost.get(def.path)?.delete(id);
      const after = before.filter((def) => !replaced.has(def.path));
      this.definers.set(id, after);
    }
    // New definitions, grouped per id in path order (the changed list is walked in path order).
    const additions = new Map<string, { path: string; node: GraphNode }[]>();
    for (const path of [...changed].sort(compare)) {
      for (const node of ordered.get(path)!) {
        const list = additions.get(node.id);
        if (list === undefined) additions.set(node.id, [{ path, node }]);
        else list.push({ path, node });
      }
    }
    for (const [id, defs] of additions) {
      const list = this.definers.get(id)!;
      for (const def of defs) {
        // After every definition of a path sorting before or equal to it (its own come in order).
        let at = list.length;
        while (at > 0 && compare(list[at - 1]!.path, def.path) > 0) at -= 1;
        list.splice(at, 0, def);
      }
    }
    return touched;
  }

  /**
   * Step 2b: the winner of each touched id (its first definition), the ids each source lost and
   * the `duplicate_id` errors. `idsChanged` when an id appeared or disappeared (the node list is
   * then sorted again rather than patched).
   */
  private updateWinners(touched: ReadonlySet<string>, replaced: ReadonlySet<string>): { changedIds: Set<string>; idsChanged: boolean } {
    const changedIds = new Set<string>();
    let idsChanged = false;
    for (const id of touched) {
      const defs = this.definers.get(id)!;
      const winner = defs[0]?.node;
      if (winner !== this.winners.get(id)) {
        changedIds.add(id);
        if (winner === undefined || !this.winners.has(id)) idsChanged = true;
        if (winner === undefined) this.winners.delete(id);
        else this.winners.set(id, winner);
      }
      if (defs.length === 0) this.definers.delete(id);
      const issues: SourceIssue[] = [];
      for (const def of defs.slice(1)) {
        let set = this.lost.get(def.path);
        if (set === undefined) this.lost.set(def.path, (set = new Set()));
        set.add(id);
        issues.push(duplicateIssue(id, def, winner!));
      }
      if (issues.length > 0) this.duplicates.set(id, issues);
      else this.duplicates.delete(id);
    }
    for (const path of replaced) if (this.lost.get(path)?.size === 0) this.lost.delete(path);
    return { changedIds, idsChanged };
  }

  /** Step 3: paths whose standing changed: sources added or removed, first nodes, code paths. */
  private updatePaths(input: ResolveInput, changes: SourceChanges): Set<string> {
    const changedPaths = new Set<string>();
    for (const path of changes.removed) {
      changedPaths.add(path);
      this.sourcePaths.delete(path);
      this.firstNodeOf.delete(path);
    }
    for (const path of changes.changed) {
      const first = changes.ordered.get(path)![0]?.id;
      if (!this.sourcePaths.has(path) || this.firstNodeOf.get(path) !== first) changedPaths.add(path);
      this.sourcePaths.add(path);
      if (first === undefined) this.firstNodeOf.delete(path);
      else this.firstNodeOf.set(path, first);
    }
    if (input.codePaths.size !== this.codePaths.size || [...input.codePaths].some((p) => !this.codePaths.has(p))) {
      for (const p of input.codePaths) if (!this.codePaths.has(p)) changedPaths.add(p);
      for (const p of this.codePaths) if (!input.codePaths.has(p)) changedPaths.add(p);
      this.codePaths = new Set(input.codePaths);
    }
    return changedPaths;
  }

  /** Step 4: whether the code name tables changed (rebuilt only when built before and code ids or `defines` edges changed). */
  private updateNames(changes: SourceChanges, changedIds: ReadonlySet<string>): boolean {
    if (this.names === null) return false;
    const definesChanged = [...changes.replaced].some((path) => {
      const before = this.sources.get(path)?.source.edges ?? [];
      const after = changes.incoming.get(path)?.edges ?? [];
      return before.some((e) => e.relation === 'defines') || after.some((e) => e.relation === 'defines');
    });
    // A replaced code file's nodes are new winners, so its copies (CodeNames.copies, by content hash) are rebuilt with them.
    if (!definesChanged && ![...changedIds].some((id) => id.startsWith('code:'))) return false;
    const before = this.names;
    this.names = null;
    return !sameCodeNames(before, this.currentNames(changes.incoming));
  }

  /**
   * Step 5: resolves again the changed sources and those whose recorded lookups a change reached
   * (and every source that consulted the file system); forgets removed sources. Returns the
   * source ids whose buckets of candidate edges changed.
   */
  private resolveDirty(
    input: ResolveInput, changes: SourceChanges, changedIds: ReadonlySet<string>, changedPaths: ReadonlySet<string>, namesChanged: boolean,
  ): Set<string> {
    const { incoming, removed, ordered } = changes;
    const codeIdChanged = [...changedIds].some((id) => id.startsWith('code:'));
    const dirty = new Set<string>(changes.changed);
    for (const id of changedIds) for (const path of this.idDependents.get(id) ?? []) dirty.add(path);
    // Links record the path they name, in NFC (libs/markdown markdown-facts.ts): a file named in NFD reaches them by its NFC form.
    for (const p of changedPaths) for (const key of new Set([p, p.normalize('NFC')])) for (const path of this.pathDependents.get(key) ?? []) dirty.add(path);
    if (namesChanged) for (const path of this.namesDependents) dirty.add(path);
    for (const path of this.fileSystemDependents) dirty.add(path);
    if (codeIdChanged) for (const path of this.codeDependents) dirty.add(path);
    const dirtyBuckets = new Set<string>();
    for (const path of [...dirty, ...removed]) this.forget(path, dirtyBuckets);
    for (const path of removed) this.sources.delete(path);
    const ctx: RefContext = {
      winners: this.winners, lost: this.lost, firstNodeOf: this.firstNodeOf, sourcePaths: this.sourcePaths, codePaths: this.codePaths,
      names: () => this.currentNames(incoming), isCodeSourcePath: input.isCodeSourcePath, pathExists: input.pathExists,
      contentRoots: input.descriptor.sources.content_roots,
    };
    for (const path of dirty) {
      const source = incoming.get(path);
      if (source === undefined) continue;
      const state = resolveSource(path, source, ordered.get(path) ?? this.sources.get(path)?.ordered ?? byStartLine(source.nodes), ctx);
      this.remember(path, state, dirtyBuckets);
    }
    return dirtyBuckets;
  }

  /** Step 6a: merges the touched buckets again; returns each one's edges before and after. */
  private mergeBuckets(input: ResolveInput, dirtyBuckets: ReadonlySet<string>): ResolveDelta['buckets'] {
    const bucketChanges = new Map<string, { before: readonly GraphEdge[]; after: readonly GraphEdge[] }>();
    const allowed = allowedRelations(input.descriptor);
    for (const id of dirtyBuckets) {
      const previous = this.finished.get(id);
      if (previous !== undefined) this.totals.edges -= previous.mentions;
      this.finished.delete(id);
      const contributors = this.buckets.get(id);
      bucketChanges.set(id, { before: previous?.edges ?? [], after: [] });
      if (contributors === undefined) continue;
      const bucket: GraphEdge[] = [];
      for (const path of [...contributors.keys()].sort(compare)) appendAll(bucket, contributors.get(path)!);
      const done: FinishedBucket = { edges: [], issues: [], mentions: 0 };
      finishBucket(bucket, allowed, done.edges, done.issues);
      for (const edge of done.edges) if (edge.mention !== undefined) done.mentions += 1;
      this.totals.edges += done.mentions;
      this.finished.set(id, done);
      bucketChanges.set(id, { before: previous?.edges ?? [], after: done.edges });
    }
    return bucketChanges;
  }

  /** Step 6b: the graph: nodes by id, each node's finished edges, every issue sorted, and the delta from `base`. */
  private assemble(base: object | null, changedIds: ReadonlySet<string>, idsChanged: boolean, buckets: ResolveDelta['buckets']): ResolvedGraph {
    if (idsChanged) {
      this.nodes = [...this.winners.values()].sort((a, b) => compare(a.id, b.id));
    } else {
      for (const id of changedIds) this.nodes[this.indexOf(id)] = this.winners.get(id)!;
    }
    const edges: GraphEdge[] = [];
    const issues: SourceIssue[] = [];
    for (const node of this.nodes) {
      const done = this.finished.get(node.id);
      if (done === undefined) continue;
      for (const edge of done.edges) edges.push(edge);
      for (const issue of done.issues) issues.push(issue);
    }
    for (const list of this.duplicates.values()) for (const issue of list) issues.push(issue);
    for (const state of this.sources.values()) for (const issue of state.issues) issues.push(issue);
    issues.sort(compareIssues);
    this.token = {};
    const delta: ResolveDelta = { base, token: this.token, nodes: changedIds, buckets };
    const { unproven_receiver: unproven, ...mentions } = this.totals;
    return { nodes: [...this.nodes], edges, issues, mentions: unproven ? { ...mentions, unproven_receiver: unproven } : mentions, delta };
  }

  /** Drops everything (the next update resolves every source). */
  clear(): void {
    this.token = null;
    this.sources.clear();
    this.order = null;
    this.definers.clear();
    this.winners.clear();
    this.lost.clear();
    this.duplicates.clear();
    this.firstNodeOf.clear();
    this.sourcePaths.clear();
    this.codePaths = new Set();
    this.idDependents.clear();
    this.pathDependents.clear();
    this.namesDependents.clear();
    this.fileSystemDependents.clear();
    this.codeDependents.clear();
    this.names = null;
    this.buckets.clear();
    this.finished.clear();
    Object.assign(this.totals, { edges: 0, linked: 0, bare_leaf: 0, ambiguous: 0, unproven_receiver: 0 });
    this.nodes = [];
  }

  private currentNames(incoming: ReadonlyMap<string, ResolveSource>): CodeNames {
    if (this.names === null) {
      this.order ??= [...incoming.keys()].sort(compare);
      this.names = codeNames(this.winners, this.order.map((path) => incoming.get(path)!));
    }
    return this.names;
  }

  private indexOf(id: string): number {
    let lo = 0;
    let hi = this.nodes.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const at = this.nodes[mid]!.id;
      if (at === id) return mid;
      if (at < id) lo = mid + 1;
      else hi = mid - 1;
    }
    throw new Error(`incremental resolver: node ${id} missing from the sorted nodes`);
  }

  /** Removes what a source contributed and its recorded lookups. */
  private forget(path: string, dirtyBuckets: Set<string>): void {
    const state = this.sources.get(path);
    if (state === undefined) return;
    for (const edge of state.candidates) {
      const contributors = this.buckets.get(edge.source_id);
      dirtyBuckets.add(edge.source_id);
      if (contributors === undefined) continue;
      contributors.delete(path);
      if (contributors.size === 0) this.buckets.delete(edge.source_id);
    }
    for (const id of state.ids) removeFrom(this.idDependents, id, path);
    for (const p of state.paths) removeFrom(this.pathDependents, p, path);
    this.namesDependents.delete(path);
    this.fileSystemDependents.delete(path);
    this.codeDependents.delete(path);
    this.totals.linked -= state.counts.linked;
    this.totals.bare_leaf -= state.counts.bare_leaf;
    this.totals.ambiguous -= state.counts.ambiguous;
    this.totals.unproven_receiver = (this.totals.unproven_receiver ?? 0) - (state.counts.unproven_receiver ?? 0);
    state.candidates = [];
    state.issues = [];
    state.counts = { edges: 0, linked: 0, bare_leaf: 0, ambiguous: 0 };
    state.ids = new Set();
    state.paths = new Set();
  }

  /** Records a freshly resolved source's contribution and lookups. */
  private remember(path: string, state: SourceState, dirtyBuckets: Set<string>): void {
    this.sources.set(path, state);
    for (const edge of state.candidates) {
      let contributors = this.buckets.get(edge.source_id);
      if (contributors === undefined) this.buckets.set(edge.source_id, (contributors = new Map()));
      const list = contributors.get(path);
      if (list === undefined) contributors.set(path, [edge]);
      else list.push(edge);
      dirtyBuckets.add(edge.source_id);
    }
    for (const id of state.ids) addTo(this.idDependents, id, path);
    for (const p of state.paths) addTo(this.pathDependents, p, path);
    if (state.names) this.namesDependents.add(path);
    if (state.fileSystem) this.fileSystemDependents.add(path);
    if (state.anyCode) this.codeDependents.add(path);
    this.totals.linked += state.counts.linked;
    this.totals.bare_leaf += state.counts.bare_leaf;
    this.totals.ambiguous += state.counts.ambiguous;
    this.totals.unproven_receiver = (this.totals.unproven_receiver ?? 0) + (state.counts.unproven_receiver ?? 0);
  }
}
