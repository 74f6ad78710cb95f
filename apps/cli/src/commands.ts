import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Logger } from 'pino';
import { BuildPools, errorIssueSummary, IndexManager, type BuildProgress, type PrestartedBuildPool, type SyncReport } from '@docforge/sync';
import type { ToolInputs } from '@docforge/protocol';
import type { SourceIssue } from '@docforge/core';
import type { NodeFilters } from '@docforge/store';

import { printSyncResult } from './sync-output.js';
import { errorLine, printLine as print, printRaw } from './terminal.js';
import { checkToolArguments, USAGE_EXIT_CODE } from './tool-arguments.js';
import { refuseInput } from './cli-error.js';

export { checkToolArguments, USAGE_EXIT_CODE };

/** Where build progress goes: a terminal line rewritten in place, plain lines, or nowhere. */
export type ProgressMode = 'tty' | 'lines' | 'off';

/** A sink of progress text (stderr, or a test double). */
export interface ProgressStream {
  write(text: string): unknown;
}

const STAGE_UNITS: Record<string, string> = { start: 'files to check', parse: 'files parsed', write: 'nodes written', publish: 'sources published' };

/**
 * The progress mode of a command: `--no-progress` wins, then `--progress` (plain lines, for logs),
 * else a rewritten line when stderr is a terminal, else nothing.
 */
export function progressMode(flags: { progress: boolean; noProgress: boolean }, stderrIsTty: boolean): ProgressMode {
  if (flags.noProgress) return 'off';
  if (stderrIsTty) return 'tty';
  return flags.progress ? 'lines' : 'off';
}

/**
 * Reports index build progress (`BuildProgress`: stage, done of total) on `stream` as
 * `docforge: indexing, stage parse: 120 of 2000 files parsed`; in `tty` mode one line rewritten in
 * place and ended by `finish()`. Returns no callback in mode `off`.
 */
export function progressReporter(stream: ProgressStream, mode: ProgressMode): { onProgress?: (progress: BuildProgress) => void; finish(): void } {
  if (mode === 'off') return { finish: () => undefined };
  let written = false;
  return {
    onProgress(progress) {
      const line = `docforge: indexing, stage ${progress.stage}: ${progress.done} of ${progress.total} ${STAGE_UNITS[progress.stage] ?? 'done'}`;
      stream.write(mode === 'tty' ? `\r\x1b[2K${line}` : `${line}\n`);
      written = true;
    },
    finish() {
      if (written && mode === 'tty') stream.write('\n');
    },
  };
}

/** Options shared by the commands that synchronize. */
export interface SyncOptions {
  json: boolean;
  logger: Logger;
  progress: ProgressMode;
  /** `docforge sync`: the build worker its no-change check started (the manager adopts it), or null/absent. */
  prestarted?: PrestartedBuildPool | null;
}

/**
 * Synchronizes the project at `root` (with build progress on stderr per `options.progress`), calls
 * `fn` with the manager and the sync report, and closes the manager.
 */
export async function withManager<T>(root: string, options: SyncOptions, fn: (manager: IndexManager, sync: SyncReport) => T): Promise<T> {
  const buildPools = options.prestarted ? new BuildPools(undefined, options.prestarted) : undefined;
  const manager = new IndexManager({ root, noAst: false, onWarning: (message, details) => options.logger.warn(details, message), ...(buildPools ? { buildPools } : {}) });
  const reporter = progressReporter(process.stderr, options.progress);
  try {
    const sync = await manager.sync(reporter.onProgress ? { onProgress: reporter.onProgress } : {}).finally(() => reporter.finish());
    return fn(manager, sync);
  } finally {
    await manager.close();
  }
}

/** `docforge init DIR`: writes docforge.toml after scanning DIR. Returns the exit code. */
export async function runInit(dir: string, json: boolean): Promise<number> {
  const { initProject } = await import('@docforge/init');
  const result = initProject(dir);
  if (json) printRaw(JSON.stringify(result, null, 2));
  else {
    print(`wrote ${result.path}`);
    print(`  content roots: ${result.content_roots.join(', ') || '(none)'}`);
    print(`  code roots:    ${result.code_roots.join(', ') || '(none)'}`);
    print(`  markdown files found: ${result.markdown_files}`);
    if (result.markdown_files === 0) print('  warning: no Markdown found; add documents under the content roots, or edit docforge.toml');
    // Nothing is left out without a word (issue 30 item 11): each path and why.
    for (const item of result.left_out) print(`  left out ${item.path}: ${item.reason}`);
    for (const item of result.kept) print(`  kept ${item.path}: ${item.reason}`);
    for (const warning of result.warnings) print(`  warning: ${warning}`);
    if (stateNotIgnored(path.dirname(result.path))) print('  note: .docforge/ will hold the disposable index and state; add ".docforge/" to .gitignore to keep it out of Git');
  }
  return 0;
}

/**
 * Whether `dir` is the top of a Git work tree (it holds `.git`) whose `.gitignore` has no line that
 * ignores the state folder `.docforge` (`.docforge`, `/.docforge/`, `.docforge/**`, ...). A missing
 * or unreadable `.gitignore` ignores nothing.
 */
