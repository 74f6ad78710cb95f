/**
 * What `docforge_get_context` and `docforge_get_task_context` share (moved from the former
 * tools-context.ts): the default page size, the result character budget and the cursor binding.
 */
import type { SyncReport } from '@docforge/sync';
import { CONTENT_NOTICE, projectBlock, type Envelope } from '../envelope.js';
import type { ToolContext } from '../define-tool.js';

/** Page size when `limit` is omitted (still capped by `[limits].max_results`). */
export const CONTEXT_DEFAULT_LIMIT = 50;
/** Characters kept free below `[limits].max_output_chars` besides the measured envelope. */
const RESPONSE_MARGIN_CHARS = 64;

/**
 * The characters a tool's `result` may use: the response limit the server applies to this
 * response (`[limits].max_output_chars` of the synchronized descriptor) minus the envelope around
 * `result` (notice, project block) and a margin. Diagnostics are not counted: the server drops
 * them first.
 */
export function resultCharBudget(ctx: ToolContext, sync: SyncReport): number {
  const limit = sync.descriptor.limits.max_output_chars;
  const frame: Envelope = { schema_version: 1, ok: true, notice: CONTENT_NOTICE, project: projectBlock(ctx.manager, sync), result: {} };
  return limit - (JSON.stringify(frame).length - 2) - RESPONSE_MARGIN_CHARS;
}

/** The cursor binding of a context page: project, adapter version and generation of the sync. */
export function pageBinding(sync: SyncReport): { project: string; adapter: string; generation: number } {
  return { project: sync.descriptor.project.id, adapter: sync.publication.adapter_version, generation: sync.publication.generation };
}

