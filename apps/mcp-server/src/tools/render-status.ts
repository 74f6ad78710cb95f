/**
 * `docforge_render_status` (issue 11 item 6; contract "Render boundary"). A non-repairing status
 * tool: by default it reads the bounded render receipts, the cheap source identity and lstat()s of
 * the declared outputs, and nothing else (no parsing, no HTML, no full output hash, no index
 * rebuild, no writes). `deep = true` runs the side-effect-free full-render equivalence oracle from
 * the current publication opened read-only (when it was built from the current sources).
 */
import { readPublication } from '@docforge/store';
import { deepRenderStatus, openPublishedGraph, renderStatus, type ViewRenderStatus } from '@docforge/render';
import { defineTool, loadProtocolTool, type StatusOutcome } from '../define-tool.js';
import type { ProjectBlock } from '../envelope.js';

/** The tool definition (a status tool: runs without the normal sync). */
export const renderStatusTool = defineTool({
  protocol: loadProtocolTool('docforge_render_status'),
  kind: 'status',
  fit: 'none',
  async handler(ctx, args, diagnostics): Promise<StatusOutcome<'none'>> {
    const descriptor = ctx.manager.descriptor();
    const layout = ctx.manager.layout();
    const sourceIdentity = ctx.manager.cheapIdentity();
    const scope = args.view === undefined ? { sourceIdentity } : { sourceIdentity, view: args.view };
    const publication = readPublication(layout);
    const project: ProjectBlock | null = publication === null ? null : {
      id: publication.project_id,
      root: ctx.manager.root,
      revision: publication.generation,
      source_hash: publication.source_hash,
      adapter_version: publication.adapter_version,
      staleness: sourceIdentity === null ? 'unknown' : publication.source_identity === sourceIdentity ? 'current' : 'stale',
    };
    let views: ViewRenderStatus[];
    if (args.deep !== true) views = renderStatus(descriptor, scope);
    else {
      const published = openPublishedGraph(layout, sourceIdentity);
      try {
        views = await deepRenderStatus(descriptor, { ...scope, graph: published?.graph ?? null, onRenderMs: (ms) => diagnostics?.add('rendering', ms) });
      } finally {
        published?.close();
      }
    }
    const counts = { current: 0, stale: 0, unverified: 0 };
    for (const v of views) counts[v.status] += 1;
    const result: Record<string, unknown> = { deep: args.deep === true, views, counts };
    if (args.deep === true) result.differing_outputs = views.filter((v) => v.differs === true).map((v) => v.output);
    return { result, project };
  },
});
