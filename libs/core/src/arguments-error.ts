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
 * `details.errors[].allowed_properties`).
 * @param tool the tool whose input schema was applied (e.g. `docforge_search`)
 * @param validationErrors the validator's `errors` after a failed call
 * @param inputSchema the tool's input JSON Schema, to name the allowed properties (optional)
 */
export function argumentsError(tool: string, validationErrors: readonly SchemaValidationError[] | null | undefined, inputSchema?: Record<string, unknown>): DocforgeError {
  const described = describeValidationErrors(validationErrors);
  const list = (validationErrors ?? []).slice(0, described.length);
  const detailed = described.map((d, i) => {
    const error = list[i];
    const allowed = error?.keyword === 'enum' ? error.params.allowedValues : undefined;
    if (Array.isArray(allowed)) return { ...d, allowed_values: allowed };
    const properties = error?.keyword === 'additionalProperties' && inputSchema !== undefined ? propertiesAt(inputSchema, error.instancePath) : null;
    return properties === null ? d : { ...d, message: `${d.message} (allowed: ${properties.join(', ')})`, allowed_properties: properties };
  });
  const summary = detailed.slice(0, 3).map((d) => `${d.path} ${d.message}`).join('; ');
  return errors.invalidArguments(`Arguments of ${tool} do not match its input schema${summary ? `: ${summary}` : ''}.`, { errors: detailed });
}

/**
 * The property names the schema declares for the object at a JSON Pointer of the instance
 * (following `properties` by name and `items` by index), or null when it cannot tell (no such
 * subschema, a `$ref`, or no declared properties).
 */
function propertiesAt(schema: Record<string, unknown>, instancePath: string): string[] | null {
  let node: unknown = schema;
  for (const raw of instancePath.split('/').slice(1)) {
    const segment = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (typeof node !== 'object' || node === null) return null;
    const record = node as Record<string, unknown>;
    const properties = record.properties as Record<string, unknown> | undefined;
    if (properties !== undefined && Object.hasOwn(properties, segment)) node = properties[segment];
    else if (/^\d+$/.test(segment) && typeof record.items === 'object') node = record.items;
    else return null;
  }
  if (typeof node !== 'object' || node === null) return null;
  const properties = (node as Record<string, unknown>).properties;
  if (typeof properties !== 'object' || properties === null) return null;
  const names = Object.keys(properties);
  return names.length === 0 ? null : names;
}
