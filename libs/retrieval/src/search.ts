import type { FtsCandidate, IndexReader, NodeFilters, NodeSummary } from '@docforge/index';
import { boundedExcerpt, EXCERPT_SCAN_CHARS } from './excerpt.js';

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
  /** FTS5 bm25 rank minus the title/heading bonuses of RANK_BONUS: more negative ranks higher. */
  score: number;
  /** `exact_id` (the query is this node's id), `all_terms` or `some_terms`. */
  match: 'exact_id' | 'all_terms' | 'some_terms';
  /** The best matching section heading (recognized anchor) of the node, when one matches the query. */
  section: { slug: string; title: string; line: number } | null;
}

/** Result of {@link searchNodes}. */
export interface SearchResult {
  items: SearchHit[];
  truncated: boolean;
  /** The FTS5 query actually run (terms quoted), for transparency. */
  fts_query: string;
  /** Query words not searched (stop words; phrases beyond {@link MAX_QUERY_PHRASES}), in query order. */
  dropped_terms: DroppedTerm[];
}

/** English function words dropped from multi-word queries (kept when a query has nothing else). */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  'a an and are as at be by can do does for from how i if in into is it its of on or the this to was what when where which who why will with'.split(' '),
);

/** Most distinct phrases one query searches; later ones are reported in `dropped_terms`. */
export const MAX_QUERY_PHRASES = 32;

/** A query word (or word sequence) that was not searched, and why. */
export interface DroppedTerm {
  /** The lowercased words of the chunk, joined by one space. */
  term: string;
  /**
   * `stop_word`: an English function word of {@link STOP_WORDS}, ignored because the query has
   * other words; `term_limit`: a distinct phrase after the first {@link MAX_QUERY_PHRASES}.
   */
  reason: 'stop_word' | 'term_limit';
}

/** What a query text searches: its FTS5 phrases, and every chunk left out with the reason. */
export interface ParsedQuery {
  /** Quoted FTS5 phrases, in query order, at most {@link MAX_QUERY_PHRASES}. */
  phrases: string[];
  /** Chunks not searched, in query order, each once. */
  dropped: DroppedTerm[];
}

/**
 * Splits free text into FTS5 phrases: each whitespace-separated chunk becomes a quoted phrase of
 * its words (so `N-000123` or `lib/route.js` match as a sequence); stop words are dropped unless
 * nothing else remains. At most {@link MAX_QUERY_PHRASES} distinct phrases are searched (bm25 is
 * linear in the posting lists of every phrase, so the count is what keeps a query bounded); every
 * chunk left out is listed in `dropped`. No FTS5 syntax from the caller is interpreted.
 */
export function parseQuery(text: string): ParsedQuery {
  const phrases: string[] = [];
  const stops: string[] = [];
  for (const chunk of text.normalize('NFKC').split(/\s+/)) {
    const words = chunk.match(/[\p{L}\p{N}_]+/gu);
    if (!words) continue;
    const phrase = `"${words.map((w) => w.toLowerCase()).join(' ')}"`;
    const target = words.length === 1 && STOP_WORDS.has(words[0]!.toLowerCase()) ? stops : phrases;
    if (!target.includes(phrase)) target.push(phrase);
  }
  const unquote = (phrase: string): string => phrase.slice(1, -1);
  if (phrases.length === 0) {
    return { phrases: stops.slice(0, MAX_QUERY_PHRASES), dropped: stops.slice(MAX_QUERY_PHRASES).map((p) => ({ term: unquote(p), reason: 'term_limit' as const })) };
  }
  return {
    phrases: phrases.slice(0, MAX_QUERY_PHRASES),
    dropped: [
      ...stops.map((p) => ({ term: unquote(p), reason: 'stop_word' as const })),
      ...phrases.slice(MAX_QUERY_PHRASES).map((p) => ({ term: unquote(p), reason: 'term_limit' as const })),
    ],
  };
}

/** The searched phrases of {@link parseQuery}. */
export function queryPhrases(text: string): string[] {
  return parseQuery(text).phrases;
}

/** The FTS5 query matching any of the phrases of `text` (OR), or null when it has no searchable word. */
export function toFtsQuery(text: string): string | null {
  const phrases = queryPhrases(text);
  return phrases.length === 0 ? null : phrases.join(' OR ');
}

/**
 * Additive ranking bonuses (in bm25 units; the score is `bm25 - bonus`, more negative ranks
 * higher). FTS5 floors the IDF of terms found in more than half the nodes at 1e-6, so common topic
 * words score near zero; title and heading signals then decide, as a reader would expect.
 */
export const RANK_BONUS = Object.freeze({
  /** The whole query equals the node title. */
  exactTitle: 2,
  /** Times the fraction of query words sharing a stem with a title word. */
  titleTerms: 1.5,
  /** The whole query equals one of the node's section headings. */
  exactHeading: 0.5,
  /** Times the best fraction of query words found in one section heading. */
  headingTerms: 0.5,
});

function sharesStem(a: string, b: string): boolean {
  const n = Math.min(a.length, b.length);
  if (n < 4) return a === b;
  return a.startsWith(b.slice(0, Math.max(4, b.length - 3))) || b.startsWith(a.slice(0, Math.max(4, a.length - 3)));
}

function wordsOf(text: string): string[] {
  return normalizeTitle(text).split(/[^\p{L}\p{N}_]+/u).filter((w) => w !== '');
}

function fractionMatched(queryWords: readonly string[], textWords: readonly string[]): number {
  if (queryWords.length === 0) return 0;
  let n = 0;
  for (const q of queryWords) if (textWords.some((t) => sharesStem(t, q))) n += 1;
  return n / queryWords.length;
}

