/**
 * The link half of the review findings (`suspect_link`, `drift_unreviewed_change`; build-reviews.ts),
 * computed per edge group and kept between builds of one worker (issue 35, "edits: state
 * proportional to the change"). A group is the run of edges of one source id in the graph's edge
 * order (the resolver assembles edges node by node). A group's findings and baseline keys depend
 * only on its edges, its source's origin and its targets' review hashes, and on the baseline's
 * first-seen hash of each of its keys; so a build whose resolution is a delta of the last one
 * recomputes only the groups whose edges are other objects, whose source node changed, or that
 * point at a node whose review hash or origin may have changed (a node the resolver's delta names,
 * or one of a source parsed again). Every other group's findings are the last build's. The output
 * (findings in edge order, the baseline links in edge order) is the one a computation from scratch
 * gives: a from-scratch computation is this one with nothing kept.
 *
 * The state is used only when (1) the graph's resolver delta is relative to the graph it was
 * computed for, (2) the baseline read is the very object the last build left in the baseline cache
 * (recorded, or unchanged), and (3) the edges of each source id are contiguous; otherwise everything
 * is computed again from the graph.
 */
import { edgeIdentityKey, type GraphEdge, type GraphNode, type NodeOrigin, type SourceIssue } from '@docforge/core';
import type { ResolvedGraph } from '@docforge/project';
import type { CachedSource } from './build-types.js';

/** The findings of one source id's edges and the baseline keys (with first-seen hashes) they keep. */
interface EdgeGroup {
  edges: readonly GraphEdge[];
  issues: readonly SourceIssue[];
  keys: readonly string[];
  firsts: readonly string[];
  /** The pass that last saw this group. */
  pass: number;
}

/** What {@link linkFindings} returns: findings in edge order, and the new links map when any key was added or dropped (else null). */
export interface LinkFindings {
  issues: SourceIssue[];
  links: Map<string, string> | null;
  /** Groups computed in this build (the rest were the last build's). */
  computed: number;
}

const NO_ISSUES: readonly SourceIssue[] = Object.freeze([]);

/** How to describe one finding (build-reviews.ts owns the wording). */
export type FindingMaker = (code: 'suspect_link' | 'drift_unreviewed_change', edge: GraphEdge, section: string | null, what: string) => SourceIssue;

/**
 * The per-group state of one worker (see the module comment). Owned by the build caches; a failed
 * or superseded build leaves it unusable for the next one by the token checks, never wrong.
 */
export class ReviewLinkState {
  /** The resolver token of the graph this state describes (null: none). */
  token: object | null = null;
  /** The baseline object the next build must read to use this state. */
  expected: object | null = null;
  sources: ReadonlyMap<string, CachedSource> | null = null;
  readonly hashes = new Map<string, string>();
  readonly origins = new Map<string, NodeOrigin>();
  readonly groups = new Map<string, EdgeGroup>();
  pass = 0;

  /**
   * Moves the state to the resolver output of token `to`, the same graph as the one built from
   * `current` (a resolver primed with that build's sources); nothing when the state describes another build.
   */
  retarget(current: ReadonlyMap<string, CachedSource>, to: object): void {
    if (this.sources === current) this.token = to;
  }

  /** Forgets everything (the next build computes from scratch). */
  clear(): void {
    this.token = null;
    this.expected = null;
    this.sources = null;
    this.hashes.clear();
    this.origins.clear();
    this.groups.clear();
  }
}

