/** The records of a task-context traversal (task-traversal.ts), shared with its wiring rule (task-wiring.ts) and the affected step (task-affected.ts). */
import type { MentionSection } from '@docforge/core';
import type { TraversalDirection } from './traversal.js';
import type { AffectedRole } from './affected.js';

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
  /**
   * Set on a `change` task's evidence that the change affects (task-affected.ts): what it is (a
   * doc to reread, a requirement to recheck, a test to rerun) and the section to reread (at most
   * one; [] for the whole node). The item's role is then `affected`.
   */
  affected?: { as: AffectedRole; sections: MentionSection[] };
}
