/**
 * `docforge affected [--diff -] [--json] [--depth N] [--limit N]` (issue 32 item 3): "what does
 * this change make suspect or stale?". It compares the sources as they are now (or, with
 * `--diff -`, the unified diff on standard input) with the last publication (libs/sync
 * affected-changes.ts), then walks from the changed nodes to the docs, requirements and tests
 * that rest on them (libs/retrieval affected.ts). It answers and never synchronizes: no build, no
 * new generation, nothing written (synchronizing first would leave nothing to compare).
 */
import { fstatSync } from 'node:fs';
import { errors, toDocforgeError, type DocforgeError } from '@docforge/core';
import type { ChangedNode, CurrentChanges, OpenedPublication } from '@docforge/sync';
import type { AffectedEntry, AffectedResult } from '@docforge/retrieval';
import { errorLine, printLine as print, printRaw } from './terminal.js';
import { errorDocument, exitStatusOf } from './cli-error.js';
import { commandUsage } from './usage.js';
import { USAGE_EXIT_CODE } from './tool-arguments.js';
import { notFollowedLine } from './not-followed.js';

/** Default hop count: a method, its class, the doc that documents it, the requirement the doc implements, that requirement's test. */
export const AFFECTED_DEFAULT_DEPTH = 4;
/** Default number of entries listed (at most the project's `max_results`). */
export const AFFECTED_DEFAULT_LIMIT = 200;

/** Options of {@link runAffected}, as given on the command line. */
export interface AffectedCliOptions {
  json: boolean;
  diff: string | undefined;
  depth: string | undefined;
  limit: number | string | undefined;
}

/** An integer option in [min, max], the default when absent, or the usage problem. */
function intOption(name: string, value: number | string | undefined, min: number, max: number, fallback: number): number | string {
  if (value === undefined) return fallback;
  const n = typeof value === 'number' ? value : /^\d+$/.test(value) ? Number(value) : Number.NaN;
  return Number.isInteger(n) && n >= min && n <= max ? n : `--${name} must be an integer from ${min} to ${max} (got ${JSON.stringify(String(value))})`;
}

/** Whether standard input is a directory (`< dir`), which reads as nothing rather than failing. */
function stdinIsDirectory(): boolean {
  try {
    return fstatSync(0).isDirectory();
  } catch {
    // fd 0 closed or not stat-able: the read below reports what it gets
    return false;
  }
}

/** Reads all of standard input as UTF-8, refusing more than `max` bytes. */
async function readStdin(max: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of process.stdin) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > max) throw errors.invalidArguments(`the diff on standard input is larger than ${max} bytes`, { max_bytes: max });
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * `docforge affected`: prints the changed sources and nodes, then the affected entries (text or
 * `--json`) and resolves to 0; {@link USAGE_EXIT_CODE} for a bad option or a malformed diff
 * (`invalid_arguments`, nothing read further, nothing written). With `--json` every error is
 * printed on standard output as the CLI's error document (cli-error.ts `errorDocument`), with the
 * exit status of its code (cli-error.ts `exitStatusOf`: 2 for `invalid_arguments`, as every
 * command); without it a usage error is a `docforge: ...` line on standard error and the others
 * are thrown.
 * @throws DocforgeError (text mode only) `index_unavailable` when nothing is published yet, and what loading the project throws
 */
export async function runAffected(root: string, options: AffectedCliOptions): Promise<number> {
  try {
    return await answer(root, options);
  } catch (error) {
    const wire = toDocforgeError(error) as DocforgeError;
    if (options.json) return jsonError(wire);
    if (wire.code !== 'invalid_arguments') throw error;
    return usage(options, `${wire.code}: ${wire.message}`, false);
  }
}

/** Prints `error` as the `--json` error document and returns its exit code (cli-error.ts). */
function jsonError(error: DocforgeError): number {
  printRaw(JSON.stringify(errorDocument(error.toWire()), null, 2));
  return exitStatusOf(error.code);
}

/** The answer of {@link runAffected}; errors propagate. */
async function answer(root: string, options: AffectedCliOptions): Promise<number> {
  if (options.diff !== undefined && options.diff !== '-') return usage(options, `--diff takes "-" (the diff on standard input), got ${JSON.stringify(options.diff)}`);
  if (options.diff === '-' && stdinIsDirectory()) return usage(options, '--diff - reads a unified diff from standard input, which is a directory here: pipe a diff in (git diff main... | docforge affected --diff -)');
  if (options.diff === '-' && process.stdin.isTTY === true) return usage(options, '--diff - reads a unified diff from standard input: pipe one in (git diff main... | docforge affected --diff -)');
  const depth = intOption('depth', options.depth, 1, 10, AFFECTED_DEFAULT_DEPTH);
  if (typeof depth === 'string') return usage(options, depth);
  const sync = await import('@docforge/sync');
  const { affectedFrom } = await import('@docforge/retrieval');
  let opened: OpenedPublication | null = null;
  try {
    const diffFiles = options.diff === '-' ? sync.parseUnifiedDiff(await readStdin(sync.MAX_DIFF_BYTES)) : null;
    opened = sync.openLastPublication(root);
    const maxResults = opened.descriptor.limits.max_results;
    const limit = intOption('limit', options.limit, 1, maxResults, Math.min(AFFECTED_DEFAULT_LIMIT, maxResults));
    if (typeof limit === 'string') return usage(options, limit);
    const changes = diffFiles === null ? await sync.changesNow(opened) : await sync.changesFromDiff(opened, diffFiles, process.cwd());
    const starts = changes.nodes.filter((n) => n.published).map((n) => n.id);
    const affected = affectedFrom(changes.reader, starts, { depth, limit });
    if (options.json) printRaw(JSON.stringify(affectedJson(opened.descriptor.project.id, opened.root, diffFiles !== null, changes, affected, depth, limit), null, 2));
    else printAffected(changes, affected, callersNotFollowed(changes.reader, starts));
    return 0;
  } finally {
    opened?.reader.close();
  }
}

