/**
 * The check a command's arguments share with its MCP tool, in a module of its own so that a read
 * command (read-tools.ts) refuses bad arguments without loading the sync lib (commands.ts).
 */
import { argumentsError } from '@docforge/core';
import type { SchemaToolName } from '@docforge/protocol';
import { BAD_INPUT_STATUS, refuseWire } from './cli-error.js';

/** Exit code of a command-line usage error, including arguments its MCP tool's schema refuses. */
export const USAGE_EXIT_CODE = BAD_INPUT_STATUS;

/**
 * Checks command arguments with the generated input validator of the MCP tool the command mirrors
 * (`docforge search` → `docforge_search`, `docforge validate` → `docforge_validate_project`, the
 * read commands of read-tools.ts → their tools), so
 * the CLI accepts exactly what MCP accepts. On a mismatch it prints the same error as MCP
 * (`docforge: invalid_arguments: <message>`) to stderr (with `json`: the error document of cli-error.ts on stdout) and resolves to false; nothing is opened or written.
 */
export async function checkToolArguments(tool: SchemaToolName, args: Record<string, unknown>, json = false): Promise<boolean> {
  // Imported when a command needs it, so `docforge sync` does not load the validators.
  const { TOOL_VALIDATORS } = await import('@docforge/protocol');
  const validate = TOOL_VALIDATORS[tool].input;
  if (validate(args)) return true;
  const wire = argumentsError(tool, validate.errors).toWire();
  // With --json the refusal is the JSON error on stdout, as for every refused command line.
  refuseWire(json, wire, `docforge: ${wire.code}: ${wire.message}`);
  return false;
}
