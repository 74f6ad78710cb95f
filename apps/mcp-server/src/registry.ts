import { GRAPH_HANDLERS, type ToolDefinition } from './tools.js';

/**
 * Every implemented tool by name. Registration order and the exposed subset come from the
 * contract lists in @docforge/policy (capability mode), never from this object.
 */
export function implementedTools(): Map<string, ToolDefinition> {
  const tools = new Map<string, ToolDefinition>();
  for (const [name, run] of Object.entries(GRAPH_HANDLERS)) tools.set(name, { kind: 'sync', run });
  return tools;
}
