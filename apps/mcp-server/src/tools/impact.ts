/** `docforge_impact` (contract: read tools): bounded incoming traversal, depth 3 by default. */
import { defineTool } from '../define-tool.js';
import { traversalResult } from './shared.js';

/** The `docforge_impact` definition. @throws DocforgeError `node_not_found`. */
export const impactTool = defineTool({
  name: 'docforge_impact',
  kind: 'sync',
  handler(ctx, sync, args) {
    return traversalResult(ctx, sync, args, 'incoming', 3);
  },
});
