/**
 * What changed since the last publication, for `docforge affected` (issue 32 item 3): the sources
 * as they are now (or a unified diff) against the nodes of the published index. It reads, it never
 * synchronizes: no build, no publication, no write to the state directory (the answer would
 * otherwise compare the sources with themselves). The changed files are parsed in this thread
 * with the same parse as a build (libs/builder `parseBatch`), nothing else is.
 *
 * A node counts as changed when its change fingerprint differs ({@link changeFingerprint}): kind,
 * title, summary, body and its code lines with line numbers and whitespace runs left out, so a
 * function moved down its file is not changed and a changed statement in its body is. The
 * fingerprint is the one place to switch to the review hash (ISSUE32-SHARED) once nodes carry it.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { errors, sha256, type GraphNode, type NodeCodeText, type NodeReviewHash } from '@docforge/core';
import { loadDescriptor, walkSources, type Descriptor, type SourceEntry } from '@docforge/project';
import { stateLayout } from '@docforge/fs-safe';
import { codeExtensionsOf, resolveProjectRoot, setAdapterLoader } from '@docforge/identity';
import { IndexReader, readPublicationOnce, type Publication } from '@docforge/store';
import { loadBuiltinAdapter, loadBuiltinLinker, parseBatch } from '@docforge/builder';
import type { DiffFile } from './unified-diff.js';

/** Most nodes of one source file compared (a larger file's further nodes are not compared; reported). */
export const MAX_SOURCE_NODES = 10_000;
/** Most changed source files parsed for one answer (further ones are listed, not parsed; reported). */
export const MAX_CHANGED_SOURCES = 1_000;
/** Most characters of code lines compared per node (the stored bound, `MAX_CODE_TEXT_CHARS`). */
const MAX_CODE_CHARS = 65_536;

/** Most paths outside the project's sources listed in one answer (further ones set `truncated`). */
export const MAX_IGNORED_PATHS = 1_000;
/** Longest path echoed back in `ignored_paths` (a longer one is cut, with an ellipsis). */
const MAX_ECHOED_PATH_CHARS = 1_024;

function boundPath(given: string): string {
  return given.length <= MAX_ECHOED_PATH_CHARS ? given : `${given.slice(0, MAX_ECHOED_PATH_CHARS)}…`;
}

/** How a node or a source changed: `modified`, `added` (not in the publication) or `removed` (not in the sources now). */
export type ChangeKind = 'modified' | 'added' | 'removed';

/** One changed node. `published` says whether the node is in the published graph (traversal starts only from those). */
export interface ChangedNode {
  id: string;
  kind: string;
  title: string;
  source_path: string;
  start_line: number;
  end_line: number;
  change: ChangeKind;
  published: boolean;
}

/** One changed source file: its change and how many of its nodes changed. */
export interface ChangedSource {
  path: string;
  change: ChangeKind;
  changed_nodes: number;
}

/** The publication a change is measured against. */
export interface ChangeBase {
  generation: number;
  source_hash: string;
  published_at: string;
}

/** The changes, against the publication read through `reader` (the caller closes it). */
export interface CurrentChanges {
  base: ChangeBase;
  sources: ChangedSource[];
  nodes: ChangedNode[];
  /** Diff files whose paths are not project sources (neither published nor walked now), as given. */
  ignored_paths: string[];
  /**
   * Diff files that have no lines to map (unified-diff.ts `unmapped`): a binary file, or a mode
   * change alone; as given, bounded like `ignored_paths`. Always [] when reading the sources now.
   */
  unmapped_paths: { path: string; reason: 'binary' | 'mode_only' }[];
  /** Whether a bound ({@link MAX_CHANGED_SOURCES}, {@link MAX_SOURCE_NODES}) left changes out. */
  truncated: boolean;
  reader: IndexReader;
}

/** The last publication of a project, opened read-only, with its descriptor. */
export interface OpenedPublication {
  root: string;
  descriptor: Descriptor;
  publication: Publication;
  reader: IndexReader;
}

/**
 * Opens the last publication of the project at `root` read-only, without synchronizing.
 * @throws DocforgeError `index_unavailable` when nothing was published yet (run `docforge sync`);
 *   `project_root_invalid`, `descriptor_invalid` as loading the project throws them;
 *   `invalid_arguments` for a project-owned adapter (its parse runs only in a build)
 */
