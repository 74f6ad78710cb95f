/**
 * The `docforge-mcp` command line: its usage text and the parse of its options into what the
 * composition root (main.ts) starts. Parsing writes nothing and never exits; the caller prints
 * and exits, so the rules of the command line read in one place.
 */
import { parseArgs } from 'node:util';
import { accessIdProblem, isLogLevel, LOG_LEVELS, repeatedOption } from '@docforge/core';
import { CAPABILITY_MODES, type CapabilityMode } from '@docforge/policy';

/** The usage text printed by `--help` and after a usage error. */
export const USAGE = `Usage: docforge-mcp --project-root ABSOLUTE_DIR [--capability-mode read|proposal|application|operator]
       [--proposal-writer ID] [--canonical-applier ID] [--no-ast] [--diagnostics] [--log-level LEVEL]
       docforge-mcp --version | --help

ID: 1 to 256 letters, digits, '.', '_' or '-', starting with a letter or digit.

A malformed option (an unknown option or mode, an invalid ID, application mode without
--canonical-applier) prints this usage and exits with status 2, as does a missing --project-root.
A valid start the project cannot honour (a --project-root that does not exist, is not a directory
or is relative; a canonical applier the project does not supply; an unloadable project adapter)
does not stop the server: it starts, answers initialize, and answers every tool call with that
structured error (project_root_invalid, canonical_applier_unavailable, ...) and its remediation.`;

/** The startup options of a server to run. */
export interface ServeOptions {
  /** `--project-root` exactly as given (checked when binding, not here). */
  root: string;
  capabilityMode: CapabilityMode | null;
  proposalWriter: string | null;
  canonicalApplier: string | null;
  noAst: boolean;
  diagnostics: boolean;
  /** `--log-level`; null: the level of `DOCFORGE_LOG_LEVEL` (or info). */
  logLevel: string | null;
}

/**
 * What the command line asks for: help, the version, a server, or a usage error whose `message`
 * (the problem, then the usage) is printed on stderr before exiting with status 2.
 */
export type CommandLine =
  | { kind: 'help' }
  | { kind: 'version' }
  | { kind: 'serve'; options: ServeOptions }
  | { kind: 'usage_error'; message: string };

const OPTIONS = {
  'project-root': { type: 'string' },
  'capability-mode': { type: 'string' },
  'proposal-writer': { type: 'string' },
  'canonical-applier': { type: 'string' },
  'no-ast': { type: 'boolean', default: false },
  diagnostics: { type: 'boolean', default: false },
  'log-level': { type: 'string' },
  help: { type: 'boolean', default: false },
  version: { type: 'boolean', default: false },
} as const;

/**
 * Parses the arguments after the program name. Checks run in this order: unknown or malformed
 * options, a repeated option, `--log-level`, then `--help` and `--version`, then the required
 * `--project-root`, `--capability-mode`, the writer and applier ids (@docforge/core
 * `accessIdProblem`) and their combination with the mode. What depends on the project is not
 * checked here: the server starts and answers it (main.ts).
 */
export function parseCommandLine(args: readonly string[]): CommandLine {
  let parsed;
  try {
    parsed = parseArgs({ args: [...args], options: OPTIONS, strict: true, allowPositionals: false, tokens: true });
  } catch (error) {
    return usageError((error as Error).message);
  }
  const { values, tokens } = parsed;
  // The project root binds once (contract): a repeated option is ambiguous, never "the last one wins".
  const repeated = repeatedOption(tokens);
  if (repeated !== null) return usageError(`${repeated} is given more than once; give it once`);
  const level = values['log-level'];
  if (level !== undefined && !isLogLevel(level)) return usageError(`--log-level must be one of ${LOG_LEVELS.join(', ')} (got ${shown(level)})`);
  if (values.help) return { kind: 'help' };
  if (values.version) return { kind: 'version' };
  const root = values['project-root'];
  if (!root) return usageError('--project-root ABSOLUTE_DIR is required');
  const mode = values['capability-mode'];
  if (mode !== undefined && !(CAPABILITY_MODES as readonly string[]).includes(mode)) {
    return usageError(`--capability-mode must be one of ${CAPABILITY_MODES.join(', ')} (got ${shown(mode)})`);
  }
  const ids = checkIds(values['proposal-writer'], values['canonical-applier'], mode);
  if (ids !== null) return ids;
  return {
    kind: 'serve',
    options: {
      root,
      capabilityMode: (mode as CapabilityMode | undefined) ?? null,
      proposalWriter: values['proposal-writer'] ?? null,
      canonicalApplier: values['canonical-applier'] ?? null,
      noAst: values['no-ast'] === true,
      diagnostics: values.diagnostics === true,
      logLevel: level ?? null,
    },
  };
}

/** A usage error: `docforge-mcp: PROBLEM` and the usage, as every malformed command line is answered (exit 2). */
function usageError(problem: string): CommandLine {
  return { kind: 'usage_error', message: `docforge-mcp: ${problem}\n${USAGE}\n` };
}

/** A value of the command line as quoted in a usage error: JSON, cut to 80 characters. */
function shown(value: string): string {
  return JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value);
}

/** The usage error of a malformed writer or applier id, or of application mode without an applier; null when they are fine. */
function checkIds(writer: string | undefined, applier: string | undefined, mode: string | undefined): CommandLine | null {
  for (const [option, value] of [['--proposal-writer', writer], ['--canonical-applier', applier]] as const) {
    const problem = value === undefined ? null : accessIdProblem(option, value);
    if (problem !== null) return usageError(problem);
  }
  // Fails closed (contract): a flag combination, known before any project is read, so a usage error.
  if (mode === 'application' && applier === undefined) {
    return usageError('Capability mode application requires --canonical-applier ID; canonical application stays disabled.');
  }
  return null;
}
