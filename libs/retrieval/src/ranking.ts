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
 *   score = NAME * name + HEADING * heading + TEXT * text * (1 - TEXT_HELD_SHARE + TEXT_HELD_SHARE * held) + EXACT_TITLE * [title, or a code node's qualified name, equals the query]
 *           + PHRASE * [one of the node's code lines holds the query (4 words or more) word for word: ranking-phrase.ts]
 *             (a query of 2 or 3 words: LITERAL * [a string literal of one of its code lines says the query as its whole leading clause], above an exception class named after the message)
 *           + ALL_TERMS * [every query word, or an expansion of it, occurs in the node, or its own name (with kind words) covers every query word]
 *           + COVERAGE * held   [held: the idf-weighted share of the query's words the node holds in its own text or its code text (ranking-coverage.ts), or its own name's recall when larger (with kind and creation words)]
 *           + [a "where is X" question and a code node outside `.d.ts` files and test sources] * (CODE_INTENT + DEFINITION * definitionPrior)
 *           + BODY * [otherwise: a function or method with a body, so an implementation leads its one-line declaration]
 *           - DEFINITION * (1 - definitionPrior) [a code node, for a question about behaviour ({@link BEHAVIOUR_QUESTION}: "how is …", "why does …", "what happens …", "when …") that is not a "where is X" one]
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
 * bm25 relative to the best candidate's (0..1), or {@link CODE_TEXT_FACTOR} times its code text's bm25 relative to the best
 * code match (`code_fts`, a third candidate window, issue 31 item 1) when that is larger, times
 * {@link shortNodeFactor} (a code node of fewer than {@link SHORT_NODE_LINES} lines scores its text in proportion to its
 * length, unless its own name holds the question); nodes in test sources score {@link TEST_FACTOR} of that, and unless the
 * question asks about tests ({@link TEST_WORDS}) every test-source node then ranks below every other candidate
 * ({@link testsBelowCode}). A code module
 * then scores just below the best of its own declarations among the candidates, unless its own name holds the question
 * ({@link modulesBelowMembers}). Ties are ordered by id. Build copies of one
 * source (dual ESM/CommonJS files, declaration twins, a generated bundle) are then one entry at
 * their best score, the others listed in `copies` ({@link collapseCopies}). Because the candidate set
 * and every score are independent of the limit, the results for one limit are always the first
 * entries of the results for any larger limit (the prefix property).
 */
import { ftsExpression, type FtsCandidate, type FtsMatch, type IndexReader, type NodeFilters } from '@docforge/store';
import type { RankedNode } from './ranked-node.js';
import { modulesBelowMembers } from './ranking-containers.js';
export type { RankedNode } from './ranked-node.js';
import { analyseQuery, termPhrases, wordStem, STOP_WORDS, type AnalysedQuery } from './query.js';
import { candidateTier, documentFrequencies, MATCH_TIER } from './ranking-candidates.js';
import { nameForm, recall, recallQuery, wordsOf, type RecallQuery } from './ranking-match.js';
import { queryCoverage } from './ranking-coverage.js';
import { phraseRows, queryPhrase } from './ranking-phrase.js';
import { collapseCopies } from './ranking-copies.js';
import { canonicalCopyPaths } from '@docforge/core';

export { ABBREVIATIONS, analyseQuery, EXPANSION_WEIGHT, MAX_QUERY_PHRASES, QUESTION_WORDS, STOP_WORDS, wordStem } from './query.js';
export type { AnalysedQuery, DroppedTerm, QueryTerm } from './query.js';
export { MATCH_TIER } from './ranking-candidates.js';

/** Candidates read per FTS5 query (fixed: never derived from the caller's limit). */
export const CANDIDATE_WINDOW = 200;
/** Test sources by path (`test/`, `__tests__/`, `*.test.*`, `*.spec.*`, `*.tst.*`), beside nodes an adapter marks `test`: ranked below the code and docs they exercise. */
const TEST_PATH = /(^|\/)(tests?|__tests__)\/|\.(test|spec|tst)\.[a-z]+$/i;
/** Stems of query words that ask about tests ("how is the code tested", "my test suite", "unit tests", "spec files"). */
const TEST_WORDS: ReadonlySet<string> = new Set(['test', 'spec']);

/** Whether a candidate is test code: an adapter's `test` mark or a test path ({@link TEST_PATH}). */
function isTestSource(row: Pick<FtsCandidate, 'test' | 'source_path'>): boolean {
  return row.test || TEST_PATH.test(row.source_path);
}

/**
 * `ranked` with every test-source node below every other candidate, their order kept: a question
 * that does not ask about tests ({@link TEST_WORDS}) asks for the code or the documentation, and a
 * test names the behaviour it checks without holding it. Test scores are scaled by one factor
 * (the lowest other score over the best test score, just below it), so they keep their own order.
 */
function testsBelowCode(ranked: readonly RankedNode[]): RankedNode[] {
  let lowest = Infinity;
  let best = 0;
  for (const r of ranked) {
    if (isTestSource(r.row)) best = Math.max(best, r.score);
    else lowest = Math.min(lowest, r.score);
  }
  if (best <= 0 || lowest === Infinity || best < lowest) return [...ranked];
  const factor = Math.max(0, lowest - 1e-6) / best;
  return ranked.map((r) => (isTestSource(r.row) ? { ...r, score: Math.round(r.score * factor * 1e6) / 1e6 } : r));
}

/** Score factor of a node in a test source ({@link TEST_PATH}). */
export const TEST_FACTOR = 0.8;
/** Score factor of a documentation node for a "where is X" question ({@link hasCodeIntent}): the code is asked for. */
export const DOC_FACTOR = 0.7;
/**
 * Weight of a node's code text match (`code_fts`, issue 31 item 1) in its `text` score, relative to
 * a match in its own text: code text ranks below names and doc comments, above nothing.
 */
export const CODE_TEXT_FACTOR = 0.5;
/**
 * Share of a node's `text` score that depends on how much of the question it holds (`held`, see
 * {@link RANK_WEIGHTS}.coverage): bm25 normalises by length, so a tiny node (a getter, an exception
 * class, a one-line stub) that says one or two of the question's words gets the best text score of
 * all; scaled by the share of the question it holds, a strong text match counts fully only on a node
 * that answers most of the question.
 */
export const TEXT_HELD_SHARE = 0.5;
/**
 * Code nodes shorter than this many source lines score their `text` match in proportion to their
 * length, unless their own name holds the question ({@link shortNodeFactor}). bm25 normalises by
 * length, so a one- or two-line getter, stub or signature that says one or two of a question's words
 * gets the best text score of all, above the function whose body holds the question; a node that
 * short answers a question by its name, not by its text.
 */
export const SHORT_NODE_LINES = 5;

/**
 * The factor (0..1] of a candidate's `text` score by its length: for a code node (id `code:…`) of
 * fewer than {@link SHORT_NODE_LINES} lines (`end_line - start_line + 1`), `f + (1 - f) * ownRecall`
 * with `f = lines / SHORT_NODE_LINES`, where `ownRecall` (0..1) is the idf-weighted share of the
 * question's words its own name holds: a short node named after the question keeps its text score
 * whole, one whose name holds none of it keeps `f`. Documentation nodes and longer code give 1.
 */
export function shortNodeFactor(row: Pick<FtsCandidate, 'id' | 'start_line' | 'end_line'>, ownRecall: number): number {
  const lines = row.end_line - row.start_line + 1;
  if (!row.id.startsWith('code:') || lines < 1 || lines >= SHORT_NODE_LINES) return 1;
  const f = lines / SHORT_NODE_LINES;
  return f + (1 - f) * Math.min(1, Math.max(0, ownRecall));
}

/** Score weights of {@link rankNodes}. */
export const RANK_WEIGHTS = Object.freeze({ name: 1, heading: 0.35, text: 0.6, exactTitle: 1, phrase: 1, literal: 2, allTerms: 0.25, coverage: 0.8, codeIntent: 0.5, definition: 0.3, body: 0.02 });

/**
 * A usage question: "how do/can/should I (we, you) …", "how to …", "can I …". It asks how to use the
 * project, which its documentation answers; a word such as "defined" in it describes what is used
 * ("how do I run a script defined in package.json"), it does not ask where code is.
 */
const USAGE_QUESTION = /^\s*(how\s+(do|can|should)\s+(i|we|you)|how\s+to|can\s+(i|we|you))\b/i;

/**
 * A question about behaviour ("how is a caret range expanded", "why does X sort below Y", "what
 * happens when …", "when is …"), except a usage question ({@link USAGE_QUESTION}): what it asks is
 * done by code with a body or told by documentation, so a code node scores
 * {@link RANK_WEIGHTS}.definition times what its kind lacks of a callable with a body
 * ({@link definitionPrior}): a class half, a module, a type or a declaration not at all. Documentation and
 * functions with a body keep their score, so it reorders code among itself and never lifts code above a page.
 */
const BEHAVIOUR_QUESTION = /^\s*(how|why|what\s+happens|when)\b/i;

/**
 * A question about where something is implemented ("where is the request id generated", "where
 * are hooks run", "… implemented/defined/declared", except in a usage question ({@link USAGE_QUESTION})):
 * code nodes (ids `code:…`, not `.d.ts` declarations) get {@link RANK_WEIGHTS}.codeIntent.
 */
export function hasCodeIntent(query: string): boolean {
  return /^\s*where\b/i.test(query) || (!USAGE_QUESTION.test(query) && /\b(implemented|implementation|defined|declared)\b/i.test(query));
}
const DECLARATION_FILE = /\.d\.[cm]?ts$/;
/** A query word that is a number of one or two digits (never code text: libs/core code-text.ts). */
const SHORT_NUMBER = /^\p{N}{1,2}$/u;

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

/** The name words of a node: its title's subwords plus its id's last segment (qualified name or file name), in order, first occurrences. */
export function nameWords(id: string, title: string): string[] {
  const hash = id.indexOf('#');
  const tail = hash >= 0 ? id.slice(hash + 1) : (id.split('/').pop() ?? id).replace(/\.[a-z0-9]+$/i, '');
  const words = [...wordsOf(title), ...wordsOf(tail.replace(/^code:/, ''))];
  return [...new Set(words)];
}

/** Weight of a match found only in a node's qualifier (its class or path), relative to its own name. */
export const QUALIFIER_WEIGHT = 0.6;

/** The words of a node's own name: a code declaration's leaf name, a module's file name, else its title. */
function leafWords(id: string, title: string): readonly string[] {
  if (!id.startsWith('code:')) return wordsOf(title);
  const hash = id.indexOf('#');
  if (hash >= 0) return wordsOf(id.slice(hash + 1).split('.').pop()!.replace(/~\d+$/, ''));
  return wordsOf((id.split('/').pop() ?? id).replace(/\.[a-z0-9]+$/i, ''));
}

/** The query-independent words of a candidate node, computed once per distinct id and title. */
interface NodeWords {
  leaf: readonly string[];
  name: readonly string[];
  /** The title's subwords joined by one space, with and without stop words. */
  title: string;
  titleContent: string;
  /** A code declaration's qualified name (`Reply.serialize`) as words joined by one space, else ''. */
  qualified: string;
}

const nodeWordsMemo = new Map<string, NodeWords>();
const NODE_WORDS_CAP = 20_000;

function nodeWordsOf(id: string, title: string): NodeWords {
  const key = `${id}\u0000${title}`;
  let words = nodeWordsMemo.get(key);
  if (words === undefined) {
    const titleAll = wordsOf(title);
    const hash = id.startsWith('code:') ? id.indexOf('#') : -1;
    words = {
      leaf: leafWords(id, title), name: nameWords(id, title), title: titleAll.join(' '), titleContent: titleAll.filter((w) => !STOP_WORDS.has(w)).join(' '),
      qualified: hash >= 0 ? wordsOf(id.slice(hash + 1).replace(/~\d+$/, '')).join(' ') : '',
    };
    if (nodeWordsMemo.size >= NODE_WORDS_CAP) nodeWordsMemo.clear();
    nodeWordsMemo.set(key, words);
  }
  return words;
}


/** Result of {@link rankNodes}. */
export interface RankedResult {
  ranked: RankedNode[];
  /** Whether a candidate query had more matches than {@link CANDIDATE_WINDOW} (or the given window), or the candidate tier left matches out ({@link MATCH_TIER}). */
  windowed: boolean;
  /** The FTS5 query of the full-text candidates, as the store built it from {@link match} (for transparency). */
  fts: string;
  /** The full-text candidates' match (null: no term to search), for their excerpts. */
  match: FtsMatch | null;
  terms: AnalysedQuery;
}

/**
 * Ranks the nodes matching `query` (see the module comment for the formula), independent of any
 * result limit. Statements: the full-text candidates (`window + 1` rows, ranked by FTS5's bm25 over
 * the candidate tier, {@link MATCH_TIER}), the name candidates (first read unranked, at most
 * `window + 1` rows, ranked only when they are more than `window`; the unranked read is skipped on
 * a reader where it already found more; under a tier bound, the first `window + 1` name matches of
 * the tier, unranked), and one all-terms check of
 * the candidates (one rowid range scan); per reader, once: the node count and one document-frequency
 * count per distinct term phrase, and the tier's bound for a query of only very common terms
 * (ranking-candidates.ts). `tier` overrides {@link MATCH_TIER} (benchmarks compare against
 * `Infinity`, which ranks every match).
 */
export function rankNodes(reader: IndexReader, query: string, filters: NodeFilters = {}, window = CANDIDATE_WINDOW, tier = MATCH_TIER): RankedResult {
  const analysed = analyseQuery(query);
  if (analysed.terms.length === 0) return { ranked: [], windowed: false, fts: '', match: null, terms: analysed };
  const { nodeCount, df } = documentFrequencies(reader, analysed.terms);
  const { text, names, pruned, match } = candidateTier(reader, analysed.terms, df, nodeCount, filters, window, tier);
  const fts = ftsExpression(match);
  // Code text has its own index and bm25 scale (issue 31 item 1): its best `window` are candidates too.
  const code = reader.ftsCodeCandidates(match, filters, window + 1, tier);
  const windowed = pruned || text.length > window || names.length > window || code.length > window;
  const candidates = new Map<number, FtsCandidate>();
  for (const row of [...text.slice(0, window), ...names.slice(0, window), ...code.slice(0, window)]) if (!candidates.has(row.rowid)) candidates.set(row.rowid, row);
  if (candidates.size === 0) return { ranked: [], windowed, fts, match, terms: analysed };
  // bm25 of the name-only query is on another scale: use the full-text rank where known, else the worst seen.
  const textRank = new Map(text.slice(0, window).map((r) => [r.rowid, r.bm25]));
  const bestBm25 = Math.min(...[...textRank.values()], 0);
  const worst = Math.max(...[...textRank.values()], 0);
  const codeScore = relativeScores(code.slice(0, window));
  const weighted = recallQuery(analysed.terms, idfOf(analysed, nodeCount, df), analysed.groups);
  const groups = new Map<number, string[]>();
  for (const t of analysed.terms) groups.set(t.group, [...(groups.get(t.group) ?? []), ...termPhrases(t)]);
  const all: FtsMatch = { mode: 'all', groups: [...groups.values()] };
  // Every query word in the node's own text, or every one in its code text.
  const codeAll = codeScore.size === 0 ? [] : reader.ftsMatchingRowids(all, [...codeScore.keys()], true);
  const allRows = new Set([...reader.ftsMatchingRowids(all, [...candidates.keys()]), ...codeAll]);
  // The idf-weighted share of the query's words each node holds in its own or its code text (ranking-coverage.ts).
  const coverage = queryCoverage(reader, groups, weighted.weightOf, weighted.total, [...candidates.keys()]);
  // The query word for word in one of a node's code lines (ranking-phrase.ts).
  const phrase = queryPhrase(query);
  // Every code candidate, best first: a pasted message may hold words code text leaves out (keywords such as `import`, `while`).
  const verbatim = phrase === null ? new Set<number>() : phraseRows(reader, phrase, [...codeScore.keys()].sort((a, b) => codeScore.get(b)! - codeScore.get(a)! || a - b));
  const codeIntent = hasCodeIntent(query);
  const behaviour = !codeIntent && !USAGE_QUESTION.test(query) && BEHAVIOUR_QUESTION.test(query);
  // Kind words of a "where is X" question ("… the ledger store interface"): the node kinds they name.
  const hintedKinds = new Set(codeIntent ? analysed.terms.filter((t) => t.weight === 1 && Object.hasOwn(KIND_WORDS, t.word)).flatMap((t) => KIND_WORDS[t.word]!) : []);
  const kindWords = (kind: string): string[] => Object.keys(KIND_WORDS).filter((w) => KIND_WORDS[w]!.includes(kind) && analysed.terms.some((t) => t.word === w));
  const ranked: RankedNode[] = [];
  // Code modules whose own name holds the whole question keep their score (ranking-containers.ts).
  const namedModules = new Set<string>();
  for (const row of candidates.values()) {
    const isCode = row.id.startsWith('code:');
    const words = nodeWordsOf(row.id, row.title);
    const kindNamed = codeIntent && isCode ? [...kindWords(row.kind), ...creatorWords(analysed, row, words.leaf)] : [];
    // The node's own name counts fully; words only of its qualifier (class, path) count at QUALIFIER_WEIGHT.
    const own = recall(weighted, nameForm(kindNamed.length === 0 ? words.leaf : [...words.leaf, ...kindNamed]));
    const name = recall(weighted, nameForm(kindNamed.length === 0 ? words.name : [...words.name, ...kindNamed]));
    const nameScore = Math.max(own.r, QUALIFIER_WEIGHT * name.r) * (0.5 + 0.5 * name.covered);
    const { heading, section } = bestHeading(weighted, row.anchors, row.start_line, row.title);
    const bm25 = textRank.get(row.rowid) ?? worst;
    const textScore = shortNodeFactor(row, own.r) * Math.max(bestBm25 < 0 ? Math.max(0, bm25 / bestBm25) : 0, CODE_TEXT_FACTOR * (codeScore.get(row.rowid) ?? 0));
    // The title, or a code node's qualified name ("Reply.serialize" names the method `serialize` of `Reply`).
    const titleForms = [words.title, words.titleContent, words.qualified, ...kindNamed.map((k) => (words.title === '' ? k : `${words.title} ${k}`)), ...kindNamed.map((k) => (words.title === '' ? k : `${k} ${words.title}`))];
    const exactTitle = titleForms.includes(analysed.wanted) ? 1 : 0;
    // A test source by its path, or by its language's own convention as the adapter marks it (Go's `_test.go`, Python's `test_*.py`).
    const inTests = row.test || TEST_PATH.test(row.source_path);
    const implementation = codeIntent && isCode && !DECLARATION_FILE.test(row.source_path) && !inTests;
    // The share of the question the node holds (ranking-coverage.ts), or its own name's recall when larger.
    const held = Math.max(coverage.get(row.rowid) ?? 0, own.r);
    const raw = RANK_WEIGHTS.name * nameScore + RANK_WEIGHTS.heading * heading + RANK_WEIGHTS.text * textScore * (1 - TEXT_HELD_SHARE + TEXT_HELD_SHARE * held) + RANK_WEIGHTS.exactTitle * exactTitle + (verbatim.has(row.rowid) ? (phrase!.literalOnly ? RANK_WEIGHTS.literal : RANK_WEIGHTS.phrase) : 0) + (allRows.has(row.rowid) || own.r >= 1 ? RANK_WEIGHTS.allTerms : 0)
      + RANK_WEIGHTS.coverage * held
      + (implementation ? RANK_WEIGHTS.codeIntent + RANK_WEIGHTS.definition * definitionPrior(row, hintedKinds) : 0)
      - (behaviour && isCode ? RANK_WEIGHTS.definition * (1 - definitionPrior(row, hintedKinds)) : 0)
      + (!implementation && isCode && CALLABLE_KINDS.has(row.kind) && row.end_line > row.start_line ? RANK_WEIGHTS.body : 0);
    const score = Math.max(0, raw) * (inTests ? TEST_FACTOR : 1) * (codeIntent && !isCode ? DOC_FACTOR : 1);
    if (own.r >= 1) namedModules.add(row.id);
    ranked.push({ row, score: Math.round(score * 1e6) / 1e6, allTerms: allRows.has(row.rowid), section });
  }
  // Build copies of one source (`x.js`, `x.cjs`, `x.d.ts`, a `cdn.js` bundle) are one entry (ranking-copies.ts),
  // after each code module is put below its own best declaration (ranking-containers.ts).
  const asksTests = analysed.terms.some((t) => t.weight === 1 && TEST_WORDS.has(t.stem));
  // Byte-identical code files (lru-cache's `dist/commonjs/{,browser/,node/}index.js`) are one file to the collapse.
  const codePaths = [...new Set(ranked.filter((r) => r.row.id.startsWith('code:')).map((r) => r.row.source_path))];
  const canonical = canonicalCopyPaths(reader.codeSourceCopies(codePaths));
  return { ranked: collapseCopies(modulesBelowMembers(asksTests ? ranked : testsBelowCode(ranked), namedModules), (path) => canonical.get(path)), windowed, fts, match, terms: analysed };
}

/** Each row's bm25 relative to the best of them (0..1, the best 1); empty when none has a negative bm25. */
function relativeScores(rows: readonly { rowid: number; bm25: number }[]): Map<number, number> {
  const best = Math.min(0, ...rows.map((r) => r.bm25));
  return best < 0 ? new Map(rows.map((r) => [r.rowid, Math.max(0, r.bm25 / best)])) : new Map();
}

/**
 * The section heading of `anchors` whose words cover the query best (recall times the covered
 * share of its words), skipping the node's own title heading (the first anchor, when it is at
 * `startLine` or equal to `title`); the first of equal ones; heading 0 and null when none matches.
 */
function bestHeading(weighted: ReturnType<typeof recallQuery>, anchors: readonly FtsCandidate['anchors'][number][], startLine: number, title: string): { heading: number; section: FtsCandidate['anchors'][number] | null } {
  let heading = 0;
  let section: FtsCandidate['anchors'][number] | null = null;
  for (const [i, a] of anchors.entries()) {
    if (i === 0 && (a.line === startLine || a.title === title)) continue;
    const h = recall(weighted, nameForm(wordsOf(a.title)));
    const s = h.r * (0.5 + 0.5 * h.covered);
    if (s > heading) {
      heading = s;
      section = a;
    }
  }
  return { heading, section };
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
 * Each query word's idf over the index (`nodeCount` nodes, `df` matching documents per word). A number
 * of one or two digits ("1.2 - 3.4", "beta.1") is never a word of code text (libs/core code-text.ts
 * keeps numbers of 3 digits or more), so no code node can hold it: it weighs nothing in the name and
 * coverage shares, unless the query has nothing else. It still selects candidates.
 */
function idfOf(analysed: AnalysedQuery, nodeCount: number, df: ReadonlyMap<string, number>): Map<string, number> {
  const idf = new Map<string, number>();
  for (const [word, count] of df) idf.set(word, Math.log(1 + (nodeCount - count + 0.5) / (count + 0.5)));
  if (analysed.terms.some((t) => t.weight === 1 && !SHORT_NUMBER.test(t.word))) {
    for (const t of analysed.terms) if (t.weight === 1 && SHORT_NUMBER.test(t.word)) idf.set(t.word, 0);
  }
  return idf;
}

/**
 * The words of `query` weighted as search weighs them (idf over `reader`'s index), for
 * {@link sectionMatching}: one analysis and one set of document counts per query, reused for every
 * node whose section is picked. The document counts are cached per reader (ranking-candidates.ts).
 */
export function sectionQuery(reader: IndexReader, query: string | AnalysedQuery): RecallQuery {
  const analysed = typeof query === 'string' ? analyseQuery(query) : query;
  const { nodeCount, df } = documentFrequencies(reader, analysed.terms);
  return recallQuery(analysed.terms, idfOf(analysed, nodeCount, df), analysed.groups);
}

/**
 * The section heading of `anchors` that best matches the query (issue 30: the one rule of search's
 * hit `section`): the heading whose words cover the idf-weighted query best ({@link sectionQuery}),
 * skipping the node's own title heading (at `startLine` or equal to `title`); null when none matches.
 */
export function sectionMatching(query: RecallQuery, anchors: readonly FtsCandidate['anchors'][number][], startLine: number, title = ''): FtsCandidate['anchors'][number] | null {
  return bestHeading(query, anchors, startLine, title).section;
}
