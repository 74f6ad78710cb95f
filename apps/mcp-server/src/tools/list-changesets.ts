/** `docforge_list_changesets` (contract "Isolated proposal tools"; issue 10). */
import { decodeCursor, encodeCursor, summarize, type ReadStatus } from '@docforge/changesets';
import { defineTool, loadProtocolTool, type ToolResult } from '../define-tool.js';
import { pageOutcome } from '../outcome.js';
import { fitItems, pageBudget, pageLimit, proposalContext } from './proposal-shared.js';
import { ALL_STATUSES, DEFAULT_STATUSES, cursorPlaceholder } from './proposal-read-shared.js';

/** `docforge_list_changesets`: draft and ready by default; other statuses on explicit request. */
export const listChangesetsTool = defineTool({
  protocol: loadProtocolTool('docforge_list_changesets'),
  kind: 'sync',
  fit: 'page',
  handler(ctx, sync, args) {
    const { view, store } = proposalContext(ctx, sync);
    const statuses = args.history === true ? [...ALL_STATUSES] : [...((args.statuses as ReadStatus[] | undefined) ?? DEFAULT_STATUSES)].sort();
    const listing = store.list();
    const all = listing.documents.map((d) => summarize(d, view)).filter((s) => statuses.includes(s.status));
    const limit = pageLimit(args, sync);
    const binding = { request: `list:${statuses.join(',')}`, version: '' };
    const start = decodeCursor(args.cursor, 'docforge_list_changesets', binding);
    const skeleton: ToolResult = { items: [], truncated: true, next_cursor: cursorPlaceholder('docforge_list_changesets', binding, all.length), limit, statuses, unreadable: listing.unreadable.length };
    const items = fitItems(all, start, limit, pageBudget(ctx, sync, skeleton));
    const end = start + items.length;
    // Packed to the page budget above, so the final fitting never trims it: no cursor maker (null).
    return pageOutcome({ ...skeleton, items, truncated: end < all.length, next_cursor: end < all.length ? encodeCursor('docforge_list_changesets', binding, end) : null }, null);
  },
});
