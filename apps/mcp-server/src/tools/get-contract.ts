/** `docforge_get_contract` (contract: read tools): tools, limits, vocabulary, error codes, policy and capabilities. */
import { ALIASED_RELATIONS, ERROR_CODES } from '@docforge/core';
import { legacyAdapterPolicy } from '@docforge/policy';
import { defineTool, loadProtocolTool } from '../define-tool.js';
import { reportedCapabilities } from '../capabilities-report.js';
import { relationVocabulary, sessionContract } from './shared.js';

/** The `docforge_get_contract` definition. */
export const getContractTool = defineTool({
  protocol: loadProtocolTool('docforge_get_contract'),
  kind: 'sync',
  fit: 'none',
  handler(ctx, sync) {
    const result = {
      contract_version: 1,
      tools: ctx.toolList.map((t) => ({ name: t.name, read_only: t.readOnly })),
      limits: sessionContract(ctx, sync).limits,
      relation_vocabulary: relationVocabulary(sync),
      aliased_relations: ALIASED_RELATIONS,
      error_codes: Object.keys(ERROR_CODES),
      effective_policy: ctx.policy,
      capabilities: reportedCapabilities(ctx),
      adapter_policy: legacyAdapterPolicy(ctx.policy),
    };
    return { result };
  },
});
