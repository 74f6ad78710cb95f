/**
 * `docforge_stop_visualization` (contract: Visualization boundary): stops every graph-browser
 * worker of the bound project, current or stale. A status-kind tool: it never synchronizes or
 * opens the index, and never starts a viewer manager just to stop nothing.
 */
import { defineTool, loadProtocolTool } from '../define-tool.js';
import { preSyncProject } from '../envelope.js';
import { withViewerManager } from './viewer-shared.js';

/** The `docforge_stop_visualization` definition. @throws DocforgeError `viewer_unavailable` when a manager runs but fails */
export const stopVisualizationTool = defineTool({
  protocol: loadProtocolTool('docforge_stop_visualization'),
  kind: 'status',
  fit: 'none',
  async handler(ctx, _args, diagnostics) {
    const result = await withViewerManager(false, diagnostics, async (client) => {
      if (client === null) return { stopped: [] as string[], manager_running: false };
      return { stopped: (await client.stopWorker({ project_root: ctx.manager.root })).stopped, manager_running: true };
    });
    return { result, project: preSyncProject(ctx.manager) };
  },
});
