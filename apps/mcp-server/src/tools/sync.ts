/** `docforge_sync` (contract: read tools): synchronizes and reports the publication and build figures. */
import { defineTool } from '../define-tool.js';
import { round } from './shared.js';

/** The `docforge_sync` definition. */
export const syncTool = defineTool({
  name: 'docforge_sync',
  kind: 'sync',
  handler(_ctx, sync) {
    return {
      rebuilt: sync.rebuilt,
      generation: sync.publication.generation,
      source_identity: sync.publication.source_identity,
      counts: sync.publication.counts,
      identity_ms: round(sync.identity_ms),
      build: sync.stats ? { mode: sync.stats.mode, parsed: sync.stats.parsed, reused: sync.stats.reused, total_ms: round(sync.stats.total_ms) } : null,
    };
  },
});
