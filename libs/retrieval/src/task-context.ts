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
 * `traversal`: the completed traversal selected no related node) and `incomplete_proof` with cause
 * `work_limit` (stage `focus`: the lexical candidate window was exceeded; stage `traversal`: the
 * examined-edge ceiling), `result_limit` (evidence-item ceiling), `token_limit` (token budget) or
 * `response_limit` (an item larger than any page under `[limits].max_output_chars`).
 */
import { DocforgeError, errors, RELATION_ALIASES, domainHash, hashJson, relationCategory } from '@docforge/core';
import type { IndexReader } from '@docforge/index';
import type { CursorBinding } from './cursor.js';
import {
  estimateTokens,
  itemCharBudget,
  itemSha256,
  packStream,
  pageFromCursor,
  placeholderReceipt,
  type PackCandidate,
  type PageBinding,
  type PageReceipt,
  type StreamItem,
  MAX_CONTEXT_BUDGET,
} from './context.js';
import type { TraversalDirection } from './traversal.js';

/** The closed task kinds, in contract order. */
export const TASK_KINDS = Object.freeze(['change', 'implementation', 'failure', 'ownership', 'test', 'operation', 'release'] as const);
/** One task kind. */
export type TaskKind = (typeof TASK_KINDS)[number];

/** Version-1 relation categories, in alias-map order, plus `unclassified`. */
export const RELATION_CATEGORIES = Object.freeze([...Object.keys(RELATION_ALIASES), 'unclassified']);

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
/** Most focus nodes a lexical focus selects. */
export const MAX_LEXICAL_FOCUS = 3;
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
/** Most lexical terms taken from the task text. */
export const MAX_QUERY_TERMS = 12;
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
}

/** Category preferences by task kind (the table in the module comment). */
export const TASK_KIND_PREFERENCES: Readonly<Record<TaskKind, TaskKindPreference>> = Object.freeze({
  change: { primary: ['structure', 'dependency', 'implementation'], secondary: ['evidence', 'execution', 'data', 'context'] },
  implementation: { primary: ['implementation', 'structure'], secondary: ['dependency', 'execution', 'data', 'evidence', 'context'] },
  failure: { primary: ['execution', 'dependency'], secondary: ['data', 'implementation', 'evidence', 'structure', 'context'] },
  ownership: { primary: ['structure'], secondary: ['implementation', 'evidence', 'context', 'dependency', 'execution', 'data'] },
  test: { primary: ['evidence'], secondary: ['implementation', 'execution', 'structure', 'dependency', 'data', 'context'] },
  operation: { primary: ['execution', 'data'], secondary: ['dependency', 'evidence', 'context', 'structure', 'implementation'] },
  release: { primary: ['evidence', 'dependency'], secondary: ['implementation', 'structure', 'context', 'execution', 'data'] },
});

/** The complete relation vocabulary of one index generation, bound by hash. */
export interface RelationVocabulary {
  /** Hash over the version-1 alias map, the declared extra relations and every relation with edges. */
  vocabulary_hash: string;
  /** The `relation_vocabulary.vocabulary_hash` of `docforge_get_contract` (aliases and declared extras). */
  contract_vocabulary_hash: string;
  /** Sorted distinct relation names that have at least one edge. */
  relations: readonly string[];
  /** Categories (including `unclassified`) with at least one edge, in {@link RELATION_CATEGORIES} order. */
  categories_with_edges: readonly string[];
}

const observedCache = new WeakMap<IndexReader, readonly string[]>();

function parseRelationList(text: string | undefined): string[] | null {
  if (text === undefined) return null;
  try {
    const value = JSON.parse(text) as unknown;
    return Array.isArray(value) && value.every((v) => typeof v === 'string') ? [...new Set(value as string[])].sort() : null;
  } catch {
    return null;
  }
}

/**
 * The relation vocabulary of the reader's generation. The distinct relation names are read once
 * per published index file (immutable) and cached per reader: from the index meta key `relations`
 * when the build recorded it, else with one `SELECT DISTINCT relation FROM edges` scan.
 * @param declaredRelations the descriptor's `[vocabulary].relations` (null: open vocabulary)
 */
