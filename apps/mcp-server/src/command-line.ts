/**
 * The `docforge-mcp` command line: its usage text and the parse of its options into what the
 * composition root (main.ts) starts. Parsing writes nothing and never exits; the caller prints
 * and exits, so the rules of the command line read in one place.
 */
import { parseArgs } from 'node:util';
import { isLogLevel, LOG_LEVELS, repeatedOption } from '@docforge/core';
import { CAPABILITY_MODES, type CapabilityMode } from '@docforge/policy';

/** The usage text printed by `--help` and after a usage error. */
export const USAGE = `Usage: docforge-mcp --project-root ABSOLUTE_DIR [--capability-mode read|proposal|application|operator]
       [--proposal-writer ID] [--canonical-applier ID] [--no-ast] [--diagnostics] [--log-level LEVEL]
       docforge-mcp --version | --help

A --project-root that does not exist, is not a directory or is relative does not stop the server:
it starts, answers initialize, and answers every tool call with project_root_invalid.
Without --project-root it prints this usage and exits with status 2.`;

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
 * is printed on stderr before exiting with status 2.
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
 * `--project-root` and `--capability-mode`.
 */
export function parseCommandLine(args: readonly string[]): CommandLine {
  let parsed;
  try {
    parsed = parseArgs({ args: [...args], options: OPTIONS, strict: true, allowPositionals: false, tokens: true });
  } catch (error) {
    return { kind: 'usage_error', message: `docforge-mcp: ${(error as Error).message}\n${USAGE}\n` };
  }
  const { values, tokens } = parsed;
  // The project root binds once (contract): a repeated option is ambiguous, never "the last one wins".
  const repeated = repeatedOption(tokens);
  if (repeated !== null) return { kind: 'usage_error', message: `docforge-mcp: ${repeated} is given more than once; give it once\n${USAGE}\n` };
  const level = values['log-level'];
  if (level !== undefined && !isLogLevel(level)) return { kind: 'usage_error', message: `docforge-mcp: --log-level must be one of ${LOG_LEVELS.join(', ')}\n` };
  if (values.help) return { kind: 'help' };
  if (values.version) return { kind: 'version' };
  const root = values['project-root'];
  if (!root) return { kind: 'usage_error', message: `docforge-mcp: --project-root ABSOLUTE_DIR is required\n${USAGE}\n` };
  const mode = values['capability-mode'];
  if (mode !== undefined && !(CAPABILITY_MODES as readonly string[]).includes(mode)) {
    return { kind: 'usage_error', message: `docforge-mcp: --capability-mode must be one of ${CAPABILITY_MODES.join(', ')}\n` };
  }
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
