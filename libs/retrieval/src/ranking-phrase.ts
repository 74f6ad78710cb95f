/**
 * Verbatim phrases in code (issue 31 item 2): a query of several words that one of a node's code
 * lines holds word for word and in order. Developers paste what a program printed: an error or log
 * message (`This command does not support workspaces.`), and the line that says it names the place
 * that printed it, whatever the words' frequencies, so it scores beside an exact title
 * ({@link PHRASE_MIN_WORDS} and {@link PHRASE_MIN_CONTENT_WORDS} keep short and filler-only queries
 * out). Documentation text is left to the other signals: its full-text index stems words
 * ("connect" matches "connection"), so a phrase there is not verbatim, and a short question is said
 * word for word on many pages.
 *
 * A shorter pasted message ("Signature has expired", "Not enough segments", `Missing script: "x"`)
 * is a phrase only where it is a whole message: a string literal of a code line whose leading
 * clause (its text up to the first `:`, `.`, `;`, newline or template substitution) is the query
 * word for word ({@link LITERAL_MIN_WORDS}). Words that only occur in sequence among identifiers or
 * inside a longer sentence do not count, so a short question about the docs keeps its own ranking.
 */
import { quotedStringBodies } from '@docforge/core';
import type { IndexReader } from '@docforge/store';
import { STOP_WORDS } from './query.js';

/** Fewest words (stop words included) a query needs for a verbatim match to count: a three-word question ("connect to a database", "enable HTTP/2") is said word for word in too many places to name one. */
export const PHRASE_MIN_WORDS = 4;
/** Fewest words outside {@link STOP_WORDS} such a query needs ("how do I" is never a phrase). */
export const PHRASE_MIN_CONTENT_WORDS = 2;
/** Fewest words of a query shorter than {@link PHRASE_MIN_WORDS} that may still be a pasted message, matched only as a whole string literal's leading clause. */
export const LITERAL_MIN_WORDS = 2;
/** Most code candidates whose lines are read for the phrase, best code match first. */
export const PHRASE_CODE_CHECKS = 24;
/** Characters of a node's code lines read for the phrase (its whole kept text: 64 Ki at most). */
const PHRASE_CODE_CHARS = 64 * 1024;

const WORD = /[\p{L}\p{N}]+/gu;

/** The lowercased words of `text` in order (letters and digits; anything else separates). */
function wordsIn(text: string): string[] {
  return text.normalize('NFC').toLowerCase().match(WORD) ?? [];
}

/** A query taken as a phrase: its words, and whether it counts only as a whole string literal's leading clause (a short query). */
export interface QueryPhrase {
  words: readonly string[];
  literalOnly: boolean;
}

/** The query's words as a phrase, or null when it is too short or only filler to count as one. */
export function queryPhrase(query: string): QueryPhrase | null {
  const words = wordsIn(query);
  if (words.length < LITERAL_MIN_WORDS) return null;
  if (words.filter((w) => !STOP_WORDS.has(w)).length < PHRASE_MIN_CONTENT_WORDS) return null;
  return { words, literalOnly: words.length < PHRASE_MIN_WORDS };
}

/** Where a message's leading clause ends: punctuation that starts its detail, a template substitution. */
const CLAUSE_END = /[:.;\n]|\$\{|\{/;

/** The leading clause of each string literal of `text` as words (see the module comment). */
function literalClauses(text: string): string[] {
  const clauses: string[] = [];
  // Each quoted string of the line (`"…"`, `'…'` or a template literal), escapes skipped.
  for (const body of quotedStringBodies(text)) {
    const end = body.search(CLAUSE_END);
    clauses.push(wordsIn(end < 0 ? body : body.slice(0, end)).join(' '));
  }
  return clauses;
}

/** Whether one of `lines` (`<line>\t<text>` joined by `\n`) holds `phrase` word for word (a short phrase: as a string literal's whole leading clause). */
function linesHold(lines: string, phrase: QueryPhrase): boolean {
  const joined = phrase.words.join(' ');
  const needle = ` ${joined} `;
  return lines.split('\n').some((line) => {
    const text = line.slice(line.indexOf('\t') + 1);
    return phrase.literalOnly ? literalClauses(text).includes(joined) : ` ${wordsIn(text).join(' ')} `.includes(needle);
  });
}

/**
 * The rows of `codeRows` (best code match first; the first {@link PHRASE_CODE_CHECKS} are read, one
 * primary-key read each) with a code line that holds `phrase` word for word.
 */
export function phraseRows(reader: IndexReader, phrase: QueryPhrase, codeRows: readonly number[]): Set<number> {
  const found = new Set<number>();
  for (const [rowid, text] of reader.codeLines(codeRows.slice(0, PHRASE_CODE_CHECKS), PHRASE_CODE_CHARS)) if (linesHold(text, phrase)) found.add(rowid);
  return found;
}
