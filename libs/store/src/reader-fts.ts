/**
 * Full-text queries of the index reader (FTS5 over `node_fts`, bm25 with FTS_WEIGHTS as rank).
 * Every query is bounded by a caller-given row limit. Snippets are bounded by construction: FTS5's
 * `snippet()` (whose cost grows with the square of the matches in one column) runs only on bodies of
 * at most {@link SNIPPET_MAX_BODY_CHARS}; a longer body yields its first `headChars` characters
 * instead, for the caller to excerpt (DESIGN.md section 7: query-time work is bounded whatever the
 * size of one node).
 */
import type { Anchor } from '@docforge/core';
import { filterSql, type NodeFilters } from './reader-nodes.js';
import { placeholders, type StatementCache } from './reader-statements.js';
import { FTS_WEIGHTS } from './schema.js';
import { withoutWordMarks } from './segment.js';
import { unpackCodeLines } from './code-lines.js';

/**
 * Longest body (characters) FTS5 `snippet()` is run on. Measured on SQLite 3.53: a 4,096-character
 * body made only of matches (2,048 hits) takes about 30 ms; ordinary prose far less.
 */
export const SNIPPET_MAX_BODY_CHARS = 4096;

/** One ranked full-text candidate (no body). */
export interface FtsCandidate {
  rowid: number;
  id: string;
  kind: string;
  title: string;
  source_path: string;
  start_line: number;
  /** Last line of the node's extent (equal to `start_line` for a one-line declaration). */
  end_line: number;
  anchors: Anchor[];
  summary: string;
  /** Whether the node carries the `test` capability (a test source or a test function, as its language's adapter decides). */
  test: boolean;
  /** FTS5 rank (bm25 with the index weights); lower ranks higher. Null when returned unranked ({@link ftsFewMatches}). */
  bm25: number | null;
}

/** A full-text candidate returned by a ranked query ({@link ftsCandidates}): its bm25 is known. */
export interface RankedFtsCandidate extends FtsCandidate {
  bm25: number;
}

/** Excerpt material of one matched node: an FTS5 snippet of a short body, or the head of a long one. */
export interface FtsExcerptSource {
  rowid: number;
  /** FTS5 `snippet()` of the body (16 tokens, `…` ellipses) when the body is short, else null. */
  snippet: string | null;
  /** The first `headChars` characters of the body when it is longer than {@link SNIPPET_MAX_BODY_CHARS}, else null. */
  head: string | null;
  /**
   * When the short body holds no matching word and the node has code text (issue 31 item 1): the
   * first `headChars` characters of its kept lines (`<line>\t<text>` per line, `node_code.lines`),
   * for the caller to pick the matching line; else null.
   */
  code: string | null;
}

/** Marks FTS5 puts around matched words in a body snippet, removed before it is returned (control characters no indexed text holds as words). */
const HIT_OPEN = '\u0002';
const HIT_CLOSE = '\u0003';
const HIT_MARKS = /[\u0002\u0003]/g;

type CandidateRow<C extends FtsCandidate = FtsCandidate> = Omit<C, 'anchors' | 'test'> & { anchors: string; test: number };

function decode<C extends FtsCandidate>(row: CandidateRow<C>): C {
  return { ...row, anchors: JSON.parse(row.anchors) as Anchor[], test: row.test === 1 } as C;
}

/**
 * FTS5's bm25 with the index's column weights: the same function as the table's configured `rank`
 * (schema.ts `INDEX_POST_DDL`), called directly so that SQLite's top-N sorter keeps only `LIMIT`
 * rows; `ORDER BY rank` makes FTS5 sort every match in a nested statement first.
 */
const BM25 = `bm25(node_fts, ${FTS_WEIGHTS.join(', ')})`;

const CANDIDATE_COLUMNS = `n.rowid AS rowid, n.id, n.kind, n.title, n.source_path, n.start_line, n.end_line, n.anchors, n.summary, (instr(n.capabilities, '"test"') > 0) AS test`;

