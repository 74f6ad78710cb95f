/**
 * Task context for `docforge_get_task_context` (contract: MCP boundary, the paragraphs from
 * "`docforge_get_task_context` accepts one closed task kind" to "A changed generation, policy,
 * plan, or collection fails as `stale_cursor`").
 *
 * DocForge derives, never accepts, a version-1 retrieval plan: an exact focus (`focus_node_id`)
 * or a lexical focus (node ids named verbatim in the task, then bm25 over the task's terms inside a
 * bounded candidate window, see {@link LEXICAL_CANDIDATE_WINDOW}), bounded outgoing and incoming traversal
 * whose category preferences depend on the task kind, and metadata hydration. The plan names
 * alias categories only; its traversal steps bind the complete project relation vocabulary by
 * {@link RelationVocabulary.vocabulary_hash}. It cannot carry SQL, paths, relation names or Logic.
 *
 * Category preferences by task kind ({@link TASK_KIND_PREFERENCES}); `primary` categories are the
 * ones the kind requires (an `undeclared_relation_category` gap when the project has no edge of
 * that category), are ranked first and are the only ones followed to depth 2:
 *
 * | task kind      | primary (required)                      | then                                                      |
 * |----------------|-----------------------------------------|-----------------------------------------------------------|
 * | change         | structure, dependency, implementation   | evidence, execution, data, context                        |
 * | implementation | implementation, structure               | dependency, execution, data, evidence, context            |
 * | failure        | execution, dependency                   | data, implementation, evidence, structure, context        |
 * | ownership      | structure                               | implementation, evidence, context, dependency, execution, data |
 * | test           | evidence                                | implementation, execution, structure, dependency, data, context |
 * | operation      | execution, data                         | dependency, evidence, context, structure, implementation  |
 * | release        | evidence, dependency                    | implementation, structure, context, execution, data       |
 *
 * `unclassified` (any relation outside the version-1 alias map) always ranks last; such edges are
 * still followed at depth 1 and reported with their raw name and an `unclassified_relation`
 * limitation.
 *
 * A `change` keeps to what governs and wires its focus (`wiringFirst`, task-wiring.ts; issue 31
 * item 4): inside each depth, incoming evidence, execution and dependency edges of the focus's
 * containment chain (the documents that govern it, its callers and importers) rank first, those of
 * the best-ranked focus node first and before the primary/other grouping (issue 30: a function's
 * callers, `calls` being no primary category, came after a co-focus module's importers); a node reached at depth 2 only through structure edges off that chain (a module's
 * other members, a neighbour's members) is no candidate unless the task's words match it (one of
 * the first `TASK_MATCH_RANK` search hits); and a lexical focus without documentation gives its
 * last search-ranked slot to the best documentation hit among those. Wiring that the budget cannot
 * hold is a hash-identified `token_limit` omission like any other candidate.
 *
 * A lexical focus is the first three search hits ({@link EXPANDED_FOCUS}), whose neighbourhood the
 * traversal and the affected walk read, then up to two more hits that score at least
 * {@link CLOSE_FOCUS_RATIO} of the third: those are evidence at depth 0 only (issue 31), so their
 * module siblings never join the page. The plan states both (`max_focus_nodes`, and the focus
 * step's `expanded_focus_nodes` and `close_score_ratio`).
 *
 * Unprovable provenance facts ({@link UNPROVABLE_FACTS}) that an evidence item may carry:
 * - `relation_declared_outside_node_source`: the edge that reached the item was declared in a file
 *   other than the item's own source, so the item's own source does not assert the relationship;
 * - `relation_line_unknown`: the reaching edge has no declaration line;
 * - `no_recognized_anchor`: a non-code node without any recognized heading anchor;
 * - `source_outside_declared_roots`: a code node outside the code roots, or a document node
 *   outside the content roots;
 * - `source_file_not_indexed`: the node's source file has no row in the index `sources` table;
 * - `node_not_indexed`: the edge target is not an indexed node (dangling relation).
 *
 * Required evidence gaps: `undeclared_relation_category` (a required category without any project
 * edge), `no_selected_evidence` (stage `focus`: the lexical focus found nothing; stage
 * `traversal`: the completed traversal selected no related node; with `category: "evidence"` and
 * `relations` (always the three {@link TEST_RELATIONS}): a `test` task whose completed traversal
 * reached no test of its focus, as on untested code or in a project that holds no tests at all, so
 * "no tests were found for the subject" is always said) and `incomplete_proof` with cause
 * `work_limit` (stage `focus`: the lexical candidate window was exceeded; stage `traversal`: the
 * examined-edge ceiling), `result_limit` (evidence-item ceiling), `token_limit` (token budget) or
 * `response_limit` (an item larger than any page under `[limits].max_output_chars`).
 */
