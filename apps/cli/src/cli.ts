/**
 * docforge: the command-line composition root (init, sync, validate, search, the read commands node,
 * backlinks, deps, impact and context, changeset, render, viewer, demo).
 * Output for people goes to stdout; logs go to stderr through pino. Run by main.ts and by the
 * launcher (bin/docforge.js), which may first have tried the bundled no-change sync (fast-sync.ts).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { Logger } from 'pino';
import { AccelerateError, Accelerators, parseAccelerate } from '@docforge/accelerate';
import { nearestProjectRoot, readDocforgeConfig, repeatedOption, toDocforgeError } from '@docforge/core';
import type { PrestartedBuildPool } from '@docforge/sync';
import { lazyStderrLogger } from '@docforge/stdio';
import { cliOutput, guardStdoutPipe } from './terminal.js';
import { refuseInput, reportError } from './cli-error.js';
import { commandUsage, USAGE } from './usage.js';
import type { SyncOptions } from './commands.js';
import type { PrepareTask } from '@docforge/builder';
import type { PriorSyncCheck } from './fast-sync.js';


/** The version of this package (`apps/cli/package.json`), printed by `--version`. */
const CLI_VERSION: string = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

/**
 * The CLI's logger (pino on stderr, level from `DOCFORGE_LOG_LEVEL`, default `warn`), created on
 * first use (issue 14): a command that logs nothing never loads pino.
 */
function cliLogger(): Logger {
  return lazyStderrLogger('warn');
}

/**
 * `docforge sync` with nothing changed (issue 14): answers from the published identity with light
 * imports only (fast-sync.ts; libs/sync no-change.ts makes the IndexManager's own checks) and
 * prints exactly what the full sync prints, resolving to its exit code. Resolves to code null when
 * the full sync must run; `prestarted` is then the build worker started already (a build is
 * likely; or null), so it loads the build modules while the main thread goes on. With `prior` (the
 * launcher's bundled fast path already checked and found the publication not current) it does not
 * check again, and takes the worker that check started.
 */
async function fastSync(root: string, json: boolean, prior: PriorSyncCheck | null): Promise<{ code: number } | { code: null; prestarted: PrestartedBuildPool | null }> {
  let build: boolean;
  let prepare: PrepareTask | null = null;
  const config = readDocforgeConfig();
  const accelerators = Accelerators.from(config);
  // DOCFORGE_ACCELERATE=-no-change-check: the full sync decides alone (and nothing prestarts).
  if (!accelerators.on('no-change-check')) return { code: null, prestarted: prior?.pool ?? null };
  if (prior !== null) build = prior.build;
  else {
    const answer = (await import('./fast-sync.js')).answerNoChange(root, json);
    if (answer.code !== null) return { code: answer.code };
    build = answer.prior.build;
    prepare = answer.prepare;
  }
  // The launcher's bundled check started it already when it found a build coming.
  if (prior?.pool) return { code: null, prestarted: prior.pool };
  if (!build || !accelerators.on('prestart')) return { code: null, prestarted: null };
  const sync = await import('@docforge/sync');
  return { code: null, prestarted: sync.prestartBuildWorker(prepare, sync.buildPoolSettings(config)) };
}

/** Commands that take no positional arguments (the project comes from `-C DIR` or the current directory). */
const NO_ARGUMENTS = new Set(['sync', 'validate', 'check', 'affected', 'demo']);

/** Options every command takes. */
const COMMON_OPTIONS = ['project-root', 'json', 'progress', 'no-progress', 'help', 'version'];

/**
 * The options each command takes besides {@link COMMON_OPTIONS} (the read commands check theirs in
 * read-tools.ts): an option of another command is refused, never ignored (`sync --depth 3`).
 */
const COMMAND_OPTIONS: Record<string, readonly string[]> = {
  init: [], sync: [], demo: [], validate: ['limit', 'min-severity'], check: ['strict', 'format', 'min-severity'], affected: ['diff', 'depth', 'limit'],
  search: ['limit', 'kinds', 'families', 'authorities', 'statuses', 'tags', 'languages', 'capabilities'],
  changeset: ['writer', 'all', 'sha256', 'canonical-applier', 'no-ast'],
  review: ['writer', 'canonical-applier', 'target', 'relations', 'yes'],
  render: ['status', 'deep'], viewer: ['all'],
};

