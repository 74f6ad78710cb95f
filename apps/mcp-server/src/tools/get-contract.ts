/** `docforge_get_contract` (contract: read tools): tools, limits, vocabulary, error codes, policy and capabilities. */
import { ALIASED_RELATIONS, ERROR_CODES } from '@docforge/core';
import { legacyAdapterPolicy } from '@docforge/policy';
import { defineTool, loadProtocolTool } from '../define-tool.js';
import { reportedCapabilities } from '../capabilities-report.js';
import { relationVocabulary, sessionContract } from './shared.js';

/**
 * The `docforge_get_contract` definition. Fit strategy `compact` (issue 30, item 8): under a small
 * `[limits].max_output_chars` it answers a compact form that keeps every record the contract
 * requires (the registered tools with their read-only flags, the limits, the relation vocabulary
 * with its alias map, the exact `effective_policy` and the capabilities record) and leaves out
 * only what is static for contract version 1 or derived from what it keeps (see
 * {@link compactContract}). When even the compact form does not fit (a large project-owned
 * relation vocabulary) the answer is `result_too_large` naming the characters the compact form
 * needs: the vocabulary is never cut, since a partial list would read as a closed smaller one.
 */
export const getContractTool = defineTool({
  protocol: loadProtocolTool('docforge_get_contract'),
  kind: 'sync',
  fit: 'compact',
  handler(ctx, sync) {
    const capabilities = reportedCapabilities(ctx);
    const result = {
      contract_version: 1,
      tools: ctx.toolList.map((t) => ({ name: t.name, read_only: t.readOnly })),
      limits: sessionContract(ctx, sync).limits,
      relation_vocabulary: relationVocabulary(sync),
      aliased_relations: ALIASED_RELATIONS,
      error_codes: Object.keys(ERROR_CODES),
      effective_policy: ctx.policy,
      capabilities,
      adapter_policy: legacyAdapterPolicy(ctx.policy),
    };
    return { result, compact: compactContract(result, capabilities) };
  },
});

/** What the compact form leaves out, and where each is found instead. */
const COMPACT_OMITTED = {
  // The flattened, sorted values of relation_vocabulary.aliases.
  aliased_relations: 'relation_vocabulary.aliases',
  // Fixed for contract_version 1 (docs/mcp.md, "Errors").
  error_codes: 'contract_version',
  // A projection of effective_policy (contract: "Preserved no-AST bindings").
  adapter_policy: 'effective_policy',
  // The same names, in the same order, as the compact `tools`.
  'capabilities.tools': 'tools',
} as const;

/**
 * The compact form of a contract result: `tools` is the registered tool names in order with
 * `read_only` as a parallel list of flags (the full form's `{name, read_only}` pairs), `limits`,
 * `relation_vocabulary`, `effective_policy` are the full records unchanged, `capabilities` is the
 * full record without its `tools` list (the same names as `tools`); `compact.omitted` names each
 * record left out and the kept record it is derived from.
 */
function compactContract(result: { tools: { name: string; read_only: boolean }[] } & Record<string, unknown>, capabilities: Record<string, unknown>): Record<string, unknown> {
  const { tools: _names, ...capabilityRecord } = capabilities;
  return {
    contract_version: result.contract_version,
    tools: result.tools.map((t) => t.name),
    read_only: result.tools.map((t) => t.read_only),
    limits: result.limits,
    relation_vocabulary: result.relation_vocabulary,
    effective_policy: result.effective_policy,
    capabilities: capabilityRecord,
    compact: { reason: 'max_output_chars', omitted: COMPACT_OMITTED },
  };
}
