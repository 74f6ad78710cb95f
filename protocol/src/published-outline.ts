/**
 * The outline of an output schema: the part of it that describes what a tool returns, without what
 * only validates it (issue 30 item 13, third pass). `tools/list` publishes output schemas in this
 * form so that the whole list stays near its size target; the server still checks every result
 * against the full generated validator.
 */

/**
 * Keywords an outline keeps as they are: they name a node's type, its one value (`const`: the
 * envelope's `schema_version`, the tag of a union branch; about 700 characters over all tools) or
 * point at a shared definition.
 */
const KEPT: ReadonlySet<string> = new Set(['type', 'const', '$ref']);

/** Keywords whose value is a map of names to schemas: each schema is outlined, every name kept. */
const SCHEMA_MAPS: ReadonlySet<string> = new Set(['properties', '$defs']);

/**
 * A copy of a JSON Schema that declares the same property names at every level, each with its type
 * and its nested object and array structure (`properties`, `items`, `additionalProperties` when it
 * is a schema, `$ref` to local `$defs`), and `const` values. It leaves out every keyword that only
 * validates: `required`, `additionalProperties: false`, `minimum`/`maximum`, `minLength`/`maxLength`,
 * `pattern`, `minItems`/`maxItems`, `uniqueItems`, `format`, `not`, `if`, and `enum` (a node typed
 * only by `enum` gets the `type` of its values; the values cost about 7,000 characters over all
 * tools). `oneOf` becomes `anyOf` (two loosened branches may both match a value), and the branches
 * of `then`/`else` that declare something are kept as an `anyOf`. Annotations go as well. The
 * outline therefore accepts every value the schema accepts, and declares the same property paths.
 */
export function outlineSchema(schema: Record<string, unknown>): Record<string, unknown> {
  return outlineNode(schema) as Record<string, unknown>;
}

function outlineNode(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(outlineNode);
  if (node === null || typeof node !== 'object') return node;
  const source = node as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(source)) {
    if (KEPT.has(k)) out[k] = v;
    else if (SCHEMA_MAPS.has(k) && isRecord(v)) out[k] = Object.fromEntries(Object.entries(v).map(([name, sub]) => [name, outlineNode(sub)]));
    else if (k === 'items' || (k === 'additionalProperties' && isRecord(v))) out[k] = outlineNode(v);
    else if ((k === 'allOf' || k === 'anyOf' || k === 'oneOf') && Array.isArray(v)) out[k === 'allOf' ? 'allOf' : 'anyOf'] = v.map(outlineNode);
  }
  if (out.type === undefined && out.$ref === undefined && out.const === undefined) {
    const type = valuesType(source);
    if (type !== undefined) out.type = type;
  }
  return withConditionalBranches(out, source);
}

/**
 * `out` with the outlines of `source.then` and `source.else` added as one `anyOf` when either
 * declares something beyond validation (a value that passes the condition matches one of them).
 */
function withConditionalBranches(out: Record<string, unknown>, source: Record<string, unknown>): Record<string, unknown> {
  if (source.if === undefined) return out;
  const branches = [source.then ?? {}, source.else ?? {}].map((b) => outlineNode(b) as Record<string, unknown>);
  if (branches.every((b) => Object.keys(b).length === 0)) return out;
  const alternatives = { anyOf: branches };
  if (out.anyOf === undefined) return { ...out, ...alternatives };
  return { ...out, allOf: [...((out.allOf as unknown[] | undefined) ?? []), alternatives] };
}

/** The JSON type (or sorted types) of the `enum` values of `node`, if it has any. */
function valuesType(node: Record<string, unknown>): string | string[] | undefined {
  const values: unknown[] = Array.isArray(node.enum) ? node.enum : [];
  const types = [...new Set(values.map(jsonType))].sort();
  if (types.length === 0) return undefined;
  return types.length === 1 ? types[0] : types;
}

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
