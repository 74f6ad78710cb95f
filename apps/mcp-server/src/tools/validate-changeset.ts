/** `docforge_validate_changeset` (contract "Isolated proposal tools"; issue 10). */
import { decodeCursor, encodeCursor, evaluateStored, summarize } from '@docforge/changesets';
import { defineTool, type ToolResult } from '../define-tool.js';
import { fitItems, loadChangeset, pageBudget, pageLimit, proposalContext } from './proposal-shared.js';
import { CURSOR_PLACEHOLDER } from './proposal-read-shared.js';

/** `docforge_validate_changeset`: projection + validation against the current project, paged findings. */
export const validateChangesetTool = defineTool({
  name: 'docforge_validate_changeset',
  kind: 'sync',
  handler(ctx, sync, args) {
    const { view, store } = proposalContext(ctx, sync);
    const doc = loadChangeset(store, args.changeset_id);
    const evaluation = evaluateStored(view, store, doc);
    const findings = evaluation.findings;
    const binding = `${doc.id}:${doc.changeset_sha256}:${view.sourceHash}`;
    const start = decodeCursor(args.cursor, 'docforge_validate_changeset', binding);
    const limit = pageLimit(args, sync);
    const finding_counts = { error: findings.filter((f) => f.severity === 'error').length, warning: findings.filter((f) => f.severity === 'warning').length };
    const skeleton: ToolResult = { changeset: summarize(doc, view), valid: evaluation.valid, finding_counts, findings: [], truncated: true, next_cursor: CURSOR_PLACEHOLDER, limit };
    const page = fitItems(findings, start, limit, pageBudget(ctx, sync, skeleton));
    const end = start + page.length;
    return { ...skeleton, findings: page, truncated: end < findings.length, next_cursor: end < findings.length ? encodeCursor('docforge_validate_changeset', binding, end) : null };
  },
});
