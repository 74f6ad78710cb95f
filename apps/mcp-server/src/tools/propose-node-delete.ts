/** `docforge_propose_node_delete` (contract "Isolated proposal tools"): proposes one `node_delete` operation. */
import { proposeTool } from './propose.js';

/** The `docforge_propose_node_delete` definition. */
export const proposeNodeDeleteTool = proposeTool('docforge_propose_node_delete', 'node_delete');
