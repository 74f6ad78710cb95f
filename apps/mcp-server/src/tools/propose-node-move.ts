/** `docforge_propose_node_move` (contract "Isolated proposal tools"): proposes one `node_move` operation. */
import { proposeTool } from './propose.js';

/** The `docforge_propose_node_move` definition. */
export const proposeNodeMoveTool = proposeTool('docforge_propose_node_move', 'node_move');