/**
 * Refuses a command line with exit status 2: `docforge: MESSAGE` and the usage on standard error
 * (the usage of `command` when the line names a known one, else the whole usage), or, when the line
 * asks for `--json`, the error document `{"schema_version": 1, "ok": false, "error": {"code":
 * "invalid_arguments", ...}}` on standard output alone (as every `--json` error is printed).
 */
function refuse(json: boolean, message: string, command?: string): number {
  const own = command !== undefined && commandUsage(command) !== null;
  const status = refuseInput(json, message, own ? command : undefined);
  if (!json && !own) process.stderr.write(`\n${USAGE}\n`);
  return status;
}

/**
 * The command a command line that does not parse names: its first word that is not an option or
 * an option's value, when that is a known command; undefined otherwise.
 */
function commandOfWords(argv: readonly string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    if (word === '--') return undefined;
    if (!word.startsWith('-')) return COMMANDS.includes(word) ? word : undefined;
    // A string option given as `--name VALUE` (or `-C DIR`) takes the next word.
    if (!word.includes('=') && (word === '-C' || STRING_OPTIONS.has(word.slice(2)))) i++;
  }
  return undefined;
}

/** The commands `docforge` knows (an unknown one is compared with these for a did-you-mean). */
const COMMANDS: readonly string[] = Object.freeze(['init', 'sync', 'validate', 'check', 'affected', 'search', 'changeset', 'review', 'render', 'viewer', 'demo', 'node', 'backlinks', 'deps', 'impact', 'context']);

/**
 * A parse error of node:util's parseArgs as one line. Its unknown-option text ends in an
 * unbalanced quote (`as in '-- "--bogus"`): that one is written anew.
 */
function parseErrorText(message: string): string {
  const unknown = /^Unknown option '([^']+)'/.exec(message);
  if (unknown !== null) {
    const option = unknown[1]!;
    return `unknown option ${JSON.stringify(option)} (to pass it as a positional argument, put it after "--": -- ${option})`;
  }
  // Node's parse errors hold line breaks ("… is ambiguous.\nDid you forget …"): one line on a terminal.
  return message.replace(/(?<!\s)\s*\n\s*/g, ' ');
}

/** The options of every command, as node:util parseArgs takes them (each command accepts its own, see COMMAND_OPTIONS). */
const CLI_OPTIONS = {
  'project-root': { type: 'string', short: 'C' },
  limit: { type: 'string' },
  json: { type: 'boolean', default: false },
  progress: { type: 'boolean', default: false },
  'no-progress': { type: 'boolean', default: false },
  writer: { type: 'string' },
  sha256: { type: 'string' },
  'canonical-applier': { type: 'string' },
  'no-ast': { type: 'boolean', default: false },
  target: { type: 'string' },
  yes: { type: 'boolean', default: false },
  all: { type: 'boolean', default: false },
  status: { type: 'boolean', default: false },
  deep: { type: 'boolean', default: false },
  // The read commands' options (read-tools.ts), named after their tools' arguments.
  section: { type: 'string' },
  'body-offset': { type: 'string' },
  'max-body-chars': { type: 'string' },
  'no-body': { type: 'boolean' },
  relations: { type: 'string' },
  depth: { type: 'string' },
  cursor: { type: 'string' },
  budget: { type: 'string' },
  'task-kind': { type: 'string' },
  // docforge search's filters (comma-separated lists, as docforge_search's arguments).
  kinds: { type: 'string' },
  families: { type: 'string' },
  authorities: { type: 'string' },
  statuses: { type: 'string' },
  tags: { type: 'string' },
  languages: { type: 'string' },
  capabilities: { type: 'string' },
  // docforge check (issue 32 item 5).
  strict: { type: 'boolean', default: false },
  format: { type: 'string' },
  'min-severity': { type: 'string' },
  // docforge affected (issue 32 item 3).
  diff: { type: 'string' },
  node: { type: 'string' },
  help: { type: 'boolean', short: 'h', default: false },
  version: { type: 'boolean', default: false },
} as const;

/** The options that take a value (the next word when not given as `--name=VALUE`). */
const STRING_OPTIONS: ReadonlySet<string> = new Set(Object.entries(CLI_OPTIONS).filter(([, spec]) => spec.type === 'string').map(([name]) => name));