export function openLastPublication(root: string): OpenedPublication {
  const real = resolveProjectRoot(root);
  const descriptor = loadDescriptor(real);
  if (descriptor.adapter.module !== null) throw errors.invalidArguments('docforge affected supports the built-in code adapters only; this project binds a project-owned adapter');
  const layout = stateLayout(path.join(real, descriptor.state.dir), real);
  const publication = readPublicationOnce(layout).publication;
  if (publication === null) throw errors.indexUnavailable('nothing is published yet: run docforge sync once, then change the sources', { reason: 'no_publication' });
  return { root: real, descriptor, publication, reader: new IndexReader(path.join(layout.indexDir, publication.index_file)) };
}

/**
 * Kinds whose review hash (their declaration's whole text, whitespace collapsed) joins their change
 * fingerprint: the code lines keep only lines with searchable words, so a change made of keywords,
 * operators and numbers alone (`void 0`, `a > 0` to `a > 1`) would go unseen. Containers (modules,
 * classes) keep the code-line fingerprint: their review hash covers every member, so a method's edit
 * would mark its class and module changed too and widen the answer to all of their docs.
 */
const DECLARATION_HASHED_KINDS: ReadonlySet<string> = new Set(['function', 'method']);

/**
 * The change fingerprint of a node: kind, title, summary, body, and its code lines (`<line>\t<text>`
 * per kept line) without the line numbers and with whitespace runs collapsed; for a function or
 * method also its review hash ({@link DECLARATION_HASHED_KINDS}).
 */
export function changeFingerprint(node: Pick<GraphNode, 'kind' | 'title' | 'summary' | 'body'>, codeLines: string, reviewHash: string | null = null): string {
  const code = codeLines === '' ? '' : codeLines.split('\n').map((line) => line.slice(line.indexOf('\t') + 1).replace(/\s+/g, ' ').trim()).join('\n');
  const declaration = DECLARATION_HASHED_KINDS.has(node.kind) ? reviewHash : null;
  return sha256(JSON.stringify([node.kind, node.title, node.summary, node.body, code, ...(declaration === null ? [] : [declaration])]));
}

/** Nodes, code lines and review hashes (functions and methods) of one side of a source. */
interface SideNodes {
  nodes: GraphNode[];
  code: Map<string, string>;
  review: Map<string, string>;
}

function publishedSide(reader: IndexReader, sourcePath: string): SideNodes & { full: boolean } {
  const rows = reader.nodesOfSource(sourcePath, MAX_SOURCE_NODES + 1, MAX_CODE_CHARS);
  const kept = rows.slice(0, MAX_SOURCE_NODES);
  const review = new Map<string, string>();
  for (const { node } of kept) {
    const hash = DECLARATION_HASHED_KINDS.has(node.kind) ? reader.reviewHash(node.id) : null;
    if (hash !== null) review.set(node.id, hash);
  }
  return { nodes: kept.map((r) => r.node), code: new Map(kept.map((r) => [r.node.id, r.code_lines])), review, full: rows.length <= MAX_SOURCE_NODES };
}

function currentSide(nodes: readonly GraphNode[], codeText: readonly NodeCodeText[] | undefined, reviewHashes: readonly NodeReviewHash[] | undefined): SideNodes {
  return { nodes: [...nodes], code: new Map((codeText ?? []).map((c) => [c.node_id, c.lines])), review: new Map((reviewHashes ?? []).map((r) => [r.node_id, r.hash])) };
}

function changedNode(node: GraphNode, change: ChangeKind, published: boolean): ChangedNode {
  return { id: node.id, kind: node.kind, title: node.title, source_path: node.source_path, start_line: node.start_line, end_line: node.end_line, change, published };
}

/** Parses the current text of `entries` as a build would (built-in adapters loaded in this thread on first use). */
async function parseNow(root: string, entries: SourceEntry[]): Promise<Map<string, SideNodes>> {
  // This thread parses like a build worker: the worker entry's loaders (libs/sync worker.ts).
  setAdapterLoader(loadBuiltinAdapter, loadBuiltinLinker);
  const parsed = await parseBatch({ root, entries, knownHashes: {}, logicAllowed: false });
  const out = new Map<string, SideNodes>();
  for (const item of parsed) if (!item.reuse) out.set(item.entry.path, currentSide(item.source.nodes, item.source.code_text, item.source.review_hashes));
  return out;
}

