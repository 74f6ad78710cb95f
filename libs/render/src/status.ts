/**
 * Render status of declared views (issue 11 item 6; contract "Render boundary").
 *
 * {@link renderStatus} is the cheap default: per view it reads the bounded receipt, compares the
 * view declaration hash, the renderer version and the recorded source identity with the cheap
 * source identity passed in, and lstat()s the output. It never parses sources, builds HTML, hashes
 * the whole output, rebuilds the index or writes. Missing or corrupt receipts are `unverified`.
 *
 * {@link deepRenderStatus} is the explicit, side-effect-free full-render equivalence oracle: it
 * renders each view in memory from a graph of the current sources and compares the bytes with the
 * output file on disk; nothing is written.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Descriptor, ViewDeclaration, ViewRenderer } from '@docforge/project';
import { errors } from '@docforge/core';
import { IndexReader, readPublication, type StateLayout } from '@docforge/store';
import { readerGraph, type RenderGraph } from './graph.js';
import { outputProblem } from './output-path.js';
import { RENDERER_VERSION, renderViewHtml } from './registry.js';
import { fileStat, readRenderReceipt, viewHash } from './receipt.js';

/** The render state of one declared output. */
export type RenderState = 'current' | 'stale' | 'unverified';

/** The status of one declared view. */
export interface ViewRenderStatus {
  view: string;
  renderer: ViewRenderer;
  /** Project-relative output path. */
  output: string;
  status: RenderState;
  /**
   * Why: `rendered_from_current_sources`, `sources_changed`, `view_changed`, `renderer_changed`,
   * `output_missing`, `output_changed`, `receipt_missing`, `receipt_corrupt`, `identity_unknown`;
   * an output that cannot be written safely (status `unverified`): `output_symlink`,
   * `output_not_file`, `output_parent_not_directory`, `output_in_sources` (output-path.ts); deep adds `output_matches`, `output_differs`, `index_not_current`.
   */
  reason: string;
  /** The local CLI command that renders this view's declared output. */
  command: string;
  /** Deep only: whether a full render differs from the file on disk. */
  differs?: boolean;
}

/** Options of the status functions. */
export interface RenderStatusOptions {
  /**
   * The cheap source identity of the sources as they are now (`IndexManager.cheapIdentity()`);
   * null when the project has none (then no view can be proven current).
   */
  sourceIdentity: string | null;
  /** One declared view id; absent: every declared view, in declaration order. */
  view?: string;
}

/** The CLI command that renders a view's declared output (run in the project root). */
export function renderCommand(viewId: string): string {
  return `docforge render ${viewId}`;
}

/**
 * The declared views a status or render concerns.
 * @throws DocforgeError `view_not_found` when `viewId` is given and not declared
 */
export function selectViews(descriptor: Descriptor, viewId: string | undefined): ViewDeclaration[] {
  if (viewId === undefined) return descriptor.views;
  const view = descriptor.views.find((v) => v.id === viewId);
  if (view === undefined) throw errors.viewNotFound(viewId, descriptor.views.map((v) => v.id));
  return [view];
}

function cheapOne(descriptor: Descriptor, view: ViewDeclaration, sourceIdentity: string | null): ViewRenderStatus {
  const base = { view: view.id, renderer: view.renderer, output: view.output, command: renderCommand(view.id) };
  const at = (status: RenderState, reason: string): ViewRenderStatus => ({ ...base, status, reason });
  const problem = outputProblemOf(descriptor, view.output);
  if (problem !== null) return at('unverified', problem);
  const stat = fileStat(path.join(descriptor.root, view.output));
  const read = readRenderReceipt(path.join(descriptor.root, descriptor.state.dir), view.id);
  if (read.state === 'missing') return stat === null ? at('stale', 'output_missing') : at('unverified', 'receipt_missing');
  if (read.state === 'corrupt') return at('unverified', 'receipt_corrupt');
  const receipt = read.receipt;
  if (receipt.view_sha256 !== viewHash(view)) return at('stale', 'view_changed');
  if (receipt.renderer_version !== RENDERER_VERSION) return at('stale', 'renderer_changed');
  if (stat === null) return at('stale', 'output_missing');
  if (sourceIdentity === null) return at('unverified', 'identity_unknown');
  if (receipt.inputs.source_identity !== sourceIdentity) return at('stale', 'sources_changed');
  const recorded = receipt.output_stat;
  if (stat.size !== recorded.size || stat.mtime_ns !== recorded.mtime_ns || stat.ino !== recorded.ino) return at('unverified', 'output_changed');
  return at('current', 'rendered_from_current_sources');
}

