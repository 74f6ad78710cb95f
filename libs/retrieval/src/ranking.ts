/**
 * One ranking for documentation pages and code symbols (issue 9 item 3), used by
 * `docforge_search`, the context seeds and the task-context focus.
 *
 * Query analysis: the query is split into words with the index's identifier splitting
 * (`requestRefund` gives `request`, `refund`); stop words and question filler ({@link STOP_WORDS},
 * {@link QUESTION_WORDS}) are never required terms (kept only when nothing else remains). Each
 * remaining word may bring expansions from {@link ABBREVIATIONS} (both directions) and a simple
 * word-form stem ({@link wordStem}: "listening" and `listen` share a stem); expansions weigh
 * {@link EXPANSION_WEIGHT} of an exact term.
 *
 * Candidates come from two FTS5 queries of fixed size {@link CANDIDATE_WINDOW}, independent of the
 * caller's limit: the union of all terms and expansions over every column (bm25 with the index
 * weights), and the same over the name columns only (id, title, identifier subwords), so short
 * code symbols are not crowded out by long pages. Every candidate is then scored (higher is better):
 *
 *   score = NAME * name + HEADING * heading + TEXT * text + EXACT_TITLE * [title equals the query]
 *           + ALL_TERMS * [every query word, or an expansion of it, occurs in the node, or its own name (with kind words) covers every query word]
 *           + [a "where is X" question and a code node outside `.d.ts` files and test sources] * (CODE_INTENT + DEFINITION * definitionPrior)
 *           + BODY * [otherwise: a function or method with a body, so an implementation leads its one-line declaration]
 *
 * Here {@link definitionPrior} prefers the kind a question names ("… store interface"), else
 * functions and methods with a body; for a "where is X" question, documentation nodes score
 * {@link DOC_FACTOR} of the formula and a code node's kind counts as one of its name words when the
 * question uses a {@link KIND_WORDS} word; in a question about creation ("where is the fastify
 * instance created") a class or function named exactly the created thing also counts
 * the creation and instance words as its name words ({@link creatorWords}: it is the constructor or
 * factory). Test code is never the implementation asked for. A word after a negation ("does not balance") is also
 * expanded to its negated forms (`imbalance`, `unbalance`), and a hyphenated word ("on-call") to its
 * closed form (`oncall`); a closed compound of the query matches adjacent name words
 * ("typescript" matches `TypeScript`).
 *
 * `name` is the idf-weighted fraction of query terms found among the node's own name words (or, at
 * {@link QUALIFIER_WEIGHT}, among its qualified name or path subwords), times (0.5 + 0.5 * the
 * fraction of name words the query covers), `heading` the same recall over the best section heading, and `text` the node's
 * bm25 relative to the best candidate's (0..1); nodes in test sources score {@link TEST_FACTOR} of that. Ties are ordered by id. Because the candidate set
 * and every score are independent of the limit, the results for one limit are always the first
 * entries of the results for any larger limit (the prefix property).
 */
import type { FtsCandidate, IndexReader, NodeFilters } from '@docforge/index';
import { identifierWords } from '@docforge/index';

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
/** Candidates read per FTS5 query (fixed: never derived from the caller's limit). */
export const CANDIDATE_WINDOW = 200;
/** Test sources (`test/`, `__tests__/`, `*.test.*`, `*.spec.*`, `*.tst.*`): ranked below the code and docs they exercise. */
const TEST_PATH = /(^|\/)(tests?|__tests__)\/|\.(test|spec|tst)\.[a-z]+$/i;
/** Score factor of a node in a test source ({@link TEST_PATH}). */
export const TEST_FACTOR = 0.8;
/** Score factor of a documentation node for a "where is X" question ({@link hasCodeIntent}): the code is asked for. */
export const DOC_FACTOR = 0.7;
/** Score weights of {@link rankNodes}. */
export const RANK_WEIGHTS = Object.freeze({ name: 1, heading: 0.35, text: 0.6, exactTitle: 1, allTerms: 0.25, codeIntent: 0.5, definition: 0.3, body: 0.02 });

/**
 * A question about where something is implemented ("where is the request id generated", "where
 * are hooks run", "… implemented/defined/declared"): code nodes (ids `code:…`, not `.d.ts`
 * declarations) get {@link RANK_WEIGHTS}.codeIntent.
 */
