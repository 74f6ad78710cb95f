/** `docforge_dependencies` (contract: read tools): bounded outgoing traversal, depth 1 by default. */
import { defineTool } from '../define-tool.js';
import { traversalResult } from './shared.js';

/**
 * The `docforge_dependencies` definition. For a code start node the result also carries
 * `unresolved_calls`: its call sites without a proven target (no `calls` edge among the items).
 * @throws DocforgeError `node_not_found`.
 */
export const dependenciesTool = defineTool({
  name: 'docforge_dependencies',
  kind: 'sync',
  handler(ctx, sync, args) {
    const result = traversalResult(ctx, sync, args, 'outgoing', 1);
    const reader = ctx.manager.reader();
    return reader.getNodeMeta(args.node_id)?.origin === 'code' ? { ...result, unresolved_calls: reader.unresolvedCalls(args.node_id) } : result;
  },
});
