/**
 * @docforge/policy: the effective process policy, the capabilities record, the preserved no-AST
 * binding, server instructions and the `--diagnostics` collector (DESIGN.md sections 2 and 5).
 * Pure: no Node built-ins beyond the global `performance` clock.
 */
export { READ_TOOLS, PROPOSAL_TOOLS, APPLICATION_TOOLS, OPERATOR_TOOLS } from './tools.js';
export type { ReadToolName, ProposalToolName, ApplicationToolName, ToolName } from './tools.js';
export {
  CAPABILITY_MODES,
  ALWAYS_EXCLUDED_OPERATIONS,
  NO_AST_EXCLUDED_OPERATIONS,
  MAX_ACCESS_ID_LENGTH,
  computeEffectivePolicy,
  legacyAdapterPolicy,
} from './effective-policy.js';
export type { CapabilityMode, PolicyFactory, PolicyOptions, EffectivePolicy, LegacyAdapterPolicy } from './effective-policy.js';
export { computeCapabilities, toolsForMode } from './capabilities.js';
export type { Capabilities, LogicUnavailableReason } from './capabilities.js';
export { NO_AST_INSTRUCTIONS, serverInstructions } from './instructions.js';
export { DIAGNOSTIC_STAGES, DIAGNOSTIC_COUNTERS, DiagnosticsCollector } from './diagnostics.js';
export type { DiagnosticStage, DiagnosticCounter, StageTiming, DiagnosticsRecord } from './diagnostics.js';
