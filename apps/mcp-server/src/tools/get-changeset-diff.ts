/** `docforge_get_changeset_diff` (contract "Isolated proposal tools"; issue 10). */
import { sha256 } from '@docforge/core';
import { changeEntries, chunkPayload, decodeCursor, encodeCursor, evaluateStored, summarize } from '@docforge/changesets';
import { defineTool, type ToolResult } from '../define-tool.js';
import { fitItems, loadChangeset, pageBudget, pageLimit, proposalContext } from './proposal-shared.js';
import { CURSOR_PLACEHOLDER } from './proposal-read-shared.js';

/**
 * `docforge_get_changeset_diff`: pages of per-operation changes; when one change cannot fit a page
 * by itself, the whole diff is served as `canonical_json_chunk` pages of `{operations, changes}`.
 */
export const getChangesetDiffTool = defineTool({
  name: 'docforge_get_changeset_diff',
  kind: 'sync',
  handler(ctx, sync, args) {
    const { view, store } = proposalContext(ctx, sync);
    const doc = loadChangeset(store, args.changeset_id);
    const changes = changeEntries(evaluateStored(view, store, doc).projection.outcomes);
    const limit = pageLimit(args, sync);
    const summary = summarize(doc, view);
    const pagedSkeleton: ToolResult = { changeset: summary, format: 'changes', changes: [], truncated: true, next_cursor: CURSOR_PLACEHOLDER, limit };
    const budget = pageBudget(ctx, sync, pagedSkeleton);
    const oversized = changes.some((c) => JSON.stringify(c).length > budget);
    const binding = `${doc.id}:${doc.changeset_sha256}:${view.sourceHash}:${oversized ? 'chunk' : 'changes'}`;
    const start = decodeCursor(args.cursor, 'docforge_get_changeset_diff', binding);
    if (!oversized) {
      const page = fitItems(changes, start, limit, budget);
      const end = start + page.length;
      return { ...pagedSkeleton, changes: page, truncated: end < changes.length, next_cursor: end < changes.length ? encodeCursor('docforge_get_changeset_diff', binding, end) : null };
    }
    const chunkSkeleton: ToolResult = {
      changeset: summary, format: 'canonical_json_chunk',
      chunk: { index: 0, count: 0, data: '', payload_sha256: sha256(''), payload_chars: 0 }, truncated: true, next_cursor: CURSOR_PLACEHOLDER, limit,
    };
    // JSON escaping can double an ASCII chunk (quotes and backslashes), so a chunk gets half the room.
    const chunks = chunkPayload({ operations: doc.operations, changes }, Math.floor(pageBudget(ctx, sync, chunkSkeleton) / 2));
    const chunk = chunks[Math.min(start, chunks.length - 1)]!;
    const more = chunk.index + 1 < chunk.count;
    return { ...chunkSkeleton, chunk, truncated: more, next_cursor: more ? encodeCursor('docforge_get_changeset_diff', binding, chunk.index + 1) : null };
  },
});
