import type { FtsCandidate, FtsMatch, IndexReader, NodeFilters, NodeSummary } from '@docforge/store';
import { boundedExcerpt, codeLineExcerpt, EXCERPT_SCAN_CHARS, holdsTerm } from './excerpt.js';
import { placeExcerpt, type HitSection, type PlacedExcerpt } from './excerpt-section.js';
import { rankNodes, STOP_WORDS, type DroppedTerm } from './ranking.js';
import { listedDroppedTerms } from './query.js';

export { STOP_WORDS };

export type { NodeFilters, NodeSummary };

/** One search hit: node identity, a short excerpt and its bm25 rank (lower is better). */
export interface SearchHit {
  id: string;
  kind: string;
  title: string;
  source_path: string;
  start_line: number;
  /** Excerpt around the matched terms, from the body or summary (project content). */
  excerpt: string;
  /** Relevance of {@link rankNodes}: higher ranks first; strictly decreasing unless two hits tie exactly. */
  score: number;
  /** `exact_id` (the query is this node's id), `all_terms` or `some_terms`. */
  match: 'exact_id' | 'all_terms' | 'some_terms';
  /** The best matching section heading (recognized anchor) of the node, when one matches the query. */
  section: { slug: string; title: string; line: number } | null;
  /**
   * Other build copies of this node (`x.cjs`, `x.d.ts`, a `cdn.js` bundle's copy), best first,
   * collapsed into this hit (ranking-copies.ts); each is a node of its own. Absent when none.
   */
  copies?: string[];
  /** How many copies there are, present only when more than `copies` lists. */
  copies_total?: number;
}

/** Result of {@link searchNodes}. */
export interface SearchResult {
  items: SearchHit[];
  truncated: boolean;
  /** The FTS5 query of the full-text candidates (terms and expansions quoted), for transparency. */
  fts_query: string;
  /** Query words not searched (stop words and question filler; words beyond the 32nd), in query order: a prefix within 600 characters of JSON when `dropped_terms_total` is present. */
  dropped_terms: DroppedTerm[];
  /** Present only when `dropped_terms` is cut: how many query words were not searched in all. */
  dropped_terms_total?: number;
}

/** The ranking and excerpts of the last query run against one reader (see {@link lastSearchOf}). */
interface SearchMemo {
  key: string;
  ranking: ReturnType<typeof rankNodes>;
  /** Excerpts (with the section they lie in) by FTS rowid, filled page by page. */
  excerpts: Map<number, PlacedExcerpt>;
}

const lastSearch = new WeakMap<IndexReader, SearchMemo>();

/**
 * The ranking of `query` under `filters` on this reader, reused when the previous search on the
 * same reader asked the same (a client widening its limit, or a limit sweep): a reader is one
 * immutable published snapshot and the ranking never depends on `limit`, so the reuse cannot
 * change an answer. One entry per reader, so memory stays bounded by one ranking window.
 */
function lastSearchOf(reader: IndexReader, query: string, filters: NodeFilters): SearchMemo {
  const key = JSON.stringify([query, filters]);
  const memo = lastSearch.get(reader);
  if (memo !== undefined && memo.key === key) return memo;
  const fresh: SearchMemo = { key, ranking: rankNodes(reader, query, filters), excerpts: new Map() };
  lastSearch.set(reader, fresh);
  return fresh;
}

/**
 * Search over documentation and code in one ranking ({@link rankNodes}: identifier subwords,
 * abbreviations and word forms, name, heading and bm25 signals; higher scores first, ties by id).
 * A node whose id equals the query exactly ranks first. `match` is `all_terms` when every query
 * word (or an expansion of it) occurs in the node, else `some_terms`. Each hit names the best
 * matching section heading, when one matches. The candidate set never depends on `limit`, so the
 * results for one limit are the first entries of the results for any larger limit.
 * Reads at most `3 * (CANDIDATE_WINDOW + 1)` candidate rows (see {@link rankNodes}) in about six statements
 * (ops/bench/search-profile.mjs), plus one snippet query for the hits not excerpted yet and one
 * read of at most 64 Ki characters of code lines per such hit whose short body holds no query word.
 */
