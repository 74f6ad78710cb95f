/**
 * Runs a task plan's focus and traversal steps: bounded outgoing and incoming traversal from the
 * focus, ranked by the task kind's category order, primary categories followed to depth 2
 * ({@link TASK_MAX_DEPTH}), reading at most the examined-edge ceiling.
 */
import { RELATION_ALIASES, relationCategory, errors } from '@docforge/core';
import type { EdgeRecord, IndexReader } from '@docforge/store';
import { missingNode, type TraversalDirection } from './traversal.js';
import type { PathHop, RelationshipReason, Visit } from './task-visit.js';
import { LEXICAL_CANDIDATE_WINDOW, TASK_CONTEXT_CEILINGS, TASK_KIND_PREFERENCES, TASK_MATCH_RANK, TASK_MAX_DEPTH, type TaskContextCeilings, type TaskPlan } from './task-plan.js';
import { lexicalFocus, taskRelevance } from './task-focus.js';
import { hopTierFrom, type HopTier } from './task-wiring.js';

export type { PathHop, RelationshipReason, Visit } from './task-visit.js';


export interface Traversal {
  focus: Visit[];
  /** How many of the first focus nodes were expanded (traversal and affected walk); the rest are depth-0 evidence (issue 31). */
  expanded: number;
  related: Visit[];
  examined: number;
  workLimited: boolean;
  droppedCandidates: number;
  lexicalEmpty: boolean;
  /** Whether the lexical focus ranked only a window of its candidates. */
  lexicalWindowed: boolean;
}

export function effectiveCeilings(lower: Partial<TaskContextCeilings> | undefined): TaskContextCeilings {
  const c = { ...TASK_CONTEXT_CEILINGS };
  for (const key of Object.keys(c) as (keyof TaskContextCeilings)[]) {
    const value = lower?.[key];
    if (typeof value === 'number' && Number.isInteger(value) && value >= 0) c[key] = Math.min(c[key], value);
  }
  return c;
}

export function compare(a: string | number, b: string | number): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The focus of a plan and how the task's own words rank nodes. */
interface FocusStep {
  focus: Visit[];
  /** How many of the first focus nodes the traversal starts from; the rest are depth-0 evidence only (issue 31). */
  expanded: number;
  lexicalEmpty: boolean;
  lexicalWindowed: boolean;
  /** Search score of the nodes the task's words match (ranks candidates of equal category), in search rank order. */
  relevance: Map<string, number>;
}

/** How candidates are ranked and admitted at one depth. */
interface RankRules {
  primary: readonly string[];
  relevance: Map<string, number>;
  /** Category rank by the kind's category order. */
  rank: Map<string, number>;
  /** The kind's `wiringFirst` (task-wiring.ts): hop tiers rank candidates and admit structure. */
  wiringFirst: boolean;
  /** The first {@link TASK_MATCH_RANK} search hits of the task text. */
  matched: ReadonlySet<string>;
}

/** The traversal's state across depths. */
interface TraversalState {
  reader: IndexReader;
  ceilings: TaskContextCeilings;
  /** Visited nodes (focus and related) by id. */
  accepted: Map<string, Visit>;
  /** `source\0relation\0target` keys of edges already reported (as a path or a reason). */
  usedEdges: Set<string>;
  related: Visit[];
  examined: number;
  workLimited: boolean;
  dropped: number;
}

/** One way a candidate node is reached from the frontier. */
interface CandidateHop {
  hop: PathHop;
  edge: EdgeRecord;
  fromVisit: Visit;
  /** The position of `fromVisit` in its frontier. */
  order: number;
}

/** A candidate node with its hops, best first, and the sort key of its best hop. */
interface RankedCandidate {
  id: string;
  hops: CandidateHop[];
  key: (string | number)[];
}

const edgeKey = (e: EdgeRecord): string => `${e.source_id}\u0000${e.relation}\u0000${e.target_id}`;

const declared = (e: EdgeRecord): { path: string; line: number } => ({ path: e.source_path, line: e.line });

const reasonFor = (nodeId: string, e: EdgeRecord): RelationshipReason => ({
  relation: e.relation,
  category: relationCategory(e.relation),
  direction: e.source_id === nodeId ? 'outgoing' : 'incoming',
  other_id: e.source_id === nodeId ? e.target_id : e.source_id,
  declared_in: declared(e),
});