export function relationVocabulary(reader: IndexReader, declaredRelations: readonly string[] | null): RelationVocabulary {
  let observed = observedCache.get(reader);
  if (!observed) {
    // An index that records its relation names in meta (`relations`, a JSON array) spares the scan.
    const recorded = parseRelationList(reader.meta.relations);
    observed = Object.freeze(recorded ?? (reader.db.prepare('SELECT DISTINCT relation FROM edges').pluck().all() as string[]).sort());
    observedCache.set(reader, observed);
  }
  const extra = declaredRelations === null ? null : [...declaredRelations].sort();
  const present = new Set(observed.map(relationCategory));
  return {
    vocabulary_hash: domainHash('docforge.relation_vocabulary.v1', { alias_map_version: 1, aliases: RELATION_ALIASES, declared_extra: extra, open: extra === null, observed }),
    contract_vocabulary_hash: hashJson({ aliases: RELATION_ALIASES, extra_relations: declaredRelations ?? null, open: declaredRelations === null }),
    relations: observed,
    categories_with_edges: RELATION_CATEGORIES.filter((c) => present.has(c)),
  };
}

/** The task request (tool arguments other than `limit` and `cursor`). */
export interface TaskContextRequest {
  task_kind: TaskKind;
  /** Bounded task description, 1..10,000 characters. */
  task: string;
  focus_node_id?: string | null;
  /** Token budget, 1..200,000 (default {@link DEFAULT_TASK_BUDGET}). */
  budget?: number;
}

const STOP_WORDS = new Set(('the and for with that this from into onto when then than are was were been being have has had not but can could should would will ' +
  'shall may might must our your their its his her them they you all any each how what why who which where add fix make use using need needs ' +
  'task change changes please about after before over under').split(' '));

/**
 * Lexical terms of a task text: lowercase letter/digit/underscore words of at least three
 * characters, minus a small stop-word list, first {@link MAX_QUERY_TERMS} distinct ones.
 */
export function taskTerms(task: string): string[] {
  const terms: string[] = [];
  for (const word of task.normalize('NFKC').toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? []) {
    if (word.length < 3 || STOP_WORDS.has(word) || terms.includes(word)) continue;
    terms.push(word);
    if (terms.length >= MAX_QUERY_TERMS) break;
  }
  return terms;
}

/** The version-1 retrieval plan; see {@link deriveTaskPlan}. */
export interface TaskPlan {
  plan_version: 1;
  task_kind: TaskKind;
  /** Effective policy and index generation the plan is bound to. */
  binding: { policy_hash: string; generation: number };
  focus:
    | { mode: 'exact'; node_id: string }
    | { mode: 'lexical'; ranking: 'id_mention_then_bm25'; common_term_ranking: 'title_overlap'; query_sha256: string; query_terms: number; candidate_window: number; max_focus_nodes: number };
  steps: (
    | { op: 'focus'; mode: 'exact' | 'lexical' }
    | { op: 'traverse'; depth: number; directions: TraversalDirection[]; from: 'focus' | 'primary_depth_1'; categories: 'all' | string[]; vocabulary_hash: string }
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
    throw new DocforgeError('invalid_arguments', `task_kind must be one of ${TASK_KINDS.join(', ')}.`, { argument: 'task_kind' });
  }
  if (typeof request.task !== 'string' || request.task.trim().length === 0) {
    throw new DocforgeError('invalid_arguments', 'task must be a nonempty description.', { argument: 'task' });
  }
  if (request.task.length > ceilings.max_query_chars) {
    throw new DocforgeError('invalid_arguments', `task exceeds the fixed ceiling of ${ceilings.max_query_chars} characters.`, { argument: 'task', max_query_chars: ceilings.max_query_chars });
  }
  const budget = request.budget ?? DEFAULT_TASK_BUDGET;
  if (!Number.isInteger(budget) || budget < 1 || budget > MAX_CONTEXT_BUDGET) {
    throw new DocforgeError('invalid_arguments', `budget must be an integer from 1 to ${MAX_CONTEXT_BUDGET}.`, { argument: 'budget' });
  }
  const preference = TASK_KIND_PREFERENCES[kind];
  const exact = typeof request.focus_node_id === 'string';
  const terms = taskTerms(request.task);
  return {
    plan_version: 1,
    task_kind: kind,
    binding: { policy_hash: policyHash, generation },
    focus: exact
      ? { mode: 'exact', node_id: request.focus_node_id! }
      : { mode: 'lexical', ranking: 'id_mention_then_bm25', common_term_ranking: 'title_overlap', query_sha256: domainHash('docforge.task_query.v1', terms), query_terms: terms.length, candidate_window: window, max_focus_nodes: MAX_LEXICAL_FOCUS },
    steps: [
      { op: 'focus', mode: exact ? 'exact' : 'lexical' },
      { op: 'traverse', depth: 1, directions: ['outgoing', 'incoming'], from: 'focus', categories: 'all', vocabulary_hash: vocabulary.vocabulary_hash },
      { op: 'traverse', depth: 2, directions: ['outgoing', 'incoming'], from: 'primary_depth_1', categories: [...preference.primary], vocabulary_hash: vocabulary.vocabulary_hash },
      { op: 'hydrate', fields: 'metadata' },
    ],
    category_order: [...preference.primary, ...preference.secondary, 'unclassified'],
    required_categories: [...preference.primary],
    ceilings: { ...ceilings },
    token_budget: budget,
  };
}

