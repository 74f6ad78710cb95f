/**
 * Terminal-safe text for the CLI's human output (issue 8 follow-up 5). Node ids, titles, file
 * names and messages come from project files; written raw, an ESC or BEL could drive the terminal,
 * a CR or newline could forge a `path:line:` line, and a bidi control could reorder what is shown.
 * Every control character (C0, DEL, C1), line/paragraph separator, bidi control and invisible
 * format character is shown as a visible escape instead. JSON output (`--json`) is already safe
 * (JSON.stringify escapes controls) and is not passed through here.
 */

import { errors } from '@docforge/core';

/** Control, bidi and invisible format characters escaped by {@link terminalSafe}. */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/gu;

const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/**
 * `text` with every unsafe character replaced by a visible escape: `\n`, `\r`, `\t`, `\xHH` for
 * other C0/C1 controls and DEL, `\u{HHHH}` for bidi and format characters.
 */
export function terminalSafe(text: string): string {
  return text.replace(UNSAFE, (ch) => {
    const named = NAMED[ch];
    if (named !== undefined) return named;
    const code = ch.codePointAt(0)!;
    return code <= 0x9f ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u{${code.toString(16).padStart(4, '0')}}`;
  });
}

/** Writes one line of human output to stdout, made terminal-safe (see {@link terminalSafe}). */
export function printLine(text = ''): void {
  process.stdout.write(`${terminalSafe(text)}\n`);
}

/** Writes text that is already safe (JSON documents, pre-escaped colored diffs) to stdout as is. */
export function printRaw(text: string): void {
  process.stdout.write(`${text}\n`);
}

/** Writes one line to stderr, made terminal-safe. */
export function errorLine(text: string): void {
  process.stderr.write(`${terminalSafe(text)}\n`);
}

/** The exit status of a refused command line. */
const USAGE_STATUS = 2;

/**
 * Refuses a command line with exit status 2: `docforge: MESSAGE` on stderr, or, when the line asks
 * for `--json`, the `invalid_arguments` error object `{"schema_version": 1, "error": {...}}` on
 * stdout alone (as every refusal under `--json` is printed; README "--json").
 * @returns 2
 */
export function refuseUsage(json: boolean, message: string): number {
  if (json) printRaw(JSON.stringify({ schema_version: 1, error: errors.invalidArguments(message).toWire() }, null, 2));
  else errorLine(`docforge: ${message}`);
  return USAGE_STATUS;
}

const PIPE_GUARD = Symbol.for('docforge.cli.stdoutPipeGuard');

/**
 * Makes a closed stdout pipe (e.g. `docforge search x | head`) end the process quietly with the
 * current exit code instead of crashing; other stdout errors are rethrown. Installed once per
 * process, even when called from both the bundled fast path and the full CLI.
 */
export function guardStdoutPipe(): void {
  const flags = process as unknown as Record<symbol, boolean>;
  if (flags[PIPE_GUARD]) return;
  flags[PIPE_GUARD] = true;
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
}