function stateNotIgnored(dir: string): boolean {
  if (!existsSync(path.join(dir, '.git'))) return false;
  let text: string;
  try {
    text = readFileSync(path.join(dir, '.gitignore'), 'utf8');
  } catch {
    return true;
  }
  return !text.split(/\r?\n/).some((line) => /^\/?\.docforge(\/(\*\*?)?)?$/.test(line.trim()));
}

/** `docforge sync`: synchronizes and reports the publication. */
export async function runSync(root: string, options: SyncOptions): Promise<number> {
  return withManager(root, options, (manager, sync) => printSyncResult({ ...sync, error_issues: errorIssueSummary(manager.reader()) }, options.json));
}

/** The severities `docforge validate --min-severity` takes, highest first (`info`, the default: every finding). */
const VALIDATE_SEVERITIES = ['error', 'warning', 'info'] as const;

/**
 * `docforge validate [--min-severity error|warning|info]`: prints issues (those at the given
 * severity or above; all by default, as `docforge check --min-severity` filters); exit 1 when any
 * error exists, {@link USAGE_EXIT_CODE} when `limit` or the severity is refused (the severities are
 * checked as `docforge_validate_project`'s `severities` argument).
 */
export async function runValidate(root: string, limit: number | string | undefined, options: SyncOptions & { minSeverity?: string | undefined }): Promise<number> {
  const json = options.json;
  const args: Record<string, unknown> = limit === undefined ? {} : { limit };
  const bound = options.minSeverity;
  if (bound !== undefined) {
    const at = (VALIDATE_SEVERITIES as readonly string[]).indexOf(bound);
    if (at < 0) return refuseInput(json, `validate --min-severity must be one of ${VALIDATE_SEVERITIES.join(', ')} (got ${JSON.stringify(bound)})`, 'validate');
    args.severities = VALIDATE_SEVERITIES.slice(0, at + 1);
  }
  if (!(await checkToolArguments('docforge_validate_project', args, options.json))) return USAGE_EXIT_CODE;
  const checked = args as unknown as ToolInputs['docforge_validate_project'];
  return withManager(root, options, (manager, sync) => {
    const { issues: all, total: count } = validationFindings(manager, sync, checked.limit ?? 1000, checked.severities);
    const errors = all.filter((i) => i.severity === 'error').length;
    // How the documents' code mentions resolved, as docforge_validate_project's `mentions` (issue 30).
    const counts = manager.reader().meta.mention_counts;
    const mentions = counts ? (JSON.parse(counts) as Record<string, number>) : null;
    if (json) printRaw(JSON.stringify({ valid: errors === 0, total: count, issues: all, ...(mentions ? { mentions } : {}) }, null, 2));
    else {
      for (const i of all) print(`${i.severity.padEnd(7)} ${i.code}: ${i.message}`);
      if (mentions) print(mentionsLine(mentions));
      const hidden = checked.severities === undefined ? 0 : manager.reader().issues(0).total + (sync.sync_error ? 1 : 0) - count;
      const below = hidden === 0 ? '' : ` (${hidden} below --min-severity ${String(bound)} not shown)`;
      print(`${all.length} of ${count} ${count === 1 ? 'issue' : 'issues'} shown${below}; ${errors === 0 ? 'valid' : 'invalid'}`);
    }
    return errors === 0 ? 0 : 1;
  });
}

/**
 * One line on how the documents' code mentions resolved (`mentions` of docforge_validate_project;
 * libs/project resolve-refs.ts `MentionCounts`): how many linked and the edges behind them, then why
 * the others did not link.
 */
export function mentionsLine(m: Readonly<Record<string, number>>): string {
  const n = (key: string): number => m[key] ?? 0;
  const why = [`${n('bare_leaf')} only a leaf name of some code node (bare_leaf)`, `${n('ambiguous')} naming several nodes (ambiguous)`];
  if (n('unproven_receiver') > 0) why.push(`${n('unproven_receiver')} a member of a value whose type no declaration proves (unproven_receiver)`);
  return `code mentions in documents: ${n('linked')} linked (${n('edges')} documents edges); not linked: ${why.join(', ')}`;
}

/**
 * The validation findings of a synchronized project, as `docforge validate` and `docforge check`
 * list them (the one assembly of the CLI's findings: any finding added to validation comes through
 * here): a sync error first (severity `error`, no location), then up to `limit` stored findings in
 * stored order. `total` counts every finding, the sync error included.
 */
export function validationFindings(manager: IndexManager, sync: SyncReport, limit: number, severities?: readonly string[]): { issues: SourceIssue[]; total: number } {
  const reader = manager.reader();
  const { issues, total } = severities === undefined ? reader.issues(limit) : severityFindings(reader, severities, limit);
  if (!sync.sync_error) return { issues, total };
  const syncIssue: SourceIssue = { severity: 'error', code: sync.sync_error.code, message: sync.sync_error.message, path: null, line: null, node_id: null };
  return { issues: [syncIssue, ...issues], total: total + 1 };
}

