/**
 * The neutral rows the index writer takes (index-writer.ts, index-delta.ts): the graph's nodes and
 * edges (the core model), source rows, Logic rows per source, issues, unresolved-call counts and
 * the `meta` rows. Nothing here knows how a build or its caches produced them; libs/builder maps its
 * results to these shapes (libs/builder/src/rows.ts).
 */
import type { GraphEdge, GraphNode, LogicFlow, LogicStep, NodeCodeText, SourceIssue } from '@docforge/core';
import type { SourceEntry } from '@docforge/project';
import { INDEX_SCHEMA_VERSION } from './schema.js';

/**
 * One `sources` row to write, with the source's own nodes (id and content hash, in the parse's
 * order): the writer reports which of them the `nodes` table holds as another's row (see
 * {@link SourceWriteResult}). `node_count` is `nodes.length`.
 */
export interface SourceRowWrite {
  entry: SourceEntry;
  content_hash: string;
  nodes: readonly Pick<GraphNode, 'id' | 'content_hash'>[];
}

/**
 * Per source written, in the order given: the indexes (into its `nodes`) of the nodes whose row
 * in the `nodes` table is not the source's own (no row, a row of another source path, or another
 * content hash), ascending.
 */
export type SourceWriteResult = number[][];

/** The Logic rows of one source (`logic_steps` and `logic_flows`, keyed by `source_path`). */
export interface LogicRowsWrite {
  source_path: string;
  steps: readonly LogicStep[];
  flows: readonly LogicFlow[];
}

/** An unresolved-call count row (`unresolved_calls`): node id and count (> 0). */
export type UnresolvedCallRow = readonly [string, number];

/** The edge identity (primary key of `edges`) of an edge row to delete. */
export type EdgeIdentity = Pick<GraphEdge, 'source_id' | 'relation' | 'target_id'>;

/**
 * The code text to write with a node (`node_code`, issue 31 item 1), by the node's id and source
 * path (the source that produced the text must be the one whose node the table holds); undefined
 * for none.
 */
export type CodeTextOf = (node: Pick<GraphNode, 'id' | 'source_path'>) => NodeCodeText | undefined;

/** The review hash to write with a node (`node_review`, issue 32 item 1), by its id and source path; undefined for none. */
export type ReviewHashOf = (node: Pick<GraphNode, 'id' | 'source_path'>) => string | undefined;

/** Everything a new index file holds, written from scratch by `writeIndexFile`. */
export interface FullIndexRows {
  nodes: readonly GraphNode[];
  /** The code text of each node written (absent: none). */
  code?: CodeTextOf;
  /** The review hash of each node written (absent: none). */
  review?: ReviewHashOf;
  edges: readonly GraphEdge[];
  sources: readonly SourceRowWrite[];
  logic: readonly LogicRowsWrite[];
  issues: readonly SourceIssue[];
  unresolved: readonly UnresolvedCallRow[];
  meta: Readonly<Record<string, string>>;
}

/**
 * The changes `applyIndexDelta` applies to a copy of a previous index file, in the writer's order:
 * nodes removed, nodes replaced (removed when present, then inserted with their full-text rows),
 * edges written (inserted or replaced) and removed, sources removed (with their Logic rows),
 * source rows written, Logic rows replaced per source, then issues, unresolved calls and meta.
 */
export interface IndexDelta {
  removedNodes: Iterable<string>;
  /** Nodes written again: changed ones, and every node of a source parsed again (its code text may have changed alone). */
  changedNodes: readonly GraphNode[];
  /** The code text of each node of `changedNodes` (absent: none). */
  code?: CodeTextOf;
  /** The review hash of each node of `changedNodes` (absent: none). */
  review?: ReviewHashOf;
  edgesWritten: Iterable<GraphEdge>;
  edgesRemoved: Iterable<EdgeIdentity>;
  removedSources: Iterable<string>;
  sources: readonly SourceRowWrite[];
  logic: readonly LogicRowsWrite[];
  issues: readonly SourceIssue[];
  /** The new `unresolved_calls` rows, or null to keep the table as it is. */
  unresolved: readonly UnresolvedCallRow[] | null;
  meta: Readonly<Record<string, string>>;
}

/** The facts a new index file's `meta` rows record (see {@link indexMetaRows}). */
export interface IndexMetaFields {
  projectId: string;
  root: string;
  sourceIdentity: string;
  sourceHash: string;
  adapterVersion: string;
  logicAllowed: boolean;
  logicPresent: boolean;
  descriptorHash: string;
  /** Relation names present in the graph (any order; stored sorted and distinct). */
  relations: Iterable<string>;
  /** Mention resolution counts (issue 9 item 2), stored as JSON. */
  mentionCounts: unknown;
}

/**
 * The `meta` rows (key → value) of a new index file (schema.ts): what a reader and a later build
 * check a file against (schema, project, root, source identity and hash, adapter version, Logic
 * policy and presence, descriptor hash), the relation names present and the mention counts.
 */
export function indexMetaRows(fields: IndexMetaFields): Record<string, string> {
  return {
    schema_version: String(INDEX_SCHEMA_VERSION),
    project_id: fields.projectId,
    root: fields.root,
    source_identity: fields.sourceIdentity,
    source_hash: fields.sourceHash,
    adapter_version: fields.adapterVersion,
    logic_allowed: fields.logicAllowed ? '1' : '0',
    logic_present: fields.logicPresent ? '1' : '0',
    descriptor_hash: fields.descriptorHash,
    // Sorted relation names present in the graph, so readers never scan the edge table for them.
    relations: JSON.stringify([...new Set(fields.relations)].sort()),
    mention_counts: JSON.stringify(fields.mentionCounts),
  };
}