export function hasCodeIntent(query: string): boolean {
  return /^\s*where\b/i.test(query) || /\b(implemented|implementation|defined|declared)\b/i.test(query);
}
const DECLARATION_FILE = /\.d\.[cm]?ts$/;

/**
 * Words naming a kind of code node, and the node kinds they name. In a "where is X" question a
 * kind word describes the wanted node ("where is the ledger store interface declared") rather than
 * its name: it matches a code node of that kind as if it were one of its name words.
 */
export const KIND_WORDS: Readonly<Record<string, readonly string[]>> = Object.freeze(Object.assign(Object.create(null) as Record<string, readonly string[]>, {
  interface: ['interface'], interfaces: ['interface'], class: ['class'], classes: ['class'], function: ['function'], functions: ['function'],
  method: ['method'], methods: ['method'], module: ['module'], modules: ['module'], file: ['module'], files: ['module'], type: ['interface', 'type'],
  types: ['interface', 'type'], enum: ['enum'], constant: ['variable', 'constant'], variable: ['variable'],
}));
/** Verbs of creation in a question ("where is the X instance created"), in their word forms. */
const CREATION_WORDS: ReadonlySet<string> = new Set(['create', 'created', 'creates', 'creating', 'creation', 'instantiate', 'instantiated', 'instantiates', 'instantiation', 'construct', 'constructed', 'constructs', 'construction']);
/** Words naming the created thing's role rather than its name ("the fastify instance", "the logger object"). */
const INSTANCE_WORDS: ReadonlySet<string> = new Set(['instance', 'instances', 'object', 'objects']);
/** Code node kinds that create what they are named after: a class (its constructor) and a factory function. */
const CREATOR_KINDS: ReadonlySet<string> = new Set(['class', 'function']);

/**
 * For a "where is the X instance created" question: the creation and instance words a code node
 * answers by its kind, as extra name words. A class or function with a body whose own
 * name words are all among the question's other words (`fastify` for "the fastify instance",
 * `ContentType` for "a content type object") is the constructor or factory of the thing named, so
 * it also matches the creation verb and the instance word; empty otherwise.
 */
export function creatorWords(analysed: AnalysedQuery, row: Pick<FtsCandidate, 'kind' | 'start_line' | 'end_line'>, own: readonly string[]): string[] {
  if (!CREATOR_KINDS.has(row.kind) || row.end_line <= row.start_line || own.length === 0) return [];
  const exact = analysed.terms.filter((t) => t.weight === 1 && t.seq === undefined);
  const role = exact.filter((t) => CREATION_WORDS.has(t.word) || INSTANCE_WORDS.has(t.word));
  if (!role.some((t) => CREATION_WORDS.has(t.word))) return [];
  const others = new Set(analysed.terms.filter((t) => !role.includes(t)).map((t) => t.stem));
  return own.every((w) => others.has(wordStem(w))) ? role.map((t) => t.word) : [];
}

/** Code node kinds that carry behaviour: the default answer to "where is X done". */
const CALLABLE_KINDS: ReadonlySet<string> = new Set(['function', 'method', 'constructor']);
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

/**
 * A light word-form stem: the word minus one common suffix, keeping at least 3 characters
 * (`listening`, `listen`, `listens` → `listen`; `validated`, `validation`, `validator` → `validat`;
 * `parsing`, `parse` → `pars`).
 */
export function wordStem(word: string): string {
  const w = IRREGULAR_FORMS[word.toLowerCase()] ?? word.toLowerCase();
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
  /** 1 for a word of the query, {@link EXPANSION_WEIGHT} for an expansion. */
  weight: number;
  /** Index of the query word this term stands for (expansions share their word's index). */
  group: number;
  /** For a compound identifier of the query: its subwords, which must occur in this order. */
  seq?: string[];
}

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

/**
 * Analyses free text into weighted terms (at most 32 query words). A compound identifier in the
 * query (`onRequest`, `parse_options`) is one word whose subwords must occur in sequence in a name
 * (`onRequest` matches the `onRequest` hook, not a page titled "Request").
 */
