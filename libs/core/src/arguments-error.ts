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
 * and an enum mismatch lists the allowed values in the message and in `details.errors[].allowed_values`.
 * @param tool the tool whose input schema was applied (e.g. `docforge_search`)
 * @param validationErrors the validator's `errors` after a failed call
 */
export function argumentsError(tool: string, validationErrors: readonly SchemaValidationError[] | null | undefined): DocforgeError {
  const described = describeValidationErrors(validationErrors);
  const list = (validationErrors ?? []).slice(0, described.length);
  const detailed = described.map((d, i) => {
    const allowed = list[i]?.keyword === 'enum' ? list[i]?.params.allowedValues : undefined;
    return Array.isArray(allowed) ? { ...d, allowed_values: allowed } : d;
  });
  const summary = described.slice(0, 3).map((d) => `${d.path} ${d.message}`).join('; ');
  return errors.invalidArguments(`Arguments of ${tool} do not match its input schema${summary ? `: ${summary}` : ''}.`, { errors: detailed });
}
