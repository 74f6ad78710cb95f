/** `docforge_backlinks` (contract: read tools): incoming edges of one node. */
import { backlinks } from '@docforge/retrieval';
import { defineTool } from '../define-tool.js';
import { limitOf } from './shared.js';

/** The `docforge_backlinks` definition. @throws DocforgeError `node_not_found`. */
export const backlinksTool = defineTool({
  name: 'docforge_backlinks',
  kind: 'sync',
  handler(ctx, sync, args) {
    const limit = limitOf(args, sync);
    const result = backlinks(ctx.manager.reader(), args.node_id, limit, args.relations);
    return { node_id: args.node_id, items: result.items, truncated: result.truncated, limit };
  },
});