/** Runs the plan's focus and traversal steps; reads at most `ceilings.max_examined_edges` (+1 probe row per query) edges. */
export function runPlan(reader: IndexReader, plan: TaskPlan, task: string, ceilings: TaskContextCeilings): Traversal {
  const { focus, expanded, lexicalEmpty, lexicalWindowed, relevance } = planFocus(reader, plan, task, ceilings);
  const primary = plan.required_categories;
  const rules: RankRules = {
    primary,
    relevance,
    rank: new Map<string, number>(plan.category_order.map((c, i) => [c, i])),
    wiringFirst: TASK_KIND_PREFERENCES[plan.task_kind].wiringFirst,
    matched: new Set([...relevance.keys()].slice(0, TASK_MATCH_RANK)),
  };
  const primaryRelations = primary.flatMap((c) => RELATION_ALIASES[c] ?? []);
  const state: TraversalState = { reader, ceilings, accepted: new Map<string, Visit>(focus.map((v) => [v.id, v])), usedEdges: new Set<string>(), related: [], examined: 0, workLimited: false, dropped: 0 };
  let frontier = focus.slice(0, expanded);
  for (let depth = 1; depth <= TASK_MAX_DEPTH && frontier.length > 0 && !state.workLimited; depth += 1) {
    const relations = depth === 1 ? null : primaryRelations;
    if (relations !== null && relations.length === 0) break;
    const candidates = collectCandidates(state, frontier, relations);
    const ranked = rankCandidates(candidates, rules);
    const room = ceilings.max_evidence_items - focus.length - state.related.length;
    const next = acceptCandidates(state, ranked, depth, room, primary);
    if (state.dropped > 0) break;
    frontier = next;
  }
  return { focus, expanded, related: state.related, examined: state.examined, workLimited: state.workLimited, droppedCandidates: state.dropped, lexicalEmpty, lexicalWindowed };
}

/** The plan's focus: the exact node (which must exist), or the lexical focus's hits in rank order. */
function planFocus(reader: IndexReader, plan: TaskPlan, task: string, ceilings: TaskContextCeilings): FocusStep {
  const focus: Visit[] = [];
  if (plan.focus.mode === 'exact') {
    const id = plan.focus.node_id;
    if (!reader.hasNode(id)) throw missingNode(reader, id);
    focus.push({ id, depth: 0, path: [], focusRank: 1, score: null, basis: 'exact', reasons: [] });
    return { focus, expanded: 1, lexicalEmpty: false, lexicalWindowed: false, relevance: taskRelevance(reader, task, LEXICAL_CANDIDATE_WINDOW) };
  }
  const documentSlot = TASK_KIND_PREFERENCES[plan.task_kind].wiringFirst;
  const step = plan.steps.find((s) => s.op === 'focus');
  const maxFocus = Math.min(plan.focus.max_focus_nodes, ceilings.max_evidence_items);
  const expandedMax = Math.min(step?.op === 'focus' ? step.expanded_focus_nodes ?? maxFocus : maxFocus, maxFocus);
  const close = step?.op === 'focus' && step.close_score_ratio !== undefined ? { max: maxFocus - expandedMax, ratio: step.close_score_ratio } : undefined;
  const lexical = lexicalFocus(reader, task, expandedMax, plan.focus.candidate_window, documentSlot, close);
  for (const [index, hit] of lexical.hits.entries()) {
    focus.push({ id: hit.id, depth: 0, path: [], focusRank: index + 1, score: hit.score, basis: hit.basis, reasons: [] });
  }
  return { focus, expanded: Math.min(expandedMax, focus.length), lexicalEmpty: focus.length === 0, lexicalWindowed: lexical.windowed, relevance: lexical.relevance };
}

/**
 * Reads the outgoing then incoming edges of each frontier node (of `relations`, or all when null)
 * within the examined-edge ceiling: an edge to an accepted node becomes one of its reasons, any
 * other a hop to a candidate. Sets `workLimited` when the ceiling cut the reading short.
 */
function collectCandidates(state: TraversalState, frontier: readonly Visit[], relations: readonly string[] | null): Map<string, CandidateHop[]> {
  const candidates = new Map<string, CandidateHop[]>();
  const frontierOrder = new Map(frontier.map((v, i) => [v.id, i]));
  for (const from of frontier) {
    for (const direction of ['outgoing', 'incoming'] as const) {
      const remaining = state.ceilings.max_examined_edges - state.examined;
      if (remaining <= 0) {
        state.workLimited = true;
        return candidates;
      }
      const rows = state.reader.edges(from.id, direction, relations, remaining + 1);
      const usable = rows.length > remaining ? rows.slice(0, remaining) : rows;
      state.examined += usable.length;
      for (const edge of usable) {
        const other = direction === 'outgoing' ? edge.target_id : edge.source_id;
        if (other === from.id) continue;
        const key = edgeKey(edge);
        if (state.usedEdges.has(key)) continue;
        const known = state.accepted.get(other);
        if (known) {
          state.usedEdges.add(key);
          known.reasons.push(reasonFor(other, edge));
          continue;
        }
        const hop: PathHop = { from: from.id, relation: edge.relation, category: relationCategory(edge.relation), direction, to: other, declared_in: declared(edge) };
        let hops = candidates.get(other);
        if (!hops) {
          hops = [];
          candidates.set(other, hops);
        }
        hops.push({ hop, edge, fromVisit: from, order: frontierOrder.get(from.id)! });
      }
      if (rows.length > remaining) {
        state.workLimited = true;
        return candidates;
      }
    }
  }
  return candidates;
}