/**
 * Up to `limit` nodes matching the FTS5 query `fts` and `filters`, best rank first: ties by rowid
 * unfiltered (the order FTS5's own `ORDER BY rank` gives, as it ranks matches in rowid order), by
 * id when filtered. One statement: the window is ranked first, then joined to its node rows.
 * With `maxRowid`, only matches at or below that rowid are ranked (a bounded tier: FTS5 computes
 * bm25 only for them; see {@link ftsNthMatchRowid}).
 */
export function ftsCandidates(sql: StatementCache, fts: string, filters: NodeFilters, limit: number, maxRowid: number | null = null): RankedFtsCandidate[] {
  const params: unknown[] = [fts];
  const bound = maxRowid === null ? '' : ' AND node_fts.rowid <= ?';
  if (maxRowid !== null) params.push(BigInt(maxRowid));
  const where = filterSql('n', filters, params);
  params.push(limit);
  if (where === '') {
    return (sql.rows(`
      SELECT ${CANDIDATE_COLUMNS}, w.score AS bm25
      FROM (SELECT rowid, ${BM25} AS score FROM node_fts WHERE node_fts MATCH ?${bound} ORDER BY score, rowid LIMIT ?) w
      JOIN nodes n ON n.rowid = w.rowid
      ORDER BY w.score, w.rowid`).all(...params) as CandidateRow<RankedFtsCandidate>[]).map(decode);
  }
  const rows = sql.rows(`
    SELECT ${CANDIDATE_COLUMNS}, ${BM25} AS bm25
    FROM node_fts JOIN nodes n ON n.rowid = node_fts.rowid
    WHERE node_fts MATCH ?${bound}${where}
    ORDER BY bm25, n.id
    LIMIT ?`).all(...params) as CandidateRow<RankedFtsCandidate>[];
  return rows.map(decode);
}

/**
 * The first `limit` nodes matching `fts` and `filters` (at or below `maxRowid`), in rowid (index)
 * order and unranked (`bm25` null). FTS5 computes no bm25, whose document frequencies cost a pass
 * over each phrase's whole doclist. One statement reading at most `limit` matches.
 */
export function ftsFirstMatches(sql: StatementCache, fts: string, filters: NodeFilters, limit: number, maxRowid: number | null = null): FtsCandidate[] {
  const params: unknown[] = [fts];
  const bound = maxRowid === null ? '' : ' AND node_fts.rowid <= ?';
  if (maxRowid !== null) params.push(BigInt(maxRowid));
  const where = filterSql('n', filters, params);
  params.push(limit);
  const rows = sql.rows(`
    SELECT ${CANDIDATE_COLUMNS}, NULL AS bm25
    FROM node_fts JOIN nodes n ON n.rowid = node_fts.rowid
    WHERE node_fts MATCH ?${bound}${where}
    ORDER BY node_fts.rowid
    LIMIT ?`).all(...params) as CandidateRow[];
  return rows.map(decode);
}

/**
 * Every node matching `fts` and `filters` (at or below `maxRowid`), in rowid order and unranked
 * (`bm25` null), when there are at most `max`; else null. A query with that few matches needs no
 * order to pick its best `max`. One statement reading at most `max + 1` matches
 * ({@link ftsFirstMatches}).
 */
export function ftsFewMatches(sql: StatementCache, fts: string, filters: NodeFilters, max: number, maxRowid: number | null = null): FtsCandidate[] | null {
  const rows = ftsFirstMatches(sql, fts, filters, max + 1, maxRowid);
  return rows.length > max ? null : rows;
}

/**
 * Excerpt material for the given rows of one FTS5 query, in one snippet query plus one bounded
 * head read per long body and one bounded code-lines read per short body without a match or row
 * not matching at all (a node found by its code text, issue 31 item 1), in no particular order. Rowids are bound as BigInt: FTS5 ignores a rowid constraint bound as a
 * double.
 */
