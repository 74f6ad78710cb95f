/**
 * `docforge_visualization_status` (contract: Visualization boundary): lifecycle and freshness
 * reported separately. The index state is the manager's stat-only comparison of the served
 * snapshot's signature with `current.json`; the source state compares the cheap source identity
 * (lstat walk) with the snapshot's. `snapshot_state` and top-level `staleness` are `stale` when
 * either is proven stale, `current` only when both are proven current, `unknown` otherwise. It
 * never synchronizes, rebuilds, opens SQLite or loads the project, and never starts a manager.
 */
import { combineFreshness, sourceFreshness, type Freshness, type WorkerRecord } from '@docforge/viewer-client';
import { defineTool, loadProtocolTool } from '../define-tool.js';
import { preSyncProject } from '../envelope.js';
import { VIEWER_TEMPLATE, withViewerManager } from './viewer-shared.js';

/** Workers listed per answer (newest first). */
const MAX_LISTED_WORKERS = 20;

/** The `docforge_visualization_status` definition. @throws DocforgeError `viewer_unavailable` when a manager runs but fails */
export const visualizationStatusTool = defineTool({
  protocol: loadProtocolTool('docforge_visualization_status'),
  kind: 'status',
  fit: 'none',
  async handler(ctx, _args, diagnostics) {
    const listed = await withViewerManager(false, diagnostics, async (client) => (client === null ? null : (await client.workerStatus(ctx.manager.root)).workers));
    const workers: WorkerRecord[] = listed ?? [];
    const served = workers.find((w) => w.state === 'running') ?? null;
    const index: Freshness = served === null ? 'unknown' : served.signature_state;
    const source: Freshness = served === null ? 'unknown' : sourceFreshness(ctx.manager.cheapIdentity(), served.signature.source_identity);
    const state = combineFreshness(index, source);
    const result = {
      template: VIEWER_TEMPLATE,
      lifecycle: {
        manager: listed === null ? 'not_running' : 'running',
        state: workers[0]?.state ?? 'none',
        workers: workers.slice(0, MAX_LISTED_WORKERS).map((w) => ({
          worker_id: w.worker_id, state: w.state, signature_state: w.signature_state, port: w.port, generation: w.signature.generation,
          started_at: w.started_at, last_activity_at: w.last_activity_at, exit_reason: w.exit?.reason ?? null,
        })),
        truncated: workers.length > MAX_LISTED_WORKERS,
      },
      snapshot: served === null ? null : { project_id: served.project_id, ...served.signature },
      snapshot_state: state,
      staleness: state,
      freshness: { index, source },
    };
    return { result, project: { ...preSyncProject(ctx.manager), staleness: state } };
  },
});
