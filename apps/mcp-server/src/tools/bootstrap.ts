/** `docforge_bootstrap` (contract: read tools): the binding, active index, policy, capabilities and session contract. */
import path from 'node:path';
import { legacyAdapterPolicy } from '@docforge/policy';
import { defineTool } from '../define-tool.js';
import { reportedCapabilities } from '../capabilities-report.js';
import { activeIndex, round, sessionContract } from './shared.js';

/** The `docforge_bootstrap` definition. */
export const bootstrapTool = defineTool({
  name: 'docforge_bootstrap',
  kind: 'sync',
  handler(ctx, sync) {
    return {
      binding: {
        project_root: ctx.manager.root,
        project_id: sync.descriptor.project.id,
        project_name: sync.descriptor.project.name,
        descriptor_path: sync.descriptor.path,
        state_dir: path.join(ctx.manager.root, sync.descriptor.state.dir),
        transport: 'stdio',
        bound_at: ctx.boundAt,
        fixed: true,
      },
      index: activeIndex(ctx, sync),
      effective_policy: ctx.policy,
      capabilities: reportedCapabilities(ctx),
      adapter_policy: legacyAdapterPolicy(ctx.policy),
      session_contract: sessionContract(ctx, sync),
      sync: { rebuilt: sync.rebuilt, staleness: sync.staleness, identity_ms: round(sync.identity_ms) },
    };
  },
});
