import type Database from 'better-sqlite3';
import { sqliteDatabase } from './sqlite.js';
import { errors, type Anchor, type EdgeReview, type GraphNode, type MentionSection, type ReviewState, type SourceIssue } from '@docforge/core';
import { INDEX_SCHEMA_VERSION } from './schema.js';
import { StatementCache, type Statement } from './reader-statements.js';
import { countsByKind, facetValues, filterValueExists, nodeIdsAtPath, nodeIdsNear, nodeIdsWithPrefix, nodeBrief, nodeMatches, nodeProvenance, nodesByFilter, nodeSummaries, sourceHash, sourceStats, codeSourceCopies, type FacetCounts, type FacetField, type NodeBrief, type NodeFilters, type NodeProvenance, type NodeSummary } from './reader-nodes.js';
import { ftsExpression, type FtsMatch } from './fts-match.js';
import { ftsCandidates, ftsCodeCandidates, ftsDocumentCount, ftsFewMatches, ftsFirstMatches, ftsExcerptSources, ftsMatchingRowids, ftsNthMatchRowid, nodeCodeLines, ftsRankedWindow, ftsWindow, type FtsCandidate, type FtsExcerptSource, type RankedFtsCandidate } from './reader-fts.js';
import { mapFileEdges, mapFolderCounts, mapFolderEdges, mapFolderFiles, nodesOfFile, type MapEdgeCount, type MapFolderCount } from './reader-map.js';
import { distinctRelations, edgeMention, edgeReview, edgesOf, nodeReviewHashOf, hasEdge, issueCountsBySeverity, issuesOf, logicCounts, logicPage, type EdgeDirection, type EdgeKey, type EdgeRecord, type LogicFlowRow, type LogicStepRow } from './reader-graph.js';

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

/** Tables whose row count {@link IndexReader.count} reports. */
export type IndexTable = 'nodes' | 'edges' | 'issues' | 'sources' | 'logic_steps' | 'logic_flows';

/**
 * Read-only view of one published index file, and the only holder of SQL against it (issue 7):
 * the better-sqlite3 connection is private and every query is a typed method bounded by a
 * caller-given limit; no method scans the whole edge table for a request. Prepared statements are
 * cached per reader. The reader holds no main-thread-only state, so a worker thread (a read pool,
 * the graph-browser worker) may open its own reader over the same published file
 * (docs/architecture.md, "Long reads").
 */
export class IndexReader {
  /** Absolute path of the index file. */
  readonly file: string;
  /** The index `meta` table (schema_version, generation fields, recorded relation names, …). */
  readonly meta: Readonly<Record<string, string>>;
  readonly #db: SqliteDatabase;
  readonly #sql: StatementCache;
  readonly #nodeStmt: Statement;
  readonly #existsStmt: Statement;

  /**
   * Opens `file` read-only and checks its schema version.
   * @throws DocforgeError `index_unavailable` when the file is missing, corrupt or of another schema.
   */
  constructor(file: string) {
    this.file = file;
    let db: SqliteDatabase;
    try {
      db = new (sqliteDatabase())(file, { readonly: true, fileMustExist: true });
      const rows = db.prepare('SELECT key, value FROM meta').all() as { key: string; value: string }[];
      this.meta = Object.freeze(Object.fromEntries(rows.map((r) => [r.key, r.value])));
    } catch (error) {
      throw errors.indexUnavailable('The index file cannot be opened.', {}, { cause: error });
    }
    this.#db = db;
    if (this.meta.schema_version !== String(INDEX_SCHEMA_VERSION)) {
      db.close();
      throw errors.indexUnavailable('The index file has another schema version.', { schema_version: this.meta.schema_version ?? null });
    }
    this.#sql = new StatementCache(db);
    this.#nodeStmt = this.#sql.rows('SELECT * FROM nodes WHERE id = ?');
    this.#existsStmt = this.#sql.pluck('SELECT 1 FROM nodes WHERE id = ?');
  }

  /** Whether the connection is open (false after {@link close}). */
  get open(): boolean {
    return this.#db.open;
  }

  // ---- nodes ----

  /** The node with this exact id (body included), or null. */
  getNode(id: string): GraphNode | null {
    const row = this.#nodeStmt.get(id) as NodeRow | undefined;
    return row ? rowToNode(row) : null;
  }

