import type { IndexReader } from '@docforge/index';

/** One search hit: node identity, a short excerpt and its bm25 rank (lower is better). */
export interface SearchHit {
  id: string;
  kind: string;
  title: string;
  source_path: string;
  start_line: number;
  /** Excerpt around the matched terms, from the body or summary (project content). */
  excerpt: string;
  /** bm25 score as computed by SQLite FTS5 (negative; more negative ranks higher). */
  score: number;
}

/** Filters that narrow a search or a node filter; within a field any value matches, across fields all must. */
export interface NodeFilters {
  kinds?: readonly string[];
  families?: readonly string[];
  authorities?: readonly string[];
  statuses?: readonly string[];
  tags?: readonly string[];
  languages?: readonly string[];
  capabilities?: readonly string[];
}

/** Result of {@link searchNodes}. */
export interface SearchResult {
  items: SearchHit[];
  truncated: boolean;
  /** The FTS5 query actually run (terms quoted), for transparency. */
  fts_query: string;
}

/**
 * Turns free text into a safe FTS5 query: each whitespace-separated chunk becomes a quoted phrase
 * of its words (so `N-000123` or `lib/route.js` match as a sequence), and phrases are OR-ed so
 * bm25 ranks nodes matching more and rarer terms first. No FTS5 syntax from the caller is
 * interpreted. Returns null when the text has no searchable word.
 */
export function toFtsQuery(text: string): string | null {
  const phrases: string[] = [];
  for (const chunk of text.normalize('NFKC').split(/\s+/)) {
    const words = chunk.match(/[\p{L}\p{N}_]+/gu);
    if (!words) continue;
    const phrase = `"${words.map((w) => w.toLowerCase()).join(' ')}"`;
    if (!phrases.includes(phrase)) phrases.push(phrase);
    if (phrases.length >= 32) break;
  }
  return phrases.length === 0 ? null : phrases.join(' OR ');
}

/** Appends SQL conditions and parameters for node filters on an alias of the nodes table. */
export function filterSql(alias: string, filters: NodeFilters, params: unknown[]): string {
  const parts: string[] = [];
  const inList = (column: string, values: readonly string[] | undefined): void => {
    if (!values || values.length === 0) return;
    parts.push(`${alias}.${column} IN (${values.map(() => '?').join(', ')})`);
    params.push(...values);
  };
  inList('kind', filters.kinds);
  inList('family', filters.families);
  inList('authority', filters.authorities);
  inList('status', filters.statuses);
  inList('language', filters.languages);
  if (filters.tags && filters.tags.length > 0) {
    parts.push(`EXISTS (SELECT 1 FROM node_tags t WHERE t.node_id = ${alias}.id AND t.tag IN (${filters.tags.map(() => '?').join(', ')}))`);
    params.push(...filters.tags);
  }
  if (filters.capabilities && filters.capabilities.length > 0) {
    // Capabilities compose: a node must have every requested capability.
    for (const capability of filters.capabilities) {
      parts.push(`EXISTS (SELECT 1 FROM node_capabilities c WHERE c.node_id = ${alias}.id AND c.capability = ?)`);
      params.push(capability);
    }
  }
  return parts.length === 0 ? '' : ` AND ${parts.join(' AND ')}`;
}

/** Multiplier of the bm25 score when the whole query equals the node title. */
export const EXACT_TITLE_BOOST = 2;
/** Multiplier of the bm25 score when the whole query equals one of the node's section headings. */
export const EXACT_HEADING_BOOST = 1.5;

