import { readFileSync } from 'node:fs';
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
 * Loads the tool manifest (`tools/manifest.json`, contract order) with each tool's
 * `<name>.input.schema.json` and `<name>.output.schema.json`.
 * @throws Error when a schema file is missing or not JSON (a packaging defect).
 */
export function loadToolSchemas(): Map<string, ToolSchemaPair> {
  const dir = path.join(PROTOCOL_SCHEMA_DIR, 'tools');
  const manifest = JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as ManifestEntry[];
  const pairs = new Map<string, ToolSchemaPair>();
  for (const entry of manifest) {
    const input = JSON.parse(readFileSync(path.join(dir, `${entry.name}.input.schema.json`), 'utf8')) as Record<string, unknown>;
    const output = JSON.parse(readFileSync(path.join(dir, `${entry.name}.output.schema.json`), 'utf8')) as Record<string, unknown>;
    pairs.set(entry.name, { ...entry, input, output });
  }
  return pairs;
}
