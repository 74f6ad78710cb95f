/**
 * The version-1 retrieval plan of `docforge_get_task_context`: closed task kinds, fixed ceilings,
 * category preferences by task kind (table in task-context.ts), task terms and the pure plan
 * derivation. A plan names alias categories only; it cannot carry SQL, paths, relation names or Logic.
 */
import { errors, domainHash } from '@docforge/core';
import { MAX_CONTEXT_BUDGET } from './packing.js';
import { analyseQuery, CANDIDATE_WINDOW, MAX_QUERY_PHRASES } from './ranking.js';
import type { TraversalDirection } from './traversal.js';
import type { RelationVocabulary } from './task-vocabulary.js';

/** Most hops of a `change` task's affected walk (method, class, doc, requirement, test: `docforge affected`'s default depth). */
export const TASK_AFFECTED_DEPTH = 4;

/** The closed task kinds, in contract order. */
export const TASK_KINDS = Object.freeze(['change', 'implementation', 'failure', 'ownership', 'test', 'operation', 'release'] as const);
/** One task kind. */
export type TaskKind = (typeof TASK_KINDS)[number];

/** Fixed internal ceilings; they apply even when broader project limits are configured. */
export interface TaskContextCeilings {
  max_evidence_items: number;
  max_examined_edges: number;
  max_query_chars: number;
}

/** The contract's fixed ceilings: 1,000 evidence items, 100,000 examined edges, 10,000 query characters. */
export const TASK_CONTEXT_CEILINGS: Readonly<TaskContextCeilings> = Object.freeze({
  max_evidence_items: 1000,
  max_examined_edges: 100_000,
  max_query_chars: 10_000,
});

/** Default token budget of `docforge_get_task_context`. */
export const DEFAULT_TASK_BUDGET = 8000;
/**
 * Most focus nodes a lexical focus selects (issue 31): the first {@link EXPANDED_FOCUS} ranked
 * hits, whose neighbourhood is traversed, and up to two close hits after them
 * ({@link CLOSE_FOCUS_RATIO}), which are evidence at depth 0 only.
 */
export const MAX_LEXICAL_FOCUS = 5;
/**
 * Focus nodes whose neighbourhood the traversal reads (the exact focus, or a lexical focus's
 * first three). A close hit after them joins the focus without its neighbours, so a page does not
 * grow with its siblings (issue 31 item 4).
 */
export const EXPANDED_FOCUS = 3;
/**
 * A search hit ranked after the {@link EXPANDED_FOCUS} first joins a lexical focus when its search
 * score is at least this share of the third focus node's: the ranking does not separate it from
 * the third hit (the scores near the top are flat, measured on the evaluation sets, issue 31), so
 * cutting the focus between them is arbitrary; a clear gap keeps it out.
 */
export const CLOSE_FOCUS_RATIO = 0.9;
/**
 * Most full-text candidates the lexical focus examines. Terms are probed for their document
 * frequency (capped at the window); the rarest terms whose frequencies add up to at most the window
 * are ranked exactly by bm25 over the whole index. When even the rarest term occurs in more nodes
 * than the window, bm25 would have to scan every term's complete posting list for its idf, so the
 * intersection of all terms (or, when empty, their union) is read up to the window in index order
 * and ranked by how many task terms each title contains; if more candidates existed the capsule
 * reports `incomplete_proof` (`work_limit`, stage `focus`).
 */
export const LEXICAL_CANDIDATE_WINDOW = 1000;
/** Most whitespace-separated chunks of the task checked as verbatim node ids. */
export const MAX_ID_MENTION_CHUNKS = 64;
/** Most lexical terms taken from the task text (the search ranking's bound). */
export const MAX_QUERY_TERMS = MAX_QUERY_PHRASES;
/** Most relationship reasons listed per evidence item (the rest are counted). */
export const MAX_RELATIONSHIP_REASONS = 16;
/** Traversal depth of the version-1 plan. */
export const TASK_MAX_DEPTH = 2;

