import type { IndexReader } from '@docforge/index';
import { FTS_WEIGHTS } from '@docforge/index';

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
 * Turns free text into a safe FTS5 query: every word becomes a quoted term and terms are OR-ed,
 * so bm25 ranks nodes matching more and rarer terms first. No FTS5 syntax from the caller is
 * interpreted. Returns null when the text has no searchable word.
 */
export function toFtsQuery(text: string): string | null {
  const words = text.normalize('NFKC').match(/[\p{L}\p{N}_]+/gu) ?? [];
  const unique = [...new Set(words.map((w) => w.toLowerCase()))].slice(0, 32);
  if (unique.length === 0) return null;
  return unique.map((w) => `"${w}"`).join(' OR ');
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

/**
 * Full-text search over id, title, headings, summary, body and tags with FTS5 bm25 ranking
 * (column weights {@link FTS_WEIGHTS}); a node whose id equals the query exactly ranks first.
 * Reads at most `limit + 1` rows.
 */
export function searchNodes(reader: IndexReader, query: string, limit: number, filters: NodeFilters = {}): SearchResult {
  const fts = toFtsQuery(query);
  if (fts === null) return { items: [], truncated: false, fts_query: '' };
  const params: unknown[] = [fts];
  const where = filterSql('n', filters, params);
  params.push(limit + 1);
  const weights = FTS_WEIGHTS.join(', ');
  const rows = reader.db.prepare(`
    SELECT n.id, n.kind, n.title, n.source_path, n.start_line,
           snippet(node_fts, 4, '', '', '…', 16) AS excerpt, n.summary AS summary,
           bm25(node_fts, ${weights}) AS score
    FROM node_fts JOIN nodes n ON n.rowid = node_fts.rowid
    WHERE node_fts MATCH ?${where}
    ORDER BY score, n.id
    LIMIT ?`).all(...params) as (SearchHit & { summary: string })[];
  const exact = reader.getNode(query.trim());
  let items: SearchHit[] = rows.map(({ summary, ...hit }) => ({ ...hit, excerpt: hit.excerpt || summary.slice(0, 200) }));
  if (exact && !items.some((h) => h.id === exact.id)) {
    const exactParams: unknown[] = [exact.id];
    const ok = reader.db.prepare(`SELECT 1 FROM nodes n WHERE n.id = ?${filterSql('n', filters, exactParams)}`).get(...exactParams);
    if (ok) items.unshift({ id: exact.id, kind: exact.kind, title: exact.title, source_path: exact.source_path, start_line: exact.start_line, excerpt: exact.summary.slice(0, 200), score: Number.NEGATIVE_INFINITY });
  } else if (exact) {
    items = [items.find((h) => h.id === exact.id)!, ...items.filter((h) => h.id !== exact.id)];
  }
  const truncated = items.length > limit;
  items = items.slice(0, limit).map((h) => ({ ...h, score: Number.isFinite(h.score) ? Math.round(h.score * 1e6) / 1e6 : -1e9 }));
  return { items, truncated, fts_query: fts };
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
