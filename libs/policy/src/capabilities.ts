/**
 * The capabilities record: the actual registered tool surface and startup-bound proposal and
 * application access (contract: MCP boundary, "Bootstrap and contract results include
 * `effective_policy` ... plus a separate `capabilities` record").
 */
import type { EffectivePolicy } from './effective-policy.js';
import { deepFreeze } from './effective-policy.js';
import { APPLICATION_TOOLS, OPERATOR_TOOLS, PROPOSAL_TOOLS, READ_TOOLS } from './tools.js';

/** Why function Logic is unavailable, or null when it is available. */
export type LogicUnavailableReason = 'no_ast_policy' | 'lexical_adapter_strategy' | 'tool_not_registered';

/** The capabilities record, schema version 1. Deep-frozen. */
export interface Capabilities {
  readonly schema_version: 1;
  readonly capability_mode: EffectivePolicy['capability_mode'];
  /** Hash of the effective policy this surface was derived from. */
  readonly policy_hash: string;
  /** Registered tools in contract order: the mode's surface filtered to the implemented tools. */
  readonly tools: readonly string[];
  /** Enabled when a proposal writer is bound and at least one proposal tool is registered. */
  readonly proposal_access: { readonly enabled: boolean; readonly writer_id: string | null };
  /** Enabled when the canonical applier gate is open and `docforge_apply_changeset` is registered. */
  readonly application_access: { readonly enabled: boolean; readonly applier_id: string | null };
  /** Whether `docforge_get_logic` can return a stored Logic projection. */
  readonly logic: { readonly available: boolean; readonly reason: LogicUnavailableReason | null };
  readonly diagnostics: { readonly enabled: boolean };
}

/**
 * The contract's full ordered tool set for the policy's mode, before filtering to implemented
 * tools: `read` → read tools; `proposal` → read + proposal tools; `application` → read + proposal +
 * application tool; `operator` → the application-mode surface (the application tool only when the
 * applier gate is open) plus operator tools, of which the current contract defines none.
 * @returns a frozen array
 */
export function toolsForMode(policy: EffectivePolicy): readonly string[] {
  const tools: string[] = [...READ_TOOLS];
  if (policy.capability_mode !== 'read') tools.push(...PROPOSAL_TOOLS);
  // The application tool is registered only through the separate canonical applier gate.
  if (policy.application.enabled) tools.push(...APPLICATION_TOOLS);
  if (policy.capability_mode === 'operator') tools.push(...OPERATOR_TOOLS);
  return Object.freeze(tools);
}

/**
 * Computes the capabilities record once at startup.
 * @param policy the effective policy from `computeEffectivePolicy`
 * @param implementedTools names of the tools this build can register; names outside the mode's
 *   surface (or outside the contract) are ignored, never added
 * @returns a deep-frozen {@link Capabilities}
 */
export function computeCapabilities(policy: EffectivePolicy, implementedTools: ReadonlySet<string>): Capabilities {
  const tools = toolsForMode(policy).filter((name) => implementedTools.has(name));
  const proposalRegistered = tools.some((name) => (PROPOSAL_TOOLS as readonly string[]).includes(name));
  const proposalEnabled = policy.proposal.enabled && proposalRegistered;
  const applicationEnabled = policy.application.enabled && tools.includes(APPLICATION_TOOLS[0]);
  let reason: LogicUnavailableReason | null = null;
  if (policy.ast.no_ast) reason = 'no_ast_policy';
  else if (policy.ast.adapter_strategy !== 'ast') reason = 'lexical_adapter_strategy';
  else if (!tools.includes('docforge_get_logic')) reason = 'tool_not_registered';
  return deepFreeze({
    schema_version: 1 as const,
    capability_mode: policy.capability_mode,
    policy_hash: policy.policy_hash,
    tools,
    proposal_access: { enabled: proposalEnabled, writer_id: proposalEnabled ? policy.proposal.writer_id : null },
    application_access: { enabled: applicationEnabled, applier_id: applicationEnabled ? policy.application.applier_id : null },
    logic: { available: reason === null, reason },
    diagnostics: { enabled: policy.diagnostics.enabled },
  });
}
