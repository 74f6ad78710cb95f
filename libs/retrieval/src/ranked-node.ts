/**
 * A ranked search candidate: the shape ranking.ts produces and ranking-copies.ts merges. Its own
 * module so that the two share it without importing each other.
 */
import type { FtsCandidate } from '@docforge/store';

/** One ranked candidate. */
export interface RankedNode {
  row: FtsCandidate;
  /** Higher ranks first. */
  score: number;
  /** Whether every query word (or one of its expansions) occurs in the node's indexed text. */
  allTerms: boolean;
  /** Best matching section heading (not the node's own title heading), when one matches. */
  section: FtsCandidate['anchors'][number] | null;
  /** Build copies of this node collapsed into it (ranking-copies.ts), best first; absent when none. */
  copies?: string[];
  /** How many copies there are, present only when more than `copies` lists. */
  copies_total?: number;
}
