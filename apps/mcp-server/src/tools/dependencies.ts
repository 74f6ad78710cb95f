/** `docforge_dependencies` (contract: read tools): bounded outgoing traversal, depth 1 by default. */
import { defineTool, loadProtocolTool } from '../define-tool.js';
import { pageOutcome } from '../outcome.js';
import { withReviewStates, type TraversalItem } from '@docforge/retrieval';
import { traversalResult } from './shared.js';

/**
 * The `docforge_dependencies` definition. For a code start node the result also carries
 * `unresolved_calls`: its call sites without a proven target (no `calls` edge among the items).
 * @throws DocforgeError `node_not_found`.
 */
export const dependenciesTool = defineTool({
  protocol: loadProtocolTool('docforge_dependencies'),
  kind: 'sync',
  fit: 'page',
  handler(ctx, sync, args, diagnostics) {
    const traversed = traversalResult(ctx, sync, args, 'outgoing', 1, diagnostics);
    const reader = ctx.manager.reader();
    // Each item's review state: of the edge that first reached it (issue 32).
    const result = { ...traversed, items: withReviewStates(reader, traversed.items as TraversalItem[]) };
    return pageOutcome(reader.getNodeMeta(args.node_id)?.origin === 'code' ? { ...result, unresolved_calls: reader.unresolvedCalls(args.node_id) } : result, null);
  },
});