/** Parses a command line strictly; prints the problem (see {@link refuse}) and returns null when it does not parse. */
function parseCommandLine(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      options: CLI_OPTIONS,
      allowPositionals: true,
      strict: true,
      tokens: true,
    });
  } catch (error) {
    // A line that does not parse still asked for JSON when one of its words is exactly --json.
    refuse(argv.includes('--json'), parseErrorText((error as Error).message), commandOfWords(argv));
    return null;
  }
}

/** A parsed command line. */
type CommandLine = NonNullable<ReturnType<typeof parseCommandLine>>;

/** The option values of a parsed command line. */
type CommandValues = CommandLine['values'];

/**
 * The command and its words, or the exit code when the line is answered or refused before any
 * command runs: a repeated option, `--version`, help, or a word after a command that takes none.
 */
function commandOf(parsed: CommandLine): { command: string; rest: string[] } | number {
  // Every option takes at most one value: a repeat is ambiguous, never "the last one wins".
  const { values, positionals } = parsed;
  const [command, ...rest] = positionals;
  const repeated = repeatedOption(parsed.tokens);
  if (repeated !== null) return refuse(values.json === true, `${repeated} is given more than once; give it once`, command);
  if (values.version) {
    cliOutput().write(`docforge ${CLI_VERSION}\n`);
    return 0;
  }
  // With --json, a line that names no command gets the one error document, as every refused line does.
  if (!command && !values.help && values.json === true) return refuse(true, 'no command given; run docforge --help for the commands', undefined);
  if (values.help || !command || command === 'help') {
    // `docforge CMD --help` and `docforge help CMD` show that command's own usage; else the whole text.
    const asked = command === 'help' ? rest[0] : command;
    const own = asked === undefined ? null : commandUsage(asked, COMMAND_OPTIONS[asked]);
    cliOutput().write(`${own ?? USAGE}\n`);
    return command || values.help ? 0 : 2;
  }
  // A word after a command that takes none (e.g. a project path after `sync`) is never ignored silently.
  const extra = NO_ARGUMENTS.has(command) ? rest[0] : command === 'init' || (command === 'viewer' && rest[0] !== 'open') ? rest[1] : undefined;
  if (extra !== undefined) {
    const what = command === 'init' ? 'init takes at most one DIR' : command === 'viewer' ? `viewer ${rest[0]} takes no other arguments`
      : command === 'demo' ? 'demo takes no arguments (it runs on the bundled examples/, or on -C DIR)' : `${command} takes no arguments; name the project with -C DIR`;
    return refuse(values.json === true, `${what} (got ${JSON.stringify(extra)})`, command);
  }
  // `viewer open` is a read command: read-tools.ts checks its options against its own usage.
  const allowed = command === 'viewer' && rest[0] === 'open' ? undefined : COMMAND_OPTIONS[command];
  const foreign = allowed === undefined ? undefined
    : Object.keys(values).find((option) => values[option as keyof typeof values] !== undefined && values[option as keyof typeof values] !== false && !COMMON_OPTIONS.includes(option) && !allowed.includes(option));
  if (foreign !== undefined) return refuse(values.json === true, `${command} does not take --${foreign}`, command);
  const malformed = malformedOptionValue(values);
  if (malformed !== null) return refuse(values.json === true, malformed, command);
  return { command, rest };
}

/** Options that take a comma-separated list of values. */
const LIST_OPTIONS = ['kinds', 'families', 'authorities', 'statuses', 'tags', 'languages', 'capabilities', 'relations'] as const;

/**
 * A malformed option value refused before any command runs (a usage error, exit 2): a list option
 * that names no value (`--kinds ''`, `--kinds ,,,`) and a `--sha256` that is not a SHA-256 in hex
 * (as MCP's `changeset_sha256` pattern refuses it); null when none.
 */
function malformedOptionValue(values: CommandValues): string | null {
  for (const option of LIST_OPTIONS) {
    const text = values[option];
    if (typeof text === 'string' && text.split(',').every((value) => value.trim() === '')) return `--${option} needs at least one value, comma-separated (got ${JSON.stringify(text)})`;
  }
  const hash = values.sha256;
  if (typeof hash === 'string' && !/^[0-9a-f]{64}$/.test(hash)) return `--sha256 must be the changeset's SHA-256: 64 lowercase hex digits (got ${JSON.stringify(hash.length > 80 ? `${hash.slice(0, 80)}…` : hash)})`;
  return null;
}

