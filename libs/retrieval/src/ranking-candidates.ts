/**
 * The candidate rows of the ranking (ranking.ts): per-index term statistics and the bounded
 * candidate tier. A reader is one immutable published snapshot (DESIGN.md section 4), so its node
 * count and the document frequency of a phrase never change while it is open: both are counted
 * once per reader and kept beside it (weakly, bounded), never recomputed per search.
 */
import type { FtsCandidate, FtsMatch, IndexReader, NodeFilters, RankedFtsCandidate } from '@docforge/store';
import { termPhrases, type QueryTerm } from './query.js';

/**
 * The bounded candidate tier (issue 14 item 6). FTS5 computes bm25 for every match of a query
 * before it can order them, so a query of very common words would score almost the whole index.
 * A term is very common when it matches more than half of the nodes AND more than MATCH_TIER of
 * them: FTS5's bm25 gives such a term an idf of 1e-6 (`log((N - n + 0.5) / (n + 0.5))` is <= 0),
 * so leaving it out of the candidate queries does not change the bm25 order of the other terms'
 * matches (it still counts in every candidate's name, heading and all-terms scores). When every
 * term is very common, only the first MATCH_TIER matches in index order are ranked, and the name
 * candidates are the first name matches among them.
 */
export const MATCH_TIER = 5000;

/** Most phrase counts (and tier bounds) kept per reader before their table is emptied. */
const DF_CACHE_CAP = 10_000;

/** Counts of one reader's index that never change while it is open. */
interface ReaderStatistics {
  /** Node count, at least 1. */
  nodeCount: number;
  /** Matching documents of a match (by its JSON; see {@link documentFrequencies}). */
  df: Map<string, number>;
  /** Rowid bounds of the candidate tier by match, filters and tier size (see {@link candidateTier}). */
  bounds: Map<string, number | null>;
  /** Names queries (by match, filters and window) known to have more matches than their window (see {@link candidateTier}). */
  manyNames: Set<string>;
}

const statistics = new WeakMap<IndexReader, ReaderStatistics>();

function statisticsOf(reader: IndexReader): ReaderStatistics {
  let stats = statistics.get(reader);
  if (stats === undefined) {
    stats = { nodeCount: Math.max(1, reader.count('nodes')), df: new Map(), bounds: new Map(), manyNames: new Set() };
    statistics.set(reader, stats);
  }
  return stats;
}

/**
 * The node count of the reader's index (at least 1) and the document frequency of each term (by
 * word, first term of a word wins): the nodes matching the word or, for a compound, its subwords
 * in sequence. Each distinct phrase is counted once per reader (one FTS5 count query, at most
 * `nodeCount` rows); later searches on the same reader reuse it.
 */
export function documentFrequencies(reader: IndexReader, terms: readonly QueryTerm[]): { nodeCount: number; df: Map<string, number> } {
  const stats = statisticsOf(reader);
  const df = new Map<string, number>();
  for (const t of terms) {
    if (df.has(t.word)) continue;
    const match: FtsMatch = { mode: 'any', phrases: termPhrases(t) };
    const key = JSON.stringify(match.phrases);
    let count = stats.df.get(key);
    if (count === undefined) {
      count = reader.ftsDocumentCount(match, stats.nodeCount);
      if (stats.df.size >= DF_CACHE_CAP) stats.df.clear();
      stats.df.set(key, count);
    }
    df.set(t.word, count);
  }
  return { nodeCount: stats.nodeCount, df };
}

/**
 * The candidate rows of the ranking: the best `window + 1` by bm25 over all columns and over
 * the name columns, from the candidate tier. The tier depends only on the query, the filters and
 * the index (never on a result limit), so the prefix property holds: very common terms (see
 * {@link MATCH_TIER}) are dropped from the candidate queries while other terms remain; a query of
 * only very common terms ranks its first `tier` full-text matches in index order by bm25, and takes
 * the first `window + 1` name matches among them in index order. `pruned` says whether
 * anything was left out.
 */
export function candidateTier(reader: IndexReader, terms: readonly QueryTerm[], df: ReadonlyMap<string, number>, nodeCount: number, filters: NodeFilters, window: number, tier: number): { text: RankedFtsCandidate[]; names: FtsCandidate[]; pruned: boolean; match: FtsMatch } {
  const rare = terms.filter((t) => df.get(t.word)! <= Math.max(tier, nodeCount / 2));
  const used = rare.length > 0 ? rare : terms;
  // A compound's subword phrase ("on request") only in the name columns: in prose it is noise.
  const any: FtsMatch = { mode: 'any', phrases: [...new Set(used.flatMap((t) => termPhrases(t, false)))] };
  const anyNames: FtsMatch = { mode: 'any', phrases: [...new Set(used.flatMap((t) => termPhrases(t)))], fields: 'names' };
  // The names query's bm25 only orders its matches (scores use the full-text rank): with at most
  // `window` matches, all of them are the window, unranked. That check is not run again on a
  // reader where it failed for the same query (a fact of the index, kept per reader like the
  // document frequencies).
  const names = (): FtsCandidate[] => {
    const many = statisticsOf(reader).manyNames;
    const key = JSON.stringify([anyNames, filters, window]);
    if (!many.has(key)) {
      const few = reader.ftsFewMatches(anyNames, filters, window);
      if (few !== null) return few;
      if (many.size >= DF_CACHE_CAP) many.clear();
      many.add(key);
    }
    return reader.ftsCandidates(anyNames, filters, window + 1);
  };
  if (rare.length > 0) return { text: reader.ftsCandidates(any, filters, window + 1), names: names(), pruned: rare.length < terms.length, match: any };
  const bound = (match: FtsMatch): number | null => {
    // Like a document frequency, the tier's bound is a fact of the index: found once per reader.
    const bounds = statisticsOf(reader).bounds;
    const key = JSON.stringify([match, filters, tier]);
    let rowid = bounds.get(key);
    if (rowid === undefined) {
      rowid = reader.ftsNthMatchRowid(match, filters, tier);
      if (bounds.size >= DF_CACHE_CAP) bounds.clear();
      bounds.set(key, rowid);
    }
    return rowid;
  };
  // One tier for both candidate queries. The name candidates are the first `window + 1` name
  // matches among the same first `tier` full-text matches, in index order like the tier itself: the
  // query's words carry no full-text bm25 weight (idf 1e-6), and a names query ranked by bm25 would
  // first recount each phrase over the whole index under its column filter (the most expensive
  // statement of such a search).
  const tierBound = bound(any);
  return { text: reader.ftsCandidates(any, filters, window + 1, tierBound), names: reader.ftsFirstMatches(anyNames, filters, window + 1, tierBound), pruned: true, match: any };
}
