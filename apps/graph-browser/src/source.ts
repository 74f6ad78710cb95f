/**
 * The source window of the graph-browser worker (protocol/schemas/viewer/v2/api/source): a bounded
 * window of a node's indexed file. The path comes from the index, never from the request, and the
 * read is confined twice: the file's real path must lie inside a declared content or code root
 * (never the state dir or .git), and its bytes must still have the content hash recorded when it
 * was indexed, so a file edited, replaced or swapped for a symbolic link after indexing is refused.
 */
import path from 'node:path';
import { errors, sha256 } from '@docforge/core';
import { readConfined, resolveConfined } from '@docforge/fs-safe';
import { pathWithin, type IndexReader, type ServedIndex } from '@docforge/store';
import type { GraphBrowserSource } from '@docforge/protocol';

/** Largest source file the source endpoint reads, in bytes. */
export const SOURCE_MAX_BYTES = 8 * 1024 * 1024;
/** Most lines of one source window. */
export const SOURCE_MAX_LINES = 1000;
/** Most characters of one source line (a longer line is cut). */
export const SOURCE_LINE_CAP = 2000;
/** Lines of context shown before a node's first line by default. */
export const SOURCE_CONTEXT_LINES = 10;

/** Where the source endpoint may read: absolute real paths. */
export interface SourceScope {
  /** Real project root. */
  root: string;
  /** Absolute content and code roots of the descriptor. */
  roots: string[];
  /** Absolute directories never read: the state dir and `.git`. */
  denied: string[];
}

/** The source scope of a checked served index (its descriptor's content and code roots). */
export function sourceScope(served: ServedIndex): SourceScope {
  const { root, descriptor } = served;
  const roots = [...descriptor.sources.content_roots, ...descriptor.sources.code_roots].map((r) => path.resolve(root, r));
  return { root, roots, denied: [served.layout.stateDir, path.join(root, '.git')] };
}

/**
 * A window of the node's indexed source file: from line `from` (default: ten lines before the
 * node), at most `count` lines (default: through the node's last line plus ten, at most
 * {@link SOURCE_MAX_LINES}), each cut at {@link SOURCE_LINE_CAP} characters. A file that is gone
 * or unreadable answers no lines and `changed: true`.
 * @throws DocforgeError `node_not_found`; `path_outside_root` when the file's real path is outside
 *   the content and code roots or inside the state dir or .git; `source_changed` when the index
 *   records no hash for the path or the bytes no longer have the indexed hash
 */
export function sourceWindow(reader: IndexReader, scope: SourceScope, id: string, from: number | null, count: number | null): GraphBrowserSource {
  const node = reader.getNode(id);
  if (node === null) throw errors.nodeNotFound(id);
  const anchors = node.anchors.slice(0, 500).map(({ slug, title, level, line, end_line }) => ({ slug, title, level, line, end_line }));
  const highlight = { start_line: node.start_line, end_line: node.end_line };
  const indexed = reader.sourceHash(node.source_path);
  if (indexed === null) throw errors.sourceChanged(node.source_path, 'the index records no source file at this path');
  const real = resolveConfined(scope.root, node.source_path);
  if (!scope.roots.some((r) => pathWithin(r, real)) || scope.denied.some((d) => pathWithin(d, real))) {
    throw errors.pathOutsideRoot(`${JSON.stringify(node.source_path)} resolves to ${JSON.stringify(path.relative(scope.root, real))}, outside the declared content and code roots (or inside the state dir); nothing was read.`, { path: node.source_path });
  }
  let bytes: Buffer;
  try {
    bytes = readConfined(scope.root, path.relative(scope.root, real), { maxBytes: SOURCE_MAX_BYTES });
  } catch (error) {
    if (error instanceof Error && 'code' in error && error.code === 'path_outside_root') throw error;
    return { node_id: id, path: node.source_path, first_line: 1, lines: [], total_lines: 0, highlight, anchors, truncated: false, changed: true };
  }
  if (sha256(bytes) !== indexed) throw errors.sourceChanged(node.source_path, 'its content hash differs from the indexed one');
  const all = bytes.toString('utf8').split(/\r?\n/);
  if (all.length > 1 && all[all.length - 1] === '') all.pop();
  const first = Math.max(1, Math.min(from ?? node.start_line - SOURCE_CONTEXT_LINES, Math.max(1, all.length)));
  const wanted = count ?? Math.max(1, node.end_line + SOURCE_CONTEXT_LINES - first + 1);
  const window = all.slice(first - 1, first - 1 + Math.min(wanted, SOURCE_MAX_LINES));
  let cut = false;
  const lines = window.map((line) => {
    if (line.length <= SOURCE_LINE_CAP) return line;
    cut = true;
    return line.slice(0, SOURCE_LINE_CAP);
  });
  return {
    node_id: id,
    path: node.source_path,
    first_line: first,
    lines,
    total_lines: all.length,
    highlight,
    anchors,
    truncated: cut || first > 1 || first - 1 + lines.length < all.length,
    changed: false,
  };
}