import { domainHash } from '@docforge/core';
import type { IndexReader } from '@docforge/store';
import type { CursorBinding } from './cursor.js';
import { estimateTokens, itemSha256, packStream, type OmissionCause, type PackCandidate, type StreamItem } from './packing.js';
import { itemCharBudget, pageFromCursor, placeholderReceipt, type PageBinding, type PageReceipt } from './stream-page.js';
import { deriveTaskPlan, LEXICAL_CANDIDATE_WINDOW, type CLOSE_FOCUS_RATIO, type EXPANDED_FOCUS, type TaskContextCeilings, type TaskContextRequest, type TaskKind, type TaskPlan } from './task-plan.js';
import { relationVocabulary, RELATION_CATEGORIES, type RelationVocabulary } from './task-vocabulary.js';
import { effectiveCeilings, runPlan, type Traversal, type Visit } from './task-traversal.js';
import { affectedStep } from './task-affected.js';
import { hydrate, type EvidenceRoots } from './task-evidence.js';

/**
 * The version-1 evidence aliases that are tests (a `test` task's required evidence): a doc that
 * `documents` the focus is evidence too, but it is not a test of it.
 */
export const TEST_RELATIONS = Object.freeze(['tested_by', 'verifies', 'proves']);

/** A required evidence gap (contract: "Required evidence gaps distinguish ..."). */
export type EvidenceGap =
  | { kind: 'undeclared_relation_category'; category: string; task_kind: TaskKind }
  | { kind: 'no_selected_evidence'; stage: 'focus' | 'traversal' }
  | { kind: 'no_selected_evidence'; stage: 'traversal'; category: 'evidence'; task_kind: 'test'; relations: string[] }
  | { kind: 'incomplete_proof'; cause: 'work_limit'; stage: 'focus'; examined_candidates: number; ceiling: number }
  | { kind: 'incomplete_proof'; cause: 'work_limit'; stage: 'traversal'; examined_edges: number; ceiling: number }
  | { kind: 'incomplete_proof'; cause: 'result_limit'; ceiling: number; dropped_candidates: number }
  | { kind: 'incomplete_proof'; cause: 'token_limit'; budget: number; omitted_items: number }
  | { kind: 'incomplete_proof'; cause: 'response_limit'; omitted_items: number; max_item_chars: number };

/** Options of {@link taskContextPage}. */
export interface TaskContextOptions {
  /** `policy_hash` of the effective process policy. */
  policyHash: string;
  binding: PageBinding;
  /** The descriptor's `[vocabulary].relations` (null: open). */
  declaredRelations: readonly string[] | null;
  /** The descriptor's content and code roots (project-relative POSIX, `.` for the root). */
  roots: EvidenceRoots;
  /** Effective page limit. */
  limit: number;
  cursor?: string;
  /** Largest `JSON.stringify(result).length` of the page (response limit minus envelope). */
  resultCharBudget: number;
  /** Lowers (never raises) the fixed ceilings; for tests of the limit paths. */
  ceilings?: Partial<TaskContextCeilings>;
  /** Lowers (never raises) {@link LEXICAL_CANDIDATE_WINDOW}; for tests of the limit paths. */
  lexicalWindow?: number;
}

