/**
 * Reading a whole published index file back as rows, for a build worker's warm start
 * (libs/builder warm.ts): meta, nodes without bodies, source rows, edge rows, issues and
 * unresolved-call counts. A visitor receives them as they are read (tens of thousands of edges are
 * never held twice); what they mean to a build is the caller's business.
 */
import type { GraphNode, SourceIssue } from '@docforge/core';
import type { SourceEntry } from '@docforge/project';
import { rowToNode, type NodeRow } from './reader.js';
import { sqliteDatabase } from './sqlite.js';

/** A `sources` row as stored: the source's entry and content hash. */
export interface SourceRowRead {
  entry: SourceEntry;
  content_hash: string;
}

/** An `edges` row: `mention` and `review` are the stored JSON columns (null when the edge has none). */
export interface EdgeRowRead {
  source_id: string;
  relation: string;
  target_id: string;
  source_path: string;
  line: number;
  mention: string | null;
  review: string | null;
}

/** Receives the rows of an index file in this order: meta, nodes, sources, edges, issues, unresolved calls. */
export interface IndexRowsVisitor {
  /** The `meta` rows; return false to stop reading (the file does not fit the caller). */
  meta(meta: Readonly<Record<string, string>>): boolean;
  /** Each node, its body empty. */
  node(node: GraphNode, row: { content_hash: string; review_hash: string | null }): void;
  /** Every source row. */
  sources(rows: SourceRowRead[]): void;
  /** Each edge row. */
  edge(edge: EdgeRowRead): void;
  /** Every issue, in stored order. */
  issues(issues: SourceIssue[]): void;
  /** Every unresolved-call count (node id, count). */
  unresolved(rows: [string, number][]): void;
}

/**
 * Reads the index file `file` read-only and hands its rows to `visitor`.
 * @returns false when `visitor.meta` stopped the read, else true
 * @throws SQLite errors (a missing or damaged file) and whatever the visitor throws
 */
export function readIndexRows(file: string, visitor: IndexRowsVisitor): boolean {
  const db = new (sqliteDatabase())(file, { readonly: true, fileMustExist: true });
  try {
    const meta = Object.fromEntries((db.prepare('SELECT key, value FROM meta').all() as { key: string; value: string }[]).map((r) => [r.key, r.value]));
    if (!visitor.meta(meta)) return false;
    const nodeRows = db.prepare(`SELECT n.id, kind, title, family, authority, status, tags, summary, '' AS body, source_path, start_line, end_line, anchors, language, capabilities, origin, content_hash, r.hash AS review_hash
      FROM nodes n LEFT JOIN node_review r ON r.node_id = n.id`).iterate() as IterableIterator<NodeRow & { review_hash: string | null }>;
    for (const row of nodeRows) {
      visitor.node(rowToNode(row), row);
    }
    const rows = db.prepare('SELECT path, role, size, mtime_ns, ctime_ns, ino, content_hash FROM sources').all() as { path: string; role: SourceEntry['role']; size: number; mtime_ns: string; ctime_ns: string; ino: string; content_hash: string }[];
    visitor.sources(rows.map((row) => ({ entry: { path: row.path, role: row.role, size: row.size, mtime_ns: row.mtime_ns, ctime_ns: row.ctime_ns, ino: row.ino }, content_hash: row.content_hash })));
    for (const e of db.prepare('SELECT source_id, relation, target_id, source_path, line, mention, review FROM edges').iterate() as IterableIterator<EdgeRowRead>) visitor.edge(e);
    visitor.issues(db.prepare('SELECT severity, code, message, path, line, node_id FROM issues ORDER BY seq').all() as SourceIssue[]);
    visitor.unresolved(db.prepare('SELECT node_id, count FROM unresolved_calls').raw().all() as [string, number][]);
    return true;
  } finally {
    db.close();
  }
}