/** The unprovable provenance facts an evidence item may carry (see the module comment). */
export const UNPROVABLE_FACTS = Object.freeze([
  'relation_declared_outside_node_source',
  'relation_line_unknown',
  'no_recognized_anchor',
  'source_outside_declared_roots',
  'source_file_not_indexed',
  'node_not_indexed',
] as const);

/** Category preferences of one task kind. */
export interface TaskKindPreference {
  /** Required categories: ranked first and followed to depth 2. */
  readonly primary: readonly string[];
  /** The other alias categories, in rank order (followed at depth 1 only). */
  readonly secondary: readonly string[];
  /**
   * Whether the kind keeps to what governs and wires the focus (issue 31 item 4; task-wiring.ts):
   * the lexical focus keeps a slot for the best documentation hit, incoming `evidence`,
   * `execution` and `dependency` edges of the focus's containment chain (the documents that
   * govern it, its callers and importers) rank first within their depth and category group, and a
   * node reached at depth 2 only through structure edges off that chain (a module's other members,
   * a neighbour's members) enters only when the task's own words match it ({@link TASK_MATCH_RANK}).
   */
  readonly wiringFirst: boolean;
}

/**
 * The search hits of the task text that count as "matched by the task" (issue 31 item 4): the
 * first five, the ones a reader takes as answers (the evaluation's recall@5). A lexical focus
 * takes the first three and the close ones after them ({@link CLOSE_FOCUS_RATIO}); the others may still enter as matched
 * structure neighbours, and the lexical focus of a `wiringFirst` kind takes its documentation slot from them.
 */
export const TASK_MATCH_RANK = 5;

/** Category preferences by task kind (the table in the module comment). */
export const TASK_KIND_PREFERENCES: Readonly<Record<TaskKind, TaskKindPreference>> = Object.freeze({
  change: { primary: ['structure', 'dependency', 'implementation'], secondary: ['evidence', 'execution', 'data', 'context'], wiringFirst: true },
  // Implementation and ownership ask about a module's members themselves: structure stays open there.
  implementation: { primary: ['implementation', 'structure'], secondary: ['dependency', 'execution', 'data', 'evidence', 'context'], wiringFirst: false },
  failure: { primary: ['execution', 'dependency'], secondary: ['data', 'implementation', 'evidence', 'structure', 'context'], wiringFirst: false },
  ownership: { primary: ['structure'], secondary: ['implementation', 'evidence', 'context', 'dependency', 'execution', 'data'], wiringFirst: false },
  test: { primary: ['evidence'], secondary: ['implementation', 'execution', 'structure', 'dependency', 'data', 'context'], wiringFirst: false },
  operation: { primary: ['execution', 'data'], secondary: ['dependency', 'evidence', 'context', 'structure', 'implementation'], wiringFirst: false },
  release: { primary: ['evidence', 'dependency'], secondary: ['implementation', 'structure', 'context', 'execution', 'data'], wiringFirst: false },
});

/** The task request (tool arguments other than `limit` and `cursor`). */
export interface TaskContextRequest {
  task_kind: TaskKind;
  /** Bounded task description, 1..10,000 characters. */
  task: string;
  focus_node_id?: string | null;
  /** Token budget, 1..200,000 (default {@link DEFAULT_TASK_BUDGET}). */
  budget?: number;
}

/**
 * Lexical terms of a task text: lowercase letter/digit/underscore words of at least three
 * characters, minus a small stop-word list, first {@link MAX_QUERY_TERMS} distinct ones.
 */
export function taskTerms(task: string): string[] {
  return splitTaskTerms(task).terms;
}

/**
 * The words the lexical focus searches, as the shared search ranking analyses the task text
 * ({@link analyseQuery}: stop words and question filler dropped, at most {@link MAX_QUERY_TERMS}
 * distinct words), and the distinct words after those (`dropped`, in task order), which it does not
 * search; the plan reports them. Bounded by the task's character ceiling.
 */
