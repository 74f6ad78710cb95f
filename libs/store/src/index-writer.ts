/**
 * The index writer: writes a complete SQLite index file from neutral rows (write-rows.ts), either
 * from scratch ({@link writeIndexFile}) or as a delta applied to a copy of the previous file
 * (`applyIndexDelta`, index-delta.ts). Schema in schema.ts. It knows no build cache.
 */
import type Database from 'better-sqlite3';
import { locatedIssueMessage, type GraphEdge, type GraphNode, type SourceIssue } from '@docforge/core';
import { INDEX_DDL, INDEX_POST_DDL } from './schema.js';
import { sqliteDatabase } from './sqlite.js';
import { indexedText } from './segment.js';
import { codeIndexWords, nodeTerms } from './terms.js';
import { packCodeLines } from './code-lines.js';
import type { CodeTextOf, FullIndexRows, ReviewHashOf, LogicRowsWrite, SourceRowWrite, SourceWriteResult, UnresolvedCallRow } from './write-rows.js';

/** A read-write connection to an index file being written. */
export type WriteDb = InstanceType<typeof Database>;

type Stmt = Database.Statement<unknown[], unknown>;

/** The insert statements every write uses per node and edge. */
export interface InsertStatements {
  node: Stmt;
  fts: Stmt;
  segmented: Stmt;
  code: Stmt;
  codeFts: Stmt;
  tag: Stmt;
  capability: Stmt;
  edge: Stmt;
  review: Stmt;
}