/** Up to `limit` stored findings of `severities` in stored order, and how many there are. */
function severityFindings(reader: ReturnType<IndexManager['reader']>, severities: readonly string[], limit: number): { issues: SourceIssue[]; total: number } {
  const counts = reader.issueCountsBySeverity();
  const issues = reader.issuesBySeverity(severities, limit).map(({ seq: _seq, ...issue }) => issue);
  return { issues, total: severities.reduce((sum, s) => sum + (counts[s] ?? 0), 0) };
}

/** The `docforge search` filter options: comma-separated lists, as docforge_search's filter arguments of the same names. */
export type SearchFilterOptions = Partial<Record<(typeof SEARCH_FILTERS)[number], string>>;

/** Most values of a filter's field a search with an unmatched, unsuggested filter value lists. */
const HELD_VALUES_SHOWN = 20;

/** The filters `docforge search` takes (`--kinds function,method`); each is docforge_search's argument of that name. */
export const SEARCH_FILTERS = ['kinds', 'families', 'authorities', 'statuses', 'tags', 'languages', 'capabilities'] as const;

/**
 * `docforge search QUERY`: bm25-ranked hits; {@link USAGE_EXIT_CODE} when the query or limit is
 * refused by the `docforge_search` input schema (as MCP refuses them).
 */
export async function runSearch(root: string, query: string, limit: number | string | undefined, options: SyncOptions, filterOptions: SearchFilterOptions = {}): Promise<number> {
  const json = options.json;
  const args: Record<string, unknown> = limit === undefined ? { query } : { query, limit };
  for (const key of SEARCH_FILTERS) {
    const text = filterOptions[key];
    if (text !== undefined) args[key] = text.split(',').map((value) => value.trim()).filter((value) => value !== '');
  }
  if (!(await checkToolArguments('docforge_search', args, json))) return USAGE_EXIT_CODE;
  const checked = args as unknown as ToolInputs['docforge_search'];
  const filters: Record<string, string[]> = {};
  for (const key of SEARCH_FILTERS) if (Array.isArray(args[key])) filters[key] = [...(args[key] as string[])].sort();
  const { effectiveLimit, existingFilterValues, searchNodes, unmatchedFilterValues } = await import('@docforge/retrieval');
  return withManager(root, options, (manager, sync) => {
    const n = effectiveLimit(checked.limit, sync.descriptor.limits.max_results, 10);
    const result = searchNodes(manager.reader(), query, n, filters);
    // An empty page names the filter values no node holds, as docforge_search does.
    const unmatched = result.items.length === 0 ? unmatchedFilterValues(manager.reader(), filters, { kinds: sync.descriptor.vocabulary.kinds }) : [];
    if (json && unmatched.length > 0) {
      printRaw(JSON.stringify({ ...result, unmatched_filters: unmatched }, null, 2));
      return 0;
    }
    for (const miss of json ? [] : unmatched) {
      // Without a close value, say what the field does hold (kinds: class, function, ..., type).
      const held = miss.did_you_mean === null && miss.filter !== 'relations' ? existingFilterValues(manager.reader(), miss.filter, HELD_VALUES_SHOWN) : null;
      const list = held === null ? '' : `; ${miss.filter} in this index: ${held.values.length === 0 ? 'none' : held.values.join(', ')}${held.truncated ? ', …' : ''}`;
      // A suggestion from the field's vocabulary may be a value no node here holds (issue 30): say so.
      const unused = miss.did_you_mean !== null && !manager.reader().filterValueExists(miss.filter as keyof NodeFilters, miss.did_you_mean) ? ' (a known value, but no node of this index has it)' : '';
      print(`no node has ${miss.filter} ${JSON.stringify(miss.value)}${miss.did_you_mean === null ? list : `; did you mean ${JSON.stringify(miss.did_you_mean)}?${unused}`}`);
    }
    if (json) printRaw(JSON.stringify(result, null, 2));
    else {
      for (const [i, hit] of result.items.entries()) {
        print(`${String(i + 1).padStart(2)}. ${hit.id}  [${hit.kind}]  ${hit.title}`);
        print(`    ${hit.source_path}:${hit.start_line}  ${hit.excerpt.replace(/\s+/g, ' ').slice(0, 120)}`);
        // The best matching section, as in the JSON (`section`): where to read on.
        if (hit.section) print(`    section ${hit.section.slug} (${hit.section.title}) at ${hit.source_path}:${hit.section.line}`);
        // Build copies of the same source (`x.cjs`, `x.d.ts`, a bundle's copy), collapsed into this hit.
        if (hit.copies) print(`    copies: ${hit.copies.join(', ')}${hit.copies_total !== undefined ? ` (${hit.copies_total} in all)` : ''}`);
      }
      if (result.dropped_terms.length > 0) print(`(not searched: ${result.dropped_terms.map((d) => `${d.term} [${d.reason}]`).join(', ')}${result.dropped_terms_total === undefined ? '' : ` and ${result.dropped_terms_total - result.dropped_terms.length} more`})`);
      if (result.items.length === 0) print('no matches');
      else if (result.truncated) print(`(more results: raise --limit, up to ${sync.descriptor.limits.max_results})`);
    }
    return 0;
  });
}
