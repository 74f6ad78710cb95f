/** `docforge_register_changes` (contract "Isolated proposal tools"; issue 10). */
import { registerChangeset, type Operation } from '@docforge/changesets';
import { defineTool, loadProtocolTool } from '../define-tool.js';
import { mutationResult, preflight, proposalContext, requireProposalAccess, writerOf } from './proposal-shared.js';

/** `docforge_register_changes`: the preferred write entry, one locked operation. */
export const registerChangesTool = defineTool({
  protocol: loadProtocolTool('docforge_register_changes'),
  kind: 'sync',
  fit: 'receipt',
  precheck: (ctx) => requireProposalAccess(ctx, 'docforge_register_changes'),
  async handler(ctx, sync, args) {
    preflight(ctx, sync);
    const { view, store } = proposalContext(ctx, sync);
    return mutationResult(view, await registerChangeset(store, view, writerOf(ctx), args.operations as unknown as Operation[], 'registered'));
  },
});