/** One hop of an evidence graph path; direction is relative to the preceding traversal node `from`. */
export interface PathHop {
  from: string;
  relation: string;
  category: string;
  direction: TraversalDirection;
  to: string;
  declared_in: { path: string; line: number };
}

/** An additional qualifying edge; direction is relative to the evidence item itself. */
export interface RelationshipReason {
  relation: string;
  category: string;
  /** `outgoing` when the evidence node is the stored source, `incoming` when it is the stored target. */
  direction: TraversalDirection;
  other_id: string;
  declared_in: { path: string; line: number };
}

/** A required evidence gap (contract: "Required evidence gaps distinguish ..."). */
export type EvidenceGap =
  | { kind: 'undeclared_relation_category'; category: string; task_kind: TaskKind }
  | { kind: 'no_selected_evidence'; stage: 'focus' | 'traversal' }
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
  roots: { content_roots: readonly string[]; code_roots: readonly string[] };
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

interface Visit {
  id: string;
  depth: number;
  path: PathHop[];
  focusRank: number | null;
  score: number | null;
  /** What made this node a focus: `exact`, `id_mention`, `bm25` or `title_overlap`; null for related evidence. */
  basis: string | null;
  reasons: RelationshipReason[];
}

interface EdgeRow {
  source_id: string;
  relation: string;
  target_id: string;
  source_path: string;
  line: number;
}

interface Traversal {
  focus: Visit[];
  related: Visit[];
  examined: number;
  workLimited: boolean;
  droppedCandidates: number;
  lexicalEmpty: boolean;
  /** Whether the lexical focus ranked only a window of its candidates. */
  lexicalWindowed: boolean;
}

function effectiveCeilings(lower: Partial<TaskContextCeilings> | undefined): TaskContextCeilings {
  const c = { ...TASK_CONTEXT_CEILINGS };
  for (const key of Object.keys(c) as (keyof TaskContextCeilings)[]) {
    const value = lower?.[key];
    if (typeof value === 'number' && Number.isInteger(value) && value >= 0) c[key] = Math.min(c[key], value);
  }
  return c;
}

function compare(a: string | number, b: string | number): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

const phrase = (term: string): string => `"${term.replace(/"/g, '""')}"`;

/**
 * The lexical focus: node ids named verbatim in the task (in order of mention), then bm25 hits
 * over the task's terms within the bounded candidate window (see {@link LEXICAL_CANDIDATE_WINDOW}).
 * Ties rank by rowid, so one index file always gives the same focus.
 */
