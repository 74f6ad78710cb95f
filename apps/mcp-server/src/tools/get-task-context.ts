/**
 * `docforge_get_task_context` (contract: MCP boundary, the task-context and custom
 * context-provider paragraphs). Thin wiring: planning and pagination live in @docforge/retrieval.
 *
 * It carries a precheck: a server built with a custom context provider must answer
 * `task_context_unavailable` without synchronizing or loading the custom projection, and the
 * server runs prechecks after argument validation and before synchronization.
 */
import { errors } from '@docforge/core';
import { effectiveLimit, taskContextPage } from '@docforge/retrieval';
import { defineTool, loadProtocolTool, type ToolContext } from '../define-tool.js';
import { CONTEXT_DEFAULT_LIMIT, pageBinding, resultCharBudget } from './context-shared.js';

/** Tool name of the task-context planner. */
export const GET_TASK_CONTEXT_TOOL = 'docforge_get_task_context' as const;

/** Refuses task context on a server with a custom context provider (contract: no custom task planner in version 1). */
function refuseWithCustomProvider(ctx: ToolContext): void {
  if (ctx.contextProvider) {
    throw errors.taskContextUnavailable(GET_TASK_CONTEXT_TOOL);
  }
}

/**
 * `docforge_get_task_context`: the precheck refuses with `task_context_unavailable` when a custom
 * context provider is bound (before any synchronization); otherwise one page after the sync.
 */
export const getTaskContextTool = defineTool({
  protocol: loadProtocolTool(GET_TASK_CONTEXT_TOOL),
  kind: 'sync',
  fit: 'page_with_omissions',
  precheck: refuseWithCustomProvider,
  handler(ctx, sync, args, diagnostics) {
    // Re-checked here too: the precheck is the contract point, this keeps the handler safe alone.
    refuseWithCustomProvider(ctx);
    const started = performance.now();
    const limit = effectiveLimit(args.limit, sync.descriptor.limits.max_results, CONTEXT_DEFAULT_LIMIT);
    const request: Parameters<typeof taskContextPage>[1] = { task_kind: args.task_kind, task: args.task };
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
    return { result };
  },
});
