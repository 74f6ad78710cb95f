import type { ToolContext } from './define-tool.js';

/**
 * The `capabilities` record as reported by bootstrap and get_contract: the startup record itself,
 * plus, only when a project-owned adapter is bound, `project_adapter` with its process-start
 * fingerprint, whether the build worker loaded it, its version, whether it declares inputs
 * (cheap identity known) and the proposal operations it narrows the writer to (null = not narrowed).
 * Both are fixed for the process: the adapter is loaded once and never reloaded.
 */
export function reportedCapabilities(ctx: ToolContext): Record<string, unknown> {
  const adapter = ctx.manager.projectAdapter();
  if (adapter === null) return ctx.capabilities as unknown as Record<string, unknown>;
  const report = adapter.report;
  return {
    ...ctx.capabilities,
    project_adapter: {
      bound: true,
      fingerprint: adapter.fingerprint,
      files: adapter.files,
      loaded: report?.loaded ?? false,
      version: report?.version ?? null,
      inputs_declared: report === null ? null : Array.isArray(report.inputs),
      identity_known: ctx.manager.identityKnown(),
      proposal_operations: report?.proposal_operations ?? null,
    },
  };
}
