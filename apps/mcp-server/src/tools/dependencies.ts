/** `docforge_dependencies` (contract: read tools): bounded outgoing traversal, depth 1 by default. */
import { defineTool } from '../define-tool.js';
import { traversalResult } from './shared.js';

/** The `docforge_dependencies` definition. @throws DocforgeError `node_not_found`. */
export const dependenciesTool = defineTool({
  name: 'docforge_dependencies',
  kind: 'sync',
  handler(ctx, sync, args) {
    return traversalResult(ctx, sync, args, 'outgoing', 1);
  },
});
