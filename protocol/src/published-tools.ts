/**
 * What `tools/list` publishes for each tool, read from `generated/published-tools.ts` (issue 29
 * item 7): `npm run generate -w protocol` computes it with `loadToolSchema` (schemas.ts) from
 * protocol/schemas (a pure function of those files: no mode, descriptor or environment enters it),
 * so a server start parses ready JSON instead of bundling and outlining every schema.
 * protocol/test/published-tools.test.ts proves it equals what `loadToolSchema` (schemas.ts) computes now.
 */
import { PUBLISHED_TOOLS } from './generated/published-tools.js';
import type { ToolSchemaPair } from './schemas.js';

/**
 * The published record of tool `name` as `loadToolSchema` (schemas.ts) returns it (name, description,
 * annotations, input and output schema); a new object on each call.
 * @throws Error when `name` has no `v1/tools/<name>.tool.json` (a packaging defect)
 */
export function publishedTool(name: string): ToolSchemaPair {
  const text = Object.hasOwn(PUBLISHED_TOOLS, name) ? PUBLISHED_TOOLS[name] : undefined;
  if (text === undefined) throw new Error(`no published schemas for tool ${name}: run \`npm run generate -w protocol\``);
  return JSON.parse(text) as ToolSchemaPair;
}

/** Names of every tool with published schemas, in name order (as `loadToolSchemas` keys them). */
export function publishedToolNames(): string[] {
  return Object.keys(PUBLISHED_TOOLS);
}
