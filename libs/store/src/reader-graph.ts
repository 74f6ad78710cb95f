/**
 * Edge, Logic and issue queries of the index reader. Edge reads go through the
 * `(source_id, relation, target_id)` primary key or the `(target_id, relation, source_id)` index,
 * always with a row limit: no query materializes the whole edge table (DESIGN.md section 7).
 */
import { reviewState, type EdgeReview, type MentionSection, type ReviewState, type SourceIssue } from '@docforge/core';
import { placeholders, type StatementCache } from './reader-statements.js';

/** Direction of an edge read relative to a node: `outgoing` (node is the source) or `incoming` (node is the target). */
export type EdgeDirection = 'outgoing' | 'incoming';

/** One stored edge with the file and line that declared it (line 0 when unknown). */
export interface EdgeRecord {
  source_id: string;
  relation: string;
  target_id: string;
  source_path: string;
  line: number;
}

/** One stored Logic step of a function or method. */
export interface LogicStepRow {
  step: number;
  kind: string;
  label: string;
  start_line: number;
  end_line: number;
}

/** One stored Logic control flow between two steps. */
export interface LogicFlowRow {
  from_step: number;
  to_step: number;
  kind: string;
  label: string;
}

/** Keyset position inside one node's edges of one direction: the last `(relation, other end)` already read. */
export interface EdgeKey {
  relation: string;
  /** The other end's id: the target of an outgoing edge, the source of an incoming one. */
  other_id: string;
}

/**
 * Up to `limit` edges of `nodeId` in one direction, optionally only of `relations`, ordered by
 * relation then the other end's id, starting strictly after `after` when given (keyset paging
 * through the primary key or the incoming index, so a later page costs no more than the first).
 */
export function edgesOf(sql: StatementCache, nodeId: string, direction: EdgeDirection, relations: readonly string[] | null, limit: number, after: EdgeKey | null = null): EdgeRecord[] {
  const filter = relations && relations.length > 0 ? ` AND relation IN (${placeholders(relations.length)})` : '';
  const other = direction === 'outgoing' ? 'target_id' : 'source_id';
  const keyset = after ? ` AND (relation, ${other}) > (?, ?)` : '';
  const cols = 'source_id, relation, target_id, source_path, line';
  const self = direction === 'outgoing' ? 'source_id' : 'target_id';
  const text = `SELECT ${cols} FROM edges WHERE ${self} = ?${filter}${keyset} ORDER BY relation, ${other} LIMIT ?`;
  const params: unknown[] = [nodeId, ...(filter === '' ? [] : relations!)];
  if (after) params.push(after.relation, after.other_id);
  return sql.rows(text).all(...params, limit) as EdgeRecord[];
}

/** The mention sections of a mention-derived edge (issue 9 item 2), or null for any other edge. */
export function edgeMention(sql: StatementCache, source: string, relation: string, target: string): MentionSection[] | null {
  const raw = sql.pluck('SELECT mention FROM edges WHERE source_id = ? AND relation = ? AND target_id = ?').get(source, relation, target) as string | null | undefined;
  return typeof raw === 'string' ? (JSON.parse(raw) as { sections: MentionSection[] }).sections : null;
}

/**
 * The review of the exact edge `(source, relation, target)` (issue 32 item 1): its stamps and
 * state against the target's stored review hash; null when the edge is not stored, or when it is
 * neither stamped nor declared by a document (a code-to-code edge has no review state). Three
 * primary-key lookups.
 */
export function edgeReview(sql: StatementCache, source: string, relation: string, target: string): { state: ReviewState; reviews: EdgeReview[] } | null {
  const row = sql.rows(`SELECT e.review AS review, (SELECT hash FROM node_review WHERE node_id = e.target_id) AS target_hash,
    (SELECT origin FROM nodes WHERE id = e.source_id) AS origin FROM edges e WHERE e.source_id = ? AND e.relation = ? AND e.target_id = ?`)
    .get(source, relation, target) as { review: string | null; target_hash: string | null; origin: string | null } | undefined;
  if (row === undefined || (row.review === null && (row.origin === 'code' || row.origin === null))) return null;
  const reviews = row.review === null ? [] : JSON.parse(row.review) as EdgeReview[];
  return { state: reviewState(reviews, row.target_hash), reviews };
}

/** The stored review hash of a node (issue 32 item 1), or null. */
export function nodeReviewHashOf(sql: StatementCache, id: string): string | null {
  return (sql.pluck('SELECT hash FROM node_review WHERE node_id = ?').get(id) as string | undefined) ?? null;
}

/** Whether the exact edge `(source, relation, target)` is stored. */
export function hasEdge(sql: StatementCache, source: string, relation: string, target: string): boolean {
  return sql.rows('SELECT 1 FROM edges WHERE source_id = ? AND relation = ? AND target_id = ?').get(source, relation, target) !== undefined;
}

/** Sorted distinct relation names with at least one edge (one index scan of the edge table's keys). */
export function distinctRelations(sql: StatementCache): string[] {
  return (sql.pluck('SELECT DISTINCT relation FROM edges').all() as string[]).sort();
}

/** Number of stored Logic steps and flows of an owner node. */
export function logicCounts(sql: StatementCache, ownerId: string): { steps: number; flows: number } {
  const steps = (sql.pluck('SELECT count(*) FROM logic_steps WHERE owner_id = ?').get(ownerId) as number | undefined) ?? 0;
  const flows = (sql.pluck('SELECT count(*) FROM logic_flows WHERE owner_id = ?').get(ownerId) as number | undefined) ?? 0;
  return { steps, flows };
}

/**
 * The first `count` Logic steps of an owner (by step number) and the flows between them. Step
 * numbers are dense from 0, so `step < count` selects exactly the returned steps.
 */
export function logicPage(sql: StatementCache, ownerId: string, count: number): { steps: LogicStepRow[]; flows: LogicFlowRow[] } {
  const steps = sql.rows('SELECT step, kind, label, start_line, end_line FROM logic_steps WHERE owner_id = ? ORDER BY step LIMIT ?').all(ownerId, count) as LogicStepRow[];
  const flows = sql.rows('SELECT from_step, to_step, kind, label FROM logic_flows WHERE owner_id = ? AND from_step < ? AND to_step < ? ORDER BY from_step, to_step, kind').all(ownerId, count, count) as LogicFlowRow[];
  return { steps, flows };
}

/** Up to `limit` stored issues in stored order, optionally only of `severities`, after stored position `afterSeq` (keyset). */
export function issuesOf(sql: StatementCache, severities: readonly string[] | null, limit: number, afterSeq = 0): (SourceIssue & { seq: number })[] {
  const cols = 'seq, severity, code, message, path, line, node_id';
  if (severities === null) return sql.rows(`SELECT ${cols} FROM issues WHERE seq > ? ORDER BY seq LIMIT ?`).all(afterSeq, limit) as (SourceIssue & { seq: number })[];
  return sql.rows(`SELECT ${cols} FROM issues WHERE seq > ? AND severity IN (${placeholders(severities.length)}) ORDER BY seq LIMIT ?`).all(afterSeq, ...severities, limit) as (SourceIssue & { seq: number })[];
}

/** Stored issue counts per severity (severities without issues are absent). */
export function issueCountsBySeverity(sql: StatementCache): Record<string, number> {
  const rows = sql.rows('SELECT severity, count(*) AS n FROM issues GROUP BY severity').all() as { severity: string; n: number }[];
  return Object.fromEntries(rows.map((r) => [r.severity, r.n]));
}
