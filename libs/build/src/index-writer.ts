/**
 * The index writer: writes a complete SQLite index file, either from scratch ({@link writeFull})
 * or as a delta applied to a copy of the previous file ({@link writeDelta}). Schema in schema.ts.
 */
import { createHash } from 'node:crypto';
import type Database from 'better-sqlite3';
import { sqliteDatabase } from '@docforge/store';
import { edgeIdentityKey, locatedIssueMessage, parseEdgeIdentityKey, type GraphEdge, type GraphNode, type SourceIssue } from '@docforge/core';
import { sourceKey, type CachedSource, type PersistedParse, type WrittenState } from './build-types.js';
import type { ParseRow } from '@docforge/store';
import { linkDataJson } from './lazy-link-data.js';
import { INDEX_DDL, INDEX_POST_DDL } from '@docforge/store';
import { nodeTerms } from '@docforge/store';

type Db = InstanceType<typeof Database>;

type Stmt = Database.Statement<unknown[], unknown>;

interface Statements {
  node: Stmt;
  fts: Stmt;
  tag: Stmt;
  capability: Stmt;
  edge: Stmt;
}

function prepareInserts(db: Db): Statements {
  return {
    // Positional parameters: binding an array is cheaper than 19 named property lookups per row.
    node: db.prepare(`INSERT INTO nodes (id, kind, title, family, authority, status, tags, summary, body, source_path, start_line, end_line, anchors, headings, terms, language, capabilities, origin, content_hash)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
    fts: db.prepare('INSERT INTO node_fts (rowid, id, title, headings, summary, body, tags, terms) SELECT rowid, id, title, headings, summary, body, tags, terms FROM nodes WHERE rowid = ?'),
    tag: db.prepare('INSERT OR IGNORE INTO node_tags (tag, node_id) VALUES (?, ?)'),
    capability: db.prepare('INSERT OR IGNORE INTO node_capabilities (capability, node_id) VALUES (?, ?)'),
    edge: db.prepare('INSERT OR REPLACE INTO edges (source_id, relation, target_id, source_path, line, mention) VALUES (?, ?, ?, ?, ?, ?)'),
  };
}

/** The stored `mention` column of an edge: JSON of its mention sections, or null (issue 9 item 2). */
function mentionJson(edge: GraphEdge): string | null {
  return edge.mention === undefined ? null : JSON.stringify(edge.mention);
}

/** Inserts a node row; its full-text row is added by the caller (per row in deltas, by 'rebuild' in full builds). */
function insertNode(st: Statements, node: GraphNode, withFts: boolean): void {
  const info = st.node.run(
    node.id, node.kind, node.title, node.family, node.authority, node.status, JSON.stringify(node.tags), node.summary, node.body,
    node.source_path, node.start_line, node.end_line, JSON.stringify(node.anchors), node.anchors.map((a) => a.title).join('\n'),
    nodeTerms(node.id, node.title), node.language, JSON.stringify(node.capabilities), node.origin, node.content_hash,
  );
  if (withFts) st.fts.run(info.lastInsertRowid);
  for (const tag of node.tags) st.tag.run(tag, node.id);
  for (const capability of node.capabilities) st.capability.run(capability, node.id);
}

function writeMeta(db: Db, meta: Record<string, string>): void {
  const stmt = db.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)');
  for (const [key, value] of Object.entries(meta)) stmt.run(key, value);
}

/** Per calling node id, call sites without a proven target (see the `unresolved_calls` table). */
export type UnresolvedCalls = ReadonlyMap<string, number>;

/** Hash of the unresolved-call rows of the given nodes (sorted by id), to skip an unchanged rewrite. */
export function unresolvedCallsHash(rows: Iterable<readonly [string, number]>): string {
  const sorted = [...rows].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return createHash('sha256').update(JSON.stringify(sorted)).digest('hex');
}

/** The rows to store: counts of nodes that exist in the graph (a count for an unknown id is dropped). */
function unresolvedRows(unresolved: UnresolvedCalls | undefined, nodes: readonly GraphNode[]): [string, number][] {
  if (unresolved === undefined || unresolved.size === 0) return [];
  const rows: [string, number][] = [];
  for (const node of nodes) {
    const count = unresolved.get(node.id);
    if (count !== undefined && count > 0) rows.push([node.id, count]);
  }
  return rows;
}

function writeUnresolved(db: Db, rows: readonly [string, number][]): void {
  db.prepare('DELETE FROM unresolved_calls').run();
  const stmt = db.prepare('INSERT INTO unresolved_calls (node_id, count) VALUES (?, ?)');
  for (const [id, count] of rows) stmt.run(id, count);
}

function writeIssues(db: Db, issues: readonly SourceIssue[]): void {
  db.prepare('DELETE FROM issues').run();
  const stmt = db.prepare('INSERT INTO issues (severity, code, message, path, line, node_id) VALUES (?, ?, ?, ?, ?, ?)');
  // Every stored message starts with its `path:line:` (docs/errors.md), whichever producer made it.
  for (const issue of issues) stmt.run(issue.severity, issue.code, locatedIssueMessage(issue), issue.path, issue.line, issue.node_id);
}

/**
 * Writes source rows and returns each one's pre-resolution parse for the parse cache
 * (parse-cache.ts; declared edges, links, issues, adapter link data, and the node ids), so a new
 * process can build incrementally (see warm.ts). A node whose row in the nodes table is not the
 * source's own node is kept whole in `lost_nodes`: one that lost a duplicate-id clash, and one the
 * build extended after parsing (link capabilities such as a package.json `entrypoint`,
 * project-adapter.ts `extendGraph`), so a warm start never mistakes what linking added for what
 * the parse produced. Call after the nodes table is written; `written`, when given, is exactly
 * that table's rows (a full write), so the row of an id is looked up in it.
 */
function writeSources(db: Db, sources: Iterable<CachedSource>, written?: readonly GraphNode[]): ParseRow[] {
  const stmt = db.prepare('INSERT OR REPLACE INTO sources (path, role, size, mtime_ns, ino, content_hash, node_count) VALUES (?, ?, ?, ?, ?, ?, ?)');
  // A full write knows the table's rows (`written`, one per id): no query per node.
  const rowsById = written === undefined ? null : new Map(written.map((n) => [n.id, n]));
  const query = db.prepare('SELECT source_path, content_hash FROM nodes WHERE id = ?');
  const rowOf = (id: string): { source_path: string; content_hash: string } | undefined =>
    (rowsById === null ? query.get(id) as { source_path: string; content_hash: string } | undefined : rowsById.get(id));
  const rows: ParseRow[] = [];
  for (const s of sources) {
    const lost = s.nodes.filter((n) => {
      const row = rowOf(n.id);
      return row === undefined || row.source_path !== s.entry.path || row.content_hash !== n.content_hash;
    }).map((n) => ({ ...n, body: '' }));
    const parse: PersistedParse = {
      v: 3, node_ids: s.nodes.map((n) => n.id), lost_nodes: lost, edges: s.edges, links: s.links, issues: s.issues,
      adapter: s.adapter, logic_steps: s.logic_count ?? s.logic_steps.length,
    };
    stmt.run(s.entry.path, s.entry.role, s.entry.size, s.entry.mtime_ns, s.entry.ino, s.content_hash, s.nodes.length);
    // Link data the parse cache no longer holds (undefined): no row, so the source is parsed again by a later build.
    const linkData = linkDataJson(s);
    if (linkData !== undefined) rows.push({ path: s.entry.path, sourceKey: sourceKey(s), parse: JSON.stringify(parse), linkData });
  }
  return rows;
}

function writeLogic(db: Db, sources: Iterable<CachedSource>): void {
  const step = db.prepare('INSERT OR REPLACE INTO logic_steps (owner_id, step, kind, label, start_line, end_line, source_path) VALUES (?, ?, ?, ?, ?, ?, ?)');
  const flow = db.prepare('INSERT OR REPLACE INTO logic_flows (owner_id, from_step, to_step, kind, label, source_path) VALUES (?, ?, ?, ?, ?, ?)');
  for (const s of sources) {
    for (const x of s.logic_steps) step.run(x.owner_id, x.step, x.kind, x.label, x.start_line, x.end_line, s.entry.path);
    for (const f of s.logic_flows) flow.run(f.owner_id, f.from_step, f.to_step, f.kind, f.label, s.entry.path);
  }
}

function writeFull(
  db: Db,
  nodes: readonly GraphNode[],
  edges: readonly GraphEdge[],
  current: Map<string, CachedSource>,
  logicSources: readonly CachedSource[],
  issues: readonly SourceIssue[],
  meta: Record<string, string>,
  progress: (stage: string, done: number, total: number) => void,
  unresolved: UnresolvedCalls | undefined,
): ParseRow[] {
  db.pragma('journal_mode = OFF');
  db.pragma('synchronous = OFF');
  db.pragma('page_size = 8192');
  db.exec(INDEX_DDL);
  db.exec(INDEX_POST_DDL);
  const st = prepareInserts(db);
  let parses: ParseRow[] = [];
  db.transaction(() => {
    let n = 0;
    for (const node of nodes) {
      insertNode(st, node, false);
      n += 1;
      if (n % 2000 === 0) progress('write', n, nodes.length);
    }
    for (const e of edges) st.edge.run(e.source_id, e.relation, e.target_id, e.source_path, e.line, mentionJson(e));
    parses = writeSources(db, current.values(), nodes);
    writeLogic(db, logicSources);
    writeIssues(db, issues);
    writeUnresolved(db, unresolvedRows(unresolved, nodes));
    writeMeta(db, meta);
    db.exec("INSERT INTO node_fts (node_fts) VALUES ('rebuild')");
  })();
  db.pragma('journal_mode = DELETE');
  return parses;
}

/**
 * Applies the difference between the previously written graph and the new one to a copy of the
 * previous index file. Returns false when a changed node's body is not available (the caller
 * then writes a full index).
 */
function writeDelta(
  db: Db,
  prev: WrittenState,
  nodes: readonly GraphNode[],
  edges: readonly GraphEdge[],
  nodeMap: Map<string, string>,
  edgeMap: Map<string, string>,
  current: Map<string, CachedSource>,
  issues: readonly SourceIssue[],
  meta: Record<string, string>,
  unresolved: UnresolvedCalls | undefined,
): ParseRow[] | null {
  const changedNodes: GraphNode[] = [];
  /** New ids also in the previous graph: when all previous ids are, none was removed. */
  let kept = 0;
  for (const n of nodes) {
    const before = prev.nodes.get(n.id);
    if (before !== undefined) kept += 1;
    if (before !== n.content_hash) changedNodes.push(n);
  }
  for (const node of changedNodes) {
    if (current.get(node.source_path)?.stripped !== false) return null;
  }
  let parses: ParseRow[] = [];
  // The file is this build's private copy, removed when the write fails (build.ts): no rollback
  // journal is needed, and without one the delta writes only the pages it changes.
  db.pragma('journal_mode = OFF');
  db.pragma('synchronous = OFF');
  const st = prepareInserts(db);
  const rowidOf = db.prepare('SELECT rowid FROM nodes WHERE id = ?').pluck();
  const delNode = db.prepare('DELETE FROM nodes WHERE id = ?');
  const delFts = db.prepare("INSERT INTO node_fts (node_fts, rowid, id, title, headings, summary, body, tags, terms) SELECT 'delete', rowid, id, title, headings, summary, body, tags, terms FROM nodes WHERE rowid = ?");
  const delCaps = db.prepare('DELETE FROM node_capabilities WHERE node_id = ?');
  const delEdge = db.prepare('DELETE FROM edges WHERE source_id = ? AND relation = ? AND target_id = ?');
  const delTagByNode = db.prepare('DELETE FROM node_tags WHERE tag IN (SELECT value FROM json_each(?)) AND node_id = ?');
  const tagsOf = db.prepare('SELECT tags FROM nodes WHERE id = ?').pluck();
  const removeNode = (id: string): void => {
    const rowid = rowidOf.get(id) as number | bigint | undefined;
    if (rowid === undefined) return;
    delTagByNode.run(tagsOf.get(id) as string, id);
    delCaps.run(id);
    delFts.run(rowid);
    delNode.run(id);
  };
  db.transaction(() => {
    if (kept < prev.nodes.size) for (const id of prev.nodes.keys()) if (!nodeMap.has(id)) removeNode(id);
    for (const node of changedNodes) {
      removeNode(node.id);
      insertNode(st, node, true);
    }
    // New and changed edges (disjoint from the removed ones, so the order of the two steps is free).
    // The build passes the previous map itself when no edge row changed.
    let keptEdges = edgeMap === prev.edges ? prev.edges.size : 0;
    if (edgeMap === prev.edges) {
      // nothing to write
    } else if (edgeMap.size === edges.length) {
      // The map was built from `edges` in order (unique triples): walk both together, no keys rebuilt.
      let index = 0;
      for (const [key, value] of edgeMap) {
        const e = edges[index]!;
        index += 1;
        const before = prev.edges.get(key);
        if (before !== undefined) keptEdges += 1;
        if (before !== value) st.edge.run(e.source_id, e.relation, e.target_id, e.source_path, e.line, mentionJson(e));
      }
    } else {
      for (const e of edges) {
        const key = edgeIdentityKey(e);
        if (prev.edges.get(key) !== edgeMap.get(key)) st.edge.run(e.source_id, e.relation, e.target_id, e.source_path, e.line, mentionJson(e));
      }
    }
    // Edges gone from the graph; none when every previous key is among the new ones (keys are unique).
    if (keptEdges < prev.edges.size) {
      for (const key of prev.edges.keys()) {
        if (!edgeMap.has(key)) {
          const edge = parseEdgeIdentityKey(key);
          delEdge.run(edge.source_id, edge.relation, edge.target_id);
        }
      }
    }
    const delSource = db.prepare('DELETE FROM sources WHERE path = ?');
    const delSteps = db.prepare('DELETE FROM logic_steps WHERE source_path = ?');
    const delFlows = db.prepare('DELETE FROM logic_flows WHERE source_path = ?');
    for (const p of prev.sources.keys()) {
      if (current.has(p)) continue;
      delSource.run(p);
      delSteps.run(p);
      delFlows.run(p);
    }
    // Changed rows, and freshly parsed sources (their parse may be missing from the parse cache).
    const changedSources: CachedSource[] = [];
    // Freshly parsed code sources (not stripped) replace their Logic rows, also one that no
    // adapter parsed this time (its adapter became unavailable): its old rows go.
    const changedLogic: CachedSource[] = [];
    for (const s of current.values()) {
      if (!s.stripped || prev.sources.get(s.entry.path) !== sourceKey(s)) changedSources.push(s);
      if (!s.stripped && (s.adapter !== null || s.entry.role === 'code')) changedLogic.push(s);
    }
    parses = writeSources(db, changedSources);
    for (const s of changedLogic) {
      delSteps.run(s.entry.path);
      delFlows.run(s.entry.path);
    }
    writeLogic(db, changedLogic);
    writeIssues(db, issues);
    const rows = unresolvedRows(unresolved, nodes);
    if (prev.unresolvedHash !== unresolvedCallsHash(rows)) writeUnresolved(db, rows);
    writeMeta(db, meta);
  })();
  return parses;
}

/**
 * Writes a complete index file from scratch at `file` (a new temp file), with the nodes' full-text
 * rows rebuilt at the end. `progress` receives `('write', done, total)` every 2,000 nodes.
 * @returns every source's parse, for the parse cache
 * @throws SQLite errors (the caller removes the file)
 */
export function writeFullIndex(
  file: string,
  graph: { nodes: readonly GraphNode[]; edges: readonly GraphEdge[]; unresolvedCalls?: UnresolvedCalls },
  current: Map<string, CachedSource>,
  issues: readonly SourceIssue[],
  meta: Record<string, string>,
  progress: (stage: string, done: number, total: number) => void,
): ParseRow[] {
  const db = new (sqliteDatabase())(file);
  try {
    return writeFull(db, graph.nodes, graph.edges, current, [...current.values()].filter((s) => s.logic_steps.length > 0), issues, meta, progress, graph.unresolvedCalls);
  } finally {
    db.close();
  }
}

/**
 * Applies a delta to `file`, a copy of the index file `prev` describes: removed and changed nodes,
 * edges, sources and Logic rows are replaced. Returns the parses of the source rows written (for
 * the parse cache), or null (the file is then unusable) when a changed node's body was dropped
 * from the cache, so the caller writes a full index instead.
 * @throws SQLite errors
 */
export function writeDeltaIndex(
  file: string,
  prev: WrittenState,
  graph: { nodes: readonly GraphNode[]; edges: readonly GraphEdge[]; unresolvedCalls?: UnresolvedCalls },
  maps: { nodes: Map<string, string>; edges: Map<string, string> },
  current: Map<string, CachedSource>,
  issues: readonly SourceIssue[],
  meta: Record<string, string>,
): ParseRow[] | null {
  const db = new (sqliteDatabase())(file);
  try {
    return writeDelta(db, prev, graph.nodes, graph.edges, maps.nodes, maps.edges, current, issues, meta, graph.unresolvedCalls);
  } finally {
    db.close();
  }
}