export function analyseQuery(text: string): AnalysedQuery {
  const all: { word: string; seq: string[] }[] = [];
  for (const chunk of text.normalize('NFKC').split(/[^\p{L}\p{N}_]+/u)) {
    const seq = identifierWords(chunk);
    if (seq.length === 0) continue;
    all.push({ word: seq.length > 1 ? seq.join('') : seq[0]!, seq });
  }
  const kept = all.filter((w) => w.seq.length > 1 || (!STOP_WORDS.has(w.word) && !QUESTION_WORDS.has(w.word)));
  const unique = new Map<string, string[]>();
  for (const w of kept.length > 0 ? kept : all) if (!unique.has(w.word)) unique.set(w.word, w.seq);
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
  for (const m of text.normalize('NFKC').toLowerCase().matchAll(/[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+)+/gu)) {
    const parts = m[0].split('-');
    closed.set(parts[parts.length - 1]!, parts.join(''));
  }
  const terms: QueryTerm[] = [];
  words.forEach((word, group) => {
    const seq = unique.get(word)!;
    terms.push({ word, stem: wordStem(word), weight: 1, group, ...(seq.length > 1 ? { seq } : {}) });
    if (seq.length > 1) return;
    const expansions = new Set<string>(Object.hasOwn(ABBREVIATIONS, word) ? ABBREVIATIONS[word] : []);
    if (negated.has(word)) for (const p of NEGATING_PREFIXES) expansions.add(`${p}${word}`);
    const compound = closed.get(word);
    if (compound !== undefined) expansions.add(compound);
    for (const [abbr, longs] of Object.entries(ABBREVIATIONS)) if (longs.some((l) => wordStem(l) === wordStem(word))) expansions.add(abbr);
    for (const e of expansions) if (e !== word && !words.includes(e)) terms.push({ word: e, stem: wordStem(e), weight: EXPANSION_WEIGHT, group });
  });
  return { terms, dropped, groups: words.length, wanted: words.map((w) => unique.get(w)!.join(' ')).join(' ') };
}

/** The FTS5 phrases of a term: the word, and for a compound its subwords in sequence (the `terms` column). */
function termPhrases(t: QueryTerm, withSubwords = true): string[] {
  return t.seq && withSubwords ? [ftsPhrase(t.word), ftsPhrase(t.seq.join(' '))] : [ftsPhrase(t.word)];
}

function containsSequence(stems: readonly string[], seq: readonly string[]): boolean {
  const want = seq.map(wordStem);
  for (let i = 0; i + want.length <= stems.length; i += 1) if (want.every((w, j) => stems[i + j] === w)) return true;
  return false;
}

/** Quotes a word as an FTS5 phrase. */
export function ftsPhrase(word: string): string {
  return `"${word.replace(/"/g, '""')}"`;
}

/** The name words of a node: its title's subwords plus its id's last segment (qualified name or file name), in order, first occurrences. */
export function nameWords(id: string, title: string): string[] {
  const hash = id.indexOf('#');
  const tail = hash >= 0 ? id.slice(hash + 1) : (id.split('/').pop() ?? id).replace(/\.[a-z0-9]+$/i, '');
  const words = [...identifierWords(title), ...identifierWords(tail.replace(/^code:/, ''))];
  return [...new Set(words)];
}

/** Weight of a match found only in a node's qualifier (its class or path), relative to its own name. */
export const QUALIFIER_WEIGHT = 0.6;

/** The words of a node's own name: a code declaration's leaf name, a module's file name, else its title. */
function leafWords(id: string, title: string): string[] {
  if (!id.startsWith('code:')) return identifierWords(title);
  const hash = id.indexOf('#');
  if (hash >= 0) return identifierWords(id.slice(hash + 1).split('.').pop()!.replace(/~\d+$/, ''));
  return identifierWords((id.split('/').pop() ?? id).replace(/\.[a-z0-9]+$/i, ''));
}

/** One ranked candidate. */
export interface RankedNode {
  row: FtsCandidate;
  /** Higher ranks first. */
  score: number;
  /** Whether every query word (or one of its expansions) occurs in the node's indexed text. */
  allTerms: boolean;
  /** Best matching section heading (not the node's own title heading), when one matches. */
  section: FtsCandidate['anchors'][number] | null;
}