  /**
   * The nodes of one source file with their code lines (issue 32 item 3, `docforge affected`):
   * at most `limit` nodes by start line then id, each with its stored `node_code.lines` (kept
   * lines `<line>\t<text>`, at most `maxCodeChars` characters; '' for a node without any). One
   * indexed range read on `nodes (source_path)` plus one primary-key read per node.
   */
  nodesOfSource(sourcePath: string, limit: number, maxCodeChars: number): { node: GraphNode; code_lines: string }[] {
    const rows = this.#sql.rows('SELECT * FROM nodes WHERE source_path = ? ORDER BY start_line, id LIMIT ?').all(sourcePath, limit) as (NodeRow & { rowid: number | bigint })[];
    const lines = nodeCodeLines(this.#sql, rows.map((row) => Number(row.rowid)), maxCodeChars);
    return rows.map(({ rowid, ...row }) => ({ node: rowToNode(row), code_lines: lines.get(Number(rowid)) ?? '' }));
  }

  /**
   * Call sites of a code node (function, method or module) that the adapter's linker could not
   * prove a target for, so they have no `calls` edge (issue 9: counted, never guessed); 0 when the
   * node has none or is not code. One primary-key lookup.
   */
  unresolvedCalls(id: string): number {
    return (this.#sql.pluck('SELECT count FROM unresolved_calls WHERE node_id = ?').get(id) as number | undefined) ?? 0;
  }

  /** Whether a node with this exact id exists. */
  hasNode(id: string): boolean {
    return this.#existsStmt.get(id) !== undefined;
  }

  /** Ids `id` probably meant (same ignoring case, or a bare declaration name), at most `limit`; one scan at most (error path only). */
  nodeIdsNear(id: string, limit: number): string[] {
    return nodeIdsNear(this.#sql, id, limit);
  }

  /** Up to `limit` ids of the nodes defined in source file `path` (or `path.<ext>` when it has no extension); error path only. */
  nodeIdsAtPath(path: string, limit: number): string[] {
    return nodeIdsAtPath(this.#sql, path, limit);
  }

  /** Up to `limit` node ids starting with `prefix`, in id order (the siblings of a mistyped id). */
  nodeIdsWithPrefix(prefix: string, limit: number): string[] {
    return nodeIdsWithPrefix(this.#sql, prefix, limit);
  }

  /** Whether the node `id` exists and passes every filter. */
  nodeMatches(id: string, filters: NodeFilters): boolean {
    return nodeMatches(this.#sql, id, filters);
  }

  /**
   * Nodes passing `filters`, ordered by id, starting after `afterId` (keyset paging); reads at
   * most `limit + 1` rows. `truncated` says more rows follow.
   */
  nodesByFilter(filters: NodeFilters, limit: number, afterId: string | null = null): { items: NodeSummary[]; truncated: boolean } {
    return nodesByFilter(this.#sql, filters, limit, afterId);
  }

  /** Summaries (no body) of the nodes with these ids, in the order of `ids`, unknown ids left out; callers bound `ids`. */
  nodeSummaries(ids: readonly string[]): NodeSummary[] {
    return nodeSummaries(this.#sql, ids);
  }

  /** Distinct values of every facet (kind, family, authority, status, language, tag, capability) with node counts, by value, at most `limit` each; one scan of the nodes table at most. */
  facetValues(limit: number): Record<FacetField, FacetCounts> {
    return facetValues(this.#sql, limit);
  }

  /** Whether any node holds `value` in the field of filter list `filter` (kinds, languages, tags, capabilities by index; the others by one scan). */
  filterValueExists(filter: keyof NodeFilters, value: string): boolean {
    return filterValueExists(this.#sql, filter, value);
  }

  /** Kind, title and source path of a node (no body), or null. */
  nodeBrief(id: string): NodeBrief | null {
    return nodeBrief(this.#sql, id);
  }

  /** Provenance metadata of a node (no body), or null. */
  nodeProvenance(id: string): NodeProvenance | null {
    return nodeProvenance(this.#sql, id);
  }

  /** The stored content hash of a source file, or null when the file is not indexed. */
  sourceHash(sourcePath: string): string | null {
    return sourceHash(this.#sql, sourcePath);
  }

  /** Code files byte-identical to one of `paths`, with their content hashes ({@link codeSourceCopies}): the input of core `canonicalCopyPaths`. */
  codeSourceCopies(paths: readonly string[]): [string, string][] {
    return codeSourceCopies(this.#sql, paths);
  }

  /** The stat identity (`size:mtime_ns:ctime_ns:ino`) of every indexed source file, by project-relative path. */
  sourceStats(): Map<string, string> {
    return sourceStats(this.#sql);
  }

  /** Architecture map (issue 34): files and nodes per folder and source role, at most `limit` rows. See reader-map.ts. */
  mapFolderCounts(limit: number): { rows: MapFolderCount[]; truncated: boolean } {
    return mapFolderCounts(this.#sql, limit);
  }

  /** Architecture map: edges between folders counted per (folder, folder, relation) in SQL, without `excluded` relations, heaviest `limit` rows. */
  mapFolderEdges(excluded: readonly string[], limit: number): { rows: MapEdgeCount[]; truncated: boolean } {
    return mapFolderEdges(this.#sql, excluded, limit);
  }

  /** Architecture map: edges touching the files directly in `folder`, counted per (file, file, relation), heaviest `limit` rows. */
  mapFileEdges(folder: string, excluded: readonly string[], limit: number): { rows: MapEdgeCount[]; truncated: boolean } {
    return mapFileEdges(this.#sql, folder, excluded, limit);
  }

  /** Architecture map: the files directly in `folder` (trailing `/`, `''` for the root) with role and node count, largest first, at most `limit` from `offset`. */
  mapFolderFiles(folder: string, limit: number, offset = 0): { rows: { path: string; role: string; nodes: number }[]; truncated: boolean } {
    return mapFolderFiles(this.#sql, folder, limit, offset);
  }

  /** Up to `limit` node ids declared in the file `path`, module-like nodes first. */
  nodesOfFile(path: string, limit: number): string[] {
    return nodesOfFile(this.#sql, path, limit);
  }

  /** Node counts per kind (ordered by kind), at most `limit` kinds (default 200). */
  countsByKind(limit = 200): Record<string, number> {
    return countsByKind(this.#sql, limit);
  }

  /** A node's origin, title, summary, start line and anchors (no body), or null. */
  getNodeMeta(id: string): { origin: string; title: string; summary: string; start_line: number; anchors: Anchor[] } | null {
    const row = this.#sql.rows('SELECT origin, title, summary, start_line, anchors FROM nodes WHERE id = ?').get(id) as { origin: string; title: string; summary: string; start_line: number; anchors: string } | undefined;
    return row ? { ...row, anchors: JSON.parse(row.anchors) as Anchor[] } : null;
  }

  /**
   * Up to `chars` characters of a node's body starting at the first occurrence of `needle` within
   * its first `scanChars` characters (the body's head when `needle` is null or not found there);
   * null for an unknown node. Bounded work whatever the body size.
   */
  bodyExcerpt(id: string, needle: string | null, chars: number, scanChars: number): string | null {
    const row = (needle === null
      ? this.#sql.pluck('SELECT substr(body, 1, ?) FROM nodes WHERE id = ?').get(chars, id)
      : this.#sql.pluck('SELECT substr(body, max(1, instr(substr(body, 1, ?), ?)), ?) FROM nodes WHERE id = ?').get(scanChars, needle, chars, id)) as string | undefined;
    return row ?? null;
  }

  /** Count of rows in one of the index tables. */
  count(table: IndexTable): number {
    return this.#sql.pluck(`SELECT count(*) FROM ${table}`).get() as number;
  }

  // ---- full text ----

  /**
   * Full-text queries take a typed {@link FtsMatch} (phrases, how they combine, which columns); the
   * store builds the FTS5 expression (fts-match.ts). Up to `limit` matches passing `filters`, best bm25 rank first.
   */
  ftsCandidates(match: FtsMatch, filters: NodeFilters, limit: number, maxRowid: number | null = null): RankedFtsCandidate[] {
    return ftsCandidates(this.#sql, ftsExpression(match), filters, limit, maxRowid);
  }

  /** The first `limit` matches of `match` passing `filters` (at or below `maxRowid`), in rowid order, unranked. */
  ftsFirstMatches(match: FtsMatch, filters: NodeFilters, limit: number, maxRowid: number | null = null): FtsCandidate[] {
    return ftsFirstMatches(this.#sql, ftsExpression(match), filters, limit, maxRowid);
  }

  /** Every match of `match` passing `filters` (rowid order, unranked) when there are at most `max`, else null. */
  ftsFewMatches(match: FtsMatch, filters: NodeFilters, max: number, maxRowid: number | null = null): FtsCandidate[] | null {
    return ftsFewMatches(this.#sql, ftsExpression(match), filters, max, maxRowid);
  }

  /** Rowid of the `n`-th match of `match` in index order, or null (no rank computed; bounded candidate tiers). */
  ftsNthMatchRowid(match: FtsMatch, filters: NodeFilters, n: number): number | null {
    return ftsNthMatchRowid(this.#sql, ftsExpression(match), filters, n);
  }

  /**
   * Excerpt material for matched rows: an FTS5 snippet of a short body, else the first
   * `headChars` characters of the body (bounded work whatever the body size); for a short body
   * without a match, the first `headChars` characters of the node's code lines, if any.
   */
  ftsExcerptSources(match: FtsMatch, rowids: readonly number[], headChars: number): FtsExcerptSource[] {
    return ftsExcerptSources(this.#sql, ftsExpression(match), rowids, headChars);
  }

  /** The given rowids (at most a few thousand) that match `match`; with `code`, whose code text matches it (issue 31 item 1). */
  ftsMatchingRowids(match: FtsMatch, rowids: readonly number[], code = false): number[] {
    return ftsMatchingRowids(this.#sql, ftsExpression(code ? { ...match, fields: 'all' } : match), rowids, code ? 'code_fts' : 'node_fts');
  }

  /**
   * The kept code lines of each given row that has any (issue 31 item 1), at most `maxChars`
   * characters each, as `<line>\t<text>` lines joined by `\n`; at most a few dozen rows per call.
   */
  codeLines(rowids: readonly number[], maxChars: number): Map<number, string> {
    return nodeCodeLines(this.#sql, rowids, maxChars);
  }

  /**
   * Up to `limit` nodes whose code text matches `match` (its phrases; `fields` is ignored) and
   * `filters`, best code bm25 first, ranked among the first `tier` code matches (issue 31 item 1).
   */
  ftsCodeCandidates(match: FtsMatch, filters: NodeFilters, limit: number, tier: number): RankedFtsCandidate[] {
    return ftsCodeCandidates(this.#sql, ftsExpression({ ...match, fields: 'all' }), filters, limit, tier);
  }

  /** Number of FTS5 matches of `match`, counting at most `cap`. */
  ftsDocumentCount(match: FtsMatch, cap: number): number {
    return ftsDocumentCount(this.#sql, ftsExpression(match), cap);
  }

  /** The first `window` matches of `match` ranked by bm25 (ties by rowid); at most `limit`. */
  ftsRankedWindow(match: FtsMatch, window: number, limit: number): { id: string; score: number }[] {
    return ftsRankedWindow(this.#sql, ftsExpression(match), window, limit);
  }

  /** The first `limit` matches of `match` in index order (rowid, id, title). */
  ftsWindow(match: FtsMatch, limit: number): { rowid: number; id: string; title: string }[] {
    return ftsWindow(this.#sql, ftsExpression(match), limit);
  }

  // ---- edges ----

  /**
   * Up to `limit` edges of a node in one direction (optionally of `relations`), by relation then
   * other id, strictly after the keyset position `after` when given.
   */
  edges(nodeId: string, direction: EdgeDirection, relations: readonly string[] | null, limit: number, after: EdgeKey | null = null): EdgeRecord[] {
    return edgesOf(this.#sql, nodeId, direction, relations, limit, after);
  }

  /** Whether the exact edge is stored. */
  hasEdge(source: string, relation: string, target: string): boolean {
    return hasEdge(this.#sql, source, relation, target);
  }

  /** The sections of a mention-derived `documents` edge (issue 9 item 2), or null for any other edge. */
  edgeMention(source: string, relation: string, target: string): MentionSection[] | null {
    return edgeMention(this.#sql, source, relation, target);
  }

  /** The review stamps and state of an edge (issue 32 item 1), or null when it has none (see reader-graph.ts `edgeReview`). */
  edgeReview(source: string, relation: string, target: string): { state: ReviewState; reviews: EdgeReview[] } | null {
    return edgeReview(this.#sql, source, relation, target);
  }

  /** The stored review hash of a node (issue 32 item 1), or null. */
  reviewHash(id: string): string | null {
    return nodeReviewHashOf(this.#sql, id);
  }

  /** Sorted distinct relation names with edges. Scans the edge keys once: callers cache the answer. */
  distinctRelations(): string[] {
    return distinctRelations(this.#sql);
  }

  // ---- Logic ----

  /** Number of stored Logic steps and flows of an owner node (0 and 0 when it has none). */
  logicCounts(ownerId: string): { steps: number; flows: number } {
    return logicCounts(this.#sql, ownerId);
  }

  /** Whether the index stores any Logic step (one indexed probe; the no-AST check before any other read). */
  hasLogic(): boolean {
    return this.#sql.pluck('SELECT 1 FROM logic_steps LIMIT 1').get() !== undefined;
  }

  /** The first `count` Logic steps of an owner and the flows between them. */
  logicPage(ownerId: string, count: number): { steps: LogicStepRow[]; flows: LogicFlowRow[] } {
    return logicPage(this.#sql, ownerId, count);
  }

  // ---- issues ----

  /** Up to `limit` validation issues in stored order, plus the total count. */
  issues(limit: number): { issues: SourceIssue[]; total: number } {
    return { issues: issuesOf(this.#sql, null, limit).map(({ seq: _seq, ...issue }) => issue), total: this.count('issues') };
  }

  /**
   * Up to `limit` validation issues of the given severities, in stored order, each with its stored
   * position `seq` (positive, increasing), starting after position `afterSeq` (0: from the first).
   */
  issuesBySeverity(severities: readonly string[], limit: number, afterSeq = 0): (SourceIssue & { seq: number })[] {
    return issuesOf(this.#sql, severities, limit, afterSeq);
  }

  /** Issue counts per severity (absent severities have no key). */
  issueCountsBySeverity(): Record<string, number> {
    return issueCountsBySeverity(this.#sql);
  }

  /** Closes the connection (idempotent). */
  close(): void {
    if (this.#db.open) this.#db.close();
  }
}
