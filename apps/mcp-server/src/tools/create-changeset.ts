/** `docforge_create_changeset` (contract "Isolated proposal tools"; issue 10). */
import { registerChangeset, type Operation } from '@docforge/changesets';
import { defineTool, loadProtocolTool } from '../define-tool.js';
import { mutationResult, preflight, proposalContext, requireProposalAccess, writerOf } from './proposal-shared.js';

/** `docforge_create_changeset`: a new changeset of the bound writer, optionally with operations. */
export const createChangesetTool = defineTool({
  protocol: loadProtocolTool('docforge_create_changeset'),
  kind: 'sync',
  fit: 'receipt',
  precheck: (ctx) => requireProposalAccess(ctx, 'docforge_create_changeset'),
  async handler(ctx, sync, args) {
    preflight(ctx, sync);
    const { view, store } = proposalContext(ctx, sync);
    return mutationResult(view, await registerChangeset(store, view, writerOf(ctx), (args.operations ?? []) as unknown as Operation[], 'created'));
  },
});
