/**
 * `docforge_apply_changeset` (contract "Canonical application tool"; issue 11, items 2 and 4):
 * registered only through the canonical applier gate. Preflight first (a minimum compact
 * receipt must fit), then {@link applyChangeset}, then the index refresh through the same
 * IndexManager (the same effective policy, `--no-ast` included). A refresh failure still answers
 * the committed application, with a degraded derived-refresh report and remediation.
 */
import { applyChangeset, indexProjectView, storeOf, type ApplyOutcome } from '@docforge/changesets';
import { errors, toDocforgeError } from '@docforge/core';
import type { SyncReport } from '@docforge/sync';
import { defineTool, loadProtocolTool, type ToolContext, type ToolResult } from '../define-tool.js';
import { CONTENT_NOTICE, projectBlock } from '../envelope.js';

/** The derived-refresh report of an application. */
interface DerivedRefresh {
  status: 'refreshed' | 'degraded';
  revision?: number | null;
  source_hash?: string | null;
  staleness?: 'current' | 'stale' | 'unknown';
  error?: Record<string, unknown>;
  remediation?: string;
}

const REFRESH_REMEDIATION = 'The canonical files are applied and the applied receipt is stored: do NOT apply this changeset again. Fix the reported index problem, then call docforge_sync (or any read tool) to refresh the index.';

function changedCounts(outcome: Pick<ApplyOutcome, 'files'>): { created: number; updated: number; deleted: number } {
  const n = (action: string): number => outcome.files.filter((f) => f.action === action).length;
  return { created: n('created'), updated: n('updated'), deleted: n('deleted') };
}

/** The version-1 compact receipt of an application. */
function compactApplied(id: string, hash: string, changed: { created: number; updated: number; deleted: number }, refresh: DerivedRefresh): ToolResult {
  const summary: Record<string, unknown> = { status: refresh.status };
  if (refresh.revision !== undefined) summary['revision'] = refresh.revision;
  return { receipt_version: 1, compact: true, outcome: 'applied', changeset_id: id, changeset_sha256: hash, status: 'applied', changed_sources: changed, derived_refresh: summary };
}

/**
 * Preflight (contract: "Before any ... canonical mutation, the server verifies that a minimum
 * exact success receipt can fit").
 * @throws DocforgeError `result_too_large` with `stage = "preflight"`, `mutation_committed = false`
 */
function applyPreflight(ctx: ToolContext, sync: SyncReport): void {
  const worst = compactApplied('c'.repeat(128), '0'.repeat(64), { created: 99999, updated: 99999, deleted: 99999 }, { status: 'degraded', revision: 999999999 });
  const envelope = { schema_version: 1, ok: true, notice: CONTENT_NOTICE, project: projectBlock(ctx.manager, sync), result: worst };
  const needed = JSON.stringify(envelope).length;
  const max = sync.descriptor.limits.max_output_chars;
  if (needed > max) throw errors.resultTooLarge(needed, max, { stage: 'preflight', mutation_committed: false });
}

/** Refreshes the index after a committed application; never throws. */
async function refresh(ctx: ToolContext): Promise<{ derived: DerivedRefresh; report: SyncReport | null }> {
  try {
    if (ctx.testFaults?.point === 'apply_refresh_fail') throw errors.indexUnavailable('test fault point apply_refresh_fail: the index refresh failed');
    const report = await ctx.manager.sync();
    if (report.sync_error !== null) {
      return { report, derived: { status: 'degraded', revision: report.publication.generation, source_hash: report.publication.source_hash, staleness: report.staleness, error: report.sync_error as unknown as Record<string, unknown>, remediation: REFRESH_REMEDIATION } };
    }
    return { report, derived: { status: 'refreshed', revision: report.publication.generation, source_hash: report.publication.source_hash, staleness: report.staleness } };
  } catch (error) {
    return { report: null, derived: { status: 'degraded', revision: null, source_hash: null, error: toDocforgeError(error).toWire() as unknown as Record<string, unknown>, remediation: REFRESH_REMEDIATION } };
  }
}

/** `docforge_apply_changeset`. */
export const applyChangesetTool = defineTool({
  protocol: loadProtocolTool('docforge_apply_changeset'),
  kind: 'sync',
  fit: 'receipt',
  precheck(ctx) {
    if (!ctx.capabilities.application_access.enabled || ctx.applier == null) {
      throw errors.canonicalApplierUnavailable('canonical application was not enabled at startup (--canonical-applier with an applier the project supplies)');
    }
  },
  async handler(ctx, sync, args) {
    applyPreflight(ctx, sync);
    const view = indexProjectView(ctx.manager, sync, ctx.proposalPolicy ?? null);
    const applierId = ctx.capabilities.application_access.applier_id!;
    const outcome = await applyChangeset(storeOf(sync, ctx.testFaults), view, args.changeset_id, args.changeset_sha256, { applierId, applier: ctx.applier!, faults: ctx.testFaults });
    const { derived, report } = await refresh(ctx);
    const changed = changedCounts(outcome);
    const render = ctx.declaredOutputs?.() ?? { outputs: [], command: null };
    const result: ToolResult = {
      receipt_version: 1,
      outcome: 'applied',
      changeset_id: outcome.doc.id,
      changeset_sha256: outcome.doc.changeset_sha256,
      status: 'applied',
      applier: applierId,
      changed_sources: changed,
      files: outcome.files,
      receipt: outcome.receipt,
      derived_refresh: derived,
      render: { outputs: render.outputs, output_count: render.outputs.length, command: render.command },
      recovered: outcome.recovered,
    };
    const receipt = compactApplied(outcome.doc.id, outcome.doc.changeset_sha256, changed, derived);
    // The project block names the refreshed publication (the one the new content is read from).
    return report === null ? { result, receipt } : { result, receipt, servedFrom: report };
  },
});
