import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

/** Absolute path of `protocol/schemas/v1` (JSON Schemas are the source of truth for the wire). */
export const PROTOCOL_SCHEMA_DIR: string = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../schemas/v1');

/** MCP tool annotations (hints) as published in `tools/list`. */
export interface ToolAnnotations {
  title: string;
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/** Everything `tools/list` publishes for one tool, plus its output schema. */
export interface ToolSchemaPair {
  name: string;
  description: string;
  annotations: ToolAnnotations;
  input: Record<string, unknown>;
  output: Record<string, unknown>;
}

interface ManifestEntry {
  name: string;
  description: string;
  annotations: ToolAnnotations;
}

/**
 * Loads every tool of `schemas/v1/tools/`: `<name>.tool.json` (description and annotations),
 * `<name>.input.schema.json` and `<name>.output.schema.json`, keyed by tool name in name order
 * (registration order comes from the contract lists in @docforge/policy).
 * @throws Error when a schema file is missing or not JSON (a packaging defect).
 */
export function loadToolSchemas(): Map<string, ToolSchemaPair> {
  const dir = path.join(PROTOCOL_SCHEMA_DIR, 'tools');
  const pairs = new Map<string, ToolSchemaPair>();
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.tool.json')).sort()) {
    const pair = loadToolSchema(file.slice(0, -'.tool.json'.length));
    pairs.set(pair.name, pair);
  }
  return pairs;
}

/**
 * Loads one tool's `<name>.tool.json`, input and output schema from `schemas/v1/tools/`.
 * @throws Error when a file is missing or not JSON (a packaging defect)
 */
export function loadToolSchema(name: string): ToolSchemaPair {
  const dir = path.join(PROTOCOL_SCHEMA_DIR, 'tools');
  const entry = JSON.parse(readFileSync(path.join(dir, `${name}.tool.json`), 'utf8')) as ManifestEntry;
  const input = JSON.parse(readFileSync(path.join(dir, `${name}.input.schema.json`), 'utf8')) as Record<string, unknown>;
  const output = JSON.parse(readFileSync(path.join(dir, `${name}.output.schema.json`), 'utf8')) as Record<string, unknown>;
  return { ...entry, input, output };
}
