/** `docforge_propose_node_update` (contract "Isolated proposal tools"): proposes one `node_update` operation. */
import { proposeTool } from './propose.js';

/** The `docforge_propose_node_update` definition. */
export const proposeNodeUpdateTool = proposeTool('docforge_propose_node_update', 'node_update');
