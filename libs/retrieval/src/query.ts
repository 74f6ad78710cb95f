/**
 * Query analysis of the ranking (ranking.ts): words, stop words and question filler, abbreviation,
 * negation and compound expansions, word-form stems, and the FTS5 phrases of a term.
 */
import { identifierWords, UNSPACED_SCRIPT_CLASS, unspacedWords } from '@docforge/store';
import { americanSpelling, spellingVariants } from './spelling.js';

/** What separates query words: anything but a letter, a digit, `_` or a character of a script written without spaces (a Thai vowel sign stays in its word). */
const QUERY_WORD_SEPARATOR = new RegExp(`[^\\p{L}\\p{N}_${UNSPACED_SCRIPT_CLASS}]+`, 'u');

/** English function words: never required terms (kept only when a query has nothing else). */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  'a against an and are as at be by can could did do does for from how i if in into is it its me my of on or our should so that the their them then there these this those to upon via was we were what when where which who whom why will with would you your'.split(' '),
);

/** Question and task filler ("where is X implemented", "change how X works"): treated like stop words. */
export const QUESTION_WORDS: ReadonlySet<string> = new Set('implemented defined declared located happens happen find found code change changes changing modify'.split(' '));

/**
 * Common code abbreviations and the words they stand for (expanded both ways at query time, at
 * {@link EXPANSION_WEIGHT}): "configuration" also finds `cfg-validator.ts`, `req` also finds "request".
 */
export const ABBREVIATIONS: Readonly<Record<string, readonly string[]>> = Object.freeze({
  req: ['request'], res: ['response', 'result'], gen: ['generate', 'generator'], cfg: ['config', 'configuration'],
  config: ['configuration'], conf: ['config', 'configuration'], ctx: ['context'], err: ['error'], opts: ['options'], opt: ['option'],
  msg: ['message'], impl: ['implementation', 'implement'], params: ['parameters'], param: ['parameter'], args: ['arguments'],
  arg: ['argument'], init: ['initialize', 'initial'], fn: ['function'], cb: ['callback'], dir: ['directory'], num: ['number'],
  str: ['string'], val: ['value'], idx: ['index'], db: ['database'], auth: ['authorization', 'authentication'], util: ['utility'],
  utils: ['utilities'], env: ['environment'], prev: ['previous'], src: ['source'], dest: ['destination'], tmp: ['temporary'],
  max: ['maximum'], min: ['minimum'], len: ['length'], id: ['identifier'], url: ['address'], http: ['web'], async: ['asynchronous'],
  sync: ['synchronous'], addr: ['address'], info: ['information'], doc: ['document'], docs: ['documentation'], spec: ['specification'],
  lib: ['library'], pkg: ['package'], proc: ['process'], sig: ['signature'], eval: ['evaluate'], calc: ['calculate'],
  '404': ['not', 'found'],
});

/** Weight of an expansion (abbreviation or its long form) relative to an exact term. */
export const EXPANSION_WEIGHT = 0.6;

/** Words that negate the next word of a query ("does not balance" also finds "imbalance", "unbalanced"). */
const NEGATIONS: ReadonlySet<string> = new Set(['not', 'no', 'never', 'cannot', 'nt']);
/** English negating prefixes tried on a negated query word, as expansions. */
const NEGATING_PREFIXES = ['un', 'im', 'in', 'dis', 'non'];

/** Irregular verb forms common in questions about code, mapped to their base form before stemming. */
const IRREGULAR_FORMS: Readonly<Record<string, string>> = Object.freeze(Object.assign(Object.create(null) as Record<string, string>, {
  built: 'build', sent: 'send', made: 'make', ran: 'run', written: 'write', wrote: 'write', thrown: 'throw', threw: 'throw',
  begun: 'begin', began: 'begin', chosen: 'choose', kept: 'keep', left: 'leave', read: 'read', set: 'set', got: 'get', gotten: 'get',
}));
const SUFFIXES = ['ations', 'ation', 'ings', 'ing', 'ions', 'ion', 'ers', 'er', 'ors', 'or', 'ables', 'able', 'ments', 'ment', 'ies', 'ied', 'ed', 'es', 'ly', 's', 'e'];

/** Stems computed so far (a pure function of the word; emptied when it reaches {@link STEM_MEMO_CAP}). */
const stemMemo = new Map<string, string>();
const STEM_MEMO_CAP = 50_000;

/**
 * A light word-form stem: the word minus one common suffix, keeping at least 3 characters
 * (`listening`, `listen`, `listens` → `listen`; `validated`, `validation`, `validator` → `validat`;
 * `parsing`, `parse` → `pars`). Memoized.
 */
