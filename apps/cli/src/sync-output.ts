/**
 * The output of `docforge sync` (text or `--json`), shared by the full synchronization
 * (commands.ts) and the no-change fast path (main.ts), so both print byte for byte the same.
 * Light imports only (issue 14).
 */
import type { WireError } from '@docforge/core';
import type { BuildStats } from '@docforge/builder';
import type { Publication } from '@docforge/store';
import { printLine as print, printRaw } from './terminal.js';

/** What `docforge sync` reports: the fields of a SyncReport it prints. */
export interface SyncResult {
  rebuilt: boolean;
  staleness: string;
  publication: Publication;
  stats: BuildStats | null;
  sync_error: WireError | null;
}

/** Prints a sync result to stdout (JSON document or text lines). @returns the exit code: 1 with a sync error, else 0. */
export function printSyncResult(sync: SyncResult, json: boolean): number {
  const p = sync.publication;
  if (json) printRaw(JSON.stringify({ rebuilt: sync.rebuilt, staleness: sync.staleness, publication: p, stats: sync.stats, sync_error: sync.sync_error }, null, 2));
  else {
    print(`${sync.rebuilt ? 'rebuilt' : 'up to date'}: generation ${p.generation}, ${p.counts.nodes} nodes, ${p.counts.edges} edges, ${p.counts.issues} issues (${p.counts.sources} sources)`);
    if (sync.stats) print(`  ${sync.stats.mode} build: parsed ${sync.stats.parsed}, reused ${sync.stats.reused}, ${sync.stats.total_ms.toFixed(1)} ms`);
    if (sync.sync_error) print(`  stale: ${sync.sync_error.code}: ${sync.sync_error.message}`);
  }
  return sync.sync_error ? 1 : 0;
}
