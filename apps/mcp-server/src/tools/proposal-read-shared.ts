/** Helpers of the proposal read tools: statuses, operation targets and the cursor placeholder. */
import { longestCursorLength, type ChangesetCursorBinding, type Operation, type ReadStatus } from '@docforge/changesets';

/** Every read status. */
export const ALL_STATUSES: readonly ReadStatus[] = ['draft', 'ready', 'stale', 'applied', 'abandoned'];
/** Statuses listed by default. */
export const DEFAULT_STATUSES: readonly ReadStatus[] = ['draft', 'ready'];
/**
 * A placeholder as long as the longest real cursor of the request (issue 30, item 9: about 400
 * characters, not a fixed 256), so a page's budget leaves room for its real `next_cursor` and a
 * page holds fewer records rather than exceeding the limit.
 * @param maxPosition the largest position a cursor of the request can name (its record count)
 * @param maxSub the largest chunk index (diff chunk pages); 0 for plain pages
 */
export function cursorPlaceholder(op: string, binding: ChangesetCursorBinding, maxPosition: number, maxSub = 0): string {
  return 'c'.repeat(longestCursorLength(op, binding, maxPosition, maxSub));
}

/** The node an operation concerns. */
export function targetOf(op: Operation): string {
  return op.op === 'node_create' ? op.node.id : op.op === 'relationship_update' || op.op === 'link_review' ? op.source_id : op.node_id;
}
