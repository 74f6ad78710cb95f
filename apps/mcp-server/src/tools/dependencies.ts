/** `docforge_dependencies` (contract: read tools): bounded outgoing traversal, depth 1 by default. */
import { defineTool, loadProtocolTool } from '../define-tool.js';
import { pageOutcome } from '../outcome.js';
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
    const result = traversalResult(ctx, sync, args, 'outgoing', 1, diagnostics);
    const reader = ctx.manager.reader();
    return pageOutcome(reader.getNodeMeta(args.node_id)?.origin === 'code' ? { ...result, unresolved_calls: reader.unresolvedCalls(args.node_id) } : result, null);
  },
});
