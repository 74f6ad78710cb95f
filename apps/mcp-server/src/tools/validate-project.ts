/** `docforge_validate_project` (contract: read tools): stored source issues by severity, sync errors first. */
import { defineTool } from '../define-tool.js';
import { limitOf } from './shared.js';

/** The `docforge_validate_project` definition. */
export const validateProjectTool = defineTool({
  name: 'docforge_validate_project',
  kind: 'sync',
  handler(ctx, sync, args) {
    const limit = limitOf(args, sync, 100);
    const severities: string[] = Array.isArray(args.severities) ? args.severities : ['error', 'warning'];
    const reader = ctx.manager.reader();
    const stored: Record<string, unknown>[] = reader.issuesBySeverity(severities, limit + 1).map((issue) => ({ ...issue }));
    const counts = reader.issueCountsBySeverity();
    const items = [...stored];
    if (sync.sync_error) {
      // The sources could not be published (e.g. a broken descriptor): report it first.
      const details = sync.sync_error.details;
      items.unshift({ severity: 'error', code: sync.sync_error.code, message: sync.sync_error.message, path: typeof details.path === 'string' ? details.path : null, line: typeof details.line === 'number' ? details.line : null, node_id: null });
      counts.error = (counts.error ?? 0) + 1;
    }
    return {
      valid: (counts.error ?? 0) === 0,
      counts: { error: counts.error ?? 0, warning: counts.warning ?? 0 },
      items: items.slice(0, limit),
      truncated: items.length > limit,
      limit,
      ...(reader.meta.mention_counts ? { mentions: JSON.parse(reader.meta.mention_counts) as Record<string, number> } : {}),
    };
  },
});
