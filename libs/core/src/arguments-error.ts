/**
 * The one `invalid_arguments` error of a schema mismatch, shared by every surface that validates
 * tool arguments with the generated validators of @docforge/protocol (the MCP server's validate
 * stage and the CLI), so that both report the same code and message for the same arguments.
 */
import { describeValidationErrors, type SchemaValidationError } from '@docforge/protocol/validator';
import { errors, type DocforgeError } from './errors.js';

/**
 * The `invalid_arguments` error of a schema mismatch: the message names each failing path
 * (`Arguments of TOOL do not match its input schema: /query must NOT have fewer than 1 characters.`),
 * an enum mismatch lists the allowed values in the message and in `details.errors[].allowed_values`,
 * and, given the input schema, an unknown property lists the properties allowed there (message and
 * `details.errors[].allowed_properties`) and a `not` over required properties (arguments that
 * exclude each other, as `docforge_visualize`'s `node_id` and `query`) names them instead of
 * ajv's "must NOT be valid".
 * @param tool the tool whose input schema was applied (e.g. `docforge_search`)
 * @param validationErrors the validator's `errors` after a failed call
 * @param inputSchema the tool's input JSON Schema, to name the allowed properties (optional)
 * @param args the arguments that failed, to name the allowed properties inside a tagged union
 *   (the branch whose tag, e.g. `op`, the value carries; issue 30 item 5) (optional)
 */
export function argumentsError(tool: string, validationErrors: readonly SchemaValidationError[] | null | undefined, inputSchema?: Record<string, unknown>, args?: unknown): DocforgeError {
  const described = describeValidationErrors(validationErrors);
  const list = (validationErrors ?? []).slice(0, described.length);
  const detailed = described.map((d, i) => {
    const error = list[i];
    const allowed = error?.keyword === 'enum' ? error.params.allowedValues : undefined;
    if (Array.isArray(allowed)) return { ...d, allowed_values: allowed };
    const exclusive = error?.keyword === 'not' && inputSchema !== undefined ? exclusiveMessage(inputSchema, error.schemaPath) : null;
    if (exclusive !== null) return { ...d, message: exclusive };
    const properties = error?.keyword === 'additionalProperties' && inputSchema !== undefined ? propertiesAt(inputSchema, error.instancePath, args) : null;
    return properties === null ? d : { ...d, message: `${d.message} (allowed: ${properties.join(', ')})`, allowed_properties: properties };
  });
  const summary = detailed.slice(0, 3).map((d) => `${d.path} ${d.message}`).join('; ');
  return errors.invalidArguments(`Arguments of ${tool} do not match its input schema${summary ? `: ${summary}` : ''}.`, { errors: detailed });
}

/**
 * The property names the schema declares for the object at a JSON Pointer of the instance
 * (following `properties` by name, `items` by index, local `$ref`s into `$defs`/`definitions`, and
 * the branch of a tagged `oneOf` that the instance's tag names), or null when it cannot tell (no
 * such subschema, or no declared properties).
 */
function propertiesAt(schema: Record<string, unknown>, instancePath: string, args: unknown): string[] | null {
  let node: Record<string, unknown> | null = resolved(schema, schema, args);
  let value = args;
  for (const raw of instancePath.split('/').slice(1)) {
    const segment = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (node === null) return null;
    value = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[segment] : undefined;
    const properties = node.properties as Record<string, unknown> | undefined;
    if (properties !== undefined && Object.hasOwn(properties, segment)) node = resolved(schema, properties[segment], value);
    else if (/^\d+$/.test(segment) && typeof node.items === 'object') node = resolved(schema, node.items, value);
    else return null;
  }
  const properties = node?.properties;
  if (typeof properties !== 'object' || properties === null) return null;
  const names = Object.keys(properties);
  return names.length === 0 ? null : names;
}

/** `node` with local `$ref`s followed and a tagged `oneOf` narrowed to the branch `value`'s tag names (depth-bounded). */
function resolved(root: Record<string, unknown>, node: unknown, value: unknown): Record<string, unknown> | null {
  let current = node;
  for (let hops = 0; hops < 16; hops++) {
    if (typeof current !== 'object' || current === null) return null;
    const record = current as Record<string, unknown>;
    if (typeof record.$ref === 'string') {
      const match = /^#\/(\$defs|definitions)\/([^/]+)$/.exec(record.$ref);
      if (match === null) return null;
      current = (root[match[1]!] as Record<string, unknown> | undefined)?.[match[2]!];
      continue;
    }
    if (!Array.isArray(record.oneOf)) return record;
    const branch = taggedBranch(root, record.oneOf, value);
    if (branch === null) return record;
    current = branch;
  }
  return null;
}

/** The branch of a `oneOf` whose `const` (or `enum`) tag property the value carries, or null. */
function taggedBranch(root: Record<string, unknown>, branches: unknown[], value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return null;
  for (const branch of branches) {
    const body = resolved(root, branch, undefined);
    const properties = body?.properties as Record<string, { const?: unknown; enum?: unknown }> | undefined;
    if (properties === undefined) continue;
    const required = Array.isArray(body?.required) ? (body.required as unknown[]) : [];
    const matches = Object.entries(properties).some(([name, p]) => {
      const tag = (value as Record<string, unknown>)[name];
      return typeof tag === 'string' && required.includes(name) && (p?.const === tag || (Array.isArray(p?.enum) && p.enum.includes(tag)));
    });
    if (matches) return branch;
  }
  return null;
}

/**
 * The message of a failed `not` whose subschema (found by the error's `schemaPath` in the local
 * schema) only requires properties: `{ required: [a, b] }` -> "`a` and `b` cannot be given together",
 * `{ anyOf: [{ required: [a] }, { required: [b] }] }` -> "none of `a`, `b` may be given here".
 * Null for any other subschema, which keeps ajv's message.
 */
function exclusiveMessage(schema: Record<string, unknown>, schemaPath: string): string | null {
  if (!schemaPath.startsWith('#/')) return null;
  let node: unknown = schema;
  for (const raw of schemaPath.slice(2).split('/')) {
    if (typeof node !== 'object' || node === null) return null;
    node = (node as Record<string, unknown>)[raw.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  const names = (n: unknown): string[] | null => {
    const r = typeof n === 'object' && n !== null ? (n as Record<string, unknown>) : null;
    if (r === null || !Array.isArray(r.required) || Object.keys(r).length !== 1) return null;
    return r.required.every((x) => typeof x === 'string') ? (r.required as string[]) : null;
  };
  const all = names(node);
  const quoted = (list: string[]): string => list.map((x) => `\`${x}\``).join(list.length === 2 ? ' and ' : ', ');
  if (all !== null && all.length > 1) return `${quoted(all)} cannot be given together; give one of them`;
  const anyOf = typeof node === 'object' && node !== null ? (node as Record<string, unknown>).anyOf : undefined;
  if (!Array.isArray(anyOf)) return null;
  const each = anyOf.map(names);
  if (each.some((x) => x === null || x.length !== 1)) return null;
  return `none of ${quoted(each.map((x) => x![0]!))} may be given here`;
}