/** What every command receives besides its words. */
interface CommandContext {
  root: string;
  values: CommandValues;
  /** `--limit` as a number when numeric, else the raw string (the command's schema reports it). */
  limit: number | string | undefined;
  syncOptions: SyncOptions;
  logger: Logger;
}

/** Runs one command (its module imported on demand) and resolves to its exit code; errors propagate. */
async function runCommand(command: string, rest: string[], context: CommandContext): Promise<number> {
  const { root, values, limit, syncOptions, logger } = context;
  const json = syncOptions.json;
  // Each command imports only what it uses (issue 14: a no-change `docforge sync` loads no MCP client,
  // no changeset store and no retrieval code).
  const { runInit, runSearch, runSync, runValidate } = await import('./commands.js');
  switch (command) {
    case 'init':
      if (rest.length > 0 && rest.join('').trim() === '') return refuse(json, 'init was given an empty DIR (leave it out for the current folder)', command);
      if (rest[0] === undefined && values['project-root'] === undefined) {
        // `init` with no DIR inside a project (a folder above holds docforge.toml) would write a nested
        // project by accident: name the enclosing one instead; `docforge init .` still makes a nested one.
        const enclosing = nearestProjectRoot(process.cwd());
        if (enclosing !== null && enclosing !== process.cwd()) return refuseInput(json, `${process.cwd()} is inside the DocForge project at ${enclosing} (it holds docforge.toml), and commands run here work on it; to make a separate, nested project here, run: docforge init .`);
      }
      return await runInit(path.resolve(rest[0] ?? values['project-root'] ?? '.'), json);
    case 'sync':
      return await runSync(root, syncOptions);
    case 'validate':
      return await runValidate(root, limit, { ...syncOptions, minSeverity: values['min-severity'] });
    case 'check':
      return await (await import('./check.js')).runCheck(root, { ...syncOptions, strict: values.strict === true, format: values.format, minSeverity: values['min-severity'] });
    case 'affected':
      return await (await import('./affected.js')).runAffected(root, { json, diff: values.diff, depth: values.depth, limit });
    case 'search':
      // An empty QUERY ("") goes on to the tool's input schema, which names it as MCP would; a blank one is refused here.
      if (rest.length === 0 || (rest.join('') !== '' && rest.join('').trim() === '')) return refuse(json, 'search needs a QUERY', command);
      return await runSearch(root, rest.join(' '), limit, syncOptions, { kinds: values.kinds, families: values.families, authorities: values.authorities, statuses: values.statuses, tags: values.tags, languages: values.languages, capabilities: values.capabilities });
    case 'changeset':
      return await (await import('./changeset.js')).runChangeset(root, rest[0], rest.slice(1), { json, writer: values.writer ?? null, all: values.all === true, color: cliOutput().isTTY === true && !process.env.NO_COLOR, sha256: values.sha256 ?? null, canonicalApplier: values['canonical-applier'] ?? null, noAst: values['no-ast'] === true, testFaults: readDocforgeConfig().testFaults }, logger);
    case 'review':
      return await (await import('./review.js')).runReview(root, rest, {
        json, color: cliOutput().isTTY === true && !process.env.NO_COLOR, writer: values.writer ?? null, canonicalApplier: values['canonical-applier'] ?? null,
        target: values.target ?? null, relations: values.relations ? values.relations.split(',').filter((r) => r !== '') : null, yes: values.yes === true,
      }, logger);
    case 'render':
      if (rest.length > 1) return refuse(json, 'render takes at most one VIEW id', command);
      return await (await import('./render.js')).runRender(root, rest[0], { ...syncOptions, status: values.status === true, deep: values.deep === true });
    case 'viewer':
      if (rest[0] === 'open') return await (await import('./read-tools.js')).runReadCommand('viewer open', rest.slice(1), { root, values, json, progress: syncOptions.progress });
      return await (await import('./viewer.js')).runViewer(root, rest[0], { json, all: values.all === true });
    case 'demo':
      return await (await import('./demo.js')).runDemo(values['project-root'] ? root : null);
    case 'node':
    case 'backlinks':
    case 'deps':
    case 'impact':
    case 'context':
      return await (await import('./read-tools.js')).runReadCommand(command, rest, { root, values, json, progress: syncOptions.progress });
    default: {
      const meant = (await import('@docforge/retrieval')).nearestName(command, COMMANDS);
      return refuse(json, `unknown command ${JSON.stringify(command)}${meant === null ? '' : `; did you mean ${JSON.stringify(meant)}?`}`);
    }
  }
}

