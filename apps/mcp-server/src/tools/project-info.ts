/** `docforge_project_info` (contract: read tools): the descriptor as applied, counts and generation. */
import { defineTool, loadProtocolTool } from '../define-tool.js';
import { countsByKind } from './shared.js';

/** The `docforge_project_info` definition. */
export const projectInfoTool = defineTool({
  protocol: loadProtocolTool('docforge_project_info'),
  kind: 'sync',
  fit: 'none',
  handler(ctx, sync) {
    const d = sync.descriptor;
    const result = {
      project_id: d.project.id,
      name: d.project.name,
      root: ctx.manager.root,
      sources: d.sources,
      adapter: { code: d.adapter.code, strategy: d.adapter.strategy, project_owned: d.adapter.module !== null },
      vocabulary: d.vocabulary,
      limits: d.limits,
      views: d.views.map((v) => ({ id: v.id, title: v.title, renderer: v.renderer })),
      counts: { ...sync.publication.counts, by_kind: countsByKind(ctx) },
      generation: sync.publication.generation,
    };
    return { result };
  },
});