export function ftsExcerptSources(sql: StatementCache, fts: string, rowids: readonly number[], headChars: number): FtsExcerptSource[] {
  if (rowids.length === 0) return [];
  const rows = sql.rows(`
    SELECT rowid, CASE WHEN (SELECT length(body) FROM nodes WHERE rowid = node_fts.rowid) <= ? THEN snippet(node_fts, 4, '${HIT_OPEN}', '${HIT_CLOSE}', '…', 16) END AS snippet
    FROM node_fts WHERE node_fts MATCH ? AND rowid IN (${placeholders(rowids.length)})`)
    .all(SNIPPET_MAX_BODY_CHARS, fts, ...rowids.map((r) => BigInt(r))) as { rowid: number | bigint; snippet: string | null }[];
  const head = sql.pluck('SELECT substr(body, 1, ?) FROM nodes WHERE rowid = ?');
  const codeLines = (rowid: number): string | null => nodeCodeLines(sql, [rowid], headChars).get(rowid) ?? null;
  // A row found by its code text alone (issue 31 item 1) does not match node_fts: its code lines only.
  const found = new Set(rows.map((row) => Number(row.rowid)));
  const codeOnly = rowids.filter((rowid) => !found.has(rowid)).map((rowid) => ({ rowid, snippet: null, head: null, code: codeLines(rowid) }));
  return [...codeOnly, ...rows.map((row) => {
    const rowid = Number(row.rowid);
    if (row.snippet !== null) {
      // The snippet is cut from the indexed text: drop the separators put between segmented words.
      const matched = row.snippet.includes(HIT_OPEN);
      const snippet = withoutWordMarks(row.snippet.replace(HIT_MARKS, ''));
      return { rowid, snippet, head: null, code: matched ? null : codeLines(rowid) };
    }
    return { rowid, snippet: null, head: (head.get(headChars, rowid) as string | undefined) ?? '', code: null };
  })];
}

/**
 * The rowid of the `n`-th (1-based) match of `fts` passing `filters` in index (rowid) order, or
 * null when there are fewer matches. Reads matches in rowid order up to the `n`-th passing one and
 * computes no rank.
 */
export function ftsNthMatchRowid(sql: StatementCache, fts: string, filters: NodeFilters, n: number): number | null {
  const params: unknown[] = [fts];
  const where = filterSql('n', filters, params);
  params.push(n - 1);
  const rowid = (where === ''
    ? sql.pluck('SELECT rowid FROM node_fts WHERE node_fts MATCH ? ORDER BY rowid LIMIT 1 OFFSET ?')
    : sql.pluck(`SELECT node_fts.rowid FROM node_fts JOIN nodes n ON n.rowid = node_fts.rowid WHERE node_fts MATCH ?${where} ORDER BY node_fts.rowid LIMIT 1 OFFSET ?`)
  ).get(...params) as number | bigint | undefined;
  return rowid === undefined ? null : Number(rowid);
}

/** Number of rows matching `fts`, counting at most `cap`. */
export function ftsDocumentCount(sql: StatementCache, fts: string, cap: number): number {
  return sql.pluck('SELECT count(*) FROM (SELECT rowid FROM node_fts WHERE node_fts MATCH ? LIMIT ?)').get(fts, cap) as number;
}

/**
 * The first `window` matches of `fts` (index order), ranked by bm25 (ties by rowid): at most
 * `limit` node ids with their rank.
 */
export function ftsRankedWindow(sql: StatementCache, fts: string, window: number, limit: number): { id: string; score: number }[] {
  return sql.rows('SELECT w.score AS score, n.id AS id FROM (SELECT rowid, rank AS score FROM node_fts WHERE node_fts MATCH ? LIMIT ?) w JOIN nodes n ON n.rowid = w.rowid ORDER BY w.score, w.rowid LIMIT ?')
    .all(fts, window, limit) as { id: string; score: number }[];
}