function normalizeTitle(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/[`*_()[\]]/g, '').replace(/\s+/g, ' ').trim();
}

/**
 * Full-text search over id, title, headings, summary, body and tags with FTS5 bm25 ranking
 * (the index's FTS_WEIGHTS, configured as the FTS5 rank function). A window of the best bm25 candidates is re-ranked so that
 * a node whose title or a section heading equals the whole query ranks higher (the score is
 * multiplied by {@link EXACT_TITLE_BOOST} or {@link EXACT_HEADING_BOOST}); a node whose id equals
 * the query exactly ranks first. Reads at most `max(3 * limit, 50)` candidate rows.
 */
export function searchNodes(reader: IndexReader, query: string, limit: number, filters: NodeFilters = {}): SearchResult {
  const fts = toFtsQuery(query);
  if (fts === null) return { items: [], truncated: false, fts_query: '' };
  const params: unknown[] = [fts];
  const where = filterSql('n', filters, params);
  const window = Math.min(Math.max(limit * 3, 50), 1000);
  params.push(window + 1);
  type Row = { rowid: number; id: string; kind: string; title: string; source_path: string; start_line: number; anchors: string; summary: string; bm25: number };
  let rows: Row[];
  if (where === '') {
    // Unfiltered: let FTS5 order by its configured rank (bm25 with FTS_WEIGHTS), then hydrate the window.
    const ranked = reader.db.prepare('SELECT rowid, rank FROM node_fts WHERE node_fts MATCH ? ORDER BY rank LIMIT ?').all(...params) as { rowid: number; rank: number }[];
    const hydrate = reader.db.prepare('SELECT rowid, id, kind, title, source_path, start_line, anchors, summary FROM nodes WHERE rowid = ?');
    rows = ranked.map((r) => ({ ...(hydrate.get(r.rowid) as Omit<Row, 'bm25'>), bm25: r.rank }));
  } else {
    rows = reader.db.prepare(`
      SELECT n.rowid AS rowid, n.id, n.kind, n.title, n.source_path, n.start_line, n.anchors, n.summary, node_fts.rank AS bm25
      FROM node_fts JOIN nodes n ON n.rowid = node_fts.rowid
      WHERE node_fts MATCH ?${where}
      ORDER BY node_fts.rank, n.id
      LIMIT ?`).all(...params) as Row[];
  }
  const wanted = normalizeTitle(query);
  const ranked = rows.slice(0, window).map((row) => {
    let boost = 1;
    if (normalizeTitle(row.title) === wanted) boost = EXACT_TITLE_BOOST;
    else if ((JSON.parse(row.anchors) as { title: string }[]).some((a) => normalizeTitle(a.title) === wanted)) boost = EXACT_HEADING_BOOST;
    return { row, score: row.bm25 * boost };
  });
  ranked.sort((a, b) => a.score - b.score || (a.row.id < b.row.id ? -1 : a.row.id > b.row.id ? 1 : 0));
  const exact = reader.getNode(query.trim());
  let exactHit: SearchHit | null = null;
  if (exact) {
    const exactParams: unknown[] = [exact.id];
    if (reader.db.prepare(`SELECT 1 FROM nodes n WHERE n.id = ?${filterSql('n', filters, exactParams)}`).get(...exactParams)) {
      exactHit = { id: exact.id, kind: exact.kind, title: exact.title, source_path: exact.source_path, start_line: exact.start_line, excerpt: exact.summary.slice(0, 200), score: ranked[0] ? Math.min(ranked[0].score, 0) - 1 : -1 };
    }
  }
  const snippet = reader.db.prepare(`SELECT snippet(node_fts, 4, '', '', '…', 16) FROM node_fts WHERE node_fts MATCH ? AND rowid = ?`).pluck();
  const items: SearchHit[] = exactHit ? [exactHit] : [];
  for (const { row, score } of ranked) {
    if (items.length >= limit) break;
    if (exactHit && row.id === exactHit.id) continue;
    const excerpt = (snippet.get(fts, row.rowid) as string | undefined) || row.summary.slice(0, 200);
    items.push({ id: row.id, kind: row.kind, title: row.title, source_path: row.source_path, start_line: row.start_line, excerpt, score: Math.round(score * 1e6) / 1e6 });
  }
  const total = ranked.length + (exactHit && !ranked.some((r) => r.row.id === exactHit!.id) ? 1 : 0);
  return { items, truncated: rows.length > window || total > items.length, fts_query: fts };
}

/** One node of a filter result. */
export interface NodeSummary {
  id: string;
  kind: string;
  title: string;
  family: string | null;
  authority: string | null;
  status: string | null;
  tags: string[];
  language: string | null;
  capabilities: string[];
  source_path: string;
  start_line: number;
}

/**
 * Nodes matching exact filters, ordered by id, starting after `afterId` (keyset pagination).
 * Reads at most `limit + 1` rows.
 */
export function filterNodes(reader: IndexReader, filters: NodeFilters, limit: number, afterId: string | null = null): { items: NodeSummary[]; truncated: boolean } {
  const params: unknown[] = [];
  let where = filterSql('n', filters, params);
  if (afterId !== null) {
    where += ' AND n.id > ?';
    params.push(afterId);
  }
  params.push(limit + 1);
  const rows = reader.db.prepare(`
    SELECT n.id, n.kind, n.title, n.family, n.authority, n.status, n.tags, n.language, n.capabilities, n.source_path, n.start_line
    FROM nodes n WHERE 1 = 1${where} ORDER BY n.id LIMIT ?`).all(...params) as (Omit<NodeSummary, 'tags' | 'capabilities'> & { tags: string; capabilities: string })[];
  const items = rows.slice(0, limit).map((r) => ({ ...r, tags: JSON.parse(r.tags) as string[], capabilities: JSON.parse(r.capabilities) as string[] }));
  return { items, truncated: rows.length > limit };
}