/** Result of {@link rankNodes}. */
export interface RankedResult {
  ranked: RankedNode[];
  /** Whether a candidate query had more matches than {@link CANDIDATE_WINDOW} (or the given window), or the candidate tier left matches out ({@link MATCH_TIER}). */
  windowed: boolean;
  /** The FTS5 query of the full-text candidates (for transparency). */
  fts: string;
  terms: AnalysedQuery;
}

function recall(terms: readonly QueryTerm[], idf: ReadonlyMap<string, number>, groups: number, words: readonly string[]): { r: number; covered: number } {
  if (groups === 0 || words.length === 0) return { r: 0, covered: 0 };
  const stemList = words.map(wordStem);
  const stems = new Set(stemList);
  // A closed compound of the query matches adjacent name words ("typescript" matches `TypeScript`).
  const joined = new Map<string, string[]>();
  for (let i = 0; i + 1 < words.length; i += 1) joined.set(wordStem(words[i]! + words[i + 1]!), [stemList[i]!, stemList[i + 1]!]);
  if (words.length > 2) joined.set(wordStem(words.join('')), stemList);
  const best = new Array<number>(groups).fill(0);
  const weightOf = new Array<number>(groups).fill(0);
  const coveredStems = new Set<string>();
  for (const t of terms) {
    const w = idf.get(t.word) ?? 1;
    if (t.weight === 1) weightOf[t.group] = w;
    if (t.seq ? stems.has(t.stem) || containsSequence(stemList, t.seq) : stems.has(t.stem) || joined.has(t.stem)) {
      best[t.group] = Math.max(best[t.group]!, t.weight);
      coveredStems.add(t.stem);
      for (const w of joined.get(t.stem) ?? []) coveredStems.add(w);
      for (const w of t.seq ?? []) coveredStems.add(wordStem(w));
    }
  }
  let total = 0;
  let got = 0;
  for (let g = 0; g < groups; g += 1) {
    total += weightOf[g]!;
    got += weightOf[g]! * best[g]!;
  }
  // Name precision counts content words only (stop words stay in `words` for compound sequences).
  const content = words.filter((w) => !STOP_WORDS.has(w));
  return { r: total === 0 ? 0 : got / total, covered: content.length === 0 ? 0 : content.filter((w) => coveredStems.has(wordStem(w))).length / content.length };
}

/**
 * The bounded candidate tier (issue 14 item 6). FTS5 computes bm25 for every match of a query
 * before it can order them, so a query of very common words would score almost the whole index.
 * A term is very common when it matches more than half of the nodes AND more than MATCH_TIER of
 * them: FTS5's bm25 gives such a term an idf of 1e-6 (`log((N - n + 0.5) / (n + 0.5))` is <= 0),
 * so leaving it out of the candidate queries does not change the bm25 order of the other terms'
 * matches (it still counts in every candidate's name, heading and all-terms scores). When every
 * term is very common, only the first MATCH_TIER matches in index order are ranked.
 */
export const MATCH_TIER = 5000;

/**
 * The candidate rows of {@link rankNodes}: the best `window + 1` by bm25 over all columns and over
 * the name columns, from the candidate tier. The tier depends only on the query, the filters and
 * the index (never on a result limit), so the prefix property holds: very common terms (see
 * {@link MATCH_TIER}) are dropped from the candidate queries while other terms remain; a query of
 * only very common terms ranks its first `tier` matches in index order. `pruned` says whether
 * anything was left out.
 */
function candidateTier(reader: IndexReader, terms: readonly QueryTerm[], df: ReadonlyMap<string, number>, nodeCount: number, filters: NodeFilters, window: number, tier: number): { text: FtsCandidate[]; names: FtsCandidate[]; pruned: boolean; fts: string } {
  const rare = terms.filter((t) => df.get(t.word)! <= Math.max(tier, nodeCount / 2));
  const used = rare.length > 0 ? rare : terms;
  // A compound's subword phrase ("on request") only in the name columns: in prose it is noise.
  const any = [...new Set(used.flatMap((t) => termPhrases(t, false)))].join(' OR ');
  const anyNames = `{id title terms} : (${[...new Set(used.flatMap((t) => termPhrases(t)))].join(' OR ')})`;
  if (rare.length > 0) {
    return { text: reader.ftsCandidates(any, filters, window + 1), names: reader.ftsCandidates(anyNames, filters, window + 1), pruned: rare.length < terms.length, fts: any };
  }
  const bound = (fts: string): number | null => reader.ftsNthMatchRowid(fts, filters, tier);
  return { text: reader.ftsCandidates(any, filters, window + 1, bound(any)), names: reader.ftsCandidates(anyNames, filters, window + 1, bound(anyNames)), pruned: true, fts: any };
}

