/** `docforge_impact` (contract: read tools): bounded incoming traversal, depth 3 by default. */
import { defineTool, loadProtocolTool } from '../define-tool.js';
import { pageOutcome } from '../outcome.js';
import { traversalResult } from './shared.js';

/** The `docforge_impact` definition. @throws DocforgeError `node_not_found`. */
export const impactTool = defineTool({
  protocol: loadProtocolTool('docforge_impact'),
  kind: 'sync',
  fit: 'page',
  handler(ctx, sync, args, diagnostics) {
    return pageOutcome(traversalResult(ctx, sync, args, 'incoming', 3, diagnostics), null);
  },
});
