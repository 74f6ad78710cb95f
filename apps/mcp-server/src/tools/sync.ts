/** `docforge_sync` (contract: read tools): synchronizes and reports the publication and build figures. */
import { defineTool, loadProtocolTool } from '../define-tool.js';
import { round } from './shared.js';

/** The `docforge_sync` definition. */
export const syncTool = defineTool({
  protocol: loadProtocolTool('docforge_sync'),
  kind: 'sync',
  fit: 'none',
  handler(_ctx, sync) {
    const result = {
      rebuilt: sync.rebuilt,
      generation: sync.publication.generation,
      source_identity: sync.publication.source_identity,
      counts: sync.publication.counts,
      identity_ms: round(sync.identity_ms),
      build: sync.stats ? { mode: sync.stats.mode, parsed: sync.stats.parsed, reused: sync.stats.reused, total_ms: round(sync.stats.total_ms) } : null,
    };
    return { result };
  },
});
