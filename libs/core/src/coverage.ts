/**
 * Coverage findings (issue 32 item 4), severity `info`: what the graph shows is not traced.
 * - `coverage_requirement_untraced`: a requirement (kind `requirement`) from which no path of
 *   `implements`, `implemented_by`, `verifies`, `tested_by` or `proves` edges (either direction, at most
 *   {@link TRACE_DEPTH} steps) reaches code (a `code:` node), a test (kind `test` or a code node
 *   with the `test` capability), or a node that itself `defines`, is `defined_in` or `documents`
 *   code (a component page naming its module).
 * - `coverage_api_undocumented`: an exported function or class (code kinds `function`, `class`;
 *   capability `exported`, not `test`) with no incoming `documents` edge and no incoming edge from
 *   a document node.
 * - `coverage_decision_ungoverning`: a decision (kind `decision` or `adr`) with no outgoing
 *   `governs` edge.
 * Kinds compare case-insensitively; a node whose status is `deprecated`, `superseded`, `rejected`,
 * `withdrawn`, `obsolete` or `retired` is not in force and yields none. Linear in nodes and edges; the findings are stored with the
 * other issues and paged by `docforge_validate_project` (severity `info`, listed when asked for).
 */
import type { GraphEdge, GraphNode, SourceIssue } from './model.js';

/** Kinds read as requirements and decisions (lower case). */
export const REQUIREMENT_KINDS: readonly string[] = Object.freeze(['requirement']);
export const DECISION_KINDS: readonly string[] = Object.freeze(['decision', 'adr']);

/** Statuses of a requirement or decision that is no longer in force: no coverage finding. */
const RETIRED_STATUSES = new Set(['deprecated', 'superseded', 'rejected', 'withdrawn', 'obsolete', 'retired']);
const TRACE_RELATIONS = new Set(['implements', 'implemented_by', 'verifies', 'tested_by', 'proves']);
const CODE_LINK_RELATIONS = new Set(['defines', 'defined_in', 'documents']);
const API_KINDS = new Set(['function', 'class']);
/** Most steps a trace path takes (requirement -> component -> code is two). */
const TRACE_DEPTH = 3;

function isCode(id: string): boolean {
  return id.startsWith('code:');
}

function isTest(node: GraphNode): boolean {
  return node.kind.toLowerCase() === 'test' || (isCode(node.id) && node.capabilities.includes('test'));
}

function info(code: string, node: GraphNode, message: string): SourceIssue {
  return { severity: 'info', code, message: `${node.source_path}:${node.start_line}: ${message}`, path: node.source_path, line: node.start_line, node_id: node.id };
}

/** Whether a bounded walk over trace edges from `start` reaches code, a test, or a node linked to code. */
function traced(start: string, facts: CoverageFacts): boolean {
  const seen = new Set([start]);
  let frontier = [start];
  for (let depth = 0; depth < TRACE_DEPTH && frontier.length > 0; depth += 1) {
    const next: string[] = [];
    for (const id of frontier) {
      for (const other of facts.trace.get(id) ?? []) {
        if (seen.has(other)) continue;
        seen.add(other);
        if (isCode(other) || facts.tests.has(other) || facts.linksCode.has(other)) return true;
        next.push(other);
      }
    }
    frontier = next;
  }
  return false;
}

/**
 * What the coverage findings read from the whole graph: trace adjacency (both directions), the
 * nodes linked to code, the code documented, the decisions governing, and the ids of test nodes.
 */
export interface CoverageFacts {
  trace: ReadonlyMap<string, readonly string[]>;
  linksCode: ReadonlySet<string>;
  documented: ReadonlySet<string>;
  governing: ReadonlySet<string>;
  tests: ReadonlySet<string>;
}

/** Whether `edge` contributes to {@link CoverageFacts} (an edge that does not can change without changing any coverage finding). */
export function coverageRelevant(edge: Pick<GraphEdge, 'relation' | 'source_id' | 'target_id'>): boolean {
  return TRACE_RELATIONS.has(edge.relation) || edge.relation === 'governs' || isCode(edge.target_id);
}

/** Whether `node` counts as a test for a trace (kind `test`, or a code node with the `test` capability). */
export function coverageTest(node: GraphNode): boolean {
  return isTest(node);
}

/** The {@link CoverageFacts} of a graph. Linear in nodes and edges. */
export function coverageFacts(nodes: readonly GraphNode[], edges: readonly GraphEdge[]): CoverageFacts {
  const trace = new Map<string, string[]>();
  const linksCode = new Set<string>();
  const documented = new Set<string>();
  const governing = new Set<string>();
  const tests = new Set<string>();
  const link = (a: string, b: string): void => {
    const list = trace.get(a);
    if (list === undefined) trace.set(a, [b]);
    else list.push(b);
  };
  for (const edge of edges) {
    if (TRACE_RELATIONS.has(edge.relation)) {
      link(edge.source_id, edge.target_id);
      link(edge.target_id, edge.source_id);
    }
    if (CODE_LINK_RELATIONS.has(edge.relation) && !isCode(edge.source_id) && isCode(edge.target_id)) linksCode.add(edge.source_id);
    if (isCode(edge.target_id) && (edge.relation === 'documents' || !isCode(edge.source_id))) documented.add(edge.target_id);
    if (edge.relation === 'governs') governing.add(edge.source_id);
  }
  for (const node of nodes) if (isTest(node)) tests.add(node.id);
  return { trace, linksCode, documented, governing, tests };
}

/** The coverage finding of one node against the graph's facts, or null. */
export function nodeCoverage(node: GraphNode, facts: CoverageFacts): SourceIssue | null {
  const kind = node.kind.toLowerCase();
  if (node.status !== null && RETIRED_STATUSES.has(node.status.toLowerCase())) return null;
  if (REQUIREMENT_KINDS.includes(kind) && !isCode(node.id) && !traced(node.id, facts)) {
    return info('coverage_requirement_untraced', node, `requirement "${node.id}" has no implements/implemented_by/verifies/tested_by/proves path to code or a test`);
  } else if (DECISION_KINDS.includes(kind) && !isCode(node.id) && !facts.governing.has(node.id)) {
    return info('coverage_decision_ungoverning', node, `decision "${node.id}" governs nothing (no outgoing governs relation)`);
  } else if (isCode(node.id) && API_KINDS.has(kind) && node.capabilities.includes('exported') && !node.capabilities.includes('test') && !facts.documented.has(node.id)) {
    return info('coverage_api_undocumented', node, `exported ${kind} "${node.id}" is not named by any documentation page (no incoming documents edge; its own doc comment does not count)`);
  }
  return null;
}

/** Sorts coverage findings (in node order) by path and line, in place, stably; returns them. */
export function sortCoverage(issues: SourceIssue[]): SourceIssue[] {
  return issues.sort((a, b) => (a.path! < b.path! ? -1 : a.path! > b.path! ? 1 : a.line! - b.line!));
}

/** The coverage findings of a resolved graph, sorted by path and line. */
export function coverageIssues(nodes: readonly GraphNode[], edges: readonly GraphEdge[]): SourceIssue[] {
  const facts = coverageFacts(nodes, edges);
  const issues: SourceIssue[] = [];
  for (const node of nodes) {
    const issue = nodeCoverage(node, facts);
    if (issue !== null) issues.push(issue);
  }
  return sortCoverage(issues);
}
