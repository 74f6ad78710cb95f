/**
 * The delta writer: applies an {@link IndexDelta} (write-rows.ts) to a private copy of the previous
 * index file. Which rows changed is the caller's business (libs/builder/src/rows.ts); this module
 * only removes and writes them, in one transaction.
 */
import { sqliteDatabase } from './sqlite.js';
import { insertEdge, insertNode, prepareInserts, writeIssues, writeLogic, writeMeta, writeSources, writeUnresolved, type WriteDb } from './index-writer.js';
import type { IndexDelta, SourceWriteResult } from './write-rows.js';

/** A function removing the node `id` (row, tags, capabilities, full-text row, segmented and code text), if present. */
function nodeRemover(db: WriteDb): (id: string) => void {
  const rowidOf = db.prepare('SELECT rowid FROM nodes WHERE id = ?').pluck();
  const delNode = db.prepare('DELETE FROM nodes WHERE id = ?');
  // The delete command needs the text the row was indexed with: the view's (segmented) text.
  const delFts = db.prepare("INSERT INTO node_fts (node_fts, rowid, id, title, headings, summary, body, tags, terms) SELECT 'delete', node_rowid, id, title, headings, summary, body, tags, terms FROM node_fts_text WHERE node_rowid = ?");
  const delCodeFts = db.prepare("INSERT INTO code_fts (code_fts, rowid, words) SELECT 'delete', rowid, words FROM node_code WHERE rowid = ?");
  const delSegmented = db.prepare('DELETE FROM node_segmented WHERE rowid = ?');
  const delCode = db.prepare('DELETE FROM node_code WHERE rowid = ?');
  const delCaps = db.prepare('DELETE FROM node_capabilities WHERE node_id = ?');
  const delReview = db.prepare('DELETE FROM node_review WHERE node_id = ?');
  const delTagByNode = db.prepare('DELETE FROM node_tags WHERE tag IN (SELECT value FROM json_each(?)) AND node_id = ?');
  const tagsOf = db.prepare('SELECT tags FROM nodes WHERE id = ?').pluck();
  return (id) => {
    const rowid = rowidOf.get(id) as number | bigint | undefined;
    if (rowid === undefined) return;
    delTagByNode.run(tagsOf.get(id) as string, id);
    delCaps.run(id);
    delReview.run(id);
    delFts.run(rowid);
    delSegmented.run(rowid);
    delCodeFts.run(rowid);
    delCode.run(rowid);
    delNode.run(id);
  };
}

/** Nodes and edges: removed ones, then changed nodes replaced, then edges written and removed. */
function applyGraph(db: WriteDb, delta: IndexDelta): void {
  const st = prepareInserts(db);
  const removeNode = nodeRemover(db);
  for (const id of delta.removedNodes) removeNode(id);
  for (const node of delta.changedNodes) {
    removeNode(node.id);
    insertNode(st, node, true, delta.code, delta.review);
  }
  for (const e of delta.edgesWritten) insertEdge(st, e);
  const delEdge = db.prepare('DELETE FROM edges WHERE source_id = ? AND relation = ? AND target_id = ?');
  for (const e of delta.edgesRemoved) delEdge.run(e.source_id, e.relation, e.target_id);
}

/** Sources and Logic: removed sources (with their Logic rows), source rows written, Logic rows replaced per source. */
function applySources(db: WriteDb, delta: IndexDelta): SourceWriteResult {
  const delSource = db.prepare('DELETE FROM sources WHERE path = ?');
  const delSteps = db.prepare('DELETE FROM logic_steps WHERE source_path = ?');
  const delFlows = db.prepare('DELETE FROM logic_flows WHERE source_path = ?');
  for (const p of delta.removedSources) {
    delSource.run(p);
    delSteps.run(p);
    delFlows.run(p);
  }
  const result = writeSources(db, delta.sources);
  for (const s of delta.logic) {
    delSteps.run(s.source_path);
    delFlows.run(s.source_path);
  }
  writeLogic(db, delta.logic);
  return result;
}

/**
 * Applies `delta` to `file`, a private copy of a previous index file (removed by the caller when
 * this throws: it runs without a rollback journal).
 * @returns per source row written, the indexes of its nodes held as another's row
 * @throws SQLite errors
 */
export function applyIndexDelta(file: string, delta: IndexDelta): SourceWriteResult {
  const db = new (sqliteDatabase())(file);
  try {
    // The file is the build's private copy, removed when the write fails: no rollback journal is
    // needed, and without one the delta writes only the pages it changes.
    db.pragma('journal_mode = OFF');
    db.pragma('synchronous = OFF');
    let result: SourceWriteResult = [];
    db.transaction(() => {
      applyGraph(db, delta);
      result = applySources(db, delta);
      writeIssues(db, delta.issues);
      if (delta.unresolved !== null) writeUnresolved(db, delta.unresolved);
      writeMeta(db, delta.meta);
    })();
    return result;
  } finally {
    db.close();
  }
}
