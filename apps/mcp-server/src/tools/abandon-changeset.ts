/** `docforge_abandon_changeset` (contract "Isolated proposal tools"; issue 10). */
import { abandonChangeset } from '@docforge/changesets';
import { defineTool, loadProtocolTool } from '../define-tool.js';
import { mutationResult, preflight, proposalContext, requireProposalAccess, writerOf } from './proposal-shared.js';

/** `docforge_abandon_changeset`: status abandoned plus an audit receipt; nothing is deleted. */
export const abandonChangesetTool = defineTool({
  protocol: loadProtocolTool('docforge_abandon_changeset'),
  kind: 'sync',
  fit: 'receipt',
  precheck: (ctx) => requireProposalAccess(ctx, 'docforge_abandon_changeset'),
  async handler(ctx, sync, args) {
    preflight(ctx, sync);
    const { view, store } = proposalContext(ctx, sync);
    return mutationResult(view, await abandonChangeset(store, writerOf(ctx), args.changeset_id, args.reason ?? null));
  },
});
