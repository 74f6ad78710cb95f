/**
 * The proposal read tools (contract "Isolated proposal tools"): list, get, validate and diff.
 * They work with or without `--proposal-writer`, never write (staleness is derived when read),
 * and return bounded pages bound by cursor to the exact changeset hash and operation order.
 */
import { canonicalJson, sha256 } from '@docforge/core';
import {
  changeEntries, chunkPayload, decodeCursor, encodeCursor, evaluate, operationSha256, summarize, writerPolicy,
  type ChangesetDocument, type Operation, type ProjectView, type ReadStatus, type ChangesetStore,
} from '@docforge/changesets';
import { defineTool, type ToolResult } from '../define-tool.js';
import { fitItems, loadChangeset, pageBudget, pageLimit, proposalContext } from './proposal-shared.js';

const ALL_STATUSES: readonly ReadStatus[] = ['draft', 'ready', 'stale', 'applied', 'abandoned'];
const DEFAULT_STATUSES: readonly ReadStatus[] = ['draft', 'ready'];
/** A cursor-sized placeholder, so a page's budget leaves room for its real cursor. */
const CURSOR_PLACEHOLDER = 'c'.repeat(256);

function targetOf(op: Operation): string {
  return op.op === 'node_create' ? op.node.id : op.op === 'relationship_update' ? op.source_id : op.node_id;
}

/** Re-projects a stored changeset against the current project (read-only; never stores anything). */
function evaluateStored(view: ProjectView, store: ChangesetStore, doc: ChangesetDocument): ReturnType<typeof evaluate> {
  const others = store.list().documents.filter((d) => d.id !== doc.id);
  return evaluate(view, doc.operations, { policy: writerPolicy(doc.writer, view.descriptor, view.adapterOperations), changesetId: doc.id, others, registering: false });
}

/** `docforge_list_changesets`: draft and ready by default; other statuses on explicit request. */
export const listChangesetsTool = defineTool({
  name: 'docforge_list_changesets',
  kind: 'sync',
  handler(ctx, sync, args) {
    const { view, store } = proposalContext(ctx, sync);
    const statuses = args.history === true ? [...ALL_STATUSES] : [...((args.statuses as ReadStatus[] | undefined) ?? DEFAULT_STATUSES)].sort();
    const listing = store.list();
    const all = listing.documents.map((d) => summarize(d, view)).filter((s) => statuses.includes(s.status));
    const limit = pageLimit(args, sync);
    const binding = `list:${statuses.join(',')}`;
    const start = decodeCursor(args.cursor, 'docforge_list_changesets', binding);
    const skeleton: ToolResult = { items: [], truncated: true, next_cursor: CURSOR_PLACEHOLDER, limit, statuses, unreadable: listing.unreadable.length };
    const items = fitItems(all, start, limit, pageBudget(ctx, sync, skeleton));
    const end = start + items.length;
    return { ...skeleton, items, truncated: end < all.length, next_cursor: end < all.length ? encodeCursor('docforge_list_changesets', binding, end) : null };
  },
});

/** `docforge_get_changeset`: summary, receipts and a page of the ordered operations. */
export const getChangesetTool = defineTool({
  name: 'docforge_get_changeset',
  kind: 'sync',
  handler(ctx, sync, args) {
    const { view, store } = proposalContext(ctx, sync);
    const doc = loadChangeset(store, args.changeset_id);
    const binding = `${doc.id}:${doc.changeset_sha256}`;
    const start = decodeCursor(args.cursor, 'docforge_get_changeset', binding);
    const limit = pageLimit(args, sync);
    const summaries = doc.operations.map((op, index) => ({ index, op: op.op, operation_sha256: operationSha256(op), chars: canonicalJson(op).length, node_id: targetOf(op) }));
    const skeleton: ToolResult = { changeset: summarize(doc, view), receipts: doc.receipts, operations: [], operations_summarized: false, truncated: true, next_cursor: CURSOR_PLACEHOLDER, limit };
    const budget = pageBudget(ctx, sync, skeleton);
    const wanted = Math.min(limit, doc.operations.length - start);
    let page: Record<string, unknown>[] = fitItems(summaries.map((s, i) => ({ ...s, operation: doc.operations[i] })), start, limit, budget);
    let summarized = false;
    if (page.length < wanted) {
      // An oversized page: deterministic summaries with hashes and character counts instead.
      page = fitItems(summaries, start, limit, budget);
      summarized = true;
    }
    const end = start + page.length;
    return { ...skeleton, operations: page, operations_summarized: summarized, truncated: end < doc.operations.length, next_cursor: end < doc.operations.length ? encodeCursor('docforge_get_changeset', binding, end) : null };
  },
});

