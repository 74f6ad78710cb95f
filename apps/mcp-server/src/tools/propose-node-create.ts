/** `docforge_propose_node_create` (contract "Isolated proposal tools"): proposes one `node_create` operation. */
import { proposeTool } from './propose.js';

/** The `docforge_propose_node_create` definition. */
export const proposeNodeCreateTool = proposeTool('docforge_propose_node_create', 'node_create');
