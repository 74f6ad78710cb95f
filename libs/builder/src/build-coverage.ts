/**
 * Coverage findings (@docforge/core `coverageIssues`, issue 32 item 4) kept between builds of one
 * worker (issue 35, "edits: state proportional to the change"). A node's finding depends on the
 * node and on the graph's coverage facts (trace adjacency, nodes linked to code, code documented,
 * decisions governing, test ids). When the resolver's delta is relative to the graph the state was
 * computed for, no edge the delta recomputed adds or drops a fact-bearing triple
 * (`coverageRelevant`), and the node ids are the same, the facts are the last build's; then only
 * the nodes that are other objects are looked at again (a test node that stops or starts being one
 * recomputes everything). Otherwise everything is computed from the graph, exactly as
 * `coverageIssues`. Either way the findings are the ones `coverageIssues` returns, in its order.
 */
import { coverageFacts, coverageRelevant, coverageTest, edgeIdentityKey, nodeCoverage, sortCoverage, type CoverageFacts, type GraphEdge, type GraphNode, type SourceIssue } from '@docforge/core';
import type { ResolvedGraph } from '@docforge/project';

/** The coverage state of one worker (owned by the build caches). */
export class CoverageState {
  token: object | null = null;
  nodes: readonly GraphNode[] = [];
  facts: CoverageFacts | null = null;
  /** The finding of each node that has one. */
  readonly byId = new Map<string, SourceIssue>();
  sorted: SourceIssue[] = [];

  /** The sources of the build the state was computed in (for {@link retarget}). */
  sources: object | null = null;

  /**
   * Moves the state to the resolver output of token `to`, the same graph as the one built from
   * `current` (a resolver primed with that build's sources); nothing when the state describes another build.
   */
  retarget(current: object, to: object): void {
    if (this.sources === current && this.facts !== null) this.token = to;
  }

  /** Forgets everything (the next build computes from scratch). */
  clear(): void {
    this.token = null;
    this.sources = null;
    this.nodes = [];
    this.facts = null;
    this.byId.clear();
    this.sorted = [];
  }
}

/** The fact-bearing triples of `edges`, sorted. */
function relevantKeys(edges: readonly GraphEdge[]): string[] {
  const keys: string[] = [];
  for (const edge of edges) if (coverageRelevant(edge)) keys.push(edgeIdentityKey(edge));
  return keys.sort();
}

/** Whether the delta's recomputed buckets keep every fact-bearing triple. */
function factsKept(graph: ResolvedGraph): boolean {
  for (const bucket of graph.delta!.buckets.values()) {
    const before = relevantKeys(bucket.before);
    const after = relevantKeys(bucket.after);
    if (before.length !== after.length || before.some((k, i) => k !== after[i])) return false;
  }
  return true;
}

function sameIssue(a: SourceIssue | undefined, b: SourceIssue | null): boolean {
  if (a === undefined || b === null) return a === undefined && b === null;
  return a.code === b.code && a.message === b.message && a.path === b.path && a.line === b.line && a.node_id === b.node_id && a.severity === b.severity;
}

/** Everything from scratch. */
function computeAll(state: CoverageState, nodes: readonly GraphNode[], edges: readonly GraphEdge[]): void {
  state.facts = coverageFacts(nodes, edges);
  state.byId.clear();
  const issues: SourceIssue[] = [];
  for (const node of nodes) {
    const issue = nodeCoverage(node, state.facts);
    if (issue === null) continue;
    issues.push(issue);
    state.byId.set(node.id, issue);
  }
  state.sorted = sortCoverage(issues);
}

/** Only the nodes that are other objects; false when the ids or the test nodes changed (compute everything then). */
function computeChanged(state: CoverageState, nodes: readonly GraphNode[]): boolean {
  const previous = state.nodes;
  if (previous.length !== nodes.length) return false;
  let changed = false;
  for (let i = 0; i < nodes.length; i += 1) {
    const node = nodes[i]!;
    const old = previous[i]!;
    if (node === old) continue;
    if (node.id !== old.id || coverageTest(node) !== coverageTest(old)) return false;
    const issue = nodeCoverage(node, state.facts!);
    if (sameIssue(state.byId.get(node.id), issue)) continue;
    changed = true;
    if (issue === null) state.byId.delete(node.id);
    else state.byId.set(node.id, issue);
  }
  if (changed) {
    const issues: SourceIssue[] = [];
    for (const node of nodes) {
      const issue = state.byId.get(node.id);
      if (issue !== undefined) issues.push(issue);
    }
    state.sorted = sortCoverage(issues);
  }
  return true;
}

/**
 * The coverage findings of `graph` (the ones `coverageIssues(graph.nodes, graph.edges)` returns),
 * with `state` used when it may be (see the module comment) and brought up to date. `extended`:
 * the graph carries a project-owned adapter's nodes or edges (outside the resolver's delta).
 * `sources`: the build's current sources (what a primed resolver's output is checked against). The
 * array returned is the state's: do not change it.
 */
export function coverageFindings(state: CoverageState, graph: ResolvedGraph, extended: boolean, sources: object): readonly SourceIssue[] {
  const usable = !extended && state.facts !== null && state.token !== null && graph.delta !== undefined && graph.delta.base === state.token && factsKept(graph);
  if (!usable || !computeChanged(state, graph.nodes)) computeAll(state, graph.nodes, graph.edges);
  state.nodes = graph.nodes;
  state.token = extended ? null : graph.delta?.token ?? null;
  state.sources = extended ? null : sources;
  return state.sorted;
}
