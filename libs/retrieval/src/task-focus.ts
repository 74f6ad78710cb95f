/**
 * The lexical focus of a task: node ids named verbatim in the task, then bm25 over the task's
 * terms inside the bounded candidate window ({@link LEXICAL_CANDIDATE_WINDOW}).
 */
import type { IndexReader } from '@docforge/index';
import { MAX_ID_MENTION_CHUNKS, taskTerms, type LEXICAL_CANDIDATE_WINDOW } from './task-plan.js';

const phrase = (term: string): string => `"${term.replace(/"/g, '""')}"`;

/**
 * The lexical focus: node ids named verbatim in the task (in order of mention), then bm25 hits
 * over the task's terms within the bounded candidate window (see {@link LEXICAL_CANDIDATE_WINDOW}).
 * Ties rank by rowid, so one index file always gives the same focus.
 */
export function lexicalFocus(reader: IndexReader, task: string, max: number, window: number): { hits: FocusHit[]; windowed: boolean } {
  const hits: FocusHit[] = [];
  const seen = new Set<string>();
  for (const chunk of task.split(/\s+/).filter((c) => c !== '').slice(0, MAX_ID_MENTION_CHUNKS)) {
    const id = chunk.replace(/^[("'`[<]+|[)"'`\]>.,;:!?]+$/g, '');
    if (id === '' || seen.has(id) || !reader.hasNode(id)) continue;
    seen.add(id);
    hits.push({ id, score: null, basis: 'id_mention' });
    if (hits.length >= max) return { hits, windowed: false };
  }
    const terms = taskTerms(task)
    .map((term, index) => ({ term, index, docs: reader.ftsDocumentCount(phrase(term), window + 1) }))
    .filter((t) => t.docs > 0)
    .sort((a, b) => a.docs - b.docs || a.index - b.index);
  if (terms.length === 0) return { hits, windowed: false };
  const add = (id: string, score: number | null, basis: FocusHit['basis']): void => {
    if (hits.length >= max || seen.has(id)) return;
    seen.add(id);
    hits.push({ id, score, basis });
  };
  if (terms[0]!.docs <= window) {
    const chosen: string[] = [];
    let sum = 0;
    for (const t of terms) {
      if (sum + t.docs > window) break;
      chosen.push(phrase(t.term));
      sum += t.docs;
    }
    const rows = reader.ftsRankedWindow(chosen.join(' OR '), window, max + hits.length);
    for (const row of rows) add(row.id, Math.round(row.score * 1e6) / 1e6, 'bm25');
    return { hits, windowed: false };
  }
  let rows = reader.ftsWindow(terms.map((t) => phrase(t.term)).join(' '), window + 1);
  if (rows.length === 0) rows = reader.ftsWindow(terms.map((t) => phrase(t.term)).join(' OR '), window + 1);
  const windowed = rows.length > window;
  const wanted = terms.map((t) => t.term);
  const scored = rows.slice(0, window).map((row) => {
    const words = new Set(row.title.normalize('NFKC').toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? []);
    return { row, overlap: wanted.filter((w) => words.has(w)).length };
  });
  scored.sort((a, b) => b.overlap - a.overlap || a.row.rowid - b.row.rowid);
  for (const { row } of scored.slice(0, max + hits.length)) add(row.id, null, 'title_overlap');
  return { hits, windowed };
}

/** One lexical focus node and what ranked it. */
export interface FocusHit {
  id: string;
  /** bm25 score (lower ranks higher) for `bm25` hits, else null. */
  score: number | null;
  basis: 'id_mention' | 'bm25' | 'title_overlap';
}

