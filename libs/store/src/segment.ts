/**
 * Words of scripts written without spaces (issue 30 item 2). FTS5's `unicode61` tokenizer keeps a
 * run of Han, kana, Thai, Lao, Khmer or Myanmar letters as one token, so `検索` was never found in
 * `日本語のテキストを検索する。`. Node's `Intl.Segmenter` (ICU, with dictionaries for these
 * scripts) splits such a run into its words. The store indexes the text with a separator between
 * those words (the `node_segmented` copy, schema.ts) and splits query phrases the same way, so a
 * word is found inside a sentence and a query run is matched as its words in sequence. Text in
 * other scripts passes through unchanged, so their tokens (and every ranking) stay as they were.
 *
 * The indexed text and query phrases are also compared under one normalisation (issue 30 item 3):
 * NFC, with the halfwidth and fullwidth forms folded as the query's NFKC folds them (`ＵＲＬ`,
 * `ｶﾅ`), so a document written in NFD or in fullwidth letters is found by the same query.
 */

/**
 * The characters of scripts written without spaces between words, as the body of a `u` regular
 * expression class (script extensions, so `ー`, `々`, CJK punctuation and the scripts' combining
 * marks count). Word splitting keeps them together, so a Thai vowel sign stays in its word.
 */
export const UNSPACED_SCRIPT_CLASS = '\\p{scx=Han}\\p{scx=Hiragana}\\p{scx=Katakana}\\p{scx=Thai}\\p{scx=Lao}\\p{scx=Khmer}\\p{scx=Myanmar}';
const UNSPACED_CHAR = new RegExp(`[${UNSPACED_SCRIPT_CLASS}]`, 'u');
/** A maximal run of such characters (global: used with `replace` and `matchAll` only, which reset it). */
const UNSPACED_RUN = new RegExp(`[${UNSPACED_SCRIPT_CLASS}]+`, 'gu');
/** A word for excerpts: letters, digits, `_` and characters of scripts without spaces. */
const EXCERPT_WORD = new RegExp(`[\\p{L}\\p{N}_${UNSPACED_SCRIPT_CLASS}]+`, 'gu');
/** Halfwidth and fullwidth forms, which the query's NFKC folds to their usual letters. */
const WIDTH_FORMS = /[\uFF00-\uFFEF]+/g;
const HAS_WIDTH_FORM = /[\uFF00-\uFFEF]/;
const NON_ASCII = /[^\u0000-\u007f]/;

/**
 * The separator put between the words of a segmented run in indexed text: a noncharacter, which no
 * document holds, declared to the tokenizer as a separator (schema.ts), and removed from snippets
 * ({@link withoutWordMarks}), so an excerpt shows the text as written.
 */
export const WORD_MARK = '\uFDD0';
const WORD_MARKS = /\uFDD0/g;

/**
 * ICU's word boundaries; the root locale, so the index never depends on the machine's locale.
 * Made where text in these scripts is met, not when the module loads: the first segmenter of a
 * process loads ICU's break data (about 13 ms), later ones cost about 25 µs, and most projects
 * hold no such text (a no-change sync of fastify: 0.20 s with the segmenter made at load, 0.19 s
 * without, 2026-12-05).
 */
function wordSegmenter(): Intl.Segmenter {
  return new Intl.Segmenter('und', { granularity: 'word' });
}

/**
 * The combining marks of the scripts without spaces whose words carry them (Thai, Lao, Myanmar,
 * Khmer vowel signs and tone marks), for the tokenizer's `tokenchars`: unicode61 otherwise treats a
 * mark as a separator and cuts `เป็น` into `เป` and `น`.
 */
export function unspacedScriptMarks(): string {
  let marks = '';
  for (const [from, to] of [[0x0e00, 0x0eff], [0x1000, 0x109f], [0x1780, 0x17ff]] as const) {
    for (let cp = from; cp <= to; cp += 1) {
      const ch = String.fromCodePoint(cp);
      if (/\p{M}/u.test(ch)) marks += ch;
    }
  }
  return marks;
}

/** Whether `text` holds a character of a script written without spaces. */
export function hasUnspacedScript(text: string): boolean {
  return UNSPACED_CHAR.test(text);
}

/**
 * Characters of a run handed to the segmenter at once. `Intl.Segmenter` costs more than linearly in
 * the length of what it segments (10,000 characters of `検索`: about 0.4-0.8 s of CPU, 2026-12-07;
 * 256 characters: about 0.05 ms), so a long run is segmented window by window ({@link runSegments}).
 */
