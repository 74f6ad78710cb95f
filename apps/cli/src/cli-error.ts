/**
 * How the CLI reports an error, one rule for every command (issue 30, the third trial of stop 48):
 * - the exit status follows the error code, never the moment the error was raised: a code that
 *   means the caller's input is malformed ({@link BAD_INPUT_CODES}) exits 2, any other exits 1;
 * - human output is one `docforge: CODE: message` line on standard error (terminal-safe), with
 *   `details` on a second line;
 * - with `--json` the error is also printed on standard output in the shape of the MCP tool
 *   envelope's failure (docs/mcp.md "The envelope"): `{"schema_version": 1, "ok": false, "error":
 *   {code, message, remediation, details}}`; a read command, whose answer is the tool's own
 *   envelope, adds that envelope's `notice` and `project`;
 * - a message longer than {@link MAX_MESSAGE_CHARS} is cut (a 5,000-character project id echoed by
 *   `descriptor_invalid` is not printed whole), as docforge-mcp cuts messages to fit its response
 *   limit; so are long strings in `details`, with `details_truncated: true`.
 */
import { errors, type WireError } from '@docforge/core';
import { errorLine, printRaw } from './terminal.js';
import { commandUsage } from './usage.js';

/** Exit status of an error that means the caller's input is malformed (and of every usage error). */
export const BAD_INPUT_STATUS = 2;

/** Exit status of every other (operational) error. */
export const OPERATIONAL_STATUS = 1;

/**
 * The error codes that mean the caller's input is malformed: arguments or options a schema or a
 * command refuses (`invalid_arguments`: a `--limit` over the project's `max_results`, an unknown
 * `--section`, `init` of a folder that does not exist or already holds docforge.toml) and a cursor
 * that is not one DocForge made (`invalid_cursor`). A well-formed request about something absent
 * or unusable is operational: `node_not_found`, `changeset_not_found`, `view_not_found`, an
 * outdated cursor (`stale_cursor`), a project file in error (`descriptor_invalid`) and a project
 * root that does not exist or cannot be written (`project_root_invalid`, which docforge-mcp too
 * answers as a started server, never as a usage error).
 */
export const BAD_INPUT_CODES: ReadonlySet<string> = new Set(['invalid_arguments', 'invalid_cursor']);

/** The exit status of an error with `code`: 2 for {@link BAD_INPUT_CODES}, 1 for every other. */
export function exitStatusOf(code: string): number {
  return BAD_INPUT_CODES.has(code) ? BAD_INPUT_STATUS : OPERATIONAL_STATUS;
}

/** The longest message (and string in `details`) the CLI prints whole, in characters. */
export const MAX_MESSAGE_CHARS = 1000;

/** `text` cut to {@link MAX_MESSAGE_CHARS} characters with `… (N more characters)` when longer. */
export function boundedText(text: string): string {
  if (text.length <= MAX_MESSAGE_CHARS) return text;
  return `${text.slice(0, MAX_MESSAGE_CHARS)}… (${text.length - MAX_MESSAGE_CHARS} more characters)`;
}

/** `wire` with its message and every long string in `details` (at any depth) cut by {@link boundedText}. */
export function boundedWire(wire: WireError): WireError {
  let cut = false;
  const bound = (value: unknown): unknown => {
    if (typeof value === 'string' && value.length > MAX_MESSAGE_CHARS) {
      cut = true;
      return boundedText(value);
    }
    if (Array.isArray(value)) return value.map(bound);
    if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, bound(inner)]));
    return value;
  };
  const details = bound(wire.details) as Record<string, unknown>;
  return { ...wire, message: boundedText(wire.message), details: cut ? { ...details, details_truncated: true } : details };
}

/** The `--json` error document of the CLI: `{"schema_version": 1, "ok": false, "error": …}` (see the module comment). */
export function errorDocument(wire: WireError): { schema_version: 1; ok: false; error: WireError } {
  return { schema_version: 1, ok: false, error: boundedWire(wire) };
}

/**
 * Prints an error as every command prints one: the `docforge: CODE: message` line on standard
 * error, with a `details` line unless it is a read command's tool error; with `json` also {@link errorDocument} on standard output, or, when `envelope` is
 * given (a read command's tool answer), that envelope as is.
 * @returns the exit status of the error's code ({@link exitStatusOf})
 */
export function reportError(wire: WireError, json: boolean, envelope?: Record<string, unknown>): number {
  const shown = boundedWire(wire);
  errorLine(`docforge: ${shown.code}: ${shown.message}`);
  // A read command's line stands alone, as before: its details are in the tool's envelope (--json).
  if (envelope === undefined && Object.keys(shown.details).length > 0) process.stderr.write(`  details: ${JSON.stringify(shown.details)}\n`);
  if (json) printRaw(JSON.stringify(envelope ?? errorDocument(wire), null, 2));
  return exitStatusOf(wire.code);
}

/**
 * A refused command line or option (`invalid_arguments`, exit 2): `docforge: MESSAGE` on standard
 * error, followed by the usage of `command` when given (usage.ts `commandUsage`), or with `json`
 * only {@link errorDocument} on standard output (nothing on standard error).
 * @returns 2
 */
export function refuseInput(json: boolean, message: string, command?: string): number {
  const status = refuseWire(json, errors.invalidArguments(message).toWire(), `docforge: ${message}`);
  const usage = json || command === undefined ? null : commandUsage(command);
  if (usage !== null) process.stderr.write(`\n${usage}\n`);
  return status;
}

/**
 * A refusal of `wire` (an `invalid_arguments` error) printed as `line` on standard error, or with
 * `json` only as {@link errorDocument} on standard output.
 * @returns the exit status of its code (2)
 */
export function refuseWire(json: boolean, wire: WireError, line: string): number {
  if (json) printRaw(JSON.stringify(errorDocument(wire), null, 2));
  else errorLine(boundedText(line));
  return exitStatusOf(wire.code);
}