function lexicalFocus(reader: IndexReader, task: string, max: number, window: number): { hits: FocusHit[]; windowed: boolean } {
  const hits: FocusHit[] = [];
  const seen = new Set<string>();
  for (const chunk of task.split(/\s+/).slice(0, MAX_ID_MENTION_CHUNKS)) {
    const id = chunk.replace(/^[("'`[<]+|[)"'`\]>.,;:!?]+$/g, '');
    if (id === '' || seen.has(id) || !reader.hasNode(id)) continue;
    seen.add(id);
    hits.push({ id, score: null, basis: 'id_mention' });
    if (hits.length >= max) return { hits, windowed: false };
  }
  const probe = reader.db.prepare('SELECT count(*) FROM (SELECT rowid FROM node_fts WHERE node_fts MATCH ? LIMIT ?)').pluck();
  const terms = taskTerms(task)
    .map((term, index) => ({ term, index, docs: probe.get(phrase(term), window + 1) as number }))
    .filter((t) => t.docs > 0)
    .sort((a, b) => a.docs - b.docs || a.index - b.index);
  if (terms.length === 0) return { hits, windowed: false };
  const add = (id: string, score: number | null, basis: FocusHit['basis']): void => {
    if (hits.length >= max || seen.has(id)) return;
    seen.add(id);
    hits.push({ id, score, basis });
  };
  if (terms[0]!.docs <= window) {
    const chosen: string[] = [];
    let sum = 0;
    for (const t of terms) {
      if (sum + t.docs > window) break;
      chosen.push(phrase(t.term));
      sum += t.docs;
    }
    const rows = reader.db.prepare('SELECT w.score AS score, n.id AS id FROM (SELECT rowid, rank AS score FROM node_fts WHERE node_fts MATCH ? LIMIT ?) w JOIN nodes n ON n.rowid = w.rowid ORDER BY w.score, w.rowid LIMIT ?')
      .all(chosen.join(' OR '), window, max + hits.length) as { score: number; id: string }[];
    for (const row of rows) add(row.id, Math.round(row.score * 1e6) / 1e6, 'bm25');
    return { hits, windowed: false };
  }
  const windowStmt = reader.db.prepare('SELECT w.rowid AS rowid, n.id AS id, n.title AS title FROM (SELECT rowid FROM node_fts WHERE node_fts MATCH ? LIMIT ?) w JOIN nodes n ON n.rowid = w.rowid');
  type Row = { rowid: number; id: string; title: string };
  let rows = windowStmt.all(terms.map((t) => phrase(t.term)).join(' '), window + 1) as Row[];
  if (rows.length === 0) rows = windowStmt.all(terms.map((t) => phrase(t.term)).join(' OR '), window + 1) as Row[];
  const windowed = rows.length > window;
  const wanted = terms.map((t) => t.term);
  const scored = rows.slice(0, window).map((row) => {
    const words = new Set(row.title.normalize('NFKC').toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? []);
    return { row, overlap: wanted.filter((w) => words.has(w)).length };
  });
  scored.sort((a, b) => b.overlap - a.overlap || a.row.rowid - b.row.rowid);
  for (const { row } of scored.slice(0, max + hits.length)) add(row.id, null, 'title_overlap');
  return { hits, windowed };
}

/** One lexical focus node and what ranked it. */
interface FocusHit {
  id: string;
  /** bm25 score (lower ranks higher) for `bm25` hits, else null. */
  score: number | null;
  basis: 'id_mention' | 'bm25' | 'title_overlap';
}

/** Runs the plan's focus and traversal steps; reads at most `ceilings.max_examined_edges` (+1 probe row per query) edges. */
function runPlan(reader: IndexReader, plan: TaskPlan, task: string, ceilings: TaskContextCeilings): Traversal {
  const focus: Visit[] = [];
  let lexicalEmpty = false;
  let lexicalWindowed = false;
  if (plan.focus.mode === 'exact') {
    const id = plan.focus.node_id;
    if (!reader.hasNode(id)) throw errors.nodeNotFound(id);
    focus.push({ id, depth: 0, path: [], focusRank: 1, score: null, basis: 'exact', reasons: [] });
  } else {
    const lexical = lexicalFocus(reader, task, Math.min(plan.focus.max_focus_nodes, ceilings.max_evidence_items), plan.focus.candidate_window);
    for (const [index, hit] of lexical.hits.entries()) {
      focus.push({ id: hit.id, depth: 0, path: [], focusRank: index + 1, score: hit.score, basis: hit.basis, reasons: [] });
    }
    lexicalEmpty = focus.length === 0;
    lexicalWindowed = lexical.windowed;
  }

  const rank = new Map<string, number>(plan.category_order.map((c, i) => [c, i]));
  const primary = plan.required_categories;
  const primaryRelations = primary.flatMap((c) => RELATION_ALIASES[c] ?? []);
  const accepted = new Map<string, Visit>(focus.map((v) => [v.id, v]));
  const usedEdges = new Set<string>();
  const related: Visit[] = [];
  let examined = 0;
  let workLimited = false;
  let dropped = 0;
  const edgeKey = (e: EdgeRow): string => `${e.source_id}\u0000${e.relation}\u0000${e.target_id}`;
  const declared = (e: EdgeRow): { path: string; line: number } => ({ path: e.source_path, line: e.line });
  const reasonFor = (nodeId: string, e: EdgeRow): RelationshipReason => ({
    relation: e.relation,
    category: relationCategory(e.relation),
    direction: e.source_id === nodeId ? 'outgoing' : 'incoming',
    other_id: e.source_id === nodeId ? e.target_id : e.source_id,
    declared_in: declared(e),
  });
  const statements = (relations: readonly string[] | null): Record<TraversalDirection, { all(...args: unknown[]): unknown[] }> => {
    const filter = relations ? ` AND relation IN (${relations.map(() => '?').join(', ')})` : '';
    const cols = 'source_id, relation, target_id, source_path, line';
    return {
      outgoing: reader.db.prepare(`SELECT ${cols} FROM edges WHERE source_id = ?${filter} ORDER BY relation, target_id LIMIT ?`),
      incoming: reader.db.prepare(`SELECT ${cols} FROM edges WHERE target_id = ?${filter} ORDER BY relation, source_id LIMIT ?`),
    };
  };

  let frontier = focus;
  for (let depth = 1; depth <= TASK_MAX_DEPTH && frontier.length > 0 && !workLimited; depth += 1) {
    const relations = depth === 1 ? null : primaryRelations;
    if (relations !== null && relations.length === 0) break;
    const stmt = statements(relations);
    const candidates = new Map<string, { hops: { hop: PathHop; edge: EdgeRow; fromVisit: Visit; order: number }[] }>();
    const frontierOrder = new Map(frontier.map((v, i) => [v.id, i]));
    scan: for (const from of frontier) {
      for (const direction of ['outgoing', 'incoming'] as const) {
        const remaining = ceilings.max_examined_edges - examined;
        if (remaining <= 0) {
          workLimited = true;
          break scan;
        }
        const rows = stmt[direction].all(from.id, ...(relations ?? []), remaining + 1) as EdgeRow[];
        const usable = rows.length > remaining ? rows.slice(0, remaining) : rows;
        examined += usable.length;
        for (const edge of usable) {
          const other = direction === 'outgoing' ? edge.target_id : edge.source_id;
          if (other === from.id) continue;
          const key = edgeKey(edge);
          if (usedEdges.has(key)) continue;
          const known = accepted.get(other);
          if (known) {
            usedEdges.add(key);
            known.reasons.push(reasonFor(other, edge));
            continue;
          }
          const hop: PathHop = { from: from.id, relation: edge.relation, category: relationCategory(edge.relation), direction, to: other, declared_in: declared(edge) };
          let entry = candidates.get(other);
          if (!entry) {
            entry = { hops: [] };
            candidates.set(other, entry);
          }
          entry.hops.push({ hop, edge, fromVisit: from, order: frontierOrder.get(from.id)! });
        }
        if (rows.length > remaining) {
          workLimited = true;
          break scan;
        }
      }
    }
    const hopKey = (h: { hop: PathHop; order: number }): (string | number)[] => [rank.get(h.hop.category) ?? rank.size, h.hop.direction === 'outgoing' ? 0 : 1, h.hop.relation, h.order];
    const byKey = (a: (string | number)[], b: (string | number)[]): number => {
      for (let i = 0; i < a.length; i += 1) {
        const c = compare(a[i]!, b[i]!);
        if (c !== 0) return c;
      }
      return 0;
    };
    const ranked = [...candidates.entries()].map(([id, { hops }]) => {
      hops.sort((a, b) => byKey(hopKey(a), hopKey(b)) || compare(a.hop.from, b.hop.from));
      return { id, hops, key: hopKey(hops[0]!) };
    });
    ranked.sort((a, b) => byKey(a.key, b.key) || compare(a.id, b.id));
    const room = ceilings.max_evidence_items - focus.length - related.length;
    const next: Visit[] = [];
    for (const [index, candidate] of ranked.entries()) {
      if (index >= room) {
        dropped += ranked.length - index;
        break;
      }
      const best = candidate.hops[0]!;
      usedEdges.add(edgeKey(best.edge));
      const visit: Visit = { id: candidate.id, depth, path: [...best.fromVisit.path, best.hop], focusRank: null, score: null, basis: null, reasons: [] };
      for (const other of candidate.hops.slice(1)) {
        const key = edgeKey(other.edge);
        if (usedEdges.has(key)) continue;
        usedEdges.add(key);
        visit.reasons.push(reasonFor(candidate.id, other.edge));
      }
      accepted.set(candidate.id, visit);
      related.push(visit);
      if (primary.includes(best.hop.category)) next.push(visit);
    }
    if (dropped > 0) break;
    frontier = next;
  }
  return { focus, related, examined, workLimited, droppedCandidates: dropped, lexicalEmpty, lexicalWindowed };
}

function underRoot(p: string, roots: readonly string[]): boolean {
  return roots.some((r) => r === '.' || r === '' || p === r || p.startsWith(`${r.replace(/\/+$/, '')}/`));
}

interface NodeMeta {
  id: string;
  kind: string;
  title: string;
  source_path: string;
  start_line: number;
  content_hash: string;
  origin: string;
  anchors: number;
}

/** Hydrates evidence items (metadata only) with provenance facts and limitations. */
function hydrate(reader: IndexReader, visits: readonly Visit[], roots: TaskContextOptions['roots']): StreamItem[] {
  const nodeStmt = reader.db.prepare('SELECT id, kind, title, source_path, start_line, content_hash, origin, json_array_length(anchors) AS anchors FROM nodes WHERE id = ?');
  const sourceStmt = reader.db.prepare('SELECT content_hash FROM sources WHERE path = ?').pluck();
  const sourceHashes = new Map<string, string | null>();
  return visits.map((visit) => {
    const node = nodeStmt.get(visit.id) as NodeMeta | undefined;
    const unprovable: Record<string, unknown>[] = [];
    const last = visit.path.at(-1);
    let sourceFileHash: string | null = null;
    if (!node) {
      unprovable.push({ fact: 'node_not_indexed' });
    } else {
      if (!sourceHashes.has(node.source_path)) sourceHashes.set(node.source_path, (sourceStmt.get(node.source_path) as string | undefined) ?? null);
      sourceFileHash = sourceHashes.get(node.source_path)!;
      if (last && last.declared_in.path !== node.source_path) unprovable.push({ fact: 'relation_declared_outside_node_source', declared_in: last.declared_in.path });
      if (node.origin !== 'code' && node.anchors === 0) unprovable.push({ fact: 'no_recognized_anchor' });
      if (node.origin === 'code' ? !underRoot(node.source_path, roots.code_roots) : node.origin !== 'adapter' && !underRoot(node.source_path, roots.content_roots)) {
        unprovable.push({ fact: 'source_outside_declared_roots', expected: node.origin === 'code' ? 'code_roots' : 'content_roots' });
      }
      if (sourceFileHash === null) unprovable.push({ fact: 'source_file_not_indexed' });
    }
    if (last && last.declared_in.line === 0) unprovable.push({ fact: 'relation_line_unknown' });
    const reasons = [...visit.reasons].sort((a, b) => compare(a.relation, b.relation) || compare(a.other_id, b.other_id) || compare(a.direction, b.direction));
    const unclassified = new Set<string>();
    for (const r of [...visit.path, ...reasons]) if (r.category === 'unclassified') unclassified.add(r.relation);
    const item: StreamItem = {
      type: 'evidence',
      id: visit.id,
      role: visit.depth === 0 ? 'focus' : 'related',
      depth: visit.depth,
      focus_rank: visit.focusRank,
      focus_basis: visit.basis,
      score: visit.score,
      kind: node?.kind ?? null,
      title: node?.title ?? null,
      source_path: node?.source_path ?? null,
      start_line: node?.start_line ?? null,
      content_hash: node?.content_hash ?? null,
      source_file_hash: sourceFileHash,
      path: visit.path,
      relationship_reasons: reasons.slice(0, MAX_RELATIONSHIP_REASONS),
      relationship_reasons_omitted: Math.max(0, reasons.length - MAX_RELATIONSHIP_REASONS),
      limitations: [...unclassified].sort().map((relation) => ({ code: 'unclassified_relation', relation })),
      unprovable,
    };
    return item;
  });
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
  const window = typeof options.lexicalWindow === 'number' && Number.isInteger(options.lexicalWindow) && options.lexicalWindow >= 1 ? Math.min(options.lexicalWindow, LEXICAL_CANDIDATE_WINDOW) : LEXICAL_CANDIDATE_WINDOW;
  const plan = deriveTaskPlan(request, vocabulary, options.policyHash, options.binding.generation, ceilings, window);
  const budget = plan.token_budget;
  const focusNodeId = typeof request.focus_node_id === 'string' ? request.focus_node_id : null;
  const requestHash = domainHash('docforge.task_request.v1', { task_kind: plan.task_kind, task: request.task, focus_node_id: focusNodeId, budget });
  const planHash = domainHash('docforge.task_plan.v1', plan);

  const run = runPlan(reader, plan, request.task, ceilings);
  const visits = [...run.focus, ...run.related];
  const evidence = hydrate(reader, visits, options.roots);

  const gaps: EvidenceGap[] = [];
  for (const category of plan.required_categories) {
    if (!vocabulary.categories_with_edges.includes(category)) gaps.push({ kind: 'undeclared_relation_category', category, task_kind: plan.task_kind });
  }
  if (run.lexicalEmpty) gaps.push({ kind: 'no_selected_evidence', stage: 'focus' });
  else if (run.related.length === 0 && !run.workLimited && run.droppedCandidates === 0) gaps.push({ kind: 'no_selected_evidence', stage: 'traversal' });
  if (run.lexicalWindowed) gaps.push({ kind: 'incomplete_proof', cause: 'work_limit', stage: 'focus', examined_candidates: window, ceiling: window });
  if (run.workLimited) gaps.push({ kind: 'incomplete_proof', cause: 'work_limit', stage: 'traversal', examined_edges: run.examined, ceiling: ceilings.max_examined_edges });
  if (run.droppedCandidates > 0) gaps.push({ kind: 'incomplete_proof', cause: 'result_limit', ceiling: ceilings.max_evidence_items, dropped_candidates: run.droppedCandidates });

  const candidates: PackCandidate[] = evidence.map((item) => {
    const tokens = estimateTokens(item);
    return { item: { ...item, estimated_tokens: tokens }, tokens };
  });
  const total = candidates.length;
  const params = { request_hash: requestHash, limit: options.limit };
  const vocabularySummary = { contract_vocabulary_hash: vocabulary.contract_vocabulary_hash, relation_count: vocabulary.relations.length, categories_with_edges: vocabulary.categories_with_edges };
  const result = (items: StreamItem[], page: PageReceipt, hashes: { collection: string; capsule: string }, finalGaps: EvidenceGap[], used: number, selectedCount: number, omittedCount: number, truncated: boolean): TaskContextPageResult => ({
    task_kind: plan.task_kind,
    request_hash: requestHash,
    plan_hash: planHash,
    collection_hash: hashes.collection,
    capsule_hash: hashes.capsule,
    plan,
    vocabulary: vocabularySummary,
    gaps: finalGaps,
    used_tokens: used,
    selected_items: selectedCount,
    omitted_items: omittedCount,
    examined_edges: run.examined,
    truncated,
    items,
    page,
  });
  // Measure the page frame with upper bounds for everything packing may still add.
  const placeholderGaps: EvidenceGap[] = [
    ...gaps,
    { kind: 'incomplete_proof', cause: 'token_limit', budget, omitted_items: total },
    { kind: 'incomplete_proof', cause: 'response_limit', omitted_items: total, max_item_chars: options.resultCharBudget },
  ];
  const zero = '0'.repeat(64);
  const itemChars = itemCharBudget(
    result([], placeholderReceipt('docforge_get_task_context', options.binding, params, total), { collection: zero, capsule: zero }, placeholderGaps, budget, total, total, false),
    options.resultCharBudget,
  );
  const packed = packStream(candidates, budget, itemChars, (candidate, cause, chars) => ({
    type: 'omission',
    reason: cause === 'token' ? 'token_limit' : 'response_limit',
    id: candidate.item.id,
    sha256: itemSha256(candidate.item),
    estimated_tokens: candidate.tokens,
    chars,
  }));
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
  return result(
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

function gapRank(gap: EvidenceGap): number {
  if (gap.kind === 'undeclared_relation_category') return RELATION_CATEGORIES.indexOf(gap.category);
  if (gap.kind === 'no_selected_evidence') return 100;
  return 200 + 2 * RESPONSE_GAP_ORDER.indexOf(gap.cause) + ('stage' in gap && gap.stage === 'traversal' ? 1 : 0);
}