/** Prepares the per-row inserts of `db`. */
export function prepareInserts(db: WriteDb): InsertStatements {
  return {
    // Positional parameters: binding an array is cheaper than 19 named property lookups per row.
    node: db.prepare(`INSERT INTO nodes (id, kind, title, family, authority, status, tags, summary, body, source_path, start_line, end_line, anchors, headings, terms, language, capabilities, origin, content_hash)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
    fts: db.prepare('INSERT INTO node_fts (rowid, id, title, headings, summary, body, tags, terms) SELECT node_rowid, id, title, headings, summary, body, tags, terms FROM node_fts_text WHERE node_rowid = ?'),
    segmented: db.prepare('INSERT INTO node_segmented (rowid, id, title, headings, summary, body, tags, terms) VALUES (?, ?, ?, ?, ?, ?, ?, ?)'),
    code: db.prepare('INSERT INTO node_code (rowid, words, lines) VALUES (?, ?, ?)'),
    codeFts: db.prepare('INSERT INTO code_fts (rowid, words) SELECT rowid, words FROM node_code WHERE rowid = ?'),
    tag: db.prepare('INSERT OR IGNORE INTO node_tags (tag, node_id) VALUES (?, ?)'),
    capability: db.prepare('INSERT OR IGNORE INTO node_capabilities (capability, node_id) VALUES (?, ?)'),
    edge: db.prepare('INSERT OR REPLACE INTO edges (source_id, relation, target_id, source_path, line, mention, review) VALUES (?, ?, ?, ?, ?, ?, ?)'),
    review: db.prepare('INSERT OR REPLACE INTO node_review (node_id, hash) VALUES (?, ?)'),
  };
}

/** The stored `mention` column of an edge: JSON of its mention sections, or null (issue 9 item 2). */
function mentionJson(edge: GraphEdge): string | null {
  return edge.mention === undefined ? null : JSON.stringify(edge.mention);
}

/** Inserts (or replaces) an edge row. */
export function insertEdge(st: InsertStatements, e: GraphEdge): void {
  st.edge.run(e.source_id, e.relation, e.target_id, e.source_path, e.line, mentionJson(e), e.reviews === undefined || e.reviews.length === 0 ? null : JSON.stringify(e.reviews));
}

/**
 * Inserts a node row, with its code text row when `codeOf` gives one (issue 31 item 1); its
 * full-text rows (node_fts, code_fts) are added here when `withFts` (deltas), else by 'rebuild'
 * (full builds).
 */
export function insertNode(st: InsertStatements, node: GraphNode, withFts: boolean, codeOf: CodeTextOf | undefined, reviewOf?: ReviewHashOf): void {
  const tags = JSON.stringify(node.tags);
  const headings = node.anchors.map((a) => a.title).join('\n');
  const terms = nodeTerms(node.id, node.title);
  const info = st.node.run(
    node.id, node.kind, node.title, node.family, node.authority, node.status, tags, node.summary, node.body,
    node.source_path, node.start_line, node.end_line, JSON.stringify(node.anchors), headings,
    terms, node.language, JSON.stringify(node.capabilities), node.origin, node.content_hash,
  );
  // The full-text columns in FTS column order; a row of segmented text only when one differs.
  const indexed = [node.id, node.title, headings, node.summary, node.body, tags, terms].map(indexedText);
  if (indexed.some((t) => t !== null)) st.segmented.run(info.lastInsertRowid, ...indexed);
  const code = codeOf?.(node);
  if (code !== undefined) {
    const words = codeIndexWords(code.words);
    st.code.run(info.lastInsertRowid, indexedText(words) ?? words, packCodeLines(code.lines));
    if (withFts) st.codeFts.run(info.lastInsertRowid);
  }
  if (withFts) st.fts.run(info.lastInsertRowid);
  for (const tag of node.tags) st.tag.run(tag, node.id);
  for (const capability of node.capabilities) st.capability.run(capability, node.id);
  const review = reviewOf?.(node);
  if (review !== undefined) st.review.run(node.id, review);
}

/** Writes (or replaces) the `meta` rows. */
export function writeMeta(db: WriteDb, meta: Readonly<Record<string, string>>): void {
  const stmt = db.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)');
  for (const [key, value] of Object.entries(meta)) stmt.run(key, value);
}

/** Replaces the `unresolved_calls` rows. */
export function writeUnresolved(db: WriteDb, rows: readonly UnresolvedCallRow[]): void {
  db.prepare('DELETE FROM unresolved_calls').run();
  const stmt = db.prepare('INSERT INTO unresolved_calls (node_id, count) VALUES (?, ?)');
  for (const [id, count] of rows) stmt.run(id, count);
}

/** Replaces the `issues` rows. */
export function writeIssues(db: WriteDb, issues: readonly SourceIssue[]): void {
  db.prepare('DELETE FROM issues').run();
  const stmt = db.prepare('INSERT INTO issues (severity, code, message, path, line, node_id) VALUES (?, ?, ?, ?, ?, ?)');
  // Every stored message starts with its `path:line:` (docs/errors.md), whichever producer made it.
  for (const issue of issues) stmt.run(issue.severity, issue.code, locatedIssueMessage(issue), issue.path, issue.line, issue.node_id);
}

/**
 * Writes source rows (call after the nodes table is written) and reports, per source, which of
 * its nodes the table holds as another's row. `written`, when given, is exactly the table's rows
 * (a full write), so the row of an id is looked up in it instead of queried.
 */
export function writeSources(db: WriteDb, sources: readonly SourceRowWrite[], written?: readonly GraphNode[]): SourceWriteResult {
  const stmt = db.prepare('INSERT OR REPLACE INTO sources (path, role, size, mtime_ns, ctime_ns, ino, content_hash, node_count) VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
  // A full write knows the table's rows (`written`, one per id): no query per node.
  const rowsById = written === undefined ? null : new Map(written.map((n) => [n.id, n]));
  const query = db.prepare('SELECT source_path, content_hash FROM nodes WHERE id = ?');
  const rowOf = (id: string): { source_path: string; content_hash: string } | undefined =>
    (rowsById === null ? query.get(id) as { source_path: string; content_hash: string } | undefined : rowsById.get(id));
  const result: SourceWriteResult = [];
  for (const s of sources) {
    const lost: number[] = [];
    s.nodes.forEach((n, index) => {
      const row = rowOf(n.id);
      if (row === undefined || row.source_path !== s.entry.path || row.content_hash !== n.content_hash) lost.push(index);
    });
    stmt.run(s.entry.path, s.entry.role, s.entry.size, s.entry.mtime_ns, s.entry.ctime_ns, s.entry.ino, s.content_hash, s.nodes.length);
    result.push(lost);
  }
  return result;
}

/** Inserts (or replaces) Logic step and flow rows. */
export function writeLogic(db: WriteDb, logic: readonly LogicRowsWrite[]): void {
  const step = db.prepare('INSERT OR REPLACE INTO logic_steps (owner_id, step, kind, label, start_line, end_line, source_path) VALUES (?, ?, ?, ?, ?, ?, ?)');
  const flow = db.prepare('INSERT OR REPLACE INTO logic_flows (owner_id, from_step, to_step, kind, label, source_path) VALUES (?, ?, ?, ?, ?, ?)');
  for (const s of logic) {
    for (const x of s.steps) step.run(x.owner_id, x.step, x.kind, x.label, x.start_line, x.end_line, s.source_path);
    for (const f of s.flows) flow.run(f.owner_id, f.from_step, f.to_step, f.kind, f.label, s.source_path);
  }
}

function writeFull(db: WriteDb, rows: FullIndexRows, progress: (stage: string, done: number, total: number) => void): SourceWriteResult {
  db.pragma('journal_mode = OFF');
  db.pragma('synchronous = OFF');
  db.pragma('page_size = 8192');
  db.exec(INDEX_DDL);
  db.exec(INDEX_POST_DDL);
  const st = prepareInserts(db);
  let result: SourceWriteResult = [];
  db.transaction(() => {
    let n = 0;
    for (const node of rows.nodes) {
      insertNode(st, node, false, rows.code, rows.review);
      n += 1;
      if (n % 2000 === 0) progress('write', n, rows.nodes.length);
    }
    for (const e of rows.edges) insertEdge(st, e);
    result = writeSources(db, rows.sources, rows.nodes);
    writeLogic(db, rows.logic);
    writeIssues(db, rows.issues);
    writeUnresolved(db, rows.unresolved);
    writeMeta(db, rows.meta);
    db.exec("INSERT INTO node_fts (node_fts) VALUES ('rebuild')");
    db.exec("INSERT INTO code_fts (code_fts) VALUES ('rebuild')");
  })();
  db.pragma('journal_mode = DELETE');
  return result;
}

/**
 * Writes a complete index file from scratch at `file` (a new temp file), with the nodes' full-text
 * rows rebuilt at the end. `progress` receives `('write', done, total)` every 2,000 nodes.
 * @returns per source row written, the indexes of its nodes held as another's row
 * @throws SQLite errors (the caller removes the file)
 */
export function writeIndexFile(file: string, rows: FullIndexRows, progress: (stage: string, done: number, total: number) => void): SourceWriteResult {
  const db = new (sqliteDatabase())(file);
  try {
    return writeFull(db, rows, progress);
  } finally {
    db.close();
  }
}
