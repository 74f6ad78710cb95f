/**
 * The lexical focus of a task: node ids named verbatim in the task, then the search ranking
 * ({@link rankNodes}) of the task text inside the bounded candidate window
 * ({@link LEXICAL_CANDIDATE_WINDOW}, at most the search window {@link CANDIDATE_WINDOW}).
 */
import type { IndexReader } from '@docforge/store';
import { CANDIDATE_WINDOW, rankNodes } from './ranking.js';
import { MAX_ID_MENTION_CHUNKS, TASK_MATCH_RANK, type CLOSE_FOCUS_RATIO, type EXPANDED_FOCUS, type LEXICAL_CANDIDATE_WINDOW, type MAX_LEXICAL_FOCUS } from './task-plan.js';

/** Node origins that are documentation (Markdown documents and TOML records), as opposed to code and adapter nodes. */
const DOCUMENTATION_ORIGINS: ReadonlySet<string> = new Set(['document', 'markdown', 'record']);

/**
 * The lexical focus: node ids named verbatim in the task (in order of mention), then the best
 * hits of the search ranking within the bounded candidate window (see {@link LEXICAL_CANDIDATE_WINDOW}).
 * Ties rank by id, so one index file always gives the same focus. `score` is the search score
 * (higher ranks first). With `documentSlot` (a `wiringFirst` task kind, issue 31 item 4), a focus
 * of at least two nodes that holds no documentation gives its last search-ranked slot to the best
 * documentation hit among the first {@link TASK_MATCH_RANK} search hits, when there is one: a
 * change needs the documents that govern the code as much as the code, and when no edge links
 * them the task's own words are the only proof.
 * With `close` (issue 31), a full focus whose last node is a search hit takes up to `close.max`
 * further search hits, in rank order, while each scores at least `close.ratio` of that last hit
 * (a hit the document slot displaced comes first); they are returned after the first `max`, and
 * the caller does not expand them ({@link EXPANDED_FOCUS}).
 */
export function lexicalFocus(reader: IndexReader, task: string, max: number, window: number, documentSlot = false, close?: CloseFocus): { hits: FocusHit[]; windowed: boolean; relevance: Map<string, number> } {
  const hits: FocusHit[] = [];
  const seen = new Set<string>();
  for (const chunk of task.split(/\s+/).filter((c) => c !== '').slice(0, MAX_ID_MENTION_CHUNKS)) {
    const id = unwrapped(chunk);
    if (id === '' || seen.has(id) || !reader.hasNode(id)) continue;
    seen.add(id);
    hits.push({ id, score: null, basis: 'id_mention' });
    if (hits.length >= max) return { hits, windowed: false, relevance: taskRelevance(reader, task, window) };
  }
  // The same ranking as docforge_search (ranking.ts), over a window never larger than search's.
  const ranked = rankNodes(reader, task, {}, Math.min(window, CANDIDATE_WINDOW));
  const relevance = new Map(ranked.ranked.map((r) => [r.row.id, r.score]));
  for (const candidate of ranked.ranked) {
    if (hits.length >= max) break;
    if (seen.has(candidate.row.id)) continue;
    seen.add(candidate.row.id);
    hits.push({ id: candidate.row.id, score: candidate.score, basis: 'bm25' });
  }
  const last = hits.length >= max ? hits[hits.length - 1] : undefined;
  const reference = last?.basis === 'bm25' ? last.score : null;
  if (documentSlot) keepDocumentSlot(reader, hits, max, ranked.ranked.slice(0, TASK_MATCH_RANK));
  if (close && reference !== null && reference > 0) addCloseHits(hits, ranked.ranked, reference, close);
  return { hits, windowed: ranked.windowed, relevance };
}

/** How many search hits after the expanded focus may join it, and how close to the last expanded hit's score (see {@link lexicalFocus}). */
export interface CloseFocus {
  /** Most close hits added (at most {@link MAX_LEXICAL_FOCUS} minus the expanded focus). */
  max: number;
  /** Least share of the reference score a close hit holds ({@link CLOSE_FOCUS_RATIO}). */
  ratio: number;
}

/** Appends the search hits not yet in `hits`, in rank order, while they score at least `close.ratio * reference`. */
function addCloseHits(hits: FocusHit[], ranked: readonly { row: { id: string }; score: number }[], reference: number, close: CloseFocus): void {
  const chosen = new Set(hits.map((h) => h.id));
  let added = 0;
  for (const candidate of ranked) {
    if (added >= close.max || candidate.score < close.ratio * reference) return;
    if (chosen.has(candidate.row.id)) continue;
    hits.push({ id: candidate.row.id, score: candidate.score, basis: 'bm25' });
    added += 1;
  }
}

function isDocumentation(reader: IndexReader, id: string): boolean {
  const origin = reader.getNodeMeta(id)?.origin;
  return origin !== undefined && DOCUMENTATION_ORIGINS.has(origin);
}

/**
 * Gives the last search-ranked slot of a full focus without documentation to the best
 * documentation hit of `firstHits` (see {@link lexicalFocus}); a focus named by id is never replaced.
 */
function keepDocumentSlot(reader: IndexReader, hits: FocusHit[], max: number, firstHits: readonly { row: { id: string }; score: number }[]): void {
  if (max < 2 || hits.length < max || hits.some((h) => isDocumentation(reader, h.id))) return;
  const last = hits.length - 1;
  if (hits[last]!.basis !== 'bm25') return;
  const chosen = new Set(hits.map((h) => h.id));
  const document = firstHits.find((c) => !chosen.has(c.row.id) && isDocumentation(reader, c.row.id));
  if (document) hits[last] = { id: document.row.id, score: document.score, basis: 'bm25' };
}

/**
 * The search score of every ranked candidate of the task text (id → score, higher is more
 * relevant), for ordering related evidence within one relation category.
 */
export function taskRelevance(reader: IndexReader, task: string, window: number): Map<string, number> {
  return new Map(rankNodes(reader, task, {}, Math.min(window, CANDIDATE_WINDOW)).ranked.map((r) => [r.row.id, r.score]));
}

/** One lexical focus node and what ranked it. */
export interface FocusHit {
  id: string;
  /** Search ranking score (higher ranks higher) for `bm25` hits, else null. */
  score: number | null;
  basis: 'id_mention' | 'bm25' | 'title_overlap';
}

/**
 * `chunk` without its leading run of `("'\`[<` and its trailing run of `)"'\`]>.,;:!?` (the trailing run starts after the
 * leading one): what /^[("'`[<]+|[)"'`\]>.,;:!?]+$/g removed, in linear time (the regex was quadratic on a long run: issue 30).
 */
export function unwrapped(chunk: string): string {
  let start = 0;
  while (start < chunk.length && '("\'`[<'.includes(chunk[start] as string)) start++;
  let end = chunk.length;
  while (end > start && ')"\'`]>.,;:!?'.includes(chunk[end - 1] as string)) end--;
  return chunk.slice(start, end);
}
