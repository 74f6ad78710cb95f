/** `docforge_search` (contract: read tools): bm25-ranked full-text search with exact filters. */
import { searchNodes } from '@docforge/retrieval';
import { defineTool } from '../define-tool.js';
import { filtersOf, limitOf } from './shared.js';

/** The `docforge_search` definition. */
export const searchTool = defineTool({
  name: 'docforge_search',
  kind: 'sync',
  handler(ctx, sync, args) {
    const limit = limitOf(args, sync, 20);
    const result = searchNodes(ctx.manager.reader(), args.query, limit, filtersOf(args));
    return { query: args.query, items: result.items, truncated: result.truncated, limit, dropped_terms: result.dropped_terms };
  },
});