/** The `result` object of one `docforge_get_task_context` page (see {@link taskContextPage}). */
export type TaskContextPageResult = {
  task_kind: TaskKind;
  request_hash: string;
  plan_hash: string;
  /** Hash of the complete evidence stream (selected evidence, then omissions). */
  collection_hash: string;
  /** Hash of request, plan, collection and gaps. */
  capsule_hash: string;
  plan: TaskPlan;
  vocabulary: { contract_vocabulary_hash: string; relation_count: number; categories_with_edges: readonly string[] };
  gaps: EvidenceGap[];
  used_tokens: number;
  selected_items: number;
  omitted_items: number;
  examined_edges: number;
  /** Whether any `incomplete_proof` gap exists. */
  truncated: boolean;
  items: StreamItem[];
  page: PageReceipt;
};

const RESPONSE_GAP_ORDER = ['work_limit', 'result_limit', 'token_limit', 'response_limit'] as const;

/**
 * One page of `docforge_get_task_context`. Returns the tool's `result` object:
 * `{ task_kind, request_hash, plan_hash, collection_hash, capsule_hash, plan, vocabulary, gaps,
 *    used_tokens, selected_items, omitted_items, examined_edges, truncated, items, page }`, where
 * `vocabulary` is `{ contract_vocabulary_hash, relation_count, categories_with_edges }` (the full
 * vocabulary hash is bound in the plan's traverse steps).
 * Stream items are `type: 'evidence'` items (selected, in rank order) followed by
 * `type: 'omission'` items `{ reason: 'token_limit' | 'response_limit', id, sha256,
 * estimated_tokens, chars }`, where `sha256` hashes the omitted evidence item's canonical JSON.
 * The four hashes are identical on every page of one capsule. The cursor binds op
 * `docforge_get_task_context`, params `{request_hash, limit}`, and a collection hash over the
 * effective policy, plan, evidence collection and capsule, so a changed generation, policy, plan
 * or collection fails as `stale_cursor`.
 * @throws DocforgeError `invalid_arguments`, `node_not_found`, `invalid_cursor`, `stale_cursor`,
 *   `result_too_large`
 */
export function taskContextPage(reader: IndexReader, request: TaskContextRequest, options: TaskContextOptions): TaskContextPageResult {
  const ceilings = effectiveCeilings(options.ceilings);
  const vocabulary = relationVocabulary(reader, options.declaredRelations);
  const window = lexicalWindowOf(options);
  const plan = deriveTaskPlan(request, vocabulary, options.policyHash, options.binding.generation, ceilings, window);
  const budget = plan.token_budget;
  const focusNodeId = typeof request.focus_node_id === 'string' ? request.focus_node_id : null;
  const requestHash = domainHash('docforge.task_request.v1', { task_kind: plan.task_kind, task: request.task, focus_node_id: focusNodeId, budget });
  const planHash = domainHash('docforge.task_plan.v1', plan);

  const run = runPlan(reader, plan, request.task, ceilings);
  const visits = plan.task_kind === 'change' ? withAffected(reader, run, ceilings, vocabulary.relations) : [...run.focus, ...run.related];
  const evidence = hydrate(reader, visits, options.roots, request.task);
  const gaps = traversalGaps(plan, vocabulary, run, visits, ceilings, window);

  const candidates: PackCandidate[] = evidence.map((item) => {
    const tokens = estimateTokens(item);
    return { item: { ...item, estimated_tokens: tokens }, tokens };
  });
  const total = candidates.length;
  const params = { request_hash: requestHash, limit: options.limit };
  const vocabularySummary = { contract_vocabulary_hash: vocabulary.contract_vocabulary_hash, relation_count: vocabulary.relations.length, categories_with_edges: vocabulary.categories_with_edges };
  const frame: CapsuleFrame = { plan, requestHash, planHash, vocabulary: vocabularySummary, examined: run.examined };
  // Measure the page frame with upper bounds for everything packing may still add.
  const placeholderGaps: EvidenceGap[] = [
    ...gaps,
    { kind: 'incomplete_proof', cause: 'token_limit', budget, omitted_items: total },
    { kind: 'incomplete_proof', cause: 'response_limit', omitted_items: total, max_item_chars: options.resultCharBudget },
  ];
  const zero = '0'.repeat(64);
  const itemChars = itemCharBudget(
    pageResult(frame, [], placeholderReceipt('docforge_get_task_context', options.binding, params, total), { collection: zero, capsule: zero }, placeholderGaps, budget, total, total, false),
    options.resultCharBudget,
  );
  const packed = packStream(candidates, budget, itemChars, omissionItem);
  if (packed.token_omissions > 0) gaps.push({ kind: 'incomplete_proof', cause: 'token_limit', budget, omitted_items: packed.token_omissions });
  if (packed.response_omissions > 0) gaps.push({ kind: 'incomplete_proof', cause: 'response_limit', omitted_items: packed.response_omissions, max_item_chars: itemChars });
  gaps.sort((a, b) => gapRank(a) - gapRank(b));

  const collectionHash = domainHash('docforge.task_evidence.v1', packed.stream);
  const capsuleHash = domainHash('docforge.task_capsule.v1', { request_hash: requestHash, plan_hash: planHash, collection_hash: collectionHash, gaps });
  const binding: CursorBinding = {
    op: 'docforge_get_task_context',
    ...options.binding,
    params,
    collection: domainHash('docforge.task_cursor.v1', { policy_hash: options.policyHash, plan_hash: planHash, collection_hash: collectionHash, capsule_hash: capsuleHash }),
  };
  const { items, receipt } = pageFromCursor(packed.stream, binding, options.cursor, options.limit, itemChars);
  const omitted = packed.token_omissions + packed.response_omissions;
  return pageResult(
    frame,
    items,
    receipt,
    { collection: collectionHash, capsule: capsuleHash },
    gaps,
    packed.used_tokens,
    packed.selected,
    omitted,
    gaps.some((g) => g.kind === 'incomplete_proof'),
  );
}