export function splitTaskTerms(task: string): { terms: string[]; dropped: string[] } {
  const analysed = analyseQuery(task);
  const terms = [...new Set(analysed.terms.filter((t) => t.weight === 1 && t.variant !== true).map((t) => t.word))];
  return { terms, dropped: analysed.dropped.filter((d) => d.reason === 'term_limit').map((d) => d.term) };
}

/**
 * Characters of the plan's `dropped_terms` list (its JSON): a 10,000-character task can drop
 * thousands of words, and the plan must fit one page at the floor of `[limits].max_output_chars`.
 */
export const MAX_PLAN_DROPPED_TERM_CHARS = 160;

/** The listed prefix of `dropped` within {@link MAX_PLAN_DROPPED_TERM_CHARS}, with the total when cut. */
function listedDroppedTerms(dropped: string[]): { dropped_terms: string[]; dropped_terms_total?: number } {
  let chars = 2;
  let listed = 0;
  while (listed < dropped.length) {
    chars += JSON.stringify(dropped[listed]).length + 1;
    if (chars > MAX_PLAN_DROPPED_TERM_CHARS) break;
    listed += 1;
  }
  return listed === dropped.length ? { dropped_terms: dropped } : { dropped_terms: dropped.slice(0, listed), dropped_terms_total: dropped.length };
}

/** The version-1 retrieval plan; see {@link deriveTaskPlan}. */
export interface TaskPlan {
  plan_version: 1;
  task_kind: TaskKind;
  /** Effective policy and index generation the plan is bound to. */
  binding: { policy_hash: string; generation: number };
  focus:
    | { mode: 'exact'; node_id: string }
    | {
        mode: 'lexical';
        /** Verbatim node ids named in the task first, then the shared search ranking (ranking.ts). */
        ranking: 'id_mention_then_search_ranking';
        /** Common terms are ranked by the same search ranking (no separate path). */
        common_term_ranking: 'search_ranking';
        query_sha256: string;
        query_terms: number;
        /**
         * Distinct task words after the first MAX_QUERY_TERMS, in task order: not searched. At most
         * {@link MAX_PLAN_DROPPED_TERM_CHARS} characters of them are listed, so the plan fits the
         * smallest `[limits].max_output_chars` (issue 30, item 8); `dropped_terms_total` then counts them all.
         */
        dropped_terms: string[];
        /** Present only when `dropped_terms` lists a prefix: how many distinct words were not searched. */
        dropped_terms_total?: number;
        /** Whitespace-separated chunks after the first MAX_ID_MENTION_CHUNKS: not checked as node ids. */
        unchecked_id_chunks: number;
        candidate_window: number;
        /** Most focus nodes ({@link MAX_LEXICAL_FOCUS}): the expanded first ones and the close hits after them (see the focus step). */
        max_focus_nodes: number;
      };
  steps: (
    | {
        op: 'focus';
        mode: 'exact' | 'lexical';
        /** Lexical only: the first focus nodes whose neighbourhood the traversal reads ({@link EXPANDED_FOCUS}); later focus nodes are depth-0 evidence. */
        expanded_focus_nodes?: number;
        /** Lexical only: a hit after them joins the focus when its score is at least this share of the last expanded one's ({@link CLOSE_FOCUS_RATIO}). */
        close_score_ratio?: number;
      }
    | {
        op: 'traverse';
        depth: number;
        directions: TraversalDirection[];
        from: 'focus' | 'primary_depth_1';
        categories: 'all' | string[];
        vocabulary_hash: string;
        /**
         * `change` only, on the step from the focus: the affected walk from the focus
         * (task-affected.ts, the walk of `docforge affected`) up to this many hops, over incoming
         * `structure`, `implementation` and `evidence` edges and outgoing `evidence` and
         * `implementation` edges toward requirements and tests; what it reaches is evidence of
         * role `affected`. One field, not a step, so the plan still fits a page at the floor of
         * `[limits].max_output_chars` (issue 30 item 8).
         */
        affected_depth?: number;
      }
    | { op: 'hydrate'; fields: 'metadata' }
  )[];
  /** Rank order of categories (all eight). */
  category_order: string[];
  /** Categories the task kind requires. */
  required_categories: string[];
  ceilings: TaskContextCeilings;
  token_budget: number;
}

