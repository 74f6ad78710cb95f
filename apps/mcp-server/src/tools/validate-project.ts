/** `docforge_validate_project` (contract: read tools): stored source issues by severity, sync errors first, keyset cursor. */
import { errors, locatedIssueMessage } from '@docforge/core';
import { decodeCursor, encodeCursor } from '@docforge/retrieval';
import { pageOutcome } from '../outcome.js';
import { defineTool, loadProtocolTool } from '../define-tool.js';
import { limitOf } from './shared.js';

/**
 * The `docforge_validate_project` definition: pages the stored findings by stored position; the
 * cursor (v1, libs/retrieval cursor.ts) is bound to the severities and the generation, as
 * `docforge_filter_nodes`. A sync error is reported first, on the first page only.
 * @throws DocforgeError `invalid_cursor`, `stale_cursor`.
 */
export const validateProjectTool = defineTool({
  protocol: loadProtocolTool('docforge_validate_project'),
  kind: 'sync',
  fit: 'page',
  handler(ctx, sync, args) {
    const limit = limitOf(args, sync, 100);
    const severities: string[] = Array.isArray(args.severities) ? [...args.severities].sort() : ['error', 'warning'];
    const binding = {
      op: 'docforge_validate_project',
      project: sync.descriptor.project.id,
      adapter: sync.publication.adapter_version,
      generation: sync.publication.generation,
      params: { severities },
      collection: sync.publication.source_hash,
    };
    let afterSeq = 0;
    if (typeof args.cursor === 'string') {
      const position = decodeCursor(args.cursor, binding).position;
      if (typeof position !== 'number' || !Number.isSafeInteger(position) || position < 0) throw errors.invalidCursor('bad_position', 'The cursor position is not valid for this tool.');
      afterSeq = position;
    }
    const reader = ctx.manager.reader();
    // Each item's stored position, for the cursor after it (0 for the sync error, which precedes every stored finding).
    const seqOf = new WeakMap<object, number>();
    const items: Record<string, unknown>[] = reader.issuesBySeverity(severities, limit + 1, afterSeq).map(({ seq, ...issue }) => {
      const item = { ...issue };
      seqOf.set(item, seq);
      return item;
    });
    const counts = reader.issueCountsBySeverity();
    if (sync.sync_error) {
      // The sources could not be published (e.g. a broken descriptor): report it first.
      const details = sync.sync_error.details;
      if (typeof args.cursor !== 'string') {
        const located = { path: typeof details.path === 'string' ? details.path : null, line: typeof details.line === 'number' ? details.line : null };
        const item = { severity: 'error', code: sync.sync_error.code, message: locatedIssueMessage({ message: sync.sync_error.message, ...located }), ...located, node_id: null };
        seqOf.set(item, 0);
        items.unshift(item);
      }
      counts.error = (counts.error ?? 0) + 1;
    }
    const page = items.slice(0, limit);
    const truncated = items.length > limit;
    const after = (item: object): string => encodeCursor(binding, seqOf.get(item) ?? 0);
    const last = page.at(-1);
    const result = {
      valid: (counts.error ?? 0) === 0,
      // `info` (coverage findings, issue 32 item 4) is counted but listed only when asked for.
      counts: { error: counts.error ?? 0, warning: counts.warning ?? 0, info: counts.info ?? 0 },
      items: page,
      truncated,
      limit,
      ...(reader.meta.mention_counts ? { mentions: JSON.parse(reader.meta.mention_counts) as Record<string, number> } : {}),
      next_cursor: truncated && last ? after(last) : null,
    };
    return pageOutcome(result, after);
  },
});
