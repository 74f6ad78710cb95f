/**
 * The proposal mutation tools (contract "Isolated proposal tools"): create, register, rebase,
 * abandon and the five `docforge_propose_*` tools, one `defineTool()` record each. Every one is
 * refused with `proposal_access_disabled` before sync without `--proposal-writer`, runs the size
 * preflight before any write, and writes below the changeset root only.
 */
import { abandonChangeset, addOperation, rebaseChangeset, registerChangeset, type Operation } from '@docforge/changesets';
import type { SyncReport } from '@docforge/index';
import { defineTool, type DefinableToolName, type ToolContext, type ToolDefinition, type ToolResult } from '../define-tool.js';
import { mutationResult, preflight, proposalContext, requireProposalAccess, writerOf } from './proposal-shared.js';

/** `docforge_create_changeset`: a new changeset of the bound writer, optionally with operations. */
export const createChangesetTool = defineTool({
  name: 'docforge_create_changeset',
  kind: 'sync',
  precheck: (ctx) => requireProposalAccess(ctx, 'docforge_create_changeset'),
  async handler(ctx, sync, args) {
    preflight(ctx, sync);
    const { view, store } = proposalContext(ctx, sync);
    return mutationResult(view, await registerChangeset(store, view, writerOf(ctx), (args.operations ?? []) as unknown as Operation[], 'created'));
  },
});

/** `docforge_register_changes`: the preferred write entry, one locked operation. */
export const registerChangesTool = defineTool({
  name: 'docforge_register_changes',
  kind: 'sync',
  precheck: (ctx) => requireProposalAccess(ctx, 'docforge_register_changes'),
  async handler(ctx, sync, args) {
    preflight(ctx, sync);
    const { view, store } = proposalContext(ctx, sync);
    return mutationResult(view, await registerChangeset(store, view, writerOf(ctx), args.operations as unknown as Operation[], 'registered'));
  },
});

/** `docforge_rebase_changeset`: moves a stale changeset to the current base when every invariant holds. */
export const rebaseChangesetTool = defineTool({
  name: 'docforge_rebase_changeset',
  kind: 'sync',
  precheck: (ctx) => requireProposalAccess(ctx, 'docforge_rebase_changeset'),
  async handler(ctx, sync, args) {
    preflight(ctx, sync);
    const { view, store } = proposalContext(ctx, sync);
    return mutationResult(view, await rebaseChangeset(store, view, writerOf(ctx), args.changeset_id));
  },
});

/** `docforge_abandon_changeset`: status abandoned plus an audit receipt; nothing is deleted. */
export const abandonChangesetTool = defineTool({
  name: 'docforge_abandon_changeset',
  kind: 'sync',
  precheck: (ctx) => requireProposalAccess(ctx, 'docforge_abandon_changeset'),
  async handler(ctx, sync, args) {
    preflight(ctx, sync);
    const { view, store } = proposalContext(ctx, sync);
    return mutationResult(view, await abandonChangeset(store, writerOf(ctx), args.changeset_id, args.reason ?? null));
  },
});

/** One operation proposed on its own: appended to `changeset_id`, or a new changeset. */
async function propose(ctx: ToolContext, sync: SyncReport, changesetId: string | undefined, operation: Operation): Promise<ToolResult> {
  preflight(ctx, sync);
  const { view, store } = proposalContext(ctx, sync);
  const outcome = changesetId === undefined
    ? await registerChangeset(store, view, writerOf(ctx), [operation], 'created')
    : await addOperation(store, view, writerOf(ctx), changesetId, operation);
  return mutationResult(view, outcome);
}

type ProposeName = Extract<DefinableToolName, `docforge_propose_${string}`>;

/** A `docforge_propose_*` tool whose arguments are the operation's fields plus `changeset_id`. */
function proposeTool(name: ProposeName, op: Operation['op']): ToolDefinition {
  return defineTool({
    name,
    kind: 'sync',
    precheck: (ctx) => requireProposalAccess(ctx, name),
    handler(ctx, sync, args) {
      const { changeset_id: changesetId, ...fields } = args as { changeset_id?: string } & Record<string, unknown>;
      return propose(ctx, sync, changesetId, { op, ...fields } as unknown as Operation);
    },
  });
}

/** `docforge_propose_node_create`. */
export const proposeNodeCreateTool = proposeTool('docforge_propose_node_create', 'node_create');
/** `docforge_propose_node_update`. */
export const proposeNodeUpdateTool = proposeTool('docforge_propose_node_update', 'node_update');
/** `docforge_propose_node_move`. */
export const proposeNodeMoveTool = proposeTool('docforge_propose_node_move', 'node_move');
/** `docforge_propose_relationship_update`. */
export const proposeRelationshipUpdateTool = proposeTool('docforge_propose_relationship_update', 'relationship_update');
/** `docforge_propose_node_delete`. */
export const proposeNodeDeleteTool = proposeTool('docforge_propose_node_delete', 'node_delete');
