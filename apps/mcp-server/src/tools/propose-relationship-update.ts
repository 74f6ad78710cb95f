/** `docforge_propose_relationship_update` (contract "Isolated proposal tools"): proposes one `relationship_update` operation. */
import { proposeTool } from './propose.js';

/** The `docforge_propose_relationship_update` definition. */
export const proposeRelationshipUpdateTool = proposeTool('docforge_propose_relationship_update', 'relationship_update');