/** The first `limit` matches of `fts` in index order, unranked: rowid, id and title. */
export function ftsWindow(sql: StatementCache, fts: string, limit: number): { rowid: number; id: string; title: string }[] {
  return sql.rows('SELECT w.rowid AS rowid, n.id AS id, n.title AS title FROM (SELECT rowid FROM node_fts WHERE node_fts MATCH ? LIMIT ?) w JOIN nodes n ON n.rowid = w.rowid')
    .all(fts, limit) as { rowid: number; id: string; title: string }[];
}

/**
 * The given rowids that match `fts`, in rowid order. One query over the rowid range of the given
 * rows, keeping only them: FTS5 walks its doclists once over that range, where a `rowid IN (…)`
 * constraint would restart the whole query (term lookups in every segment) once per rowid, about
 * 50 to 300 µs each on a 100,000-node index. Rowids are bound as BigInt (see {@link ftsExcerptSources}).
 * `table` is `code_fts` to match the nodes' code text instead (issue 31 item 1).
 */
export function ftsMatchingRowids(sql: StatementCache, fts: string, rowids: readonly number[], table: 'node_fts' | 'code_fts' = 'node_fts'): number[] {
  if (rowids.length === 0) return [];
  let min = rowids[0]!;
  let max = min;
  for (const r of rowids) {
    if (r < min) min = r;
    if (r > max) max = r;
  }
  // `+rowid` keeps the list out of FTS5's plan: it filters the range scan instead of driving it.
  // The list is one JSON parameter, so the statement text (and its prepared statement) never varies.
  const rows = sql.pluck(`SELECT rowid FROM ${table} WHERE ${table} MATCH ? AND rowid >= ? AND rowid <= ? AND +rowid IN (SELECT value FROM json_each(?)) ORDER BY rowid`)
    .all(fts, BigInt(min), BigInt(max), JSON.stringify(rowids)) as (number | bigint)[];
  return rows.map((r) => Number(r));
}

/**
 * Up to `limit` nodes whose code text (`code_fts`, issue 31 item 1) matches `fts` and `filters`,
 * best code bm25 first, ties by rowid. Bounded like the candidate tier of common words: only the
 * first `tier` code matches in rowid order are ranked (FTS5 computes bm25 for every match it
 * orders), found by one read of at most `tier` rowids.
 */
export function ftsCodeCandidates(sql: StatementCache, fts: string, filters: NodeFilters, limit: number, tier: number): RankedFtsCandidate[] {
  // An infinite tier (benchmarks comparing against the unbounded order) ranks every match.
  const last = Number.isFinite(tier)
    ? sql.pluck('SELECT rowid FROM code_fts WHERE code_fts MATCH ? ORDER BY rowid LIMIT 1 OFFSET ?').get(fts, Math.max(0, Math.floor(tier) - 1)) as number | bigint | undefined
    : undefined;
  const params: unknown[] = [fts];
  const bound = last === undefined ? '' : ' AND code_fts.rowid <= ?';
  if (last !== undefined) params.push(BigInt(last));
  const where = filterSql('n', filters, params);
  params.push(limit);
  const rows = sql.rows(`
    SELECT ${CANDIDATE_COLUMNS}, bm25(code_fts) AS bm25
    FROM code_fts JOIN nodes n ON n.rowid = code_fts.rowid
    WHERE code_fts MATCH ?${bound}${where}
    ORDER BY bm25, n.rowid
    LIMIT ?`).all(...params) as CandidateRow<RankedFtsCandidate>[];
  return rows.map(decode);
}

/**
 * The kept code lines (issue 31 item 1) of each given row that has any, unpacked up to
 * `maxChars` characters each (`<line>\t<text>` lines joined by `\n`): one primary-key read per row.
 */
export function nodeCodeLines(sql: StatementCache, rowids: readonly number[], maxChars: number): Map<number, string> {
  const code = sql.pluck('SELECT lines FROM node_code WHERE rowid = ?');
  const out = new Map<number, string>();
  for (const rowid of rowids) {
    const packed = code.get(BigInt(rowid)) as Uint8Array | undefined;
    if (packed !== undefined) out.set(rowid, unpackCodeLines(packed, maxChars));
  }
  return out;
}