export function wordStem(word: string): string {
  let stem = stemMemo.get(word);
  if (stem === undefined) {
    stem = computeStem(word);
    if (stemMemo.size >= STEM_MEMO_CAP) stemMemo.clear();
    stemMemo.set(word, stem);
  }
  return stem;
}

function computeStem(word: string): string {
  const lower = word.toLowerCase();
  // British and American spellings stem alike ("coloured" and `colored`, spelling.ts).
  const w = IRREGULAR_FORMS[lower] ?? americanSpelling(lower);
  for (const suffix of SUFFIXES) {
    if (w.length - suffix.length >= 3 && w.endsWith(suffix)) {
      const stem = w.slice(0, -suffix.length);
      return suffix === 'ies' || suffix === 'ied' ? `${stem}y` : stem;
    }
  }
  return w;
}

/** One analysed query word. */
export interface QueryTerm {
  word: string;
  stem: string;
  /** 1 for a word of the query and its other spellings, {@link EXPANSION_WEIGHT} for an expansion. */
  weight: number;
  /** For another spelling of a query word ("colored" for "coloured", spelling.ts): it weighs as the word itself, and is not listed as a word of the query. */
  variant?: true;
  /** Index of the query word this term stands for (expansions share their word's index). */
  group: number;
  /** For a compound identifier of the query: its subwords, which must occur in this order. */
  seq?: string[];
  /**
   * For a compound written with underscores (`refund_rejected`, `FST_ERR_NOT_FOUND`): prose holds
   * it as its subwords in sequence (FTS5 splits on `_`), so the full-text query looks for that
   * phrase too; a camelCase compound (`onRequest`) is one token in prose.
   */
  separated?: true;
}

/**
 * A hyphenated compound (`on-call`). Tried only where a word starts (the lookbehind): unanchored, a
 * run of letters without a hyphen was scanned again from each of its characters, quadratic in its
 * length (a 10,000-character run of `検索`: about 0.9 s, 2026-12-07). The matches are the same, as
 * a match never started inside a word.
 */
const HYPHENATED = /(?<![\p{L}\p{N}])[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+)+/gu;

/** Most distinct query words one query searches; later ones are reported in `dropped`. */
export const MAX_QUERY_PHRASES = 32;

/** A query word that was not searched, and why. */
export interface DroppedTerm {
  /** The lowercased word (a compound identifier as written, lowercased). */
  term: string;
  /**
   * `stop_word`: an English function word or question filler ({@link STOP_WORDS},
   * {@link QUESTION_WORDS}), ignored because the query has other words; `term_limit`: a distinct
   * word after the first {@link MAX_QUERY_PHRASES}.
   */
  reason: 'stop_word' | 'term_limit';
}

/**
 * Characters of the JSON of a listed `dropped_terms` prefix in `docforge_search` and
 * `docforge_get_context`: a 10,000-character query can drop thousands of words, and the answer
 * must fit `max_output_chars` at its floor.
 */
export const MAX_LISTED_DROPPED_CHARS = 600;

/** The dropped words as listed in a response: every one, or a prefix within {@link MAX_LISTED_DROPPED_CHARS} and `dropped_terms_total` counting them all. */
export interface ListedDroppedTerms {
  dropped_terms: DroppedTerm[];
  /** Present only when `dropped_terms` is a prefix: how many words were not searched in all. */
  dropped_terms_total?: number;
}

/** The listed prefix of `dropped` (in query order) within {@link MAX_LISTED_DROPPED_CHARS} of JSON, with the total when cut. */
export function listedDroppedTerms(dropped: readonly DroppedTerm[]): ListedDroppedTerms {
  let chars = 2;
  let listed = 0;
  while (listed < dropped.length) {
    chars += JSON.stringify(dropped[listed]).length + 1;
    if (chars > MAX_LISTED_DROPPED_CHARS) break;
    listed += 1;
  }
  return listed === dropped.length ? { dropped_terms: [...dropped] } : { dropped_terms: dropped.slice(0, listed), dropped_terms_total: dropped.length };
}

/** The analysed query: its words (stop words dropped unless nothing else remains) and their expansions. */
export interface AnalysedQuery {
  terms: QueryTerm[];
  /** Query words not searched, in query order, each once (issue 8: never dropped silently). */
  dropped: DroppedTerm[];
  /** Number of query words (groups). */
  groups: number;
  /** The query words joined by one space (for exact title comparison). */
  wanted: string;
}

/** One word of a query as written, analysed (shared by its repeats). */
interface QueryWord {
  word: string;
  seq: string[];
  separated: boolean;
}

/**
 * The words of `text` in query order, repeats included. Per-word work (identifier splitting, a
 * script's segmentation) runs once per distinct chunk and once per distinct segment, so a query of
 * one word repeated thousands of times (`検索` × 5,000) costs one word's analysis plus a linear scan.
 */
