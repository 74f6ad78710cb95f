/**
 * The read commands (issue 30 item 12): `docforge node`, `backlinks`, `deps`, `impact` and
 * `context` ask what an agent asks over MCP, with the same arguments and limits. Each command maps
 * its words and options onto its tool's arguments, checks them with that tool's own input
 * validator (a refusal is a usage error, exit 2), then calls the tool on a `docforge-mcp` it
 * starts in read mode over stdio: the answer comes from the server's own handler, never from a
 * second implementation (apps never import apps, DESIGN.md section 2). `--json` prints the tool's
 * `structuredContent` as is; the text form is a summary of the same result.
 */
import { printLine as print, printRaw } from './terminal.js';
import { refuseInput, reportError } from './cli-error.js';
import type { WireError } from '@docforge/core';
import type { ProgressMode } from './commands.js';
import { checkToolArguments, USAGE_EXIT_CODE } from './tool-arguments.js';
import { printReadResult, type ReadTool } from './read-output.js';

/** Option values as `node:util` parseArgs returns them. */
export type OptionValues = Record<string, string | boolean | undefined>;

/** Options every command takes (the project, output and progress). */
const COMMON_OPTIONS = new Set(['project-root', 'json', 'progress', 'no-progress']);

/** One read command: its tool, usage line, the options it takes and how its words map onto arguments. */
interface ReadCommand {
  usage: string;
  options: readonly string[];
  /** The tool and its arguments, or the usage problem. */
  map(words: readonly string[], values: OptionValues): { tool: ReadTool; args: Record<string, unknown> } | string;
}

/** A number when the text is numeric, else the text itself (the tool's schema then names the problem, as MCP would). */
function numberOrText(text: string): number | string {
  return /^\s*-?\d+(\.\d+)?(e[+-]?\d+)?\s*$/i.test(text) ? Number(text) : text;
}

/** Copies the given string options into `args` under their argument names (numbers converted when `numeric`). */
function copyOptions(values: OptionValues, args: Record<string, unknown>, names: Record<string, string>, numeric: readonly string[]): void {
  for (const [option, argument] of Object.entries(names)) {
    const value = values[option];
    if (typeof value !== 'string') continue;
    if (option === 'relations') args[argument] = value.split(',').map((relation) => relation.trim()).filter((relation) => relation !== '');
    else args[argument] = numeric.includes(option) ? numberOrText(value) : value;
  }
}

/** A command over one node id (`node`, `backlinks`, `deps`, `impact`). */
function nodeCommand(tool: ReadTool, usage: string, names: Record<string, string>, numeric: readonly string[]): ReadCommand {
  return {
    usage,
    options: [...Object.keys(names), ...(tool === 'docforge_get_node' ? ['no-body'] : [])],
    map(words, values) {
      if (words.length !== 1) return words.length === 0 ? 'needs a node ID' : `takes one node ID (got ${words.length} words; quote an id with spaces)`;
      const args: Record<string, unknown> = { node_id: words[0] };
      copyOptions(values, args, names, numeric);
      if (values['no-body'] === true) args.include_body = false;
      return { tool, args };
    },
  };
}

const TRAVERSAL = { depth: 'depth', relations: 'relations', limit: 'limit' };

/** The read commands by name. */
const READ_COMMANDS: Record<string, ReadCommand> = {
  node: nodeCommand('docforge_get_node', 'docforge node ID [--section SLUG] [--body-offset N] [--max-body-chars N] [--no-body]',
    { section: 'section', 'body-offset': 'body_offset', 'max-body-chars': 'max_body_chars' }, ['body-offset', 'max-body-chars']),
  backlinks: nodeCommand('docforge_backlinks', 'docforge backlinks ID [--relations R1,R2] [--limit N] [--cursor C]',
    { relations: 'relations', limit: 'limit', cursor: 'cursor' }, ['limit']),
  deps: nodeCommand('docforge_dependencies', 'docforge deps ID [--depth N] [--relations R1,R2] [--limit N]', TRAVERSAL, ['depth', 'limit']),
  impact: nodeCommand('docforge_impact', 'docforge impact ID [--depth N] [--relations R1,R2] [--limit N]', TRAVERSAL, ['depth', 'limit']),
  context: {
    usage: 'docforge context (QUERY | --node ID) [--budget N] [--limit N] [--cursor C]\n       docforge context --task-kind KIND TASK [--node ID] [--budget N] [--limit N] [--cursor C]',
    options: ['task-kind', 'node', 'budget', 'limit', 'cursor'],
    map(words, values) {
      const args: Record<string, unknown> = {};
      copyOptions(values, args, { budget: 'budget', limit: 'limit', cursor: 'cursor' }, ['budget', 'limit']);
      const text = words.join(' ');
      const node = typeof values.node === 'string' ? values.node : null;
      if (typeof values['task-kind'] === 'string') {
        if (text === '') return 'with --task-kind needs the TASK text';
        return { tool: 'docforge_get_task_context', args: { task_kind: values['task-kind'], task: text, ...(node !== null ? { focus_node_id: node } : {}), ...args } };
      }
      if (text === '' && node === null) return 'needs a QUERY, --node ID, or --task-kind KIND with a TASK';
      return { tool: 'docforge_get_context', args: { ...(node !== null ? { node_id: node } : {}), ...(text !== '' ? { query: text } : {}), ...args } };
    },
  },
  // `docforge viewer open`: what docforge_visualize opens, as a URL to paste into a browser.
  'viewer open': {
    usage: 'docforge viewer open [QUERY | --node ID]',
    options: ['node'],
    map(words, values) {
      const text = words.join(' ');
      const node = typeof values.node === 'string' ? values.node : null;
      if (text !== '' && node !== null) return 'takes a QUERY or --node ID, not both';
      return { tool: 'docforge_visualize', args: { ...(node !== null ? { node_id: node } : {}), ...(text !== '' ? { query: text } : {}) } };
    },
  },
};

