/** `docforge_rebase_changeset` (contract "Isolated proposal tools"; issue 10). */
import { rebaseChangeset } from '@docforge/changesets';
import { defineTool, loadProtocolTool } from '../define-tool.js';
import { mutationResult, preflight, proposalContext, requireProposalAccess, writerOf } from './proposal-shared.js';

/** `docforge_rebase_changeset`: moves a stale changeset to the current base when every invariant holds. */
export const rebaseChangesetTool = defineTool({
  protocol: loadProtocolTool('docforge_rebase_changeset'),
  kind: 'sync',
  fit: 'receipt',
  precheck: (ctx) => requireProposalAccess(ctx, 'docforge_rebase_changeset'),
  async handler(ctx, sync, args) {
    preflight(ctx, sync);
    const { view, store } = proposalContext(ctx, sync);
    return mutationResult(view, await rebaseChangeset(store, view, writerOf(ctx), args.changeset_id));
  },
});