/**
 * Derives the version-1 plan of a request. Pure: the same request, vocabulary, policy and
 * generation give the same plan.
 * @param ceilings the fixed ceilings (tests may pass lower ones)
 * @param window the lexical candidate window ({@link LEXICAL_CANDIDATE_WINDOW}; tests may pass a lower one)
 * @throws DocforgeError `invalid_arguments` for an unknown task kind, an empty task, a task over
 *   the query ceiling or a budget outside 1..200,000
 */
export function deriveTaskPlan(request: TaskContextRequest, vocabulary: RelationVocabulary, policyHash: string, generation: number, ceilings: TaskContextCeilings = TASK_CONTEXT_CEILINGS, window: number = LEXICAL_CANDIDATE_WINDOW): TaskPlan {
  const kind = request.task_kind;
  if (!(TASK_KINDS as readonly string[]).includes(kind)) {
    throw errors.invalidArguments(`task_kind must be one of ${TASK_KINDS.join(', ')}.`, { argument: 'task_kind' });
  }
  if (typeof request.task !== 'string' || request.task.trim().length === 0) {
    throw errors.invalidArguments('task must be a nonempty description.', { argument: 'task' });
  }
  if (request.task.length > ceilings.max_query_chars) {
    throw errors.invalidArguments(`task exceeds the fixed ceiling of ${ceilings.max_query_chars} characters.`, { argument: 'task', max_query_chars: ceilings.max_query_chars });
  }
  const budget = request.budget ?? DEFAULT_TASK_BUDGET;
  if (!Number.isInteger(budget) || budget < 1 || budget > MAX_CONTEXT_BUDGET) {
    throw errors.invalidArguments(`budget must be an integer from 1 to ${MAX_CONTEXT_BUDGET}.`, { argument: 'budget' });
  }
  const preference = TASK_KIND_PREFERENCES[kind];
  const exact = typeof request.focus_node_id === 'string';
  const { terms, dropped } = splitTaskTerms(request.task);
  const chunks = request.task.split(/\s+/).filter((c) => c !== '').length;
  return {
    plan_version: 1,
    task_kind: kind,
    binding: { policy_hash: policyHash, generation },
    focus: exact
      ? { mode: 'exact', node_id: request.focus_node_id! }
      : { mode: 'lexical', ranking: 'id_mention_then_search_ranking', common_term_ranking: 'search_ranking', query_sha256: domainHash('docforge.task_query.v1', terms), query_terms: terms.length, ...listedDroppedTerms(dropped), unchecked_id_chunks: Math.max(0, chunks - MAX_ID_MENTION_CHUNKS), candidate_window: Math.min(window, CANDIDATE_WINDOW), max_focus_nodes: MAX_LEXICAL_FOCUS },
    steps: [
      exact ? { op: 'focus', mode: 'exact' } : { op: 'focus', mode: 'lexical', expanded_focus_nodes: EXPANDED_FOCUS, close_score_ratio: CLOSE_FOCUS_RATIO },
      { op: 'traverse', depth: 1, directions: ['outgoing', 'incoming'], from: 'focus', categories: 'all', vocabulary_hash: vocabulary.vocabulary_hash, ...(kind === 'change' ? { affected_depth: TASK_AFFECTED_DEPTH } : {}) },
      { op: 'traverse', depth: 2, directions: ['outgoing', 'incoming'], from: 'primary_depth_1', categories: [...preference.primary], vocabulary_hash: vocabulary.vocabulary_hash },
      { op: 'hydrate', fields: 'metadata' },
    ],
    category_order: [...preference.primary, ...preference.secondary, 'unclassified'],
    required_categories: [...preference.primary],
    ceilings: { ...ceilings },
    token_budget: budget,
  };
}
