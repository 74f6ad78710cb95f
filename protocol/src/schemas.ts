import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { bundleSchema, schemaFileReader, type SchemaFileReader } from './bundle.js';

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
 * `$schema` keyword (the schemas are draft-07 and 2020-12 alike: `$defs`, `const`, `if`/`then`), and
 * the output schema without annotations and with the response envelope at its root (issue 30 item 13).
 * @param read the file reader to share across tools (default: a new one)
 * @throws Error when a file is missing or not JSON, or a `$ref` does not resolve (a packaging defect)
 */
export function loadToolSchema(name: string, read: SchemaFileReader = schemaFileReader(PROTOCOL_SCHEMAS_ROOT)): ToolSchemaPair {
  const entry = read(`v1/tools/${name}.tool.json`) as unknown as ManifestEntry;
  const { $schema: _dialect, ...input } = publishedSchema(`v1/tools/${name}.input.schema.json`, read);
  const output = withEnvelopeInline(withoutAnnotations(publishedSchema(`v1/tools/${name}.output.schema.json`, read)));
  return { ...entry, input, output };
}

/** The `$defs` name under which a bundled output schema carries the response envelope (`v1/tool-envelope.schema.json`). */
const ENVELOPE_DEF = 'tool-envelope';

/**
 * An output schema of the source form `{type: object, allOf: [{$ref: envelope}], properties: {result}}`
 * with the envelope written at its root and `result` in place of the envelope's open
 * `result: {type: object}` (issue 30 item 13: about 100 characters less per tool). It accepts
 * exactly what the source form accepts: the envelope's keywords are unchanged and the tool's
 * result is the only schema of `result` (typed `object` when it is not typed). Any other shape is
 * returned as it is.
 */
function withEnvelopeInline(schema: Record<string, unknown>): Record<string, unknown> {
  const { type, allOf, properties, $defs, ...rest } = schema;
  const defs = ($defs ?? {}) as Record<string, Record<string, unknown>>;
  const envelope = defs[ENVELOPE_DEF];
  const own = (properties ?? {}) as Record<string, Record<string, unknown>>;
  const refsEnvelope = Array.isArray(allOf) && allOf.length === 1 && (allOf[0] as { $ref?: unknown }).$ref === `#/$defs/${ENVELOPE_DEF}`;
  if (!refsEnvelope || type !== 'object' || envelope === undefined || Object.keys(rest).length > 0 || Object.keys(own).join() !== 'result') return schema;
  const result = own.result!;
  if (result.type !== undefined && result.type !== 'object') return schema;
  if (JSON.stringify(envelope).includes(`"#/$defs/`)) return schema;
  const { [ENVELOPE_DEF]: _envelope, ...otherDefs } = defs;
  const merged = { ...envelope, properties: { ...(envelope.properties as Record<string, unknown>), result: { type: 'object', ...result } } };
  return Object.keys(otherDefs).length === 0 ? merged : { ...merged, $defs: otherDefs };
}

/** Annotation keywords a published output schema leaves out (issue 30 item 13): they validate nothing. */
const OUTPUT_ANNOTATIONS: ReadonlySet<string> = new Set(['description', 'title', '$comment', '$schema']);

/**
 * A copy of an output schema without annotation keywords ({@link OUTPUT_ANNOTATIONS}); property
 * and `$defs` names are kept, so every field the tool returns is still declared with its type and
 * every validation keyword is unchanged (issue 30 item 13: `tools/list` is what a client loads; the
 * field documentation stays in the source files under `protocol/schemas`). The input schema keeps
 * its descriptions: they are what a model reads to call the tool.
 */
function withoutAnnotations(schema: Record<string, unknown>): Record<string, unknown> {
  const strip = (node: unknown, names: boolean): unknown => {
    if (Array.isArray(node)) return node.map((v) => strip(v, false));
    if (node === null || typeof node !== 'object') return node;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(node)) {
      if (!names && OUTPUT_ANNOTATIONS.has(k) && typeof v === 'string') continue;
      out[k] = strip(v, !names && (k === 'properties' || k === '$defs' || k === 'definitions'));
    }
    return out;
  };
  return strip(schema, false) as Record<string, unknown>;
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