/**
 * A usage problem: `docforge: MESSAGE` on standard error, followed by the command's usage when
 * `withUsage` (a bad option; not for a malformed diff), or with `--json` the error object on
 * standard output.
 */
function usage(options: AffectedCliOptions, message: string, withUsage = true): number {
  if (options.json) return jsonError(errors.invalidArguments(message.replace(/^invalid_arguments: /, '')));
  errorLine(`docforge: ${message}`);
  const text = withUsage ? commandUsage('affected') : null;
  if (text !== null) process.stderr.write(`\n${text}\n`);
  return USAGE_EXIT_CODE;
}

/** The `--json` answer (schema version 1 of this command's output). */
function affectedJson(projectId: string, root: string, fromDiff: boolean, changes: CurrentChanges, affected: AffectedResult, depth: number, limit: number): Record<string, unknown> {
  const { reader: _reader, ...changed } = changes;
  return {
    schema_version: 1,
    project: { id: projectId, root },
    // What the answer compares: the sources now, or a diff, against this publication.
    against: changed.base,
    input: fromDiff ? 'diff' : 'sources',
    changed: { sources: changed.sources, nodes: changed.nodes, ignored_paths: changed.ignored_paths, unmapped_paths: changed.unmapped_paths, truncated: changed.truncated },
    affected: { ...affected, depth, limit },
  };
}

function nodeLine(node: ChangedNode): string {
  return `  ${node.change.padEnd(8)} ${node.id}  [${node.kind}]  ${node.source_path}:${node.start_line}-${node.end_line}`;
}

function entryLines(entry: AffectedEntry): string[] {
  const where = entry.sections.length > 0
    ? entry.sections.map((s) => `section ${s.slug} (${s.title}) at ${entry.source_path}:${s.line}`).join('; ')
    : `${entry.source_path}:${entry.line}`;
  const via = entry.path.map((hop) => (hop.direction === 'incoming' ? ` <-${hop.relation}- ${hop.to}` : ` -${hop.relation}-> ${hop.to}`)).join('');
  return [`  ${entry.role.padEnd(11)} ${entry.id}  [${entry.kind}]  ${entry.title}`, `      reread ${where}`, `      via ${entry.path[0]?.from ?? ''}${via}`];
}

/** Most incoming `calls` edges counted per changed node for the "not followed" line. */
const CALLERS_COUNTED = 1000;

/**
 * How many callers (incoming `calls` edges) the changed nodes have, at most {@link CALLERS_COUNTED}
 * each: the walk does not follow calls (a caller is code, not a doc, requirement or test), so the
 * text answer says how many it left to `docforge impact`. `capped` when a node reached the bound.
 */
function callersNotFollowed(reader: CurrentChanges['reader'], starts: readonly string[]): { edges: number; nodes: number; capped: boolean } {
  let edges = 0;
  let nodes = 0;
  let capped = false;
  for (const id of starts) {
    const n = reader.edges(id, 'incoming', ['calls'], CALLERS_COUNTED + 1).length;
    if (n > 0) nodes += 1;
    if (n > CALLERS_COUNTED) capped = true;
    edges += Math.min(n, CALLERS_COUNTED);
  }
  return { edges, nodes, capped };
}

/** The text answer: changed sources and nodes, then the affected entries, the callers left unfollowed and the walk's bounds. */
function printAffected(changes: CurrentChanges, affected: AffectedResult, callers: { edges: number; nodes: number; capped: boolean }): void {
  print(`against generation ${changes.base.generation} (published ${changes.base.published_at})`);
  // Every sync publishes (a read command, an MCP call, a running server's watcher): the comparison point moves with it.
  if (changes.sources.length === 0) print('no changes since the last publication (any sync moves it: a read command, an MCP call or a running docforge-mcp; to compare with a commit, pipe `git diff COMMIT` into `docforge affected --diff -`)');
  for (const source of changes.sources) print(`${source.change} ${source.path}: ${source.changed_nodes} changed ${source.changed_nodes === 1 ? 'node' : 'nodes'}`);
  for (const node of changes.nodes) print(nodeLine(node));
  for (const ignored of changes.ignored_paths) print(`not a project source: ${ignored}`);
  for (const unmapped of changes.unmapped_paths) print(`not mapped (${unmapped.reason === 'binary' ? 'binary file' : 'mode change only'}): ${unmapped.path}`);
  if (changes.truncated) print('(more changes than compared: the bounds of one answer were reached)');
  print(affected.items.length === 0 ? 'affected: nothing' : `affected (${affected.items.length}):`);
  for (const entry of affected.items) for (const line of entryLines(entry)) print(line);
  if (callers.edges > 0) {
    const which = callers.nodes === 1 ? 'the changed node' : `${callers.nodes} changed nodes`;
    print(notFollowedLine(callers.edges, `into ${which}`, 'the code that calls them is not listed here: docforge impact ID --relations calls', callers.capped));
  }
  const bound = affected.truncated ? `truncated by ${affected.truncation_reason}` : 'complete';
  print(`(examined ${affected.examined_edges} of ${affected.edge_budget} edges; ${bound})`);
}
