/**
 * What the proposal tools share (contract "Isolated proposal tools"; issue 10): the
 * `proposal_access_disabled` gate of mutation tools, the startup-bound writer, the mutation
 * preflight and the version-1 compact receipt, bounded pages that keep the exact changeset hash
 * and operation order.
 */
import { errors } from '@docforge/core';
import { indexProjectView, storeOf, summarize, type ChangesetDocument, type ChangesetStore, type Finding, type MutationOutcome, type ProjectView } from '@docforge/changesets';
import type { SyncReport } from '@docforge/sync';
import { effectiveLimit, fitPrefix } from '@docforge/retrieval';
import type { ToolContext, ToolOutcome, ToolResult } from '../define-tool.js';
import { CONTENT_NOTICE, projectBlock } from '../envelope.js';

/** Findings returned in full by a mutation (the rest through docforge_validate_changeset). */
export const MUTATION_FINDINGS_SHOWN = 50;
/** Page size of list, inspection, validation and diff when `limit` is omitted. */
export const PROPOSAL_DEFAULT_LIMIT = 50;
/**
 * Characters kept free below `max_output_chars` beside the page's skeleton. The skeleton already
 * holds the envelope and a cursor placeholder as long as the longest real cursor (issue 30, item
 * 9), so the margin covers only rounding, not the cursor.
 */
const PAGE_MARGIN_CHARS = 16;

/**
 * Precheck of every mutation tool: proposal access needs a bound writer (contract: "Without
 * `--proposal-writer`, changeset mutation tools return `proposal_access_disabled`").
 * @throws DocforgeError `proposal_access_disabled`
 */
export function requireProposalAccess(ctx: ToolContext, tool: string): void {
  if (!ctx.capabilities.proposal_access.enabled || ctx.capabilities.proposal_access.writer_id === null) throw errors.proposalAccessDisabled(tool);
}

/** The startup-bound writer (after {@link requireProposalAccess}). */
export function writerOf(ctx: ToolContext): string {
  return ctx.capabilities.proposal_access.writer_id!;
}

/** The projection view and the store of the synchronized project. */
export function proposalContext(ctx: ToolContext, sync: SyncReport): { view: ProjectView; store: ChangesetStore } {
  return { view: indexProjectView(ctx.manager, sync, ctx.proposalPolicy ?? null), store: storeOf(sync, ctx.testFaults) };
}

/** The version-1 compact receipt of a mutation: exact changeset id and hash plus the outcome. */
export function compactReceipt(outcome: MutationOutcome['outcome'], doc: Pick<ChangesetDocument, 'id' | 'changeset_sha256'>, status: string, counts: { error: number; warning: number } | null): ToolResult {
  const receipt: ToolResult = { receipt_version: 1, compact: true, outcome, changeset_id: doc.id, changeset_sha256: doc.changeset_sha256, status };
  if (counts !== null) receipt.finding_counts = counts;
  return receipt;
}

/**
 * Mutation preflight (contract: "Before any proposal ... mutation, the server verifies that a
 * minimum exact success receipt can fit"): the largest compact receipt (longest id, any status)
 * inside the envelope must fit `max_output_chars`.
 * @throws DocforgeError `result_too_large` with `details.stage = "preflight"` and
 *   `details.mutation_committed = false`, before anything is written
 */
export function preflight(ctx: ToolContext, sync: SyncReport): void {
  const worst = compactReceipt('operation_added', { id: 'c'.repeat(128), changeset_sha256: '0'.repeat(64) }, 'abandoned', { error: 99999, warning: 99999 });
  const envelope = { schema_version: 1, ok: true, notice: CONTENT_NOTICE, project: projectBlock(ctx.manager, sync), result: worst };
  const needed = JSON.stringify(envelope).length;
  const max = sync.descriptor.limits.max_output_chars;
  if (needed > max) throw errors.resultTooLarge(needed, max, { stage: 'preflight', mutation_committed: false });
}

function counts(findings: readonly Finding[]): { error: number; warning: number } {
  return { error: findings.filter((f) => f.severity === 'error').length, warning: findings.filter((f) => f.severity === 'warning').length };
}

/**
 * The outcome of a committed mutation (fit strategy `receipt`): the full result and its compact
 * receipt, which replaces it when the full result does not fit (never a failure).
 */
export function mutationResult(view: ProjectView, m: MutationOutcome): ToolOutcome<'receipt'> {
  const summary = summarize(m.doc, view);
  const findings = m.evaluation?.findings ?? m.doc.findings;
  const result: ToolResult = {
    receipt_version: 1,
    outcome: m.outcome,
    changeset_id: m.doc.id,
    changeset_sha256: m.doc.changeset_sha256,
    status: summary.status,
    changeset: summary,
    valid: !findings.some((f) => f.severity === 'error'),
    finding_counts: counts(findings),
    findings: findings.slice(0, MUTATION_FINDINGS_SHOWN),
    findings_truncated: findings.length > MUTATION_FINDINGS_SHOWN,
    receipt: m.doc.receipts[m.doc.receipts.length - 1],
  };
  return { result, receipt: compactReceipt(m.outcome, m.doc, summary.status, counts(findings)) };
}

/** The page size of a read: `limit` or the default, capped by `[limits].max_results`. */
export function pageLimit(args: { limit?: number }, sync: SyncReport): number {
  return effectiveLimit(args.limit, sync.descriptor.limits.max_results, PROPOSAL_DEFAULT_LIMIT);
}

/**
 * The character budget of a page's items: `max_output_chars` less the envelope and the rest of
 * the result (`skeleton`, the result without its items).
 */
export function pageBudget(ctx: ToolContext, sync: SyncReport, skeleton: ToolResult): number {
  const envelope = { schema_version: 1, ok: true, notice: CONTENT_NOTICE, project: projectBlock(ctx.manager, sync), result: skeleton };
  return sync.descriptor.limits.max_output_chars - JSON.stringify(envelope).length - PAGE_MARGIN_CHARS;
}

/** The longest prefix of `items` from `start` (at most `limit`) that fits `budget` characters. */
export function fitItems<T>(items: readonly T[], start: number, limit: number, budget: number): T[] {
  return fitPrefix(items, { start, budget, maxItems: limit, separator: 1, sizeOf: (item) => JSON.stringify(item).length }).items;
}

/** Reads a changeset that must exist. @throws DocforgeError `changeset_not_found` or `changeset_corrupt` */
export function loadChangeset(store: ChangesetStore, id: string): ChangesetDocument {
  return store.get(id);
}
