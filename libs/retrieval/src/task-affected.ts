/**
 * The affected-docs step of a `change` task context (issue 32 item 3: "Over MCP, what a change
 * affects is `docforge_get_task_context` with `task_kind = "change"`"; contract: MCP boundary,
 * `docforge_get_task_context`). After the plan's traversal, the docs, requirements and tests that
 * rest on the focus are walked with {@link affectedFrom} (the walk of `docforge affected`: incoming
 * `structure`, `implementation` and `evidence` edges, outgoing `implements`, `verifies`, `proves`,
 * `tested_by`, a requirement leading on only to its tests, a test ending its path) up to
 * {@link TASK_AFFECTED_DEPTH} hops. It is one more bounded traversal step of the plan, within the
 * same ceilings: it reads at most what is left of the examined-edge ceiling and adds at most what
 * is left of the evidence-item ceiling.
 *
 * Each reached entry is marked by why, in the evidence item's existing fields: role `affected`
 * (instead of `related`), its graph `path` (the traversal's path when the traversal already selected
 * it, else the walk's path from the focus), and `excerpt_section` / `excerpt` at the section to
 * reread (the first doc section that names what reached it, from its mention-derived `documents`
 * edge; none when the whole node is to be reread).
 */
import { relationCategory, type MentionSection } from '@docforge/core';
import type { IndexReader } from '@docforge/store';
import { affectedFrom, type AffectedHop } from './affected.js';
import type { PathHop, Visit } from './task-visit.js';
import { TASK_AFFECTED_DEPTH, type TaskContextCeilings } from './task-plan.js';

/** What the affected step did: new visits to add, the examined edges and whether a ceiling cut it. */
export interface AffectedStep {
  /** Entries the traversal had not selected, in the walk's order (each with its `affected` mark). */
  added: Visit[];
  /** Edges the walk read (counted against the examined-edge ceiling). */
  examined: number;
  /** Whether the examined-edge ceiling cut the walk short. */
  workLimited: boolean;
  /** Entries left out by the evidence-item ceiling (at least 1 when the walk itself stopped at it). */
  dropped: number;
}

function pathHop(hop: AffectedHop): PathHop {
  return { from: hop.from, relation: hop.relation, category: relationCategory(hop.relation), direction: hop.direction, to: hop.to, declared_in: hop.declared_in };
}

/**
 * The section to reread among the mention sections of an entry (at most one): the first whose
 * heading names the code it mentions (the code id's last name, `#a.b` -> `b`), else the first
 * (the doc's first mention); [] when the whole node is to be reread.
 */
export function rereadSection(sections: readonly MentionSection[], namedId: string): MentionSection[] {
  const hash = namedId.lastIndexOf('#');
  const name = hash === -1 ? '' : namedId.slice(hash + 1).split('.').at(-1)!.toLowerCase();
  const named = name === '' ? undefined : sections.find((s) => (s.title ?? '').toLowerCase().includes(name));
  const first = named ?? sections[0];
  return first ? [first] : [];
}

/**
 * Runs the affected walk from `focus` and marks the reached entries: an entry already among
 * `selected` (focus excluded) gets its `affected` mark in place; the others become new visits at
 * the walk's depth. Reads at most `ceilings.max_examined_edges - examined` edges and adds at most
 * `ceilings.max_evidence_items - selected.length` visits; `relations` are the index's distinct
 * relation names (the task's vocabulary). Mutates the `affected` field of `selected` visits.
 */
export function affectedStep(reader: IndexReader, focus: readonly Visit[], selected: readonly Visit[], examined: number, ceilings: TaskContextCeilings, relations: readonly string[]): AffectedStep {
  const budget = ceilings.max_examined_edges - examined;
  if (focus.length === 0) return { added: [], examined: 0, workLimited: false, dropped: 0 };
  if (budget <= 0) return { added: [], examined: 0, workLimited: true, dropped: 0 };
  const room = Math.max(0, ceilings.max_evidence_items - selected.length);
  const byId = new Map(selected.map((v) => [v.id, v]));
  const walk = affectedFrom(reader, focus.map((v) => v.id), { depth: TASK_AFFECTED_DEPTH, limit: ceilings.max_evidence_items, edgeBudget: budget, relations });
  const added: Visit[] = [];
  let dropped = walk.truncation_reason === 'result_limit' ? 1 : 0;
  for (const entry of walk.items) {
    const mark = { as: entry.role, sections: rereadSection(entry.sections, entry.path.at(-1)?.from ?? '') };
    const known = byId.get(entry.id);
    if (known) {
      if (known.depth > 0) known.affected = mark;
      continue;
    }
    if (added.length >= room) {
      dropped += 1;
      continue;
    }
    added.push({ id: entry.id, depth: entry.depth, path: entry.path.map(pathHop), focusRank: null, score: null, basis: null, reasons: [], affected: mark });
  }
  return { added, examined: walk.examined_edges, workLimited: walk.truncation_reason === 'edge_budget', dropped };
}
