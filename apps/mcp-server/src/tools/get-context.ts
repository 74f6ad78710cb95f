/**
 * `docforge_get_context` (contract: MCP boundary, the get_context, alias-map and custom
 * context-provider paragraphs). Thin wiring: the packing and pagination live in @docforge/retrieval.
 */
import { contextPage, effectiveLimit } from '@docforge/retrieval';
import { defineTool, loadProtocolTool } from '../define-tool.js';
import { CONTEXT_DEFAULT_LIMIT, pageBinding, resultCharBudget } from './context-shared.js';

/** Tool name of the legacy context packer. */
export const GET_CONTEXT_TOOL = 'docforge_get_context' as const;

/** `docforge_get_context`: runs after synchronization; uses the custom provider when one is bound. */
export const getContextTool = defineTool({
  protocol: loadProtocolTool(GET_CONTEXT_TOOL),
  kind: 'sync',
  fit: 'page_with_omissions',
  handler(ctx, sync, args, diagnostics) {
    const started = performance.now();
    const limit = effectiveLimit(args.limit, sync.descriptor.limits.max_results, CONTEXT_DEFAULT_LIMIT);
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
    return { result };
  },
});
