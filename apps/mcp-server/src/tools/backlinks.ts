/** `docforge_backlinks` (contract: read tools): incoming edges of one node, keyset cursor. */
import { errors } from '@docforge/core';
import { backlinks, decodeCursor, encodeCursor, unmatchedRelations, type Backlink, type BacklinkPosition } from '@docforge/retrieval';
import { pageOutcome } from '../outcome.js';
import { defineTool, loadProtocolTool } from '../define-tool.js';
import { limitOf } from './shared.js';

/** The position after one returned backlink (its relation and linking node). */
function positionOf(item: Backlink): BacklinkPosition {
  return { relation: item.relation, source_id: item.id };
}

/** Whether a decoded cursor position is a backlinks keyset `{relation, source_id}`. */
function isBacklinkPosition(value: unknown): value is BacklinkPosition {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const record = value as Record<string, unknown>;
  return Object.keys(record).length === 2 && typeof record.relation === 'string' && typeof record.source_id === 'string';
}

/**
 * The `docforge_backlinks` definition: pages by `(relation, source id)` keyset; the cursor is bound
 * to the node, the relation filter and the generation (as `docforge_filter_nodes`).
 * @throws DocforgeError `node_not_found`, `invalid_cursor`, `stale_cursor`.
 */
export const backlinksTool = defineTool({
  protocol: loadProtocolTool('docforge_backlinks'),
  kind: 'sync',
  fit: 'page',
  handler(ctx, sync, args) {
    const limit = limitOf(args, sync);
    const relations = args.relations ? [...args.relations].sort() : [];
    const binding = {
      op: 'docforge_backlinks',
      project: sync.descriptor.project.id,
      adapter: sync.publication.adapter_version,
      generation: sync.publication.generation,
      // The page size may change between pages; the node and the relation filter may not.
      params: { node_id: args.node_id, relations },
      collection: sync.publication.source_hash,
    };
    let after: BacklinkPosition | null = null;
    if (typeof args.cursor === 'string') {
      const position = decodeCursor(args.cursor, binding).position;
      if (!isBacklinkPosition(position)) throw errors.invalidCursor('bad_position', 'The cursor position is not valid for this tool.');
      after = position;
    }
    const reader = ctx.manager.reader();
    const page = backlinks(reader, args.node_id, limit, relations, after);
    const last = page.items.at(-1);
    // An empty first page names the relations of the filter that no edge carries (a typo).
    const unmatched = page.items.length === 0 && after === null ? unmatchedRelations(reader, relations, sync.descriptor.vocabulary.relations) : [];
    const result = {
      node_id: args.node_id,
      items: page.items,
      truncated: page.truncated,
      limit,
      next_cursor: page.truncated && last ? encodeCursor(binding, { ...positionOf(last) }) : null,
      ...(unmatched.length > 0 ? { unmatched_filters: unmatched } : {}),
    };
    return pageOutcome(result, (item: Backlink) => encodeCursor(binding, { ...positionOf(item) }));
  },
});
