import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { bundleSchema, schemaFileReader, type SchemaFileReader } from './bundle.js';
import { publishedInput } from './published-input.js';
import { publishedOutput } from './published-output.js';

/** Absolute path of `protocol/schemas` (every schema source; `$ref`s are relative inside it). */
export const PROTOCOL_SCHEMAS_ROOT: string = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../schemas');

/** Absolute path of `protocol/schemas/v1` (JSON Schemas are the source of truth for the wire). */
export const PROTOCOL_SCHEMA_DIR: string = path.join(PROTOCOL_SCHEMAS_ROOT, 'v1');

/** MCP tool annotations (hints) as published in `tools/list`. */
export interface ToolAnnotations {
  title: string;
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/**
 * Everything `tools/list` publishes for one tool: name, description, annotations and the published
 * input and output schemas, each self-contained (definitions bundled into local `$defs`).
 */
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
 * Loads every tool of `schemas/v1/tools/` as {@link loadToolSchema} does, keyed by tool name in
 * name order (registration order comes from the contract lists in @docforge/policy).
 * @throws Error when a schema file is missing or not JSON, or a `$ref` does not resolve (a packaging defect)
 */
export function loadToolSchemas(): Map<string, ToolSchemaPair> {
  const dir = path.join(PROTOCOL_SCHEMA_DIR, 'tools');
  const read = schemaFileReader(PROTOCOL_SCHEMAS_ROOT);
  const pairs = new Map<string, ToolSchemaPair>();
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.tool.json')).sort()) {
    const pair = loadToolSchema(file.slice(0, -'.tool.json'.length), read);
    pairs.set(pair.name, pair);
  }
  return pairs;
}

/**
 * Loads one tool as `tools/list` publishes it: `<name>.tool.json` (description and annotations)
 * from `schemas/v1/tools/`, and its input and output schemas bundled by {@link publishedSchema}
 * (self-contained: every referenced definition in local `$defs`, deterministic), without the
 * `$schema` keyword (the schemas are draft-07 and 2020-12 alike: `$defs`, `const`, `if`/`then`), the
 * input schema as {@link publishedInput} writes it and the output schema as {@link publishedOutput}
 * writes it (issue 30 item 13).
 * @param read the file reader to share across tools (default: a new one)
 * @throws Error when a file is missing or not JSON, or a `$ref` does not resolve (a packaging defect)
 */
export function loadToolSchema(name: string, read: SchemaFileReader = schemaFileReader(PROTOCOL_SCHEMAS_ROOT)): ToolSchemaPair {
  const entry = read(`v1/tools/${name}.tool.json`) as unknown as ManifestEntry;
  const { $schema: _dialect, ...bundled } = publishedSchema(`v1/tools/${name}.input.schema.json`, read);
  const input = publishedInput(bundled);
  const output = publishedOutput(publishedSchema(`v1/tools/${name}.output.schema.json`, read));
  return { ...entry, input, output };
}

/**
 * The self-contained form of one schema file under `protocol/schemas` (e.g.
 * `v1/changeset.schema.json`): every definition it reaches through `$ref` copied into its local
 * `$defs`, refs rewritten to `#/$defs/<name>`; compiles in a fresh ajv with nothing added.
 * @throws Error when a file is missing or not JSON, or a `$ref` does not resolve
 */
export function publishedSchema(file: string, read: SchemaFileReader = schemaFileReader(PROTOCOL_SCHEMAS_ROOT)): Record<string, unknown> {
  return bundleSchema(file, read);
}
