/** Helpers of the proposal read tools: statuses, operation targets and the cursor placeholder. */
import type { Operation, ReadStatus } from '@docforge/changesets';

/** Every read status. */
export const ALL_STATUSES: readonly ReadStatus[] = ['draft', 'ready', 'stale', 'applied', 'abandoned'];
/** Statuses listed by default. */
export const DEFAULT_STATUSES: readonly ReadStatus[] = ['draft', 'ready'];
/** A cursor-sized placeholder, so a page's budget leaves room for its real cursor. */
export const CURSOR_PLACEHOLDER = 'c'.repeat(256);

/** The node an operation concerns. */
export function targetOf(op: Operation): string {
  return op.op === 'node_create' ? op.node.id : op.op === 'relationship_update' ? op.source_id : op.node_id;
}
