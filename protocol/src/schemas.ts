import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

/** Absolute path of `protocol/schemas/v1` (JSON Schemas are the source of truth for the wire). */
export const PROTOCOL_SCHEMA_DIR: string = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../schemas/v1');

/** Input and output JSON Schema of one MCP tool. */
export interface ToolSchemaPair {
  name: string;
  input: Record<string, unknown>;
  output: Record<string, unknown>;
}

/**
 * Loads every `tools/<name>.input.schema.json` / `<name>.output.schema.json` pair.
 * @throws Error when a schema file is missing or not JSON (a packaging defect).
 */
export function loadToolSchemas(): Map<string, ToolSchemaPair> {
  const dir = path.join(PROTOCOL_SCHEMA_DIR, 'tools');
  const pairs = new Map<string, ToolSchemaPair>();
  for (const file of readdirSync(dir).sort()) {
    const match = /^(.+)\.input\.schema\.json$/.exec(file);
    if (!match) continue;
    const name = match[1]!;
    const input = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as Record<string, unknown>;
    const output = JSON.parse(readFileSync(path.join(dir, `${name}.output.schema.json`), 'utf8')) as Record<string, unknown>;
    pairs.set(name, { name, input, output });
  }
  return pairs;
}