/**
 * Prints a usage problem of a read command with that command's usage (with `--json`: the
 * `invalid_arguments` error as JSON on stdout, as every refused command line); returns exit code 2.
 */
function usageError(name: string, problem: string, json: boolean): number {
  const status = refuseInput(json, `${name} ${problem}`);
  if (!json) process.stderr.write(`\nUsage: ${READ_COMMANDS[name]!.usage}\n`);
  return status;
}

/** What a read command needs besides its words. */
export interface ReadCommandOptions {
  root: string;
  values: OptionValues;
  json: boolean;
  progress: ProgressMode;
}

/**
 * Runs read command `name` (see {@link READ_COMMANDS}) and resolves to its exit code: 0 when the
 * tool answered `ok`; for a tool error (printed as `docforge: CODE: message`; with `--json` the
 * tool's envelope) the status of its code (cli-error.ts: 2 for `invalid_arguments` such as an
 * unknown `--section`, 1 for `node_not_found` and every other operational error); 2 for a usage
 * error (missing or extra words, an option of another command, arguments the tool's input schema
 * refuses), for which nothing is started.
 */
export async function runReadCommand(name: string, words: readonly string[], options: ReadCommandOptions): Promise<number> {
  const command = READ_COMMANDS[name]!;
  const foreign = Object.keys(options.values).filter((option) => options.values[option] !== undefined && options.values[option] !== false && !COMMON_OPTIONS.has(option) && !command.options.includes(option));
  if (foreign.length > 0) return usageError(name, `does not take --${foreign[0]}`, options.json);
  // An argument given but blank (`viewer open ""`) is a mistake, never "no argument": it would
  // otherwise open the map, or list everything, instead of what was asked.
  if (words.length > 0 && words.join('').trim() === '') return usageError(name, 'was given an empty argument', options.json);
  const mapped = command.map(words, options.values);
  if (typeof mapped === 'string') return usageError(name, mapped, options.json);
  if (!(await checkToolArguments(mapped.tool, mapped.args, options.json))) {
    if (options.json) return USAGE_EXIT_CODE;
    process.stderr.write(`\nUsage: ${command.usage}\n`);
    return USAGE_EXIT_CODE;
  }
  const envelope = await callReadTool(options.root, mapped.tool, mapped.args, options.progress);
  // A tool error is reported as every command reports one (cli-error.ts): its exit status follows its code.
  if (envelope.ok !== true) return reportError(envelopeError(envelope), options.json, envelope);
  if (options.json) printRaw(JSON.stringify(envelope, null, 2));
  else printReadResult(mapped.tool, (envelope.result ?? {}) as Record<string, unknown>, print);
  return 0;
}

/** The wire error of a failed tool envelope (`error`; fields the envelope lacks are given neutral values). */
function envelopeError(envelope: Record<string, unknown>): WireError {
  const error = (typeof envelope.error === 'object' && envelope.error !== null ? envelope.error : {}) as Partial<WireError>;
  return { code: String(error.code) as WireError['code'], message: String(error.message), remediation: String(error.remediation), details: error.details ?? {} };
}

/**
 * Calls one read tool on a `docforge-mcp --capability-mode read` started for this call and returns
 * the tool's `structuredContent` (the envelope). The server's build progress is shown per the
 * progress mode; its log lines are shown only when the server fails to answer.
 * @throws Error when the server cannot be started or closes without answering (with its stderr)
 */
async function callReadTool(root: string, tool: ReadTool, args: Record<string, unknown>, progress: ProgressMode): Promise<Record<string, unknown>> {
  // Loaded only once the arguments passed: a usage error never loads the MCP client.
  const [{ Client }, { StdioClientTransport }, { mcpServerBin }] = await Promise.all([import('@modelcontextprotocol/sdk/client/index.js'), import('@modelcontextprotocol/sdk/client/stdio.js'), import('./demo.js')]);
  // The whole environment: without `env` the SDK passes only HOME, PATH, SHELL, TERM, USER and LOGNAME,
  // and the server would miss DOCFORGE_VIEWER_RUNTIME_DIR, XDG_RUNTIME_DIR and every other setting the CLI runs under.
  const env = Object.fromEntries(Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined));
  const transport = new StdioClientTransport({ command: process.execPath, args: [mcpServerBin(), '--project-root', root, '--capability-mode', 'read'], stderr: 'pipe', env });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const client = new Client({ name: 'docforge-cli', version: '0.1.0' });
  let progressShown = false;
  try {
    await client.connect(transport);
    const response = await client.callTool({ name: tool, arguments: args }, undefined, {
      // A cold index build may take minutes: the wait restarts on each progress report.
      timeout: 600_000,
      resetTimeoutOnProgress: true,
      onprogress: (report) => {
        if (progress === 'off' || report.message === undefined) return;
        progressShown = true;
        process.stderr.write(progress === 'tty' ? `\r\x1b[2Kdocforge: ${report.message}` : `docforge: ${report.message}\n`);
      },
    });
    return response.structuredContent as Record<string, unknown>;
  } catch (error) {
    throw new Error(`docforge-mcp did not answer ${tool}: ${error instanceof Error ? error.message : String(error)}${stderr === '' ? '' : `\n${stderr.trim()}`}`, { cause: error });
  } finally {
    if (progressShown && progress === 'tty') process.stderr.write('\n');
    await client.close();
  }
}
