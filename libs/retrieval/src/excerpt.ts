/**
 * Bounded excerpts of long bodies (issue 8 item 1; DESIGN.md section 7: query-time work is
 * bounded whatever the size of one node). FTS5's own `snippet()` is used for short bodies only (see
 * `SNIPPET_MAX_BODY_CHARS` in libs/store); for a longer body the reader hands over its first
 * {@link EXCERPT_SCAN_CHARS} characters and this module picks the excerpt from them, so the work
 * per hit is linear in a constant, not in the body.
 */
import { hasUnspacedScript, identifierWords, unspacedWords, wordSpans } from '@docforge/store';

/** Characters of a long body scanned for an excerpt. */
export const EXCERPT_SCAN_CHARS = 65_536;
/** Words in an excerpt (as FTS5 `snippet(…, 16)`). */
export const EXCERPT_TOKENS = 16;
/** Words of context kept before the first matching word. */
const LEAD_TOKENS = 3;

function matches(word: string, term: string): boolean {
  if (word === term) return true;
  // Porter stems differ from prefixes; a shared stem of at least four letters is close enough for an excerpt.
  const n = Math.min(word.length, term.length);
  if (n < 4) return false;
  const stem = Math.max(4, term.length - 3);
  return word.startsWith(term.slice(0, stem)) || term.startsWith(word.slice(0, Math.max(4, word.length - 3)));
}

/**
 * An excerpt of about {@link EXCERPT_TOKENS} words from `head` (a bounded prefix of a body): the
 * window with the most distinct query terms, then the most matching words (earliest on ties), as
 * FTS5's snippet ranks fragments; from the start when no word matches. Text cut at either end is
 * marked with `…`, as FTS5 snippets are. Linear in `head`, which is at most
 * {@link EXCERPT_SCAN_CHARS} characters.
 * @param head at most {@link EXCERPT_SCAN_CHARS} characters of the body (longer input is cut)
 * @param terms lowercase query words
 * @param complete whether `head` is the whole body (no trailing `…` at its end)
 */
export function boundedExcerpt(head: string, terms: readonly string[], complete: boolean): string {
  const text = head.length > EXCERPT_SCAN_CHARS ? head.slice(0, EXCERPT_SCAN_CHARS) : head;
  // A term in a script written without spaces (`テキストを検索`) is matched by its words, as the
  // text's runs are split into theirs (`wordSpans`).
  const wanted = terms.some(hasUnspacedScript) ? terms.flatMap((t) => (hasUnspacedScript(t) ? unspacedWords(t) : [t])) : terms;
  const words: { start: number; end: number; term: number }[] = [];
  for (const m of wordSpans(text)) {
    const word = m.word.normalize('NFKC').toLowerCase();
    words.push({ start: m.start, end: m.end, term: wanted.findIndex((t) => matches(word, t)) });
  }
  if (words.length === 0) return '';
  let first = 0;
  let best = -1;
  for (const [i, w] of words.entries()) {
    if (w.term < 0) continue;
    const from = Math.max(0, i - LEAD_TOKENS);
    const seen = new Set<number>();
    let hits = 0;
    for (let j = from; j < Math.min(words.length, from + EXCERPT_TOKENS); j += 1) {
      if (words[j]!.term < 0) continue;
      seen.add(words[j]!.term);
      hits += 1;
    }
    const score = seen.size * (EXCERPT_TOKENS + 1) + hits;
    if (score > best) {
      best = score;
      first = from;
    }
  }
  const last = Math.min(words.length, first + EXCERPT_TOKENS) - 1;
  const start = first === 0 ? 0 : words[first]!.start;
  const end = words[last]!.end;
  const before = first > 0 ? '…' : '';
  const after = last < words.length - 1 || !complete ? '…' : '';
  return `${before}${text.slice(start, end).trim()}${after}`;
}

/** Longest code line an excerpt shows whole; a longer one is cut to about {@link EXCERPT_TOKENS} words around its match. */
const CODE_LINE_SHOWN = 200;

/** A code word's lowercased forms: the word and, for an identifier of several parts, its subwords. */
function codeWordForms(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/[\p{L}\p{M}\p{N}_]+/gu)) {
    const word = m[0].normalize('NFKC').toLowerCase();
    out.push(word);
    const parts = identifierWords(m[0]);
    if (parts.length > 1) out.push(...parts);
  }
  return out;
}

/**
 * The excerpt of a node found by its code text (issue 31 item 1): `line <n>: <text>` of the kept
 * line (`<line>\t<text>` lines, libs/core `NodeCodeText.lines`) with the most distinct query terms
 * written exactly, then the most matched by stem, then the most matching words (earliest on ties);
 * null when no line holds a term. A line longer
 * than {@link CODE_LINE_SHOWN} characters is cut around its match ({@link boundedExcerpt}). Linear
 * in `lines`, which is at most {@link EXCERPT_SCAN_CHARS} characters (longer input is cut).
 * @param lines the node's kept code lines
 * @param terms lowercase query words
 */
export function codeLineExcerpt(lines: string, terms: readonly string[]): string | null {
  const text = lines.length > EXCERPT_SCAN_CHARS ? lines.slice(0, EXCERPT_SCAN_CHARS) : lines;
  let best: { score: number; line: string; shown: string } | null = null;
  for (const entry of text.split('\n')) {
    const tab = entry.indexOf('\t');
    if (tab <= 0) continue;
    const shown = entry.slice(tab + 1);
    const exact = new Set<number>();
    const seen = new Set<number>();
    let hits = 0;
    for (const form of codeWordForms(shown)) {
      const term = terms.findIndex((t) => matches(form, t));
      if (term < 0) continue;
      seen.add(term);
      if (form === terms[term]) exact.add(term);
      hits += 1;
    }
    // Exact words first: `marker10` is the line asked for, `marker0` only shares its stem.
    const score = exact.size * 1e6 + seen.size * 1e3 + Math.min(hits, 999);
    if (seen.size > 0 && (best === null || score > best.score)) best = { score, line: entry.slice(0, tab), shown };
  }
  if (best === null) return null;
  const shown = best.shown.length <= CODE_LINE_SHOWN ? best.shown : boundedExcerpt(best.shown, terms, true);
  return `line ${best.line}: ${shown}`;
}

/** Whether `text` holds a word (or an identifier's subword) matching one of `terms` (lowercase query words), as {@link codeLineExcerpt} matches. */
export function holdsTerm(text: string, terms: readonly string[]): boolean {
  return codeWordForms(text).some((form) => terms.some((t) => matches(form, t)));
}