export const SEGMENT_WINDOW_CHARS = 256;

/** One segment of a run: its text, its offset in the run, and whether it is a word. */
interface RunSegment {
  segment: string;
  index: number;
  isWordLike: boolean;
}

/**
 * The segments of `run` in order, in work linear in its length: a run longer than
 * {@link SEGMENT_WINDOW_CHARS} is segmented a window at a time, and each window but the last keeps
 * its segments except its final one (which the window's end may have cut), the next window starting
 * where that segment started. A run that fits one window is segmented exactly as before.
 */
function runSegments(run: string): RunSegment[] {
  const segmenter = wordSegmenter();
  const out: RunSegment[] = [];
  let from = 0;
  while (from < run.length) {
    let to = Math.min(run.length, from + SEGMENT_WINDOW_CHARS);
    // Never cut a surrogate pair.
    if (to < run.length && /[\uD800-\uDBFF]/.test(run[to - 1]!)) to -= 1;
    const last = to === run.length;
    const window: RunSegment[] = [];
    for (const s of segmenter.segment(run.slice(from, to))) window.push({ segment: s.segment, index: from + s.index, isWordLike: s.isWordLike === true });
    const keep = last || window.length < 2 ? window : window.slice(0, -1);
    out.push(...keep);
    from = keep.length === 0 ? to : keep[keep.length - 1]!.index + keep[keep.length - 1]!.segment.length;
  }
  return out;
}

/** The segments of one run (words, and the punctuation between them), in order. */
function segmentsOf(run: string): string[] {
  return runSegments(run).map((s) => s.segment);
}

/**
 * The words of `chunk` (a run of letters and digits) where it holds a script without spaces: its
 * word-like segments in order (`日本語のテキスト` gives `日本語`, `の`, `テキスト`); `[chunk]` otherwise.
 */
export function unspacedWords(chunk: string): string[] {
  if (!hasUnspacedScript(chunk)) return [chunk];
  const out: string[] = [];
  for (const s of runSegments(chunk)) if (s.isWordLike) out.push(s.segment);
  return out;
}

/**
 * Word spans of `text` for excerpts: every run of letters, digits and `_`, with a run in a script
 * without spaces split into its words. Offsets index `text`.
 */
export function wordSpans(text: string): { word: string; start: number; end: number }[] {
  const out: { word: string; start: number; end: number }[] = [];
  for (const m of text.matchAll(EXCERPT_WORD)) {
    if (!hasUnspacedScript(m[0])) {
      out.push({ word: m[0], start: m.index, end: m.index + m[0].length });
      continue;
    }
    for (const s of runSegments(m[0])) {
      if (s.isWordLike) out.push({ word: s.segment, start: m.index + s.index, end: m.index + s.index + s.segment.length });
    }
  }
  return out;
}

/** `text` under the comparison normalisation: halfwidth and fullwidth forms folded (NFKC), then NFC. */
export function comparableText(text: string): string {
  if (!NON_ASCII.test(text)) return text;
  const folded = HAS_WIDTH_FORM.test(text) ? text.replace(WIDTH_FORMS, (s) => s.normalize('NFKC')) : text;
  return folded.normalize('NFC');
}

/**
 * `text` normalised, with `mark` between the segments of every run in a script without spaces and
 * at both ends of the run: `APIを` is the token `API` then `を`, as `API を` would be.
 */
function segmented(text: string, mark: string): string {
  const normal = comparableText(text);
  return hasUnspacedScript(normal) ? normal.replace(UNSPACED_RUN, (run) => `${mark}${segmentsOf(run).join(mark)}${mark}`) : normal;
}

/**
 * The text the full-text index holds for a column value: normalised ({@link comparableText}), with
 * {@link WORD_MARK} between the words of runs in scripts without spaces; null when that is the value
 * itself (the index then reads the stored column, and nothing is stored twice).
 */
export function indexedText(text: string): string | null {
  const out = segmented(text, WORD_MARK);
  return out === text ? null : out;
}

/** A query phrase as the index holds text: normalised, runs in scripts without spaces split into words by spaces. */
export function queryPhraseText(phrase: string): string {
  const out = segmented(phrase, ' ');
  return out === phrase ? phrase : out.replace(/ {2,}/g, ' ').trim();
}

/** Indexed text (a snippet) with the word separators removed: the text as written (normalised). */
export function withoutWordMarks(text: string): string {
  return text.includes(WORD_MARK) ? text.replace(WORD_MARKS, '') : text;
}