/**
 * The project a command works on: `-C`/`--project-root` exactly as given (never searched above);
 * without it, the nearest folder at or above the current one that holds a docforge.toml, as git
 * finds its work tree, so a command run in `<project>/lib` works on `<project>`; when no folder up
 * to the file system root holds one, the current folder (whose `descriptor_invalid` then says which
 * folder to init). `init` and `demo` read `-C` themselves and never use this.
 */
export function projectRootOf(given: string | undefined): string {
  if (given !== undefined) return path.resolve(given);
  const cwd = process.cwd();
  return nearestProjectRoot(cwd) ?? cwd;
}

/**
 * Runs one `docforge` command line and resolves to its exit code: 0 success; 2 a refused command
 * line or an error whose code means the input is malformed (`invalid_arguments`, …: cli-error.ts
 * `exitStatusOf`), whenever it is raised; 1 every other error and failed validation. Errors of a
 * command are printed as `docforge: CODE: message` (cli-error.ts `reportError`).
 * @param argv the arguments after the program (process.argv.slice(2))
 * @param prior for a `sync` command only: what the launcher's bundled fast path learned when it
 *   did not answer (the publication is not current), so the check is not repeated; null otherwise
 */
export async function runCli(argv: string[], prior: PriorSyncCheck | null = null): Promise<number> {
  const parsed = parseCommandLine(argv);
  if (parsed === null) return 2;
  const line = commandOf(parsed);
  if (typeof line === 'number') return line;
  const { command, rest } = line;
  const { values } = parsed;
  const root = projectRootOf(values['project-root']);
  // Range and type of --limit are checked by the command's MCP input schema (commands.ts).
  // A non-numeric value stays a string, so the schema reports it as MCP would (`must be integer`).
  const limit = values.limit === undefined ? undefined : /^\s*-?\d+(\.\d+)?(e[+-]?\d+)?\s*$/i.test(values.limit) ? Number(values.limit) : values.limit;
  const json = values.json === true;
  let prestarted: PrestartedBuildPool | null = null;
  if (command === 'sync') {
    const fast = await fastSync(root, json, prior);
    if (fast.code !== null) return fast.code;
    prestarted = fast.prestarted;
  }
  const logger = cliLogger();
  const { progressMode } = await import('./commands.js');
  const syncOptions: SyncOptions = {
    json,
    logger,
    progress: progressMode({ progress: values.progress === true, noProgress: values['no-progress'] === true }, process.stderr.isTTY === true),
    prestarted,
  };
  try {
    return await runCommand(command, rest, { root, values, limit, syncOptions, logger });
  } catch (error) {
    // One rule for every command (cli-error.ts): the exit status follows the error's code, and a
    // line that asked for --json also gets the error document on standard output.
    return reportError(toDocforgeError(error).toWire(), json);
  } finally {
    // A worker started for a build that did not happen (e.g. the sources changed back meanwhile).
    await prestarted?.release();
  }
}

/**
 * The process entry of the CLI: guards stdout against a closed pipe, runs {@link runCli} and sets
 * `process.exitCode` (a fatal error prints `docforge: fatal:` with its stack, exit code 1). An
 * invalid `DOCFORGE_ACCELERATE` (libs/accelerate `parseAccelerate`) is refused first: its message,
 * exit code 2.
 * @returns a promise settled once the command ended and `process.exitCode` is set (never rejected);
 *   the launcher bin/docforge.js takes a returned promise as the sign that the command ran (issue 29)
 */
export function runMain(argv: string[], prior: PriorSyncCheck | null = null): Promise<void> {
  guardStdoutPipe();
  try {
    parseAccelerate(readDocforgeConfig().accelerateText);
  } catch (error) {
    // An unknown tactic is a usage error of the environment, refused before any command runs.
    if (!(error instanceof AccelerateError)) throw error;
    process.exitCode = refuseInput(argv.includes('--json'), error.message);
    return Promise.resolve();
  }
  return runCli(argv, prior).then((code) => {
    process.exitCode = code;
  }, (error: unknown) => {
    process.stderr.write(`docforge: fatal: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exitCode = 1;
  });
}
