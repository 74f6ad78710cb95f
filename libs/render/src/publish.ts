/**
 * `docforge render [VIEW]` (issue 11 item 5): renders declared views from one index publication
 * and writes each output atomically, then its version-1 render publication receipt under
 * `<state>/renders/`. Every selected view is rendered in memory before anything is written, so a
 * view that cannot be rendered leaves every output and receipt as it was. An existing output file
 * is replaced only when DocForge wrote it and it is unchanged since (ownership.ts, issue 30).
 */
import path from 'node:path';
import { errors, sha256 } from '@docforge/core';
import { ensureStateDir, writeFileAtomic } from '@docforge/fs-safe';
import type { Descriptor } from '@docforge/project';
import type { RenderGraph } from './graph.js';
import { outputTarget, prepareOutputDirs } from './output-path.js';
import { foreignOutputError } from './ownership.js';
import { RENDERER_VERSION, renderViewHtml } from './registry.js';
import { RENDERS_DIR, fileStat, receiptPath, viewHash, type RenderReceipt } from './receipt.js';
import { selectViews } from './status.js';

/** The identities of the index publication a render reads (all from `current.json`). */
export interface RenderInputs {
  project_id: string;
  generation: number;
  source_identity: string;
  source_hash: string;
}

/** One written output. */
export interface RenderedView {
  view: string;
  /** Project-relative output path. */
  output: string;
  bytes: number;
  sha256: string;
  /** Project-relative receipt path. */
  receipt: string;
}

/**
 * Renders and writes declared views (see the module comment).
 * @param graph the graph of the publication `inputs` describe
 * @param options.view one view id; absent: every declared view
 * @param options.now clock for `rendered_at` (tests)
 * @throws DocforgeError `view_not_found`, `render_failed`, `render_output_invalid` (an output that
 *   is or passes through a link, is a directory, sits under a file or lies on the sources; see
 *   output-path.ts), `render_output_foreign` (an existing output DocForge did not write, or that
 *   was changed since) before anything is written; Node errno errors of the writes
 */
export async function renderDeclaredViews(descriptor: Descriptor, graph: RenderGraph, inputs: RenderInputs, options: { view?: string; now?: () => Date } = {}): Promise<RenderedView[]> {
  const views = selectViews(descriptor, options.view);
  const rendered: { view: (typeof views)[number]; html: string; target: string }[] = [];
  for (const view of views) rendered.push({ view, html: await renderViewHtml({ view, graph }), target: outputTarget(descriptor, view.id, view.output) });
  const stateDir = path.join(descriptor.root, descriptor.state.dir);
  for (const { view, target } of rendered) {
    const foreign = foreignOutputError(stateDir, view.id, view.output, target);
    if (foreign !== null) throw foreign;
  }
  ensureStateDir(descriptor.root, path.join(stateDir, RENDERS_DIR));
  const written: RenderedView[] = [];
  for (const { view, html, target } of rendered) {
    prepareOutputDirs(descriptor, view.id, view.output);
    writeFileAtomic(target, html);
    const stat = fileStat(target);
    if (stat === null) throw errors.internalError(`the output ${view.output} vanished after it was written`);
    const hash = sha256(html);
    const receipt: RenderReceipt = {
      schema_version: 1,
      kind: 'render_publication',
      view: view.id,
      view_sha256: viewHash(view),
      renderer: view.renderer,
      renderer_version: RENDERER_VERSION,
      output: view.output,
      output_sha256: hash,
      output_stat: stat,
      inputs: { ...inputs },
      rendered_at: (options.now?.() ?? new Date()).toISOString(),
    };
    const file = receiptPath(stateDir, view.id);
    writeFileAtomic(file, `${JSON.stringify(receipt, null, 2)}\n`);
    written.push({ view: view.id, output: view.output, bytes: Buffer.byteLength(html), sha256: hash, receipt: path.relative(descriptor.root, file).split(path.sep).join('/') });
  }
  return written;
}
