/**
 * Name matching of the ranking (ranking.ts): how much of a query a list of name words (a node's
 * own name, its qualified name, a section heading) covers. The query side is prepared once per
 * query ({@link recallQuery}) and each word list once per distinct list ({@link nameForm}), so
 * scoring a few hundred candidates costs a few map lookups each. Every cache here holds pure
 * functions of strings (bounded, emptied when full), so no answer depends on what was asked before.
 */
import { identifierWords } from '@docforge/store';
import { STOP_WORDS, wordStem, type QueryTerm } from './query.js';

/** Most entries one memo table keeps before it is emptied (a few MB at most). */
const MEMO_CAP = 20_000;

function remember<V>(cache: Map<string, V>, key: string, make: () => V): V {
  let value = cache.get(key);
  if (value === undefined) {
    value = make();
    if (cache.size >= MEMO_CAP) cache.clear();
    cache.set(key, value);
  }
  return value;
}

const wordsMemo = new Map<string, readonly string[]>();

/** {@link identifierWords} of `text`, memoized; the array is shared and must not be modified. */
export function wordsOf(text: string): readonly string[] {
  return remember(wordsMemo, text, () => identifierWords(text));
}

/** A list of name words prepared for {@link recall}. */
export interface NameForm {
  /** Stems of the words, in order. */
  stemList: readonly string[];
  stems: ReadonlySet<string>;
  /** A closed compound of adjacent words (and of all words) by its stem: the stems it covers. */
  joined: ReadonlyMap<string, readonly string[]>;
  /** Stems of the words that are not stop words (name precision counts content words only). */
  contentStems: readonly string[];
}

const formMemo = new Map<string, NameForm>();

/** The {@link NameForm} of `words` (memoized by the words). */
export function nameForm(words: readonly string[]): NameForm {
  return remember(formMemo, words.join('\u0000'), () => {
    const stemList = words.map(wordStem);
    // A closed compound of the query matches adjacent name words ("typescript" matches `TypeScript`).
    const joined = new Map<string, readonly string[]>();
    for (let i = 0; i + 1 < words.length; i += 1) joined.set(wordStem(words[i]! + words[i + 1]!), [stemList[i]!, stemList[i + 1]!]);
    if (words.length > 2) joined.set(wordStem(words.join('')), stemList);
    // Stop words stay in `stemList` for compound sequences; precision counts the other words.
    const contentStems = words.filter((w) => !STOP_WORDS.has(w)).map(wordStem);
    return { stemList, stems: new Set(stemList), joined, contentStems };
  });
}

/** The query side of {@link recall}, prepared once per query. */
export interface RecallQuery {
  terms: readonly QueryTerm[];
  /** Stems of each term's compound subwords (null for a plain word). */
  sequences: readonly (readonly string[] | null)[];
  groups: number;
  /** Weight of each query word (its idf, 1 when unknown). */
  weightOf: readonly number[];
  /** Sum of {@link weightOf}, in group order. */
  total: number;
}

/**
 * Prepares `terms` of `groups` query words with their idf weights (by word; absent words weigh 1).
 * A word written in several spellings (spelling.ts) weighs as its most frequent one (the least idf):
 * a spelling the index does not hold adds no weight.
 */
export function recallQuery(terms: readonly QueryTerm[], idf: ReadonlyMap<string, number>, groups: number): RecallQuery {
  const weightOf = new Array<number>(groups).fill(Infinity);
  for (const t of terms) if (t.weight === 1) weightOf[t.group] = Math.min(weightOf[t.group]!, idf.get(t.word) ?? 1);
  for (let g = 0; g < groups; g += 1) if (weightOf[g] === Infinity) weightOf[g] = 0;
  let total = 0;
  for (let g = 0; g < groups; g += 1) total += weightOf[g]!;
  return { terms, sequences: terms.map((t) => (t.seq ? t.seq.map(wordStem) : null)), groups, weightOf, total };
}

function containsSequence(stems: readonly string[], want: readonly string[]): boolean {
  for (let i = 0; i + want.length <= stems.length; i += 1) if (want.every((w, j) => stems[i + j] === w)) return true;
  return false;
}

const NO_RECALL = Object.freeze({ r: 0, covered: 0 });

/**
 * How much of the query a word list covers: `r` is the idf-weighted fraction of query words found
 * (an expansion counts at its weight), `covered` the fraction of the list's content words the query
 * covers. Both 0..1; 0 when nothing matches.
 */
export function recall(q: RecallQuery, form: NameForm): { r: number; covered: number } {
  if (q.groups === 0 || form.stemList.length === 0) return NO_RECALL;
  let best: number[] | null = null;
  let coveredStems: Set<string> | null = null;
  q.terms.forEach((t, i) => {
    const want = q.sequences[i];
    if (!(form.stems.has(t.stem) || (want ? containsSequence(form.stemList, want) : form.joined.has(t.stem)))) return;
    best ??= new Array<number>(q.groups).fill(0);
    coveredStems ??= new Set<string>();
    best[t.group] = Math.max(best[t.group]!, t.weight);
    coveredStems.add(t.stem);
    for (const w of form.joined.get(t.stem) ?? []) coveredStems.add(w);
    for (const w of want ?? []) coveredStems.add(w);
  });
  if (best === null || coveredStems === null) return NO_RECALL;
  let got = 0;
  for (let g = 0; g < q.groups; g += 1) got += q.weightOf[g]! * best[g]!;
  const covered: ReadonlySet<string> = coveredStems;
  const content = form.contentStems;
  return { r: q.total === 0 ? 0 : got / q.total, covered: content.length === 0 ? 0 : content.filter((s) => covered.has(s)).length / content.length };
}
