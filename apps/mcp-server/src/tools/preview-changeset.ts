/**
 * `docforge_preview_changeset` (issue 11 item 7; contract "Isolated proposal tools" and "Render
 * boundary"): renders one declared view (by id, never a renderer name or command) with a stored
 * changeset applied in memory and writes one atomic HTML file below the preview root
 * `<state>/previews/`. Available without `--proposal-writer` for existing changesets. Before
 * anything is written, the preflight proves that the compact receipt fits the output limit.
 */
import { errors } from '@docforge/core';
import { Workspace, evaluateStored } from '@docforge/changesets';
import type { SyncReport } from '@docforge/sync';
import { previewPath, readerGraph, selectViews, writePreview } from '@docforge/render';
import { defineTool, loadProtocolTool, type ToolContext, type ToolResult } from '../define-tool.js';
import { CONTENT_NOTICE, projectBlock } from '../envelope.js';
import { loadChangeset, proposalContext } from './proposal-shared.js';

/** The compact version-1 receipt of a preview: exact changeset id and hash, the view and the file. */
function compactPreview(changesetId: string, sha: string, view: string, path: string): ToolResult {
  return { receipt_version: 1, compact: true, changeset_id: changesetId, changeset_sha256: sha, view, preview: { path } };
}

/**
 * Preview preflight (contract: "Before any proposal, preview, or canonical mutation, the server
 * verifies that a minimum exact success receipt can fit"): the compact receipt with the longest
 * changeset id must fit `max_output_chars`.
 * @throws DocforgeError `result_too_large` with `details.stage = "preflight"`, `mutation_committed = false`
 */
function previewPreflight(ctx: ToolContext, sync: SyncReport, viewId: string): void {
  const longest = 'c'.repeat(128);
  const worst = compactPreview(longest, '0'.repeat(64), viewId, previewPath(sync.descriptor, longest, viewId));
  const envelope = { schema_version: 1, ok: true, notice: CONTENT_NOTICE, project: projectBlock(ctx.manager, sync), result: worst };
  const needed = JSON.stringify(envelope).length;
  const max = sync.descriptor.limits.max_output_chars;
  if (needed > max) throw errors.resultTooLarge(needed, max, { stage: 'preflight', mutation_committed: false });
}

/** The tool definition. */
export const previewChangesetTool = defineTool({
  protocol: loadProtocolTool('docforge_preview_changeset'),
  kind: 'sync',
  fit: 'receipt',
  async handler(ctx, sync, args, diagnostics) {
    previewPreflight(ctx, sync, args.view);
    selectViews(sync.descriptor, args.view);
    const { view, store } = proposalContext(ctx, sync);
    const doc = loadChangeset(store, args.changeset_id);
    const evaluation = evaluateStored(view, store, doc);
    const projected = evaluation.workspace.resolve();
    const before = new Workspace(view).resolve();
    const preview = await writePreview({
      descriptor: sync.descriptor,
      viewId: args.view,
      changesetId: doc.id,
      published: readerGraph(ctx.manager.reader()),
      before: { nodes: before.nodes, edges: before.edges },
      projected: { nodes: projected.nodes, edges: projected.edges },
    }, (ms) => diagnostics?.add('rendering', ms));
    const findings = evaluation.findings;
    const result: ToolResult = {
      receipt_version: 1,
      changeset_id: doc.id,
      changeset_sha256: doc.changeset_sha256,
      view: preview.view,
      renderer: preview.renderer,
      preview: { path: preview.path, bytes: preview.bytes, sha256: preview.sha256 },
      marks: preview.marks,
      valid: !findings.some((f) => f.severity === 'error'),
      finding_counts: { error: findings.filter((f) => f.severity === 'error').length, warning: findings.filter((f) => f.severity === 'warning').length },
    };
    return { result, receipt: compactPreview(doc.id, doc.changeset_sha256, preview.view, preview.path) };
  },
});
