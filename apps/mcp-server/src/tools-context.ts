/**
 * `docforge_get_context` and `docforge_get_task_context` (contract: MCP boundary, the
 * get_context, task-context, alias-map and custom context-provider paragraphs). Thin wiring: the
 * packing, planning and pagination live in @docforge/retrieval.
 *
 * `docforge_get_task_context` carries a precheck: a server built with a custom context provider
 * must answer `task_context_unavailable` without synchronizing or loading the custom projection,
 * and the server runs prechecks after argument validation and before synchronization.
 */
import { DocforgeError } from '@docforge/core';
import type { SyncReport } from '@docforge/index';
import type { DiagnosticsCollector } from '@docforge/policy';
import { contextPage, effectiveLimit, taskContextPage, type TaskKind } from '@docforge/retrieval';
import { CONTENT_NOTICE, projectBlock, type Envelope } from './envelope.js';
import type { ToolArgs, ToolContext, ToolDefinition } from './tools.js';

/** Refuses task context on a server with a custom context provider (contract: no custom task planner in version 1). */
function refuseWithCustomProvider(ctx: ToolContext): void {
  if (ctx.contextProvider) {
    throw new DocforgeError('task_context_unavailable', 'This server binds a custom context provider; version 1 exposes no custom task planner. Use docforge_get_context.', { tool: GET_TASK_CONTEXT_TOOL });
  }
}

/** Tool name of the legacy context packer. */
export const GET_CONTEXT_TOOL = 'docforge_get_context';
/** Tool name of the task-context planner. */
export const GET_TASK_CONTEXT_TOOL = 'docforge_get_task_context';
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
function resultCharBudget(ctx: ToolContext, sync: SyncReport): number {
  const limit = sync.descriptor.limits.max_output_chars;
  const frame: Envelope = { schema_version: 1, ok: true, notice: CONTENT_NOTICE, project: projectBlock(ctx.manager, sync), result: {} };
  return limit - (JSON.stringify(frame).length - 2) - RESPONSE_MARGIN_CHARS;
}

function pageBinding(sync: SyncReport): { project: string; adapter: string; generation: number } {
  return { project: sync.descriptor.project.id, adapter: sync.publication.adapter_version, generation: sync.publication.generation };
}

/** `docforge_get_context`: runs after synchronization; uses the custom provider when one is bound. */
export function getContextTool(): ToolDefinition {
  return {
    kind: 'sync',
    run(ctx: ToolContext, sync: SyncReport, args: ToolArgs, diagnostics: DiagnosticsCollector | null) {
      const started = performance.now();
      const limit = effectiveLimit(args.limit as number | undefined, sync.descriptor.limits.max_results, CONTEXT_DEFAULT_LIMIT);
      const contextArgs: { node_id?: string; query?: string; budget?: number } = {};
      if (typeof args.node_id === 'string') contextArgs.node_id = args.node_id;
      if (typeof args.query === 'string') contextArgs.query = args.query;
      if (typeof args.budget === 'number') contextArgs.budget = args.budget;
      const options: Parameters<typeof contextPage>[3] = {
        binding: pageBinding(sync),
        limit,
        resultCharBudget: resultCharBudget(ctx, sync),
        maxResults: sync.descriptor.limits.max_results,
      };
      if (typeof args.cursor === 'string') options.cursor = args.cursor;
      const result = contextPage(ctx.manager.reader(), ctx.contextProvider ?? null, contextArgs, options);
      diagnostics?.add('index_work', performance.now() - started);
      if (result.selection) diagnostics?.count('edges_examined', result.selection.examined_edges);
      return result;
    },
  };
}

/**
 * `docforge_get_task_context`: the precheck refuses with `task_context_unavailable` when a custom
 * context provider is bound (before any synchronization); otherwise one page after the sync.
 */
export function getTaskContextTool(): ToolDefinition {
  return {
    kind: 'sync',
    precheck: refuseWithCustomProvider,
    run(ctx: ToolContext, sync: SyncReport, args: ToolArgs, diagnostics: DiagnosticsCollector | null) {
      // Re-checked here too: the precheck is the contract point, this keeps the handler safe alone.
      refuseWithCustomProvider(ctx);
      const started = performance.now();
      const limit = effectiveLimit(args.limit as number | undefined, sync.descriptor.limits.max_results, CONTEXT_DEFAULT_LIMIT);
      const request: Parameters<typeof taskContextPage>[1] = { task_kind: args.task_kind as TaskKind, task: args.task as string };
      if (typeof args.focus_node_id === 'string') request.focus_node_id = args.focus_node_id;
      if (typeof args.budget === 'number') request.budget = args.budget;
      const options: Parameters<typeof taskContextPage>[2] = {
        policyHash: ctx.policy.policy_hash,
        binding: pageBinding(sync),
        declaredRelations: sync.descriptor.vocabulary.relations,
        roots: { content_roots: sync.descriptor.sources.content_roots, code_roots: sync.descriptor.sources.code_roots },
        limit,
        resultCharBudget: resultCharBudget(ctx, sync),
      };
      if (typeof args.cursor === 'string') options.cursor = args.cursor;
      const result = taskContextPage(ctx.manager.reader(), request, options);
      diagnostics?.add('index_work', performance.now() - started);
      diagnostics?.count('edges_examined', result.examined_edges);
      return result;
    },
  };
}
