import Database from 'better-sqlite3';
import { DocforgeError, type Anchor, type GraphNode, type SourceIssue } from '@docforge/core';
import { INDEX_SCHEMA_VERSION } from './schema.js';

/** A better-sqlite3 connection (read-only for published indexes). */
export type SqliteDatabase = InstanceType<typeof Database>;

/** A node row as stored (JSON columns still encoded). */
export interface NodeRow {
  id: string;
  kind: string;
  title: string;
  family: string | null;
  authority: string | null;
  status: string | null;
  tags: string;
  summary: string;
  body: string;
  source_path: string;
  start_line: number;
  end_line: number;
  anchors: string;
  language: string | null;
  capabilities: string;
  origin: string;
  content_hash: string;
}

/** Decodes a stored node row into a GraphNode. */
export function rowToNode(row: NodeRow): GraphNode {
  return {
    id: row.id,
    kind: row.kind,
    title: row.title,
    family: row.family,
    authority: row.authority,
    status: row.status,
    tags: JSON.parse(row.tags) as string[],
    summary: row.summary,
    body: row.body,
    source_path: row.source_path,
    start_line: row.start_line,
    end_line: row.end_line,
    anchors: JSON.parse(row.anchors) as Anchor[],
    language: row.language,
    capabilities: JSON.parse(row.capabilities) as string[],
    origin: row.origin as GraphNode['origin'],
    content_hash: row.content_hash,
  };
}

/**
 * Read-only view of one published index file. All queries are bounded by the caller; this class
 * never scans the whole edge table for a request.
 */
export class IndexReader {
  readonly db: SqliteDatabase;
  readonly file: string;
  readonly meta: Readonly<Record<string, string>>;
  private readonly nodeStmt;
  private readonly existsStmt;

  /**
   * Opens `file` read-only and checks its schema version.
   * @throws DocforgeError `index_unavailable` when the file is missing, corrupt or of another schema.
   */
  constructor(file: string) {
    this.file = file;
    try {
      this.db = new Database(file, { readonly: true, fileMustExist: true });
      const rows = this.db.prepare('SELECT key, value FROM meta').all() as { key: string; value: string }[];
      this.meta = Object.freeze(Object.fromEntries(rows.map((r) => [r.key, r.value])));
    } catch (error) {
      throw new DocforgeError('index_unavailable', 'The index file cannot be opened.', {}, { cause: error });
    }
    if (this.meta.schema_version !== String(INDEX_SCHEMA_VERSION)) {
      this.db.close();
      throw new DocforgeError('index_unavailable', 'The index file has another schema version.', { schema_version: this.meta.schema_version ?? null });
    }
    this.nodeStmt = this.db.prepare('SELECT * FROM nodes WHERE id = ?');
    this.existsStmt = this.db.prepare('SELECT 1 FROM nodes WHERE id = ?').pluck();
  }

  /** The node with this exact id, or null. */
  getNode(id: string): GraphNode | null {
    const row = this.nodeStmt.get(id) as NodeRow | undefined;
    return row ? rowToNode(row) : null;
  }

  /** Whether a node with this exact id exists. */
  hasNode(id: string): boolean {
    return this.existsStmt.get(id) !== undefined;
  }

  /** Count of rows in one of the index tables. */
  count(table: 'nodes' | 'edges' | 'issues' | 'sources' | 'logic_steps' | 'logic_flows'): number {
    return this.db.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number;
  }

  /** Up to `limit` validation issues in stored order, plus the total count. */
  issues(limit: number): { issues: SourceIssue[]; total: number } {
    const issues = this.db.prepare('SELECT severity, code, message, path, line, node_id FROM issues ORDER BY seq LIMIT ?').all(limit) as SourceIssue[];
    return { issues, total: this.count('issues') };
  }

  /** Closes the connection. */
  close(): void {
    if (this.db.open) this.db.close();
  }
}