/** The index of node `id` in `nodes` sorted by id, or -1. */
function indexOfId(nodes: readonly GraphNode[], id: string): number {
  let lo = 0;
  let hi = nodes.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const at = nodes[mid]!.id;
    if (at === id) return mid;
    if (at < id) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/** Sets (or drops) the review hash and origin of node `id` from the graph and the sources. */
function refreshNode(state: ReviewLinkState, nodes: readonly GraphNode[], current: ReadonlyMap<string, CachedSource>, id: string): void {
  const at = indexOfId(nodes, id);
  state.hashes.delete(id);
  state.origins.delete(id);
  if (at === -1) return;
  const node = nodes[at]!;
  state.origins.set(id, node.origin);
  const hash = current.get(node.source_path)?.review_hashes?.find((r) => r.node_id === id)?.hash;
  if (hash !== undefined) state.hashes.set(id, hash);
}

/** Every node's review hash and origin, from scratch (the source that defines the winning node gives the hash). */
function refreshAll(state: ReviewLinkState, nodes: readonly GraphNode[], current: ReadonlyMap<string, CachedSource>): void {
  state.hashes.clear();
  state.origins.clear();
  const bySource = new Map<string, Map<string, string>>();
  for (const node of nodes) {
    state.origins.set(node.id, node.origin);
    let hashes = bySource.get(node.source_path);
    if (hashes === undefined) {
      hashes = new Map((current.get(node.source_path)?.review_hashes ?? []).map((r) => [r.node_id, r.hash]));
      bySource.set(node.source_path, hashes);
    }
    const hash = hashes.get(node.id);
    if (hash !== undefined) state.hashes.set(node.id, hash);
  }
}

/** Node ids whose hash or origin may differ from the state's: the resolver's changed ids and every node of a source parsed again or gone. */
function changedIds(state: ReviewLinkState, graph: ResolvedGraph, current: ReadonlyMap<string, CachedSource>): Set<string> {
  const ids = new Set<string>(graph.delta!.nodes);
  const addSource = (source: CachedSource | undefined): void => {
    for (const node of source?.nodes ?? []) ids.add(node.id);
    for (const r of source?.review_hashes ?? []) ids.add(r.node_id);
  };
  const previous = state.sources!;
  for (const [path, source] of current) {
    const before = previous.get(path);
    if (before !== source) {
      addSource(before);
      addSource(source);
    }
  }
  if (previous.size !== current.size || ids.size > 0) for (const [path, source] of previous) if (!current.has(path)) addSource(source);
  return ids;
}

/** Whether the state may be used for `graph` with `baseline` (see the module comment). */
function usable(state: ReviewLinkState, graph: ResolvedGraph, baseline: object): boolean {
  return state.token !== null && graph.delta !== undefined && graph.delta.base === state.token && state.expected === baseline && state.sources !== null;
}

/** One group's findings and keys, computed from its edges. */
function computeGroup(edges: readonly GraphEdge[], state: ReviewLinkState, before: ReadonlyMap<string, string>, make: FindingMaker, pass: number): EdgeGroup {
  const issues: SourceIssue[] = [];
  const keys: string[] = [];
  const firsts: string[] = [];
  for (const edge of edges) {
    const sourceOrigin = state.origins.get(edge.source_id);
    const target = state.hashes.get(edge.target_id);
    if (target === undefined || sourceOrigin === undefined || (sourceOrigin === 'code' && edge.reviews === undefined)) continue;
    for (const review of edge.reviews ?? []) {
      if (review.hash !== target) issues.push(make('suspect_link', edge, review.section, `suspect link: its review hash changed from ${review.hash} (stamped on line ${review.line}) to ${target}`));
    }
    if (sourceOrigin === 'code') continue;
    const key = edgeIdentityKey(edge);
    const first = before.get(key) ?? target;
    keys.push(key);
    firsts.push(first);
    if (edge.reviews === undefined && first !== target) {
      issues.push(make('drift_unreviewed_change', edge, null, `changed since DocForge first saw this link (review hash ${first}, now ${target}) and the link was never reviewed`));
    }
  }
  return { edges, issues: issues.length === 0 ? NO_ISSUES : issues, keys, firsts, pass };
}

/** Whether two edges are the same for a review finding: the fields {@link computeGroup} and the finding's wording read. */
function sameForReview(a: GraphEdge, b: GraphEdge): boolean {
  return a.source_id === b.source_id && a.relation === b.relation && a.target_id === b.target_id && a.source_path === b.source_path && a.line === b.line
    && (a.reviews === b.reviews || JSON.stringify(a.reviews) === JSON.stringify(b.reviews))
    && (a.mention === b.mention || JSON.stringify(a.mention) === JSON.stringify(b.mention));
}

/**
 * Whether `group` holds the edges `edges[from, to)`: the same objects, or (an output of a primed
 * resolver, a stamped edge) edges equal in every field a finding reads; those replace the kept ones.
 */
function sameEdges(group: EdgeGroup, edges: readonly GraphEdge[], from: number, to: number): boolean {
  if (group.edges.length !== to - from) return false;
  for (let i = from; i < to; i += 1) if (group.edges[i - from] !== edges[i] && !sameForReview(group.edges[i - from]!, edges[i]!)) return false;
  for (let i = from; i < to; i += 1) (group.edges as GraphEdge[])[i - from] = edges[i]!;
  return true;
}

/** Whether two key lists hold the same keys (as sets). */
function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  if (a.length === b.length && a.every((k, i) => k === b[i])) return true;
  const left = new Set(a);
  const right = new Set(b);
  return left.size === right.size && [...left].every((k) => right.has(k));
}

