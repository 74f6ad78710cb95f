import type { ToolDefinition } from './define-tool.js';
import { ALL_TOOLS } from './tools/index.js';

/**
 * Every implemented tool by name (one `defineTool()` record each, see tools/). Registration order
 * and the exposed subset come from the contract lists in @docforge/policy (capability mode),
 * never from this map.
 */
export function implementedTools(): Map<string, ToolDefinition> {
  return new Map(ALL_TOOLS.map((tool) => [tool.name, tool]));
}
