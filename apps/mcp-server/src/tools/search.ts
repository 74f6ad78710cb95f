/** `docforge_search` (contract: read tools): bm25-ranked full-text search with exact filters. */
import { searchNodes, unmatchedFilterValues } from '@docforge/retrieval';
import { defineTool, loadProtocolTool } from '../define-tool.js';
import { pageOutcome } from '../outcome.js';
import { filtersOf, limitOf } from './shared.js';

/** The `docforge_search` definition. */
export const searchTool = defineTool({
  protocol: loadProtocolTool('docforge_search'),
  kind: 'sync',
  fit: 'page',
  handler(ctx, sync, args) {
    const limit = limitOf(args, sync, 20);
    const filters = filtersOf(args);
    const reader = ctx.manager.reader();
    const result = searchNodes(reader, args.query, limit, filters);
    // An empty page names the filter values no node holds (a typo such as kinds ["fucntion"]).
    const unmatched = result.items.length === 0 ? unmatchedFilterValues(reader, filters, { kinds: sync.descriptor.vocabulary.kinds }) : [];
    // A page without a cursor: a trimmed page ends with `truncated = true` (raise the limit or narrow the query).
    return pageOutcome({ query: args.query, items: result.items, truncated: result.truncated, limit, dropped_terms: result.dropped_terms, ...(result.dropped_terms_total === undefined ? {} : { dropped_terms_total: result.dropped_terms_total }), ...(unmatched.length > 0 ? { unmatched_filters: unmatched } : {}) }, null);
  },
});
