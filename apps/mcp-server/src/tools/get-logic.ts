/**
 * `docforge_get_logic` (contract: read tools; "Preserved no-AST bindings"; visualization boundary:
 * "`docforge_get_logic` ... accept one exact owner node ID and return only that bounded stored
 * projection"). Logic lives only in the `logic_steps` / `logic_flows` tables, never in primary
 * search or traversal; this tool is the one MCP path to it.
 */
import { errors } from '@docforge/core';
import { effectiveLimit } from '@docforge/retrieval';
import { defineTool, type ToolContext } from '../define-tool.js';

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
  name: 'docforge_get_logic',
  kind: 'sync',
  precheck: logicPrecheck,
  handler(ctx, sync, args): Record<string, unknown> {
    // Re-checked here too: the precheck is the contract point, this keeps the handler safe alone.
    logicPrecheck(ctx);
    const limit = effectiveLimit(args.limit, sync.descriptor.limits.max_results, DEFAULT_LOGIC_STEPS);
    const id = args.node_id;
    const reader = ctx.manager.reader();
    const node = reader.getNode(id);
    if (!node) throw errors.nodeNotFound(id);
    const db = reader.db;
    const totalSteps = (db.prepare('SELECT count(*) FROM logic_steps WHERE owner_id = ?').pluck().get(id) as number) ?? 0;
    if (totalSteps === 0) {
      throw errors.logicNotFound(id, node.kind);
    }
    const totalFlows = db.prepare('SELECT count(*) FROM logic_flows WHERE owner_id = ?').pluck().get(id) as number;
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
    const stepsStmt = db.prepare('SELECT step, kind, label, start_line, end_line FROM logic_steps WHERE owner_id = ? ORDER BY step LIMIT ?');
    const flowsStmt = db.prepare('SELECT from_step, to_step, kind, label FROM logic_flows WHERE owner_id = ? AND from_step < ? AND to_step < ? ORDER BY from_step, to_step, kind');
    const page = (count: number): { steps: StepRow[]; flows: FlowRow[] } => {
      const steps = stepsStmt.all(id, count) as StepRow[];
      // Step numbers are dense from 0, so "step < count" selects exactly the returned steps.
      const flows = flowsStmt.all(id, count, count) as FlowRow[];
      return { steps, flows };
    };
    let count = Math.min(limit, totalSteps);
    let reason: 'result_limit' | 'response_limit' | null = count < totalSteps ? 'result_limit' : null;
    let { steps, flows } = page(count);
    const max = sync.descriptor.limits.max_output_chars;
    const budget = max - Math.min(ENVELOPE_RESERVE, Math.floor(max / 2));
    let size = JSON.stringify({ owner, steps, flows }).length;
    while (size > budget && count > 1) {
      count = Math.max(1, Math.floor(count * (budget / size) * 0.95));
      ({ steps, flows } = page(count));
      size = JSON.stringify({ owner, steps, flows }).length;
      reason = 'response_limit';
    }
    return {
      owner,
      steps,
      flows,
      total_steps: totalSteps,
      total_flows: totalFlows,
      limit,
      truncated: steps.length < totalSteps,
      truncation_reason: steps.length < totalSteps ? reason : null,
    };
  },
});