/**
 * The visits of a `change` task with its affected step (task-affected.ts), in rank order: the
 * focus and the traversal's evidence in its own order (issue 31's ranking; an entry the walk also
 * reached is relabelled `affected` in place), then the affected entries the traversal did not
 * select, in the walk's order (breadth first). Adds the walk's edges, work limit and dropped
 * entries to `run`.
 */
function withAffected(reader: IndexReader, run: Traversal, ceilings: TaskContextCeilings, relations: readonly string[]): Visit[] {
  // Close focus nodes after the expanded ones are evidence only: the walk starts from the expanded ones.
  const step = affectedStep(reader, run.focus.slice(0, run.expanded), [...run.focus, ...run.related], run.examined, ceilings, relations);
  run.examined += step.examined;
  run.workLimited ||= step.workLimited;
  run.droppedCandidates += step.dropped;
  return [...run.focus, ...run.related, ...step.added];
}

/** The lexical candidate window: {@link LEXICAL_CANDIDATE_WINDOW}, or the lower test override. */
function lexicalWindowOf(options: TaskContextOptions): number {
  return typeof options.lexicalWindow === 'number' && Number.isInteger(options.lexicalWindow) && options.lexicalWindow >= 1 ? Math.min(options.lexicalWindow, LEXICAL_CANDIDATE_WINDOW) : LEXICAL_CANDIDATE_WINDOW;
}

/**
 * Whether a visit is a test of the run's focus: reached through one of the {@link TEST_RELATIONS}
 * from the focus itself or from what structurally holds it (its module), never through another
 * node it only relates to (a doc that documents it and has tests of its own).
 */
function testsOf(run: Traversal): (visit: Visit) => boolean {
  const focusIds = new Set(run.focus.map((visit) => visit.id));
  const isTest = (relation: string): boolean => TEST_RELATIONS.includes(relation);
  return (visit) => {
    const at = visit.path.findIndex((hop) => isTest(hop.relation));
    if (at >= 0 && visit.path.slice(0, at).every((hop) => hop.category === 'structure')) return true;
    return visit.reasons.some((reason) => isTest(reason.relation) && focusIds.has(reason.other_id));
  };
}