function queryWords(text: string): QueryWord[] {
  const analysed = new Map<string, QueryWord | null>();
  const segmented = new Map<string, string[]>();
  const all: QueryWord[] = [];
  // `Reply.prototype.serialize` is how JavaScript source writes the method `Reply.serialize`.
  // A run in a script written without spaces is split into its words, each a query word as if
  // spaces stood between them (`テキスト検索` asks for `テキスト` and `検索`, wherever they are).
  for (const piece of text.normalize('NFKC').replace(/\.prototype\./g, '.').split(QUERY_WORD_SEPARATOR)) {
    let chunks = segmented.get(piece);
    if (chunks === undefined) {
      chunks = unspacedWords(piece);
      segmented.set(piece, chunks);
    }
    for (const chunk of chunks) {
      let w = analysed.get(chunk);
      if (w === undefined) {
        const seq = identifierWords(chunk);
        w = seq.length === 0 ? null : { word: seq.length > 1 ? seq.join('') : seq[0]!, seq, separated: seq.length > 1 && /[\p{L}\p{N}]_+[\p{L}\p{N}]/u.test(chunk) };
        analysed.set(chunk, w);
      }
      if (w !== null) all.push(w);
    }
  }
  return all;
}

/**
 * Analyses free text into weighted terms (at most 32 query words). A compound identifier in the
 * query (`onRequest`, `parse_options`) is one word whose subwords must occur in sequence in a name
 * (`onRequest` matches the `onRequest` hook, not a page titled "Request").
 */
export function analyseQuery(text: string): AnalysedQuery {
  const all = queryWords(text);
  const kept = all.filter((w) => w.seq.length > 1 || (!STOP_WORDS.has(w.word) && !QUESTION_WORDS.has(w.word)));
  const unique = new Map<string, string[]>();
  const separated = new Set<string>();
  for (const w of kept.length > 0 ? kept : all) {
    if (!unique.has(w.word)) unique.set(w.word, w.seq);
    if (w.separated) separated.add(w.word);
  }
  const words = [...unique.keys()].slice(0, MAX_QUERY_PHRASES);
  const dropped: DroppedTerm[] = [];
  const reported = new Set<string>();
  for (const w of all) {
    if (reported.has(w.word) || (words.includes(w.word))) continue;
    reported.add(w.word);
    dropped.push({ term: w.word, reason: unique.has(w.word) ? 'term_limit' : 'stop_word' });
  }
  // A word after a negation ("not balance") also stands for its negated forms ("imbalance");
  // a hyphenated compound ("on-call") also for its closed form ("oncall").
  const negated = new Set<string>();
  all.forEach((w, i) => {
    if (i > 0 && NEGATIONS.has(all[i - 1]!.word) && w.seq.length === 1) negated.add(w.word);
  });
  const closed = new Map<string, string>();
  for (const m of text.normalize('NFKC').toLowerCase().matchAll(HYPHENATED)) {
    const parts = m[0].split('-');
    closed.set(parts[parts.length - 1]!, parts.join(''));
  }
  const terms: QueryTerm[] = [];
  words.forEach((word, group) => {
    const seq = unique.get(word)!;
    terms.push({ word, stem: wordStem(word), weight: 1, group, ...(seq.length > 1 ? { seq } : {}), ...(separated.has(word) ? { separated: true as const } : {}) });
    if (seq.length > 1) return;
    for (const v of spellingVariants(word)) if (!words.includes(v)) terms.push({ word: v, stem: wordStem(v), weight: 1, group, variant: true });
    const expansions = new Set<string>(Object.hasOwn(ABBREVIATIONS, word) ? ABBREVIATIONS[word] : []);
    if (negated.has(word)) for (const p of NEGATING_PREFIXES) expansions.add(`${p}${word}`);
    const compound = closed.get(word);
    if (compound !== undefined) expansions.add(compound);
    for (const [abbr, longs] of Object.entries(ABBREVIATIONS)) if (longs.some((l) => wordStem(l) === wordStem(word))) expansions.add(abbr);
    for (const e of expansions) if (e !== word && !words.includes(e)) terms.push({ word: e, stem: wordStem(e), weight: EXPANSION_WEIGHT, group });
  });
  return { terms, dropped, groups: words.length, wanted: words.map((w) => unique.get(w)!.join(' ')).join(' ') };
}

/**
 * The full-text phrases of a term (plain text, matched by the store as token sequences): the word,
 * and for a compound its subwords in sequence (the `terms` column). Without `withSubwords` (the
 * full-text candidates) the subword phrase is kept only for a compound written with underscores,
 * which is how prose holds it ({@link QueryTerm.separated}).
 */
export function termPhrases(t: QueryTerm, withSubwords = true): string[] {
  return t.seq && (withSubwords || t.separated) ? [t.word, t.seq.join(' ')] : [t.word];
}
