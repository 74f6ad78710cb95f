/**
 * `docforge_visualize` (contract: Visualization boundary): opens the built-in `graph-browser@17`
 * template on the currently validated index. Focus one stable node, run one bounded lexical
 * query, or open the overview. The input schema has no field for a project, database, template,
 * host, port, path or SQL: the project is the bound one, the database its published index file,
 * the host 127.0.0.1 with a port the worker's OS picks.
 */
import path from 'node:path';
import { errors } from '@docforge/core';
import { defineTool, loadProtocolTool } from '../define-tool.js';
import { VIEWER_TEMPLATE, withViewerManager } from './viewer-shared.js';

/** The `docforge_visualize` definition. @throws DocforgeError `node_not_found`, `invalid_arguments` (a query with a lone surrogate), `viewer_unavailable`, `worker_failed` */
export const visualizeTool = defineTool({
  protocol: loadProtocolTool('docforge_visualize'),
  kind: 'sync',
  fit: 'none',
  async handler(ctx, sync, args, diagnostics) {
    const focus = args.node_id ?? null;
    const query = args.query ?? null;
    if (focus !== null && ctx.manager.reader().getNode(focus) === null) throw errors.nodeNotFound(focus);
    // The query travels in the viewer URL: a lone surrogate cannot be percent-encoded as UTF-8
    // (encodeURIComponent throws URIError), so it is refused before any worker starts (break-it trial).
    const lone = query === null ? -1 : query.search(/\p{Surrogate}/u);
    if (lone >= 0) throw errors.invalidArguments(`/query must be well-formed Unicode: a lone surrogate at character ${lone} cannot be put in the viewer URL`, { argument: 'query', index: lone });
    const p = sync.publication;
    const signature = { generation: p.generation, source_identity: p.source_identity, index_file: p.index_file, index_ino: p.index_ino, index_size: p.index_size };
    const indexPath = path.join(ctx.manager.layout().indexDir, p.index_file);
    const result = await withViewerManager(true, diagnostics, async (client) => {
      const ensured = await client!.ensureWorker({ project_root: ctx.manager.root, project_id: sync.descriptor.project.id, index_path: indexPath, signature, no_ast: ctx.policy.ast.no_ast });
      const issued = await client!.issueToken(ensured.worker.worker_id);
      const extra = focus !== null ? `&focus=${encodeURIComponent(focus)}` : query !== null ? `&q=${encodeURIComponent(query)}` : '';
      return {
        template: VIEWER_TEMPLATE,
        mode: focus !== null ? 'focus' : query !== null ? 'search' : 'overview',
        url: `${issued.url}${extra}`,
        focus_node_id: focus,
        query,
        snapshot: { project_id: sync.descriptor.project.id, ...signature },
        worker: { worker_id: ensured.worker.worker_id, reused: ensured.reused, port: issued.port },
        token: { single_use: true },
      };
    });
    return { result };
  },
});