/** `docforge_validate_changeset`: projection + validation against the current project, paged findings. */
export const validateChangesetTool = defineTool({
  name: 'docforge_validate_changeset',
  kind: 'sync',
  handler(ctx, sync, args) {
    const { view, store } = proposalContext(ctx, sync);
    const doc = loadChangeset(store, args.changeset_id);
    const evaluation = evaluateStored(view, store, doc);
    const findings = evaluation.findings;
    const binding = `${doc.id}:${doc.changeset_sha256}:${view.sourceHash}`;
    const start = decodeCursor(args.cursor, 'docforge_validate_changeset', binding);
    const limit = pageLimit(args, sync);
    const finding_counts = { error: findings.filter((f) => f.severity === 'error').length, warning: findings.filter((f) => f.severity === 'warning').length };
    const skeleton: ToolResult = { changeset: summarize(doc, view), valid: evaluation.valid, finding_counts, findings: [], truncated: true, next_cursor: CURSOR_PLACEHOLDER, limit };
    const page = fitItems(findings, start, limit, pageBudget(ctx, sync, skeleton));
    const end = start + page.length;
    return { ...skeleton, findings: page, truncated: end < findings.length, next_cursor: end < findings.length ? encodeCursor('docforge_validate_changeset', binding, end) : null };
  },
});

/**
 * `docforge_get_changeset_diff`: pages of per-operation changes; when one change cannot fit a page
 * by itself, the whole diff is served as `canonical_json_chunk` pages of `{operations, changes}`.
 */
export const getChangesetDiffTool = defineTool({
  name: 'docforge_get_changeset_diff',
  kind: 'sync',
  handler(ctx, sync, args) {
    const { view, store } = proposalContext(ctx, sync);
    const doc = loadChangeset(store, args.changeset_id);
    const changes = changeEntries(evaluateStored(view, store, doc).projection.outcomes);
    const limit = pageLimit(args, sync);
    const summary = summarize(doc, view);
    const pagedSkeleton: ToolResult = { changeset: summary, format: 'changes', changes: [], truncated: true, next_cursor: CURSOR_PLACEHOLDER, limit };
    const budget = pageBudget(ctx, sync, pagedSkeleton);
    const oversized = changes.some((c) => JSON.stringify(c).length > budget);
    const binding = `${doc.id}:${doc.changeset_sha256}:${view.sourceHash}:${oversized ? 'chunk' : 'changes'}`;
    const start = decodeCursor(args.cursor, 'docforge_get_changeset_diff', binding);
    if (!oversized) {
      const page = fitItems(changes, start, limit, budget);
      const end = start + page.length;
      return { ...pagedSkeleton, changes: page, truncated: end < changes.length, next_cursor: end < changes.length ? encodeCursor('docforge_get_changeset_diff', binding, end) : null };
    }
    const chunkSkeleton: ToolResult = {
      changeset: summary, format: 'canonical_json_chunk',
      chunk: { index: 0, count: 0, data: '', payload_sha256: sha256(''), payload_chars: 0 }, truncated: true, next_cursor: CURSOR_PLACEHOLDER, limit,
    };
    // JSON escaping can double an ASCII chunk (quotes and backslashes), so a chunk gets half the room.
    const chunks = chunkPayload({ operations: doc.operations, changes }, Math.floor(pageBudget(ctx, sync, chunkSkeleton) / 2));
    const chunk = chunks[Math.min(start, chunks.length - 1)]!;
    const more = chunk.index + 1 < chunk.count;
    return { ...chunkSkeleton, chunk, truncated: more, next_cursor: more ? encodeCursor('docforge_get_changeset_diff', binding, chunk.index + 1) : null };
  },
});
