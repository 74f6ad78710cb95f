/**
 * Changeset previews (issue 11 item 7; contract "Render boundary" and "Isolated proposal tools"):
 * one declared view rendered with a changeset applied in memory, written as one atomic HTML file
 * below the preview root `<state>/previews/`. The caller (the MCP server) projects the changeset
 * with @docforge/changesets and passes the content graph before and after; this module marks the
 * differences, renders through the fixed registry and writes the file. Nothing else is written.
 */
import path from 'node:path';
import { errors, sha256, type GraphEdge, type GraphNode } from '@docforge/core';
import { ensureStateDir, writeFileAtomic } from '@docforge/fs-safe';
import type { Descriptor } from '@docforge/project';
import { overlayGraph, type ContentOverlay, type RenderGraph } from './graph.js';
import { lstatOrNull, outputError } from './output-path.js';
import { renderViewHtml } from './registry.js';
import { edgeKey, type ChangeMark, type ChangeMarks } from './renderers/types.js';
import { selectViews } from './status.js';

/** What a preview needs. */
export interface PreviewInput {
  descriptor: Descriptor;
  /** A declared view id (never a renderer name). */
  viewId: string;
  /** Changeset id (a safe file name by its pattern); names the preview's directory. */
  changesetId: string;
  /** The published graph (code nodes and their edges come from here). */
  published: RenderGraph;
  /** The content graph of the current canonical files, resolved like `projected`. */
  before: ContentOverlay;
  /** The content graph with the changeset applied in memory. */
  projected: ContentOverlay;
}

/** Counts of the marks a preview shows. */
export interface PreviewMarkCounts {
  nodes_added: number;
  nodes_changed: number;
  nodes_removed: number;
  relations_added: number;
  relations_removed: number;
}

/** A written preview. */
export interface PreviewResult {
  view: string;
  renderer: string;
  /** Project-relative path of the HTML file. */
  path: string;
  bytes: number;
  sha256: string;
  marks: PreviewMarkCounts;
}

const contentOnly = <T extends { id?: string; source_id?: string }>(item: T): boolean => !(item.id ?? item.source_id ?? '').startsWith('code:');

/** Marks of `projected` against `before`: nodes by id and content hash, relations by identity. */
export function changeMarks(before: ContentOverlay, projected: ContentOverlay): { marks: ChangeMarks; removedNodes: GraphNode[]; removedEdges: GraphEdge[]; counts: PreviewMarkCounts } {
  const nodes = new Map<string, ChangeMark>();
  const edges = new Map<string, ChangeMark>();
  const beforeNodes = new Map(before.nodes.filter(contentOnly).map((n) => [n.id, n]));
  const afterNodes = new Map(projected.nodes.filter(contentOnly).map((n) => [n.id, n]));
  for (const [id, node] of afterNodes) {
    const old = beforeNodes.get(id);
    if (old === undefined) nodes.set(id, 'added');
    else if (old.content_hash !== node.content_hash) nodes.set(id, 'changed');
  }
  const removedNodes = [...beforeNodes.values()].filter((n) => !afterNodes.has(n.id));
  for (const n of removedNodes) nodes.set(n.id, 'removed');
  const beforeEdges = new Map(before.edges.filter(contentOnly).map((e) => [edgeKey(e), e]));
  const afterEdges = new Map(projected.edges.filter(contentOnly).map((e) => [edgeKey(e), e]));
  for (const key of afterEdges.keys()) if (!beforeEdges.has(key)) edges.set(key, 'added');
  const removedEdges = [...beforeEdges.entries()].filter(([key]) => !afterEdges.has(key)).map(([, e]) => e);
  for (const e of removedEdges) edges.set(edgeKey(e), 'removed');
  const count = (map: Map<string, ChangeMark>, mark: ChangeMark): number => [...map.values()].filter((m) => m === mark).length;
  return {
    marks: { nodes, edges },
    removedNodes,
    removedEdges,
    counts: { nodes_added: count(nodes, 'added'), nodes_changed: count(nodes, 'changed'), nodes_removed: count(nodes, 'removed'), relations_added: count(edges, 'added'), relations_removed: count(edges, 'removed') },
  };
}

/** The project-relative preview path of a changeset and view: `<state>/previews/<changeset>/<view>.html`. */
export function previewPath(descriptor: Descriptor, changesetId: string, viewId: string): string {
  return path.posix.join(descriptor.state.dir, 'previews', changesetId, `${viewId}.html`);
}

/**
 * Renders a declared view with the changeset applied and writes it atomically below the preview
 * root. A `graph` view also draws removed nodes and relations (marked `removed`); every renderer
 * marks added and changed nodes.
 * @throws DocforgeError `view_not_found` for an undeclared view; `render_failed` when the view
 *   cannot be rendered from the projected graph (nothing written); `path_outside_root` when the
 *   preview root is not a plain directory inside the project; `render_output_invalid` when the
 *   preview file is a link or not a regular file (nothing written)
 */
export async function writePreview(input: PreviewInput, onRenderMs?: (ms: number) => void): Promise<PreviewResult> {
  const [view] = selectViews(input.descriptor, input.viewId);
  if (view === undefined) throw errors.viewNotFound(input.viewId, input.descriptor.views.map((v) => v.id));
  const { marks, removedNodes, removedEdges, counts } = changeMarks(input.before, input.projected);
  const overlay: ContentOverlay = view.renderer === 'graph'
    ? { nodes: [...input.projected.nodes, ...removedNodes], edges: [...input.projected.edges, ...removedEdges] }
    : input.projected;
  const started = performance.now();
  let html: string;
  try {
    html = await renderViewHtml({ view, graph: overlayGraph(input.published, overlay), marks });
  } finally {
    onRenderMs?.(performance.now() - started);
  }
  const rel = previewPath(input.descriptor, input.changesetId, view.id);
  const file = path.join(input.descriptor.root, rel);
  ensureStateDir(input.descriptor.root, path.dirname(file));
  const existing = lstatOrNull(file);
  if (existing !== null && !existing.isFile()) {
    const problem = existing.isSymbolicLink()
      ? { reason_code: 'output_symlink' as const, reason: `the preview file "${rel}" is a symbolic link; previews are never written through a link (remove it)` }
      : { reason_code: 'output_not_file' as const, reason: `the preview file "${rel}" exists and is not a regular file` };
    throw outputError(view.id, rel, problem);
  }
  writeFileAtomic(file, html);
  return { view: view.id, renderer: view.renderer, path: rel, bytes: Buffer.byteLength(html), sha256: sha256(html), marks: counts };
}
