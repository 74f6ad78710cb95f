/** `docforge_filter_nodes` (contract: read tools): exact filters, id order, keyset cursor. */
import { errors } from '@docforge/core';
import { decodeCursor, encodeCursor, filterNodes, unmatchedFilterValues } from '@docforge/retrieval';
import { pageOutcome } from '../outcome.js';
import { defineTool, loadProtocolTool } from '../define-tool.js';
import { filtersOf, limitOf } from './shared.js';

/** The `docforge_filter_nodes` definition. @throws DocforgeError `invalid_cursor`, `stale_cursor`. */
export const filterNodesTool = defineTool({
  protocol: loadProtocolTool('docforge_filter_nodes'),
  kind: 'sync',
  fit: 'page',
  handler(ctx, sync, args) {
    const limit = limitOf(args, sync);
    const filters = filtersOf(args);
    const binding = {
      op: 'docforge_filter_nodes',
      project: sync.descriptor.project.id,
      adapter: sync.publication.adapter_version,
      generation: sync.publication.generation,
      // The page size may change between pages; the filters may not.
      params: { filters },
      collection: sync.publication.source_hash,
    };
    const reader = ctx.manager.reader();
    let after: string | null = null;
    if (typeof args.cursor === 'string') {
      const position = decodeCursor(args.cursor, binding).position;
      // The cursor is bound to this generation, so its position is the id of a node of it: any
      // other string (empty, made up) is a cursor DocForge never made (break-it trial 50).
      if (typeof position !== 'string' || !reader.hasNode(position)) throw errors.invalidCursor('bad_position', 'The cursor position is not valid for this tool.');
      after = position;
    }
    const page = filterNodes(reader, filters, limit, after);
    const last = page.items.at(-1);
    // An empty first page names the filter values no node holds (a typo such as kinds ["fucntion"]).
    const unmatched = page.items.length === 0 && after === null ? unmatchedFilterValues(reader, filters, { kinds: sync.descriptor.vocabulary.kinds }) : [];
    const result = {
      items: page.items,
      truncated: page.truncated,
      limit,
      next_cursor: page.truncated && last ? encodeCursor(binding, last.id) : null,
      ...(unmatched.length > 0 ? { unmatched_filters: unmatched } : {}),
    };
    return pageOutcome(result, (item: { id: string }) => encodeCursor(binding, item.id));
  },
});