/**
 * Ranks the nodes matching `query` (see the module comment for the formula). Reads at most
 * `2 * window` candidate rows from the candidate tier ({@link MATCH_TIER}: FTS5 ranks at most that
 * many matches per searched term), one document-frequency probe per term and one match probe over
 * the candidates; independent of any result limit. `tier` overrides {@link MATCH_TIER} (benchmarks
 * compare against `Infinity`, which ranks every match).
 */
export function rankNodes(reader: IndexReader, query: string, filters: NodeFilters = {}, window = CANDIDATE_WINDOW, tier = MATCH_TIER): RankedResult {
  const analysed = analyseQuery(query);
  if (analysed.terms.length === 0) return { ranked: [], windowed: false, fts: '', terms: analysed };
  // A compound's subword phrase ("on request") only in the name columns: in prose it is noise.
  const nodeCount = Math.max(1, reader.count('nodes'));
  const df = new Map<string, number>();
  for (const t of analysed.terms) if (!df.has(t.word)) df.set(t.word, reader.ftsDocumentCount(termPhrases(t).join(' OR '), nodeCount));
  const { text, names, pruned, fts: any } = candidateTier(reader, analysed.terms, df, nodeCount, filters, window, tier);
  const windowed = pruned || text.length > window || names.length > window;
  const candidates = new Map<number, FtsCandidate>();
  for (const row of [...text.slice(0, window), ...names.slice(0, window)]) if (!candidates.has(row.rowid)) candidates.set(row.rowid, row);
  if (candidates.size === 0) return { ranked: [], windowed, fts: any, terms: analysed };
  // bm25 of the name-only query is on another scale: use the full-text rank where known, else the worst seen.
  const textRank = new Map(text.slice(0, window).map((r) => [r.rowid, r.bm25]));
  const bestBm25 = Math.min(...[...textRank.values()], 0);
  const worst = Math.max(...[...textRank.values()], 0);
  const idf = new Map<string, number>();
  for (const [word, count] of df) idf.set(word, Math.log(1 + (nodeCount - count + 0.5) / (count + 0.5)));
  const groupsFts = new Map<number, string[]>();
  for (const t of analysed.terms) groupsFts.set(t.group, [...(groupsFts.get(t.group) ?? []), ...termPhrases(t)]);
  const allFts = [...groupsFts.values()].map((g) => `(${g.join(' OR ')})`).join(' AND ');
  const allRows = new Set(reader.ftsMatchingRowids(allFts, [...candidates.keys()]));
  const codeIntent = hasCodeIntent(query);
  // Kind words of a "where is X" question ("… the ledger store interface"): the node kinds they name.
  const hintedKinds = new Set(codeIntent ? analysed.terms.filter((t) => t.weight === 1 && Object.hasOwn(KIND_WORDS, t.word)).flatMap((t) => KIND_WORDS[t.word]!) : []);
  const kindWords = (kind: string): string[] => Object.keys(KIND_WORDS).filter((w) => KIND_WORDS[w]!.includes(kind) && analysed.terms.some((t) => t.word === w));
  const ranked: RankedNode[] = [];
  for (const row of candidates.values()) {
    const isCode = row.id.startsWith('code:');
    const leaf = leafWords(row.id, row.title);
    const kindNamed = codeIntent && isCode ? [...kindWords(row.kind), ...creatorWords(analysed, row, leaf)] : [];
    // The node's own name counts fully; words only of its qualifier (class, path) count at QUALIFIER_WEIGHT.
    const own = recall(analysed.terms, idf, analysed.groups, [...leaf, ...kindNamed]);
    const name = recall(analysed.terms, idf, analysed.groups, [...nameWords(row.id, row.title), ...kindNamed]);
    const nameScore = Math.max(own.r, QUALIFIER_WEIGHT * name.r) * (0.5 + 0.5 * name.covered);
    let heading = 0;
    let section: RankedNode['section'] = null;
    for (const [i, a] of row.anchors.entries()) {
      if (i === 0 && (a.line === row.start_line || a.title === row.title)) continue;
      const h = recall(analysed.terms, idf, analysed.groups, identifierWords(a.title));
      const s = h.r * (0.5 + 0.5 * h.covered);
      if (s > heading) {
        heading = s;
        section = a;
      }
    }
    const bm25 = textRank.get(row.rowid) ?? worst;
    const textScore = bestBm25 < 0 ? Math.max(0, bm25 / bestBm25) : 0;
    const titleAll = identifierWords(row.title);
    const titleForms = [titleAll, titleAll.filter((w) => !STOP_WORDS.has(w)), ...kindNamed.map((k) => [...titleAll, k]), ...kindNamed.map((k) => [k, ...titleAll])];
    const exactTitle = titleForms.some((f) => f.join(' ') === analysed.wanted) ? 1 : 0;
    const inTests = TEST_PATH.test(row.source_path);
    const implementation = codeIntent && isCode && !DECLARATION_FILE.test(row.source_path) && !inTests;
    const raw = RANK_WEIGHTS.name * nameScore + RANK_WEIGHTS.heading * heading + RANK_WEIGHTS.text * textScore + RANK_WEIGHTS.exactTitle * exactTitle + (allRows.has(row.rowid) || own.r >= 1 ? RANK_WEIGHTS.allTerms : 0)
      + (implementation ? RANK_WEIGHTS.codeIntent + RANK_WEIGHTS.definition * definitionPrior(row, hintedKinds) : 0)
      + (!implementation && isCode && CALLABLE_KINDS.has(row.kind) && row.end_line > row.start_line ? RANK_WEIGHTS.body : 0);
    const score = raw * (inTests ? TEST_FACTOR : 1) * (codeIntent && !isCode ? DOC_FACTOR : 1);
    ranked.push({ row, score: Math.round(score * 1e6) / 1e6, allTerms: allRows.has(row.rowid), section });
  }
  ranked.sort((a, b) => b.score - a.score || (a.row.id < b.row.id ? -1 : a.row.id > b.row.id ? 1 : 0));
  return { ranked, windowed, fts: any, terms: analysed };
}

