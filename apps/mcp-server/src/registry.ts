import { GRAPH_HANDLERS, type ToolDefinition } from './tools.js';
import { GET_CONTEXT_TOOL, GET_TASK_CONTEXT_TOOL, getContextTool, getTaskContextTool } from './tools-context.js';
import { GENERATION_DIFF_TOOL, generationDiffTool } from './tools-diff.js';
import { GET_LOGIC_TOOL } from './tools-logic.js';

/**
 * Every implemented tool by name. Registration order and the exposed subset come from the
 * contract lists in @docforge/policy (capability mode), never from this object.
 */
export function implementedTools(): Map<string, ToolDefinition> {
  const tools = new Map<string, ToolDefinition>();
  for (const [name, run] of Object.entries(GRAPH_HANDLERS)) tools.set(name, { kind: 'sync', run });
  tools.set(GENERATION_DIFF_TOOL, generationDiffTool());
  tools.set('docforge_get_logic', GET_LOGIC_TOOL);
  tools.set(GET_CONTEXT_TOOL, getContextTool());
  tools.set(GET_TASK_CONTEXT_TOOL, getTaskContextTool());
  return tools;
}
