/**
 * How a build compares what it resolved with the graph the worker last wrote (build-types.ts
 * `WrittenState`): equal maps, and the edge rows of a delta, so a build that changed no edge row
 * reuses the written edge map and writes none.
 */
import { edgeIdentityKey, type GraphEdge } from '@docforge/core';
import type { ResolvedGraph } from '@docforge/project';
import type { WrittenState } from './build-types.js';

/** Whether two string maps hold the same entries. */
export function sameMap(a: ReadonlyMap<string, string>, b: ReadonlyMap<string, string>): boolean {
  if (a.size !== b.size) return false;
  for (const [key, value] of a) if (b.get(key) !== value) return false;
  return true;
}

/**
 * The delta-map value of an edge row from its stored parts: where it was declared, then its
 * `mention` and `review` columns as stored (JSON, or null when absent). A row read back from an
 * index file (warm.ts) and an edge resolved now ({@link edgeRow}) give equal values exactly when
 * they would be written as the same row.
 */
export function edgeRowValue(sourcePath: string, line: number, mention: string | null, review: string | null): string {
  return `${sourcePath}\u0000${line}${mention === null ? '' : `\u0000${mention}`}${review === null ? '' : `\u0001${review}`}`;
}

/** Per edge object, its delta-map key and value; edges of unchanged sources are the same objects build after build. */
const edgeRows = new WeakMap<GraphEdge, readonly [string, string]>();

/** The delta-map key (`edgeIdentityKey`) and value (where it was declared, its mention) of an edge; edges are never mutated after resolution. */
export function edgeRow(edge: GraphEdge): readonly [string, string] {
  let row = edgeRows.get(edge);
  if (row === undefined) {
    const reviews = edge.reviews === undefined || edge.reviews.length === 0 ? null : JSON.stringify(edge.reviews);
    row = [edgeIdentityKey(edge), edgeRowValue(edge.source_path, edge.line, edge.mention === undefined ? null : JSON.stringify(edge.mention), reviews)];
    edgeRows.set(edge, row);
  }
  return row;
}

/**
 * Whether `graph`, an incremental resolution relative to the graph `written` describes, has exactly
 * the edge rows written (same keys, declaring paths, lines and mentions): only the buckets the
 * resolver recomputed can differ, and each is compared row by row.
 */
export function sameEdgesAsWritten(graph: ResolvedGraph, written: WrittenState): boolean {
  const delta = graph.delta;
  if (delta === undefined || delta.base === null || written.graphToken !== delta.base) return false;
  if (graph.edges.length !== written.edges.size) return false;
  for (const { before, after } of delta.buckets.values()) {
    if (before.length !== after.length) return false;
    for (let index = 0; index < before.length; index += 1) {
      const a = edgeRow(before[index]!);
      const b = edgeRow(after[index]!);
      if (a[0] !== b[0] || a[1] !== b[1]) return false;
    }
  }
  return true;
}