/**
 * How well a code node's kind fits a "where is X" question, 0..1: a node of a kind the question
 * names ({@link KIND_WORDS}) fits fully; without a kind word, behaviour is asked for, so a function
 * or method with a body fits fully, a one-line callable (an interface member's signature) half, a
 * class half, and modules and types not at all.
 */
export function definitionPrior(row: Pick<FtsCandidate, 'kind' | 'start_line' | 'end_line'>, hintedKinds: ReadonlySet<string>): number {
  if (hintedKinds.size > 0) return hintedKinds.has(row.kind) ? 1 : 0;
  if (CALLABLE_KINDS.has(row.kind)) return row.end_line > row.start_line ? 1 : 0.5;
  return row.kind === 'class' ? 0.5 : 0;
}

/**
 * The section heading of `anchors` that best matches `query` (query words found in the heading,
 * equal weights), skipping the node's own title heading (at `startLine` or equal to `title`); null
 * when none matches.
 */
export function sectionMatching(query: string | AnalysedQuery, anchors: readonly FtsCandidate['anchors'][number][], startLine: number, title = ''): FtsCandidate['anchors'][number] | null {
  const analysed = typeof query === 'string' ? analyseQuery(query) : query;
  let best = 0;
  let section: FtsCandidate['anchors'][number] | null = null;
  for (const [i, a] of anchors.entries()) {
    if (i === 0 && (a.line === startLine || a.title === title)) continue;
    const h = recall(analysed.terms, new Map(), analysed.groups, identifierWords(a.title));
    const s = h.r * (0.5 + 0.5 * h.covered);
    if (s > best) {
      best = s;
      section = a;
    }
  }
  return section;
}