function baseOf(publication: Publication): ChangeBase {
  return { generation: publication.generation, source_hash: publication.source_hash, published_at: publication.published_at };
}

/**
 * The changes of the sources now against the last publication: files whose stat differs from
 * their `sources` row are hashed; a different content hash (or a new or missing file) is parsed
 * and its nodes compared by id and {@link changeFingerprint}.
 */
export async function changesNow(opened: OpenedPublication): Promise<CurrentChanges> {
  const { root, descriptor, reader, publication } = opened;
  const walk = walkSources(descriptor, codeExtensionsOf(descriptor.adapter.code));
  const stats = reader.sourceStats();
  const candidates: SourceEntry[] = [];
  for (const entry of walk.entries) {
    if (stats.get(entry.path) === `${entry.size}:${entry.mtime_ns}:${entry.ctime_ns}:${entry.ino}`) continue;
    let hash: string | null;
    try {
      hash = sha256(readFileSync(path.join(root, entry.path)));
    } catch {
      hash = null;
    }
    if (hash === null || hash !== reader.sourceHash(entry.path)) candidates.push(entry);
  }
  const walked = new Set(walk.entries.map((e) => e.path));
  const removedPaths = [...stats.keys()].filter((p) => !walked.has(p)).sort();
  const truncated = candidates.length + removedPaths.length > MAX_CHANGED_SOURCES;
  const parsedEntries = candidates.slice(0, MAX_CHANGED_SOURCES);
  const now = await parseNow(root, parsedEntries);
  const result: CurrentChanges = { base: baseOf(publication), sources: [], nodes: [], ignored_paths: [], unmapped_paths: [], truncated, reader };
  for (const entry of parsedEntries) compareSource(result, entry.path, stats.has(entry.path) ? 'modified' : 'added', now.get(entry.path) ?? { nodes: [], code: new Map(), review: new Map() });
  for (const removed of removedPaths.slice(0, Math.max(0, MAX_CHANGED_SOURCES - parsedEntries.length))) compareSource(result, removed, 'removed', { nodes: [], code: new Map(), review: new Map() });
  return result;
}

/** Compares the published and current nodes of one source and records its changed nodes. */
function compareSource(result: CurrentChanges, sourcePath: string, change: ChangeKind, current: SideNodes): void {
  const old = publishedSide(result.reader, sourcePath);
  if (!old.full) result.truncated = true;
  const oldById = new Map(old.nodes.map((n) => [n.id, n]));
  const newIds = new Set(current.nodes.map((n) => n.id));
  let count = 0;
  for (const node of current.nodes) {
    const before = oldById.get(node.id);
    if (before === undefined) {
      result.nodes.push(changedNode(node, 'added', false));
      count += 1;
    } else if (changeFingerprint(before, old.code.get(node.id) ?? '', old.review.get(node.id) ?? null) !== changeFingerprint(node, current.code.get(node.id) ?? '', current.review.get(node.id) ?? null)) {
      result.nodes.push(changedNode(node, 'modified', true));
      count += 1;
    }
  }
  for (const node of old.nodes) {
    if (newIds.has(node.id)) continue;
    result.nodes.push(changedNode(node, 'removed', true));
    count += 1;
  }
  result.sources.push({ path: sourcePath, change, changed_nodes: count });
}

/** The innermost node (shortest extent, then latest start, then id) of `nodes` holding `line`, or null. */
export function innermostNode<T extends Pick<GraphNode, 'id' | 'start_line' | 'end_line'>>(nodes: readonly T[], line: number): T | null {
  let best: T | null = null;
  for (const node of nodes) {
    if (node.start_line > line || node.end_line < line) continue;
    if (best === null) best = node;
    else {
      const span = node.end_line - node.start_line;
      const bestSpan = best.end_line - best.start_line;
      if (span < bestSpan || (span === bestSpan && (node.start_line > best.start_line || (node.start_line === best.start_line && node.id < best.id)))) best = node;
    }
  }
  return best;
}

