/**
 * Identifier subwords for full-text search (issue 9 item 3): `requestRefund`, `RefundService`,
 * `parse_options`, `Ledger.refund` and `src/cfg-validator.ts` are indexed with their parts, so a
 * question worded as plain words ("request refund", "option parsing") matches them. The same
 * splitting runs at index time (the `terms` FTS column) and at query time (name matching).
 */
import { UNSPACED_SCRIPT_CLASS, unspacedWords } from './segment.js';

/** What separates identifier chunks: anything but a letter, a digit or a character of a script without spaces. */
const CHUNK_SEPARATOR = new RegExp(`[^\\p{L}\\p{N}${UNSPACED_SCRIPT_CLASS}]+`, 'u');

/**
 * Lowercased subwords of `text`: split on every non-letter/digit character (path, dotted,
 * snake_case and kebab-case separators), then on camelCase and PascalCase boundaries
 * (`HTTPServer` gives `http`, `server`). Digits stay attached to their word. Order kept,
 * duplicates kept.
 */
export function identifierWords(text: string): string[] {
  const out: string[] = [];
  if (pushAsciiWords(out, text)) return out;
  // A Thai vowel sign stays with its letters (`เป็น` is one word); a run in a script written
  // without spaces is split into its words (segment.ts: `日本語のテキスト` gives three).
  for (const chunk of text.normalize('NFKC').split(CHUNK_SEPARATOR)) {
    if (chunk === '') continue;
    for (const word of unspacedWords(chunk)) pushSubwords(out, word);
  }
  return out;
}

/** Character classes of the ASCII scan: a separator, a capital, a lower-case letter, a digit. */
const SEPARATOR = 0;
const UPPER = 1;
const LOWER = 2;
const DIGIT = 3;

/** The class of the UTF-16 code unit `c` (ASCII; anything else, and NaN past the end, is a separator). */
function asciiClass(c: number): number {
  if (c >= 97 && c <= 122) return LOWER;
  if (c >= 65 && c <= 90) return UPPER;
  return c >= 48 && c <= 57 ? DIGIT : SEPARATOR;
}

/**
 * {@link identifierWords} of an all-ASCII `text` by one scan, without the Unicode regular
 * expressions (issue 35: they were a fifth of a cold build's node inserts). For ASCII, NFKC is the
 * identity, no character belongs to a script without spaces, letters are `A-Z`/`a-z` and digits
 * `0-9`, so the chunks and their boundaries are exactly those of the general path: a word ends
 * before a capital that follows a lower-case letter or a digit, or that follows a capital and
 * precedes a lower-case letter. Returns false, with `out` untouched, when `text` holds any
 * non-ASCII code unit.
 */
function pushAsciiWords(out: string[], text: string): boolean {
  for (let i = 0; i < text.length; i += 1) if (text.charCodeAt(i) > 0x7f) return false;
  let start = -1;
  for (let i = 0; i < text.length; i += 1) {
    const kind = asciiClass(text.charCodeAt(i));
    if (kind === SEPARATOR) {
      if (start >= 0) out.push(text.slice(start, i).toLowerCase());
      start = -1;
    } else if (start < 0) {
      start = i;
    } else if (kind === UPPER) {
      const previous = asciiClass(text.charCodeAt(i - 1));
      if (previous === LOWER || previous === DIGIT || (previous === UPPER && asciiClass(text.charCodeAt(i + 1)) === LOWER)) {
        out.push(text.slice(start, i).toLowerCase());
        start = i;
      }
    }
  }
  if (start >= 0) out.push(text.slice(start).toLowerCase());
  return true;
}

/**
 * Pushes the lowercased camelCase and PascalCase parts of `chunk` onto `out`. Linear in the chunk:
 * an acronym ends before its last capital when a lower-case letter follows (`HTTPServer`), found
 * by a fixed-width lookahead. (The earlier `(\p{Lu}+)(\p{Lu}\p{Ll})` backtracked over a run of
 * capitals with no lower-case letter after it: quadratic, so an 80,000-capital title took 28 s to
 * index; break-it trial, issue 30.)
 */
function pushSubwords(out: string[], chunk: string): void {
  const parts = chunk.replace(/(\p{Ll}|\p{N})(\p{Lu})/gu, '$1 $2').replace(/(\p{Lu})(?=\p{Lu}\p{Ll})/gu, '$1 ').split(' ');
  for (const p of parts) if (p !== '') out.push(p.toLowerCase());
}

/**
 * The `terms` column of a node: the distinct subwords of its id and title that differ from the
 * words FTS5 already sees there (a camelCase identifier is one FTS5 token), space-separated.
 * Bounded: at most 64 subwords.
 */
export function nodeTerms(id: string, title: string): string {
  const seen = new Set<string>();
  for (const w of [...identifierWords(id), ...identifierWords(title)]) {
    if (seen.size >= 64) break;
    seen.add(w);
  }
  return [...seen].join(' ');
}

/**
 * The words `code_fts` indexes for a node (`node_code.words`) from its code words (libs/core
 * `NodeCodeText.words`): each word as written, then its subwords when it has more than one
 * (`filterBrokenPipe` also gives `filter broken pipe`), each distinct form once, space-separated.
 * Linear in the words (at most `MAX_CODE_TEXT_CHARS` of lines gave them).
 */
export function codeIndexWords(words: string): string {
  const out = new Set<string>();
  for (const word of words.split(' ')) {
    if (word === '') continue;
    out.add(word);
    const parts = identifierWords(word);
    if (parts.length > 1) for (const p of parts) out.add(p);
  }
  return [...out].join(' ');
}
