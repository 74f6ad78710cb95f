/**
 * Runs a task plan's focus and traversal steps: bounded outgoing and incoming traversal from the
 * focus, ranked by the task kind's category order, primary categories followed to depth 2
 * ({@link TASK_MAX_DEPTH}), reading at most the examined-edge ceiling.
 */
import { RELATION_ALIASES, relationCategory, errors } from '@docforge/core';
import type { EdgeRecord, IndexReader } from '@docforge/store';
import type { TraversalDirection } from './traversal.js';
import { LEXICAL_CANDIDATE_WINDOW, TASK_CONTEXT_CEILINGS, TASK_MAX_DEPTH, type TaskContextCeilings, type TaskPlan } from './task-plan.js';
import { lexicalFocus, taskRelevance } from './task-focus.js';

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


export interface Visit {
  id: string;
  depth: number;
  path: PathHop[];
  focusRank: number | null;
  score: number | null;
  /** What made this node a focus: `exact`, `id_mention`, `bm25` or `title_overlap`; null for related evidence. */
  basis: string | null;
  reasons: RelationshipReason[];
}


export interface Traversal {
  focus: Visit[];
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

/** Runs the plan's focus and traversal steps; reads at most `ceilings.max_examined_edges` (+1 probe row per query) edges. */
export function runPlan(reader: IndexReader, plan: TaskPlan, task: string, ceilings: TaskContextCeilings): Traversal {
  const focus: Visit[] = [];
  let lexicalEmpty = false;
  let lexicalWindowed = false;
  let relevance = new Map<string, number>();
  if (plan.focus.mode === 'exact') {
    const id = plan.focus.node_id;
    if (!reader.hasNode(id)) throw errors.nodeNotFound(id);
    focus.push({ id, depth: 0, path: [], focusRank: 1, score: null, basis: 'exact', reasons: [] });
    relevance = taskRelevance(reader, task, LEXICAL_CANDIDATE_WINDOW);
  } else {
    const lexical = lexicalFocus(reader, task, Math.min(plan.focus.max_focus_nodes, ceilings.max_evidence_items), plan.focus.candidate_window);
    for (const [index, hit] of lexical.hits.entries()) {
      focus.push({ id: hit.id, depth: 0, path: [], focusRank: index + 1, score: hit.score, basis: hit.basis, reasons: [] });
    }
    lexicalEmpty = focus.length === 0;
    lexicalWindowed = lexical.windowed;
    relevance = lexical.relevance;
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
  const edgeKey = (e: EdgeRecord): string => `${e.source_id}\u0000${e.relation}\u0000${e.target_id}`;
  const declared = (e: EdgeRecord): { path: string; line: number } => ({ path: e.source_path, line: e.line });
  const reasonFor = (nodeId: string, e: EdgeRecord): RelationshipReason => ({
    relation: e.relation,
    category: relationCategory(e.relation),
    direction: e.source_id === nodeId ? 'outgoing' : 'incoming',
    other_id: e.source_id === nodeId ? e.target_id : e.source_id,
    declared_in: declared(e),
  });
  let frontier = focus;
  for (let depth = 1; depth <= TASK_MAX_DEPTH && frontier.length > 0 && !workLimited; depth += 1) {
    const relations = depth === 1 ? null : primaryRelations;
    if (relations !== null && relations.length === 0) break;
    const candidates = new Map<string, { hops: { hop: PathHop; edge: EdgeRecord; fromVisit: Visit; order: number }[] }>();
    const frontierOrder = new Map(frontier.map((v, i) => [v.id, i]));
    scan: for (const from of frontier) {
      for (const direction of ['outgoing', 'incoming'] as const) {
        const remaining = ceilings.max_examined_edges - examined;
        if (remaining <= 0) {
          workLimited = true;
          break scan;
        }
        const rows = reader.edges(from.id, direction, relations, remaining + 1);
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
    // Primary categories first; among them, and then among the others, nodes the task's own words
    // rank higher (their search score) come first, then the category preference order.
    const hopKey = (h: { hop: PathHop; order: number }): (string | number)[] => [primary.includes(h.hop.category) ? 0 : 1, -(relevance.get(h.hop.to) ?? 0), rank.get(h.hop.category) ?? rank.size, h.hop.direction === 'outgoing' ? 0 : 1, h.hop.relation, h.order];
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
