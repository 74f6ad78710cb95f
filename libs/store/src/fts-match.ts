/**
 * The typed full-text match of the reader's candidate queries (issue 29: FTS5 query syntax lives
 * in the store). Callers pass phrases (plain text: a word, or words in sequence) and how they
 * combine; {@link ftsExpression} builds the FTS5 expression, quoting every phrase, so no caller
 * writes FTS5 syntax and no query text can inject an operator, a column filter or a prefix star.
 */
import { queryPhraseText } from './segment.js';

/** The columns a match looks in: every indexed column, or the name columns only (id, title, identifier subwords). */
export type FtsFields = 'all' | 'names';

/**
 * What a full-text query matches. `any`: a node with at least one of the phrases. `all`: a node
 * with, for every group, at least one phrase of that group. Phrases are used in the order given,
 * repeats included (the caller drops repeats it does not want); a phrase is matched as its
 * sequence of tokens (FTS5's tokenizer splits it, after the store splits runs of scripts written
 * without spaces into words; case and punctuation do not matter). An empty
 * list of phrases (or an empty group) matches nothing.
 */
export type FtsMatch =
  | { mode: 'any'; phrases: readonly string[]; fields?: FtsFields }
  | { mode: 'all'; groups: readonly (readonly string[])[]; fields?: FtsFields };

/**
 * The FTS5 string literal of a phrase: normalised as the index's text is, a run in a script written
 * without spaces split into its words (segment.ts: `日本語のテキスト` is matched as the words
 * `日本語 の テキスト` in sequence), double-quoted, inner quotes doubled.
 */
function quoted(phrase: string): string {
  return `"${queryPhraseText(phrase).replace(/"/g, '""')}"`;
}

/** `a OR b OR c` of quoted phrases; the empty phrase `""` (no match) when there are none. */
function anyOf(phrases: readonly string[]): string {
  return phrases.length === 0 ? '""' : phrases.map(quoted).join(' OR ');
}

/**
 * The FTS5 expression of `match`: `"a" OR "b"` (any), `("a" OR "b") AND ("c")` (all), within
 * `{id title terms} : (…)` for the name columns. Also the text search results report as their
 * query, for transparency.
 */
export function ftsExpression(match: FtsMatch): string {
  const body = match.mode === 'any'
    ? anyOf(match.phrases)
    : (match.groups.length === 0 ? '""' : match.groups.map((g) => `(${anyOf(g)})`).join(' AND '));
  return match.fields === 'names' ? `{id title terms} : (${body})` : body;
}