export function searchNodes(reader: IndexReader, query: string, limit: number, filters: NodeFilters = {}): SearchResult {
  const memo = lastSearchOf(reader, query, filters);
  const { ranked, windowed, fts, match, terms } = memo.ranking;
  // Ids are held in NFC (issue 30 item 3): a query typed in NFD names the same node.
  const exact = reader.getNode(query.trim().normalize('NFC'));
  let exactHit: SearchHit | null = null;
  if (exact && reader.nodeMatches(exact.id, filters)) {
    const top = ranked[0] ? ranked[0].score : 0;
    exactHit = { id: exact.id, kind: exact.kind, title: boundTitle(exact.title), source_path: exact.source_path, start_line: exact.start_line, excerpt: exact.summary.slice(0, 200), score: Math.round((top + 1) * 1e6) / 1e6, match: 'exact_id', section: null };
  }
  if (ranked.length === 0 && !exactHit) return { items: [], truncated: false, fts_query: fts, ...listedDroppedTerms(terms.dropped) };
  const items: SearchHit[] = exactHit ? [exactHit] : [];
  const chosen = ranked.filter((c) => c.row.id !== exactHit?.id).slice(0, Math.max(0, limit - items.length));
  const queryWords = [...new Set(terms.terms.map((t) => t.word))];
  const excerpts = memo.excerpts;
  const sections = new Map(chosen.flatMap((c) => (c.section ? [[c.row.rowid, { slug: c.section.slug, title: c.section.title, line: c.section.line }] as const] : [])));
  if (match !== null) fillExcerpts(reader, match, chosen.map((c) => c.row), queryWords, excerpts, sections);
  for (const { row, score, allTerms, copies, copies_total } of chosen) {
    const placed = excerpts.get(row.rowid);
    const excerpt = placed?.excerpt || row.summary.slice(0, 200);
    const section = placed ? placed.section : (sections.get(row.rowid) ?? null);
    items.push({ id: row.id, kind: row.kind, title: boundTitle(row.title), source_path: row.source_path, start_line: row.start_line, excerpt, score, match: allTerms ? 'all_terms' : 'some_terms', section: section ? { ...section, title: boundTitle(section.title) } : null, ...(copies !== undefined ? { copies } : {}), ...(copies_total !== undefined ? { copies_total } : {}) });
  }
  const total = ranked.filter((c) => c.row.id !== exactHit?.id).length + (exactHit ? 1 : 0);
  return { items, truncated: windowed || total > items.length, fts_query: fts, ...listedDroppedTerms(terms.dropped) };
}

/**
 * Adds the excerpts of the page's rows not excerpted yet to `excerpts` (by rowid), in one snippet
 * query; a long body is excerpted from its bounded head instead. A row found by its code text alone
 * (no query word in its short body, title or signature) shows its matching code line (issue 31
 * item 1).
 */
function fillExcerpts(reader: IndexReader, match: FtsMatch, rows: readonly FtsCandidate[], queryWords: readonly string[], excerpts: Map<number, PlacedExcerpt>, sections: ReadonlyMap<number, HitSection>): void {
  const missing = rows.filter((row) => !excerpts.has(row.rowid));
  if (missing.length === 0) return;
  const byRowid = new Map(missing.map((row) => [row.rowid, row]));
  for (const source of reader.ftsExcerptSources(match, [...byRowid.keys()], EXCERPT_SCAN_CHARS)) {
    const row = byRowid.get(source.rowid);
    const codeLine = source.code !== null && row !== undefined && !holdsTerm(`${row.title}\n${row.summary}`, queryWords) ? codeLineExcerpt(source.code, queryWords) : null;
    const excerpt = codeLine ?? source.snippet ?? boundedExcerpt(source.head ?? '', queryWords, (source.head ?? '').length < EXCERPT_SCAN_CHARS);
    const chosen = sections.get(source.rowid);
    // A hit that names a section shows an excerpt from it, or is labelled with the section its excerpt is in.
    excerpts.set(source.rowid, chosen !== undefined && row !== undefined ? placeExcerpt(reader, row.id, chosen, excerpt, queryWords) : { excerpt, section: chosen ?? null });
  }
}

/**
 * Nodes matching exact filters, ordered by id, starting after `afterId` (keyset pagination).
 * Reads at most `limit + 1` rows.
 */
export function filterNodes(reader: IndexReader, filters: NodeFilters, limit: number, afterId: string | null = null): { items: (NodeSummary & BoundedTags)[]; truncated: boolean } {
  const page = reader.nodesByFilter(filters, limit, afterId);
  return { items: page.items.map((item) => ({ ...item, title: boundTitle(item.title), ...boundTags(item.tags) })), truncated: page.truncated };
}

/** Most tags an item of a collection (filter_nodes) shows; `docforge_get_node` shows up to {@link NODE_LIST_CAP}. */
export const ITEM_TAGS_CAP = 50;
/** Most anchors or tags `docforge_get_node` shows of one node (the rest are counted, never lost: `section` finds any slug). */
export const NODE_LIST_CAP = 200;

/** Most characters of a title (or section heading) a collection item shows; a longer one ends in `…`. */
export const ITEM_TITLE_CAP = 500;

/** `title` cut to `cap` characters, the last one replaced by `…` when it was longer (titles grow with one source line). */
export function boundTitle(title: string, cap = ITEM_TITLE_CAP): string {
  return title.length <= cap ? title : `${title.slice(0, cap - 1)}\u2026`;
}

/** Most characters of the node title `docforge_get_node` shows (`title_truncated` says when cut). */
export const NODE_TITLE_CAP = 2000;

/** Tags of an item, bounded: `tags_total`/`tags_truncated` appear only when some were left out. */
export interface BoundedTags {
  tags: string[];
  tags_total?: number;
  tags_truncated?: true;
}

/** The first {@link ITEM_TAGS_CAP} tags, with the total and a flag when more exist (a node with 300k tags stays one small item). */
export function boundTags(tags: readonly string[], cap = ITEM_TAGS_CAP): BoundedTags {
  return tags.length <= cap ? { tags: [...tags] } : { tags: tags.slice(0, cap), tags_total: tags.length, tags_truncated: true };
}