/**
 * The link findings of `graph` against the baseline links `before` (the object `baseline` read
 * from the baseline cache), with `state` used when it may be (see the module comment) and brought
 * up to date. Linear in the edges with one comparison each when nothing changed; the groups that
 * changed cost what they cost from scratch.
 */
export function linkFindings(state: ReviewLinkState, graph: ResolvedGraph, current: ReadonlyMap<string, CachedSource>, baseline: object, before: ReadonlyMap<string, string>, make: FindingMaker): LinkFindings {
  let dirty: Set<string> | null = null;
  if (usable(state, graph, baseline)) {
    dirty = changedIds(state, graph, current);
    for (const id of dirty) refreshNode(state, graph.nodes, current, id);
  } else {
    state.clear();
    refreshAll(state, graph.nodes, current);
  }
  const result = scanGroups(state, graph.edges, dirty, before, make);
  if (result === null) {
    // Edges of one source id not contiguous (a project adapter's edges): no kept groups.
    state.clear();
    refreshAll(state, graph.nodes, current);
    return linkFindings(state, graph, current, baseline, before, make);
  }
  state.token = graph.delta?.token ?? null;
  state.sources = current;
  return result;
}

/** The scan over the edge groups; null when a source id's edges are not contiguous. */
function scanGroups(state: ReviewLinkState, edges: readonly GraphEdge[], dirty: ReadonlySet<string> | null, before: ReadonlyMap<string, string>, make: FindingMaker): LinkFindings | null {
  const pass = (state.pass += 1);
  let computed = 0;
  const issues: SourceIssue[] = [];
  const order: EdgeGroup[] = [];
  let changed = false;
  let from = 0;
  while (from < edges.length) {
    const id = edges[from]!.source_id;
    let to = from + 1;
    let touched = dirty === null || dirty.has(id) || dirty.has(edges[from]!.target_id);
    while (to < edges.length && edges[to]!.source_id === id) {
      if (!touched && dirty!.has(edges[to]!.target_id)) touched = true;
      to += 1;
    }
    const old = state.groups.get(id);
    if (old !== undefined && old.pass === pass) return null;
    let group = old;
    if (group === undefined || touched || !sameEdges(group, edges, from, to)) {
      group = computeGroup(edges.slice(from, to), state, before, make, pass);
      computed += 1;
      if (old === undefined ? group.keys.length > 0 : !sameKeys(old.keys, group.keys)) changed = true;
      state.groups.set(id, group);
    } else {
      group.pass = pass;
    }
    order.push(group);
    for (const issue of group.issues) issues.push(issue);
    from = to;
  }
  if (state.groups.size !== order.length) {
    for (const [id, group] of state.groups) {
      if (group.pass === pass) continue;
      if (group.keys.length > 0) changed = true;
      state.groups.delete(id);
    }
  }
  if (!changed && dirty !== null) return { issues, links: null, computed };
  // As from scratch: the links changed exactly when a key was added or one went.
  const links = new Map<string, string>();
  let added = false;
  for (const group of order) {
    for (let i = 0; i < group.keys.length; i += 1) {
      const key = group.keys[i]!;
      if (links.has(key)) continue;
      links.set(key, group.firsts[i]!);
      if (!added && !before.has(key)) added = true;
    }
  }
  return { issues, links: added || links.size !== before.size ? links : null, computed };
}
