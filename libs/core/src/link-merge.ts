/** Merging a code adapter's per-file link outputs into one whole, as a full `link` returns it (adapters and the builder). */
import { appendAll } from './arrays.js';
import { ownValue, setOwn } from './own-keys.js';
import type { FileLinkOutput } from './adapter.js';
import type { GraphEdge, SourceIssue } from './model.js';

/**
 * The edges (unique by source, relation and target; sorted), issues (in `files` order) and
 * unresolved call counts (summed per owner) of per-file link outputs.
 */
export function mergeLinkOutputs(files: Iterable<FileLinkOutput>): { edges: GraphEdge[]; issues: SourceIssue[]; unresolved: Record<string, number> } {
  const merged = new Map<string, GraphEdge>();
  const issues: SourceIssue[] = [];
  const unresolved: Record<string, number> = {};
  for (const output of files) {
    for (const edge of output.edges) {
      const key = `${edge.source_id}\u0000${edge.relation}\u0000${edge.target_id}`;
      if (!merged.has(key)) merged.set(key, edge);
    }
    appendAll(issues, output.issues);
    for (const [owner, count] of Object.entries(output.unresolved_calls)) setOwn(unresolved, owner, (ownValue(unresolved, owner) ?? 0) + count);
  }
  return { edges: [...merged.values()].sort(compareEdges), issues, unresolved };
}

function compareEdges(a: GraphEdge, b: GraphEdge): number {
  return compare(a.source_id, b.source_id) || compare(a.relation, b.relation) || compare(a.target_id, b.target_id);
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
