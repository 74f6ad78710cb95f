/** The shared body of the five `docforge_propose_*` tools (contract "Isolated proposal tools"): one operation, appended to `changeset_id` or in a new changeset. */
import { addOperation, registerChangeset, type Operation } from '@docforge/changesets';
import type { SyncReport } from '@docforge/sync';
import { defineTool, loadProtocolTool, type DefinableToolName, type ToolContext, type ToolDefinition, type ToolOutcome } from '../define-tool.js';
import { mutationResult, preflight, proposalContext, requireProposalAccess, writerOf } from './proposal-shared.js';

/** One operation proposed on its own: appended to `changeset_id`, or a new changeset. */
async function propose(ctx: ToolContext, sync: SyncReport, changesetId: string | undefined, operation: Operation): Promise<ToolOutcome<'receipt'>> {
  preflight(ctx, sync);
  const { view, store } = proposalContext(ctx, sync);
  const outcome = changesetId === undefined
    ? await registerChangeset(store, view, writerOf(ctx), [operation], 'created')
    : await addOperation(store, view, writerOf(ctx), changesetId, operation);
  return mutationResult(view, outcome);
}

type ProposeName = Extract<DefinableToolName, `docforge_propose_${string}`>;

/** Defines a `docforge_propose_*` tool whose arguments are the operation's fields plus `changeset_id`. */
export function proposeTool(name: ProposeName, op: Operation['op']): ToolDefinition {
  return defineTool({
    protocol: loadProtocolTool(name),
    kind: 'sync',
    fit: 'receipt',
    precheck: (ctx) => requireProposalAccess(ctx, name),
    handler(ctx, sync, args) {
      const { changeset_id: changesetId, ...fields } = args as { changeset_id?: string } & Record<string, unknown>;
      return propose(ctx, sync, changesetId, { op, ...fields } as unknown as Operation);
    },
  });
}