function normalizeTitle(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/[`*_()[\]]/g, '').replace(/\s+/g, ' ').trim();
}

/**
 * Full-text search over id, title, headings, summary, body and tags with FTS5 bm25 ranking
 * (the index's FTS_WEIGHTS, configured as the FTS5 rank function; Porter stemming). Nodes that
 * match every phrase of the query (`match: "all_terms"`) rank before nodes matching only some
 * (`"some_terms"`). Within a tier a window of the best bm25 candidates is re-ranked with the
 * additive title and heading signals of {@link RANK_BONUS}; a node whose id equals the query
 * exactly ranks first. Each hit names the best matching section heading, when one matches.
 * Reads at most `2 * max(3 * limit, 50)` candidate rows.
 */
export function searchNodes(reader: IndexReader, query: string, limit: number, filters: NodeFilters = {}): SearchResult {
  const { phrases, dropped } = parseQuery(query);
  if (phrases.length === 0) return { items: [], truncated: false, fts_query: '', dropped_terms: dropped };
  const anyFts = phrases.join(' OR ');
  const window = Math.min(Math.max(limit * 3, 50), 1000);
  // The query as plain words (stop words and punctuation dropped), compared with titles and headings as words.
  const wanted = phrases.map((p) => p.slice(1, -1)).join(' ');
  const queryWords = [...new Set(phrases.flatMap((p) => p.slice(1, -1).split(' ')))];
  const tiers: { match: 'all_terms' | 'some_terms'; fts: string }[] = phrases.length > 1
    ? [{ match: 'all_terms', fts: phrases.join(' AND ') }, { match: 'some_terms', fts: anyFts }]
    : [{ match: 'all_terms', fts: anyFts }];
  const seen = new Set<string>();
  const ranked: { row: FtsCandidate; score: number; match: 'all_terms' | 'some_terms'; section: SearchHit['section'] }[] = [];
  let more = false;
  for (const tier of tiers) {
    const rows = reader.ftsCandidates(tier.fts, filters, window + 1);
    if (rows.length > window) more = true;
    const tierRanked = rows.slice(0, window).filter((row) => !seen.has(row.id)).map((row) => {
      seen.add(row.id);
      const anchors = row.anchors;
      const title = wordsOf(row.title).join(' ');
      let bonus = RANK_BONUS.titleTerms * fractionMatched(queryWords, wordsOf(row.title));
      if (title === wanted) bonus += RANK_BONUS.exactTitle;
      let bestHeading = 0;
      let section: { slug: string; title: string; line: number } | null = null;
      for (const [i, a] of anchors.entries()) {
        const heading = wordsOf(a.title);
        if (i === 0 && heading.join(' ') === title) continue;
        const f = heading.join(' ') === wanted ? 2 : fractionMatched(queryWords, heading);
        if (f > bestHeading) {
          bestHeading = f;
          section = a;
        }
      }
      bonus += bestHeading === 2 ? RANK_BONUS.exactHeading + RANK_BONUS.headingTerms : RANK_BONUS.headingTerms * bestHeading;
      return { row, score: row.bm25 - bonus, match: tier.match, section: section ? { slug: section.slug, title: section.title, line: section.line } : null };
    });
    tierRanked.sort((a, b) => a.score - b.score || (a.row.id < b.row.id ? -1 : a.row.id > b.row.id ? 1 : 0));
    ranked.push(...tierRanked);
    if (ranked.length >= window) break;
  }
  const exact = reader.getNode(query.trim());
  let exactHit: SearchHit | null = null;
  if (exact) {
    if (reader.nodeMatches(exact.id, filters)) {
      const top = ranked[0] ? Math.round(Math.min(ranked[0].score, 0) * 1e6) / 1e6 : 0;
      exactHit = { id: exact.id, kind: exact.kind, title: boundTitle(exact.title), source_path: exact.source_path, start_line: exact.start_line, excerpt: exact.summary.slice(0, 200), score: top - 1, match: 'exact_id', section: null };
    }
  }
  const items: SearchHit[] = exactHit ? [exactHit] : [];
  const chosen: typeof ranked = [];
  for (const candidate of ranked) {
    if (items.length + chosen.length >= limit) break;
    if (exactHit && candidate.row.id === exactHit.id) continue;
    chosen.push(candidate);
  }
  // One snippet query for the whole page; a long body is excerpted from its bounded head instead.
  const excerpts = new Map<number, string>();
  for (const source of reader.ftsExcerptSources(anyFts, chosen.map((c) => c.row.rowid), EXCERPT_SCAN_CHARS)) {
    excerpts.set(source.rowid, source.snippet ?? boundedExcerpt(source.head ?? '', queryWords, (source.head ?? '').length < EXCERPT_SCAN_CHARS));
  }
  for (const { row, score, match, section } of chosen) {
    const excerpt = excerpts.get(row.rowid) || row.summary.slice(0, 200);
    items.push({
      id: row.id, kind: row.kind, title: boundTitle(row.title), source_path: row.source_path, start_line: row.start_line, excerpt, score: Math.round(score * 1e6) / 1e6, match,
      section: section ? { ...section, title: boundTitle(section.title) } : null,
    });
  }
  const total = ranked.length + (exactHit && !seen.has(exactHit.id) ? 1 : 0);
  return { items, truncated: more || total > items.length, fts_query: tiers.map((t) => t.fts).join(' ; '), dropped_terms: dropped };
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