/**
 * The changes a unified diff describes: each removed line maps to the innermost published node of
 * the file's old path that holds it, each added line to the innermost node of the current parse
 * of its new path. A node found on both sides is `modified`, only in the publication `removed`,
 * only now `added`. Diff paths are taken relative to `cwd` (git prints them from the repository
 * root) and then to the project root; a path that is no source either way is listed in `ignored_paths`.
 */
export async function changesFromDiff(opened: OpenedPublication, files: readonly DiffFile[], cwd: string): Promise<CurrentChanges> {
  const { root, descriptor, reader, publication } = opened;
  const walk = walkSources(descriptor, codeExtensionsOf(descriptor.adapter.code));
  const entries = new Map(walk.entries.map((e) => [e.path, e]));
  const stats = reader.sourceStats();
  const projectPath = (given: string | null): string | null => {
    if (given === null) return null;
    const relative = path.relative(root, path.resolve(cwd, given)).split(path.sep).join('/');
    for (const candidate of [relative, given]) if (entries.has(candidate) || stats.has(candidate)) return candidate;
    return null;
  };
  const result: CurrentChanges = { base: baseOf(publication), sources: [], nodes: [], ignored_paths: [], unmapped_paths: [], truncated: false, reader };
  // A binary file or a mode change alone has no lines to map: reported, never read as "no change".
  for (const file of files) {
    if (file.unmapped === undefined) continue;
    if (result.unmapped_paths.length < MAX_IGNORED_PATHS) result.unmapped_paths.push({ path: boundPath(file.new_path ?? file.old_path ?? ''), reason: file.unmapped });
    else result.truncated = true;
  }
  const mapped = files.filter((file) => file.unmapped === undefined).map((file) => ({ file, oldPath: projectPath(file.old_path), newPath: projectPath(file.new_path) }));
  const toParse = [...new Set(mapped.map((m) => m.newPath).filter((p): p is string => p !== null && entries.has(p)))];
  if (toParse.length > MAX_CHANGED_SOURCES) result.truncated = true;
  const now = await parseNow(root, toParse.slice(0, MAX_CHANGED_SOURCES).map((p) => entries.get(p)!));
  const seen = new Set<string>();
  for (const { file, oldPath, newPath } of mapped) {
    if (oldPath === null && newPath === null) {
      // Listed as written, but bounded: a diff can name any number of paths of any length.
      if (result.ignored_paths.length < MAX_IGNORED_PATHS) result.ignored_paths.push(boundPath(file.new_path ?? file.old_path ?? ''));
      else result.truncated = true;
      continue;
    }
    const old = oldPath === null ? { nodes: [], code: new Map<string, string>(), full: true } : publishedSide(reader, oldPath);
    if (!old.full) result.truncated = true;
    const current = newPath === null ? null : now.get(newPath) ?? null;
    // A renamed (or copied) file changes every node's id: all of the old side is removed, all of the new added.
    const renamed = oldPath !== null && newPath !== null && oldPath !== newPath;
    const oldHits = new Map((renamed ? old.nodes : file.removed.map((line) => innermostNode(old.nodes, line))).filter((n): n is GraphNode => n !== null).map((n) => [n.id, n]));
    const newHits = new Map(current === null ? [] : (renamed ? current.nodes : file.added.map((line) => innermostNode(current.nodes, line))).filter((n): n is GraphNode => n !== null).map((n) => [n.id, n]));
    const currentIds = new Set(current?.nodes.map((n) => n.id) ?? []);
    const publishedIds = new Set(old.nodes.map((n) => n.id));
    let count = 0;
    for (const [id, node] of [...newHits, ...oldHits]) {
      if (seen.has(id)) continue;
      seen.add(id);
      const inPublication = publishedIds.has(id) || reader.hasNode(id);
      const change: ChangeKind = !inPublication ? 'added' : currentIds.has(id) || newHits.has(id) ? 'modified' : 'removed';
      result.nodes.push(changedNode(node, change, inPublication));
      count += 1;
    }
    const sourceChange: ChangeKind = oldPath === null || !stats.has(oldPath) ? 'added' : newPath === null ? 'removed' : 'modified';
    result.sources.push({ path: newPath ?? oldPath!, change: sourceChange, changed_nodes: count });
  }
  return result;
}