function byKey(a: (string | number)[], b: (string | number)[]): number {
  for (let i = 0; i < a.length; i += 1) {
    const c = compare(a[i]!, b[i]!);
    if (c !== 0) return c;
  }
  return 0;
}

/**
 * Ranks the candidates. For a `wiringFirst` kind (a change) by the hop's tier first (task-wiring.ts:
 * what governs and wires the focus, then the rest, then matched structure off the containment
 * chain), the wiring of the best-ranked focus node (frontier position) before that of the next, and
 * then primary categories first (issue 30: the callers of a function, `calls` being no primary
 * category of a change, came after every importer of a module the task's words also matched, past
 * the first page); for the other kinds primary categories first, then the tier. Then nodes the
 * task's own words rank higher (their search score), then the category preference order. A `wiringFirst` candidate whose
 * every hop is structure off the containment chain, and which the task's words do not match, is
 * not a candidate (a module's other members are not evidence of a change to one of them).
 */
function rankCandidates(candidates: Map<string, CandidateHop[]>, rules: RankRules): RankedCandidate[] {
  const { primary, relevance, rank } = rules;
  // Each hop's key is computed once (sorting compares keys many times); a frontier node's chain test once.
  const chainTiers = new Map<Visit, (hop: PathHop) => HopTier>();
  const tierOf = (h: CandidateHop): HopTier => {
    if (!rules.wiringFirst) return 1;
    let tier = chainTiers.get(h.fromVisit);
    if (!tier) {
      tier = hopTierFrom(h.fromVisit);
      chainTiers.set(h.fromVisit, tier);
    }
    return tier(h.hop);
  };
  const ranked: RankedCandidate[] = [];
  for (const [id, hops] of candidates) {
    const tiers = hops.map(tierOf);
    if (rules.wiringFirst && !rules.matched.has(id) && tiers.every((t) => t === 2)) continue;
    const keyed = hops.map((h, i) => {
      const group = primary.includes(h.hop.category) ? 0 : 1;
      const tier = tiers[i]!;
      // wiringFirst: what governs and wires the focus leads, its best-ranked focus node's first (issue 30: the
      // callers of the subject came after every importer of a module the task's words also matched).
      const lead = rules.wiringFirst ? [tier, tier === 0 ? h.order : 0, group] : [group, tier, 0];
      return { h, key: [...lead, -(relevance.get(h.hop.to) ?? 0), rank.get(h.hop.category) ?? rank.size, h.hop.direction === 'outgoing' ? 0 : 1, h.hop.relation, h.order] };
    });
    keyed.sort((a, b) => byKey(a.key, b.key) || compare(a.h.hop.from, b.h.hop.from));
    ranked.push({ id, hops: keyed.map((k) => k.h), key: keyed[0]!.key });
  }
  ranked.sort((a, b) => byKey(a.key, b.key) || compare(a.id, b.id));
  return ranked;
}

/**
 * Accepts the ranked candidates while there is `room` (counting the rest as dropped): each reached
 * by its best hop, its other hops as reasons. Returns those reached through a primary category,
 * the next frontier.
 */
function acceptCandidates(state: TraversalState, ranked: readonly RankedCandidate[], depth: number, room: number, primary: readonly string[]): Visit[] {
  const next: Visit[] = [];
  for (const [index, candidate] of ranked.entries()) {
    if (index >= room) {
      state.dropped += ranked.length - index;
      break;
    }
    const best = candidate.hops[0]!;
    state.usedEdges.add(edgeKey(best.edge));
    const visit: Visit = { id: candidate.id, depth, path: [...best.fromVisit.path, best.hop], focusRank: null, score: null, basis: null, reasons: [] };
    for (const other of candidate.hops.slice(1)) {
      const key = edgeKey(other.edge);
      if (state.usedEdges.has(key)) continue;
      state.usedEdges.add(key);
      visit.reasons.push(reasonFor(candidate.id, other.edge));
    }
    state.accepted.set(candidate.id, visit);
    state.related.push(visit);
    if (primary.includes(best.hop.category)) next.push(visit);
  }
  return next;
}
