/**
 * Bounded excerpts of long bodies (issue 8 item 1; DESIGN.md section 7: query-time work is
 * bounded whatever the size of one node). FTS5's own `snippet()` is used for short bodies only (see
 * `SNIPPET_MAX_BODY_CHARS` in libs/index); for a longer body the reader hands over its first
 * {@link EXCERPT_SCAN_CHARS} characters and this module picks the excerpt from them, so the work
 * per hit is linear in a constant, not in the body.
 */

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
 * An excerpt of about {@link EXCERPT_TOKENS} words from `head` (a bounded prefix of a body), around
 * the first word matching one of `terms` (lowercase query words), else from the start. Text cut
 * at either end is marked with `…`, as FTS5 snippets are.
 * @param head at most {@link EXCERPT_SCAN_CHARS} characters of the body
 * @param complete whether `head` is the whole body (no trailing `…` at its end)
 */
export function boundedExcerpt(head: string, terms: readonly string[], complete: boolean): string {
  const text = head.length > EXCERPT_SCAN_CHARS ? head.slice(0, EXCERPT_SCAN_CHARS) : head;
  const words: { start: number; end: number }[] = [];
  let hit = -1;
  for (const m of text.matchAll(/[\p{L}\p{N}_]+/gu)) {
    words.push({ start: m.index, end: m.index + m[0].length });
    if (hit < 0 && terms.some((t) => matches(m[0].normalize('NFKC').toLowerCase(), t))) hit = words.length - 1;
    if (hit >= 0 && words.length >= hit + EXCERPT_TOKENS) break;
  }
  if (words.length === 0) return '';
  const first = hit < 0 ? 0 : Math.max(0, hit - LEAD_TOKENS);
  const last = Math.min(words.length, first + EXCERPT_TOKENS) - 1;
  const start = first === 0 ? 0 : words[first]!.start;
  const end = words[last]!.end;
  const before = first > 0 ? '…' : '';
  const after = /[\p{L}\p{N}_]/u.test(text.slice(end)) || !complete ? '…' : '';
  return `${before}${text.slice(start, end).trim()}${after}`;
}
