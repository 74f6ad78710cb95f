/**
 * `docforge_get_logic` (contract: read tools; "Preserved no-AST bindings"; visualization boundary:
 * "`docforge_get_logic` ... accept one exact owner node ID and return only that bounded stored
 * projection"). Logic lives only in the `logic_steps` / `logic_flows` tables, never in primary
 * search or traversal; this tool is the one MCP path to it.
 */
import { errors } from '@docforge/core';
import { effectiveLimit, fitPrefix, missingNode } from '@docforge/retrieval';
import { defineTool, loadProtocolTool, type ToolContext } from '../define-tool.js';

/** Default number of steps returned when `limit` is omitted (still capped by `max_results`). */
export const DEFAULT_LOGIC_STEPS = 200;

/** Characters kept free for the envelope around the result when packing to `max_output_chars`. */
const ENVELOPE_RESERVE = 2_000;

interface StepRow {
  step: number;
  kind: string;
  label: string;
  start_line: number;
  end_line: number;
}

interface FlowRow {
  from_step: number;
  to_step: number;
  kind: string;
  label: string;
}

/**
 * Refuses Logic before anything is read or synchronized when the effective policy forbids it
 * (`--no-ast`, or adapter strategy `lexical`).
 * @throws DocforgeError `adapter_policy_forbids_logic`
 */
export function logicPrecheck(ctx: ToolContext): void {
  if (!ctx.policy.ast.logic_allowed) {
    throw errors.adapterPolicyForbidsLogic(ctx.policy.ast.no_ast ? 'no_ast_policy' : 'lexical_adapter_strategy', {
      no_ast: ctx.policy.ast.no_ast,
      adapter_strategy: ctx.policy.ast.adapter_strategy,
    });
  }
}

/**
 * The `docforge_get_logic` definition. Result: `owner` (summary of the owner node), `steps`
 * (`step`, `kind`, `label`, `start_line`, `end_line`, by step number, at most `limit`), `flows`
 * (`from_step`, `to_step`, `kind`, `label`, only between returned steps), `total_steps`,
 * `total_flows`, `limit`, `truncated` and `truncation_reason` (`result_limit` when `limit` cut
 * steps, `response_limit` when `max_output_chars` did, else null).
 * @throws DocforgeError `adapter_policy_forbids_logic` (before any read), `invalid_arguments`
 *   (limit above max_results), `node_not_found`, `logic_not_found` (the node exists but has no
 *   stored Logic, e.g. a document, a module or a class)
 */
export const getLogicTool = defineTool({
  protocol: loadProtocolTool('docforge_get_logic'),
  kind: 'sync',
  fit: 'none',
  precheck: logicPrecheck,
  handler(ctx, sync, args) {
    // Re-checked here too: the precheck is the contract point, this keeps the handler safe alone.
    logicPrecheck(ctx);
    const limit = effectiveLimit(args.limit, sync.descriptor.limits.max_results, DEFAULT_LOGIC_STEPS);
    const id = args.node_id;
    const reader = ctx.manager.reader();
    const node = reader.getNode(id);
    if (!node) throw missingNode(reader, id);
    const { steps: totalSteps, flows: totalFlows } = reader.logicCounts(id);
    if (totalSteps === 0) {
      throw errors.logicNotFound(id, node.kind, node.language);
    }
    const owner = {
      id: node.id,
      kind: node.kind,
      title: node.title,
      summary: node.summary,
      source_path: node.source_path,
      start_line: node.start_line,
      end_line: node.end_line,
      language: node.language,
      capabilities: node.capabilities,
      content_hash: node.content_hash,
    };
    let count = Math.min(limit, totalSteps);
    let reason: 'result_limit' | 'response_limit' | null = count < totalSteps ? 'result_limit' : null;
    let { steps, flows }: { steps: StepRow[]; flows: FlowRow[] } = reader.logicPage(id, count);
    const max = sync.descriptor.limits.max_output_chars;
    const budget = max - Math.min(ENVELOPE_RESERVE, Math.floor(max / 2));
    if (JSON.stringify({ owner, steps, flows }).length > budget && count > 1) {
      // Step numbers are dense from 0: each step carries the flows whose later end it is, so a
      // prefix of steps selects exactly the flows among them (one comma per element, conservative).
      const flowChars = new Map<number, number>();
      for (const f of flows) {
        const at = Math.max(f.from_step, f.to_step);
        flowChars.set(at, (flowChars.get(at) ?? 0) + JSON.stringify(f).length + 1);
      }
      const base = JSON.stringify({ owner, steps: [], flows: [] }).length;
      const fit = fitPrefix(steps, { budget: budget - base, separator: 1, sizeOf: (s) => JSON.stringify(s).length + (flowChars.get(s.step) ?? 0) });
      count = Math.max(1, fit.truncation.kept);
      steps = steps.slice(0, count);
      flows = flows.filter((f) => f.from_step < count && f.to_step < count);
      reason = 'response_limit';
    }
    const result = {
      owner,
      steps,
      flows,
      total_steps: totalSteps,
      total_flows: totalFlows,
      limit,
      truncated: steps.length < totalSteps,
      truncation_reason: steps.length < totalSteps ? reason : null,
    };
    return { result };
  },
});
