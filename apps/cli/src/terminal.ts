/**
 * Terminal-safe text for the CLI's human output (issue 8 follow-up 5). Node ids, titles, file
 * names and messages come from project files; written raw, an ESC or BEL could drive the terminal,
 * a CR or newline could forge a `path:line:` line, and a bidi control could reorder what is shown.
 * Every control character (C0, DEL, C1), line/paragraph separator, bidi control and invisible
 * format character is shown as a visible escape instead. JSON output (`--json`) is already safe
 * (JSON.stringify escapes controls) and is not passed through here.
 */

import type { Writable } from 'node:stream';
import { framesStream } from '@docforge/stdio';

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

/**
 * The process slot in which the launcher (bin/docforge.js) of a CLI child names the descriptor of
 * the CLI's own output (3), and the slot that holds the stream opened on it. Process slots, not
 * module state: the launcher, the bundled no-change path and the full CLI (bundled or compiled)
 * are separate module instances of one process.
 */
const OUTPUT_FD = Symbol.for('docforge.cli.outputFd');
const OUTPUT_STREAM = Symbol.for('docforge.cli.outputStream');

/** The CLI's standard output: a writable stream and whether it is a terminal. */
export type CliOutput = Writable & { isTTY?: boolean };

/**
 * Where the CLI writes its own output (results, JSON documents, `--version`, usage) and whose
 * `isTTY` decides colors. `process.stdout` in an ordinary start. When the project's docforge.toml
 * names a project-owned adapter `module`, the launcher runs the CLI as a child whose fd 1 is the
 * caller's stderr and whose fd 3 is the caller's stdout (as docforge-mcp does, break-it trial of
 * stop 45): this is then a stream on fd 3 ({@link framesStream}: blocking pipe or socket,
 * terminal, or file), opened once per process, so an adapter's direct writes to fd 1 land on
 * stderr and never inside the CLI's output.
 */
export function cliOutput(): CliOutput {
  const slots = process as unknown as Record<symbol, unknown>;
  const fd = slots[OUTPUT_FD];
  if (typeof fd !== 'number') return process.stdout;
  slots[OUTPUT_STREAM] ??= framesStream(fd);
  return slots[OUTPUT_STREAM] as CliOutput;
}

/** Writes one line of human output to the CLI's output ({@link cliOutput}), made terminal-safe (see {@link terminalSafe}). */
export function printLine(text = ''): void {
  cliOutput().write(`${terminalSafe(text)}\n`);
}

/** Writes text that is already safe (JSON documents, pre-escaped colored diffs) to the CLI's output ({@link cliOutput}) as is. */
export function printRaw(text: string): void {
  cliOutput().write(`${text}\n`);
}

/** Writes one line to stderr, made terminal-safe. */
export function errorLine(text: string): void {
  process.stderr.write(`${terminalSafe(text)}\n`);
}

const PIPE_GUARD = Symbol.for('docforge.cli.stdoutPipeGuard');

/**
 * Makes a closed stdout pipe (e.g. `docforge search x | head`) end the process quietly with the
 * current exit code instead of crashing; other stdout errors are rethrown. Installed once per
 * process on the CLI's output ({@link cliOutput}), even when called from both the bundled fast path
 * and the full CLI.
 */
export function guardStdoutPipe(): void {
  const flags = process as unknown as Record<symbol, boolean>;
  if (flags[PIPE_GUARD]) return;
  flags[PIPE_GUARD] = true;
  cliOutput().on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
}
