/** `docforge_validate_changeset` (contract "Isolated proposal tools"; issue 10). */
import { canonicalJson } from '@docforge/core';
import { decodeCursor, encodeCursor, evaluateStored, operationSha256, summarize, type ChangesetDocument, type Finding } from '@docforge/changesets';
import { defineTool, loadProtocolTool, type ToolResult } from '../define-tool.js';
import { fitItems, loadChangeset, pageBudget, pageLimit, proposalContext } from './proposal-shared.js';
import { cursorPlaceholder, targetOf } from './proposal-read-shared.js';

/**
 * The operations the page's findings refer to, in operation order: with the exact operation when
 * they fit `budget`, else the deterministic summaries (index, op, hash, character count, node id).
 */
function operationsOf(doc: ChangesetDocument, page: readonly Finding[], budget: number): { summaries: Record<string, unknown>[]; summarized: boolean } {
  const indexes = [...new Set(page.map((f) => f.operation_index).filter((i): i is number => i !== null && i < doc.operations.length))].sort((a, b) => a - b);
  const summaries = indexes.map((index) => {
    const op = doc.operations[index]!;
    return { index, op: op.op, operation_sha256: operationSha256(op), chars: canonicalJson(op).length, node_id: targetOf(op) };
  });
  const full = summaries.map((s) => ({ ...s, operation: doc.operations[s.index] }));
  return JSON.stringify(full).length <= budget ? { summaries: full, summarized: false } : { summaries, summarized: true };
}

/**
 * `docforge_validate_changeset`: projection + validation against the current project, paged
 * findings, plus `operation_summaries` for the operations those findings name. An oversized page
 * (the exact operations do not fit beside the findings) carries deterministic operation summaries
 * with hashes and character counts instead (`operations_summarized = true`).
 */
export const validateChangesetTool = defineTool({
  protocol: loadProtocolTool('docforge_validate_changeset'),
  kind: 'sync',
  fit: 'page_with_omissions',
  handler(ctx, sync, args) {
    const { view, store } = proposalContext(ctx, sync);
    const doc = loadChangeset(store, args.changeset_id);
    const evaluation = evaluateStored(view, store, doc);
    const findings = evaluation.findings;
    const binding = { request: doc.id, version: `${doc.changeset_sha256}:${view.sourceHash}` };
    const start = decodeCursor(args.cursor, 'docforge_validate_changeset', binding);
    const limit = pageLimit(args, sync);
    const finding_counts = { error: findings.filter((f) => f.severity === 'error').length, warning: findings.filter((f) => f.severity === 'warning').length };
    const skeleton: ToolResult = { changeset: summarize(doc, view), valid: evaluation.valid, finding_counts, findings: [], operation_summaries: [], operations_summarized: false, truncated: true, next_cursor: cursorPlaceholder('docforge_validate_changeset', binding, findings.length), limit };
    const budget = pageBudget(ctx, sync, skeleton);
    let page = fitItems(findings, start, limit, budget);
    let ops = operationsOf(doc, page, budget - JSON.stringify(page).length);
    // Shrink the findings page until even the summaries fit beside it (at least one finding stays).
    while (page.length > 1 && JSON.stringify(page).length + JSON.stringify(ops.summaries).length > budget) {
      page = page.slice(0, -1);
      ops = operationsOf(doc, page, budget - JSON.stringify(page).length);
    }
    const end = start + page.length;
    const result = {
      ...skeleton, findings: page, operation_summaries: ops.summaries, operations_summarized: ops.summarized,
      truncated: end < findings.length, next_cursor: end < findings.length ? encodeCursor('docforge_validate_changeset', binding, end) : null,
    };
    return { result };
  },
});