/** The {@link outputProblem} reason code of an output, or null; an unreadable path counts as `output_not_file`. */
function outputProblemOf(descriptor: Descriptor, output: string): string | null {
  try {
    return outputProblem(descriptor, output)?.reason_code ?? null;
  } catch {
    return 'output_not_file';
  }
}

/**
 * Cheap render status of declared views (see the module comment). Synchronous; reads only the
 * receipts (bounded) and lstat()s of the outputs. This is the function canonical application
 * reports declared outputs with.
 * @throws DocforgeError `view_not_found` for an undeclared `options.view`
 */
export function renderStatus(descriptor: Descriptor, options: RenderStatusOptions): ViewRenderStatus[] {
  return selectViews(descriptor, options.view).map((view) => cheapOne(descriptor, view, options.sourceIdentity));
}

/** Options of {@link deepRenderStatus}. */
export interface DeepRenderStatusOptions extends RenderStatusOptions {
  /**
   * The graph of an index publication built from exactly `sourceIdentity`, or null when no such
   * publication exists (then nothing can be rendered and the cheap answer stands, `current`
   * downgraded to `unverified`).
   */
  graph: RenderGraph | null;
  /** Receives the milliseconds spent rendering (diagnostics stage `rendering`). */
  onRenderMs?: (ms: number) => void;
}

function readOutput(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

/**
 * The full-render equivalence oracle: renders each selected view in memory and compares it byte
 * for byte with its output file. Equal: `current` (`output_matches`); different or missing:
 * `stale` (`output_differs`, `output_missing`), `differs: true`. A view that cannot be rendered
 * (e.g. a graph focus that no longer exists) is `stale` with reason `render_failed`. Writes nothing.
 * @throws DocforgeError `view_not_found` for an undeclared `options.view`
 */
export async function deepRenderStatus(descriptor: Descriptor, options: DeepRenderStatusOptions): Promise<ViewRenderStatus[]> {
  const cheap = renderStatus(descriptor, options);
  const out: ViewRenderStatus[] = [];
  for (const status of cheap) {
    const view = descriptor.views.find((v) => v.id === status.view)!;
    if (outputProblemOf(descriptor, view.output) !== null) {
      out.push(status);
      continue;
    }
    if (options.graph === null) {
      out.push(status.status === 'current' ? { ...status, status: 'unverified', reason: 'index_not_current' } : status);
      continue;
    }
    const started = performance.now();
    let html: string | null;
    try {
      html = await renderViewHtml({ view, graph: options.graph });
    } catch {
      html = null;
    } finally {
      options.onRenderMs?.(performance.now() - started);
    }
    const onDisk = readOutput(path.join(descriptor.root, view.output));
    if (html === null) out.push({ ...status, status: 'stale', reason: 'render_failed', differs: true });
    else if (onDisk === null) out.push({ ...status, status: 'stale', reason: 'output_missing', differs: true });
    else if (onDisk === html) out.push({ ...status, status: 'current', reason: 'output_matches', differs: false });
    else out.push({ ...status, status: 'stale', reason: 'output_differs', differs: true });
  }
  return out;
}

/**
 * Opens, read-only, the index publication built from exactly `sourceIdentity` (the current one
 * in `current.json`), for the deep oracle: no sync, no build, no write.
 * @returns the graph and a close function, or null when `current.json` is missing, unreadable, of
 *   other sources, or its index file cannot be opened
 */
export function openPublishedGraph(layout: StateLayout, sourceIdentity: string | null): { graph: RenderGraph; close(): void } | null {
  if (sourceIdentity === null) return null;
  const publication = readPublication(layout);
  if (publication === null || publication.source_identity !== sourceIdentity) return null;
  let reader: IndexReader;
  try {
    reader = new IndexReader(path.join(layout.indexDir, publication.index_file));
  } catch {
    return null;
  }
  return { graph: readerGraph(reader), close: () => reader.close() };
}

/** The declared outputs after a canonical change, as the apply result reports them (issue 11 item 4). */
export interface DeclaredOutputsReport {
  outputs: { view_id: string; output: string; status: RenderState }[];
  /** The local CLI command that renders them, or null when the project declares no view. */
  command: string | null;
}

/**
 * The cheap render status of every declared view in the shape of an application result: declared
 * outputs are never rendered over MCP or by apply (contract "Render boundary"), only reported with
 * the command that renders them. Same cost as {@link renderStatus}.
 */
export function declaredOutputsReport(descriptor: Descriptor, sourceIdentity: string | null): DeclaredOutputsReport {
  const views = renderStatus(descriptor, { sourceIdentity });
  return { outputs: views.map((v) => ({ view_id: v.view, output: v.output, status: v.status })), command: views.length === 0 ? null : 'docforge render' };
}
