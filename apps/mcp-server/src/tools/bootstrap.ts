/** `docforge_bootstrap` (contract: read tools): the binding, active index, policy, capabilities and session contract. */
import path from 'node:path';
import { legacyAdapterPolicy } from '@docforge/policy';
import { defineTool, loadProtocolTool } from '../define-tool.js';
import { reportedCapabilities } from '../capabilities-report.js';
import { activeIndex, round, sessionContract } from './shared.js';

/** The `docforge_bootstrap` definition. */
export const bootstrapTool = defineTool({
  protocol: loadProtocolTool('docforge_bootstrap'),
  kind: 'sync',
  fit: 'compact',
  handler(ctx, sync) {
    const binding = {
      project_root: ctx.manager.root,
      project_id: sync.descriptor.project.id,
      project_name: sync.descriptor.project.name,
      descriptor_path: sync.descriptor.path,
      state_dir: path.join(ctx.manager.root, sync.descriptor.state.dir),
      transport: 'stdio',
      bound_at: ctx.boundAt,
      fixed: true,
    };
    const index = activeIndex(ctx, sync);
    const capabilities = reportedCapabilities(ctx);
    const contract = sessionContract(ctx, sync);
    const syncFacts = { rebuilt: sync.rebuilt, staleness: sync.staleness, identity_ms: round(sync.identity_ms) };
    // Under a small max_output_chars the compact form keeps the fixed binding, the active index
    // path, the policy hash and capability mode, the access flags and the limits, and points to
    // docforge_get_contract for the tool list, workflow and full policy. It names the project root
    // once (binding.project_root): every other path is relative to it (issue 30, item 8), so a root
    // of up to 255 characters costs the same few hundred characters whatever the paths.
    const compact = {
      binding: compactBinding(binding),
      index: { active_index_path: relativeToRoot(ctx.manager.root, String(index.active_index_path)), generation: index.generation, index_schema_version: index.index_schema_version },
      effective_policy: { schema_version: ctx.policy.schema_version, capability_mode: ctx.policy.capability_mode, policy_hash: ctx.policy.policy_hash, no_ast: ctx.policy.ast.no_ast },
      capabilities: {
        schema_version: ctx.capabilities.schema_version,
        capability_mode: ctx.capabilities.capability_mode,
        tool_count: ctx.capabilities.tools.length,
        proposal_access: ctx.capabilities.proposal_access.enabled,
        application_access: ctx.capabilities.application_access.enabled,
      },
      session_contract: { version: contract.version, first_operation: contract.first_operation, limits: contract.limits, notice: contract.notice },
      sync: syncFacts,
      compact: { reason: 'max_output_chars', full_contract: 'docforge_get_contract' },
    };
    const result = {
      binding,
      index,
      effective_policy: ctx.policy,
      capabilities,
      adapter_policy: legacyAdapterPolicy(ctx.policy),
      session_contract: contract,
      sync: syncFacts,
    };
    return { result, compact };
  },
});

/** A path under the project root, relative to it (POSIX separators); the path itself when outside. */
function relativeToRoot(root: string, file: string): string {
  const rel = path.relative(root, file);
  return rel === '' || rel.startsWith('..') || path.isAbsolute(rel) ? file : rel.split(path.sep).join('/');
}

/** The compact form's binding: the root once, the descriptor and state dir relative to it (`paths_relative_to`). */
function compactBinding(binding: { project_root: string; descriptor_path: string; state_dir: string } & Record<string, unknown>): Record<string, unknown> {
  return {
    ...binding,
    descriptor_path: relativeToRoot(binding.project_root, binding.descriptor_path),
    state_dir: relativeToRoot(binding.project_root, binding.state_dir),
    paths_relative_to: 'project_root',
  };
}
