/** `docforge_get_changeset_diff` (contract "Isolated proposal tools"; issue 10). */
import { sha256 } from '@docforge/core';
import { changeEntries, chunkPayload, decodeCursorAt, encodeCursor, evaluateStored, summarize } from '@docforge/changesets';
import { defineTool, loadProtocolTool, type ToolResult } from '../define-tool.js';
import { fitItems, loadChangeset, pageBudget, pageLimit, proposalContext } from './proposal-shared.js';
import { cursorPlaceholder } from './proposal-read-shared.js';

const TOOL = 'docforge_get_changeset_diff';

/**
 * `docforge_get_changeset_diff`: pages of per-operation changes in operation order. Decision on the
 * contract's "individually oversized diff": the unit is ONE operation's diff (its change entry).
 * Entries that fit are paged normally (`format = "changes"`); an entry that cannot fit a page by
 * itself is served alone as `canonical_json_chunk` pages whose payload is
 * `{operations: [that operation], changes: [its change]}` (`chunk.operation_index` names it), and
 * paging then resumes with the next entry. Every operation appears exactly once across the pages,
 * either as a change entry or inside one chunk sequence, never both.
 */
export const getChangesetDiffTool = defineTool({
  protocol: loadProtocolTool(TOOL),
  kind: 'sync',
  fit: 'chunked',
  handler(ctx, sync, args) {
    const { view, store } = proposalContext(ctx, sync);
    const doc = loadChangeset(store, args.changeset_id);
    const changes = changeEntries(evaluateStored(view, store, doc).projection.outcomes);
    const limit = pageLimit(args, sync);
    const summary = summarize(doc, view);
    const binding = { request: doc.id, version: `${doc.changeset_sha256}:${view.sourceHash}` };
    const pagedSkeleton: ToolResult = { changeset: summary, format: 'changes', changes: [], truncated: true, next_cursor: cursorPlaceholder(TOOL, binding, changes.length), limit };
    const budget = pageBudget(ctx, sync, pagedSkeleton);
    const { position: start, sub } = decodeCursorAt(args.cursor, TOOL, binding);
    const next = (position: number, chunk = 0): string | null => (position < changes.length ? encodeCursor(TOOL, binding, position, chunk) : null);
    const entry = changes[start];
    if (entry === undefined || JSON.stringify(entry).length <= budget) {
      // fitPrefix stops before the first entry that does not fit, so an oversized entry starts its own page.
      const page = fitItems(changes, start, limit, budget);
      const end = start + page.length;
      return { result: { ...pagedSkeleton, changes: page, truncated: end < changes.length, next_cursor: next(end) } };
    }
    const chunkSkeleton: ToolResult = {
      changeset: summary, format: 'canonical_json_chunk',
      chunk: { operation_index: start, index: 0, count: 0, data: '', payload_sha256: sha256(''), payload_chars: 0 }, truncated: true,
      // A chunk index never exceeds the payload's characters (at least one character per chunk).
      next_cursor: cursorPlaceholder(TOOL, binding, changes.length, JSON.stringify({ operations: [doc.operations[start]], changes: [entry] }).length), limit,
    };
    // JSON escaping can double an ASCII chunk (quotes and backslashes), so a chunk gets half the room.
    const chunks = chunkPayload({ operations: [doc.operations[start]], changes: [entry] }, Math.floor(pageBudget(ctx, sync, chunkSkeleton) / 2));
    const chunk = chunks[Math.min(sub, chunks.length - 1)]!;
    const cursor = chunk.index + 1 < chunk.count ? next(start, chunk.index + 1) : next(start + 1);
    return { result: { ...chunkSkeleton, chunk: { operation_index: start, ...chunk }, truncated: cursor !== null, next_cursor: cursor } };
  },
});
