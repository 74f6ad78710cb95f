/** `docforge_get_changeset` (contract "Isolated proposal tools"; issue 10). */
import { canonicalJson } from '@docforge/core';
import { decodeCursor, encodeCursor, operationSha256, summarize } from '@docforge/changesets';
import { defineTool, loadProtocolTool, type ToolResult } from '../define-tool.js';
import { fitItems, loadChangeset, pageBudget, pageLimit, proposalContext } from './proposal-shared.js';
import { cursorPlaceholder, targetOf } from './proposal-read-shared.js';

/** `docforge_get_changeset`: summary, receipts and a page of the ordered operations. */
export const getChangesetTool = defineTool({
  protocol: loadProtocolTool('docforge_get_changeset'),
  kind: 'sync',
  fit: 'page_with_omissions',
  handler(ctx, sync, args) {
    const { view, store } = proposalContext(ctx, sync);
    const doc = loadChangeset(store, args.changeset_id);
    const binding = { request: doc.id, version: doc.changeset_sha256 };
    const start = decodeCursor(args.cursor, 'docforge_get_changeset', binding);
    const limit = pageLimit(args, sync);
    const summaries = doc.operations.map((op, index) => ({ index, op: op.op, operation_sha256: operationSha256(op), chars: canonicalJson(op).length, node_id: targetOf(op) }));
    const skeleton: ToolResult = { changeset: summarize(doc, view), receipts: doc.receipts, operations: [], operations_summarized: false, truncated: true, next_cursor: cursorPlaceholder('docforge_get_changeset', binding, doc.operations.length), limit };
    const budget = pageBudget(ctx, sync, skeleton);
    const wanted = Math.min(limit, doc.operations.length - start);
    let page: Record<string, unknown>[] = fitItems(summaries.map((s, i) => ({ ...s, operation: doc.operations[i] })), start, limit, budget);
    let summarized = false;
    if (page.length < wanted) {
      // An oversized page: deterministic summaries with hashes and character counts instead.
      page = fitItems(summaries, start, limit, budget);
      summarized = true;
    }
    const end = start + page.length;
    return { result: { ...skeleton, operations: page, operations_summarized: summarized, truncated: end < doc.operations.length, next_cursor: end < doc.operations.length ? encodeCursor('docforge_get_changeset', binding, end) : null } };
  },
});