/** The gaps known before packing: undeclared required categories, no selected evidence, and the focus and traversal work and result limits. */
function traversalGaps(plan: TaskPlan, vocabulary: RelationVocabulary, run: Traversal, visits: readonly Visit[], ceilings: TaskContextCeilings, window: number): EvidenceGap[] {
  const gaps: EvidenceGap[] = [];
  for (const category of plan.required_categories) {
    if (!vocabulary.categories_with_edges.includes(category)) gaps.push({ kind: 'undeclared_relation_category', category, task_kind: plan.task_kind });
  }
  const related = visits.slice(run.focus.length);
  const completed = !run.workLimited && run.droppedCandidates === 0;
  if (run.lexicalEmpty) gaps.push({ kind: 'no_selected_evidence', stage: 'focus' });
  else if (completed) {
    if (related.length === 0) gaps.push({ kind: 'no_selected_evidence', stage: 'traversal' });
    // A test task's required evidence is a test of its subject, whatever else was found (a doc that
    // documents the focus is evidence too, but it must not stand in for the missing tests), and
    // whether or not the project has any test edge at all (a package that ships no tests).
    if (plan.task_kind === 'test' && !related.some(testsOf(run))) {
      gaps.push({ kind: 'no_selected_evidence', stage: 'traversal', category: 'evidence', task_kind: 'test', relations: [...TEST_RELATIONS] });
    }
  }
  if (run.lexicalWindowed) {
    // The window the focus ranking really used (the plan's candidate_window).
    const used = plan.focus.mode === 'lexical' ? plan.focus.candidate_window : window;
    gaps.push({ kind: 'incomplete_proof', cause: 'work_limit', stage: 'focus', examined_candidates: used, ceiling: used });
  }
  if (run.workLimited) gaps.push({ kind: 'incomplete_proof', cause: 'work_limit', stage: 'traversal', examined_edges: run.examined, ceiling: ceilings.max_examined_edges });
  if (run.droppedCandidates > 0) gaps.push({ kind: 'incomplete_proof', cause: 'result_limit', ceiling: ceilings.max_evidence_items, dropped_candidates: run.droppedCandidates });
  return gaps;
}

/** The omission item standing for an evidence item packing left out (hash-identified). */
function omissionItem(candidate: PackCandidate, cause: OmissionCause, chars: number): StreamItem {
  return {
    type: 'omission',
    reason: cause === 'token' ? 'token_limit' : 'response_limit',
    id: candidate.item.id,
    sha256: itemSha256(candidate.item),
    estimated_tokens: candidate.tokens,
    chars,
  };
}

/** What every page of one capsule shares. */
interface CapsuleFrame {
  plan: TaskPlan;
  requestHash: string;
  planHash: string;
  vocabulary: TaskContextPageResult['vocabulary'];
  examined: number;
}

/** The `result` object of one page. */
function pageResult(frame: CapsuleFrame, items: StreamItem[], page: PageReceipt, hashes: { collection: string; capsule: string }, finalGaps: EvidenceGap[], used: number, selectedCount: number, omittedCount: number, truncated: boolean): TaskContextPageResult {
  return {
    task_kind: frame.plan.task_kind,
    request_hash: frame.requestHash,
    plan_hash: frame.planHash,
    collection_hash: hashes.collection,
    capsule_hash: hashes.capsule,
    plan: frame.plan,
    vocabulary: frame.vocabulary,
    gaps: finalGaps,
    used_tokens: used,
    selected_items: selectedCount,
    omitted_items: omittedCount,
    examined_edges: frame.examined,
    truncated,
    items,
    page,
  };
}

function gapRank(gap: EvidenceGap): number {
  if (gap.kind === 'undeclared_relation_category') return RELATION_CATEGORIES.indexOf(gap.category);
  if (gap.kind === 'no_selected_evidence') return 100;
  return 200 + 2 * RESPONSE_GAP_ORDER.indexOf(gap.cause) + ('stage' in gap && gap.stage === 'traversal' ? 1 : 0);
}
