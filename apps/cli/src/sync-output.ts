/**
 * The output of `docforge sync` (text or `--json`), shared by the full synchronization
 * (commands.ts) and the no-change fast path (main.ts), so both print byte for byte the same.
 * Light imports only (issue 14).
 */
import type { WireError } from '@docforge/core';
import type { BuildStats } from '@docforge/builder';
import type { Publication } from '@docforge/store';
import type { ErrorIssueSummary } from '@docforge/sync';
import { printLine as print, printRaw } from './terminal.js';

/** What `docforge sync` reports: the fields of a SyncReport it prints. */
export interface SyncResult {
  rebuilt: boolean;
  staleness: string;
  publication: Publication;
  stats: BuildStats | null;
  sync_error: WireError | null;
  /** The published index's error-severity issues (count and first few), or null when unread. */
  error_issues: ErrorIssueSummary | null;
}

/**
 * Prints a sync result to stdout (JSON document or text lines). Error-severity issues are never
 * silent (issue 30): the text names their count and the first few (code, path, message) and points
 * to `docforge check`; the JSON document adds `error_issues` beside its earlier fields when
 * there is one (absent: none, so a clean project's output is unchanged). They do not
 * change the exit code (the README's exit-code rule: `check` fails on them, `sync` does not).
 * @returns the exit code: 1 with a sync error, else 0.
 */
export function printSyncResult(sync: SyncResult, json: boolean): number {
  const p = sync.publication;
  if (json) printRaw(JSON.stringify({ rebuilt: sync.rebuilt, staleness: sync.staleness, publication: p, stats: sync.stats, sync_error: sync.sync_error, ...(sync.error_issues && sync.error_issues.count > 0 ? { error_issues: sync.error_issues } : {}) }, null, 2));
  else {
    // A sync error means the sources were not brought up to date: the last publication is served (break-it trial 50).
    const state = sync.rebuilt ? 'rebuilt' : sync.sync_error ? 'not synchronized, serving the last publication' : 'up to date';
    print(`${state}: generation ${p.generation}, ${p.counts.nodes} nodes, ${p.counts.edges} edges, ${p.counts.issues} issues (${p.counts.sources} sources)`);
    if (sync.stats) print(`  ${sync.stats.mode} build: parsed ${sync.stats.parsed}, reused ${sync.stats.reused}, ${sync.stats.total_ms.toFixed(1)} ms`);
    if (sync.sync_error) print(`  stale: ${sync.sync_error.code}: ${sync.sync_error.message}`);
    printErrorIssues(sync.error_issues);
  }
  return sync.sync_error ? 1 : 0;
}

/** The text lines naming error-severity issues: a count line, one line per shown issue, and where the rest are. */
function printErrorIssues(errors: ErrorIssueSummary | null): void {
  if (!errors || errors.count === 0) return;
  print(`  ${errors.count} error${errors.count === 1 ? '' : 's'} in the index (not fatal to sync):`);
  for (const issue of errors.first) {
    const where = issue.path === null || issue.message.startsWith(issue.path) ? '' : ` (${issue.path}${issue.line === null ? '' : `:${issue.line}`})`;
    print(`    error ${issue.code}: ${issue.message}${where}`);
  }
  const rest = errors.count - errors.first.length;
  print(`  ${rest > 0 ? `${rest} more: ` : ''}run \`docforge check\` to list them all`);
}
