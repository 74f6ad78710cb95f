/**
 * The in-memory projection workspace (issue 10, item 3): the canonical content files of the
 * current project, an overlay of `{path -> new text | deleted}`, and a graph resolved from both
 * through the same loader that reads canonical files (`parseContentSource` + `resolveGraph`), so
 * edges derived from bodies, links and mentions are re-derived. Nothing is written.
 *
 * Every text is read as the index build reads its bytes (`decodeSourceText`): a canonical file,
 * or an overlaid text as the UTF-8 bytes it would be written as, that is not UTF-8 text (a NUL
 * byte, ...) gives no node and one `invalid_encoding` issue, exactly as in `docforge_validate_project`.
 * A lenient read here once let the projection and the post-application verify both keep a node
 * the index then dropped.
 */
import { closeSync, constants, fstatSync, openSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { appendAll, canonicalJson, decodeSourceText, invalidEncodingIssue, sha256, withContentHash, type GraphNode, type SourceIssue } from '@docforge/core';
import {
  parseContentSource, resolveGraph, walkSources, type ContentParse, type Descriptor, type ResolvedGraph, type ResolveSource,
} from '@docforge/project';
import type { ProposalPolicy } from './policy.js';

/**
 * What the projection needs from the synchronized project (the caller builds it from the index
 * reader; libs/changesets holds no SQL).
 */
export interface ProjectView {
  /** Absolute real project root. */
  root: string;
  descriptor: Descriptor;
  /** `source_hash` of the synchronized publication: the base of new changesets. */
  sourceHash: string;
  /** File extensions (with the dot) of the bound code adapters. */
  codeExtensions: readonly string[];
  /** The synchronized node with that id, or null. */
  node(id: string): GraphNode | null;
  /** Incoming edges of a node in the synchronized graph, at most `limit`. */
  inbound(id: string, limit: number): { source_id: string; relation: string; target_id: string; source_path: string; line: number }[];
  /** The stored review hash of a node (issue 32; `link_review`), or null; absent: not known. */
  reviewHash?(id: string): string | null;
  /** Whether the synchronized graph holds the exact edge; absent: not checked. */
  hasEdge?(source: string, relation: string, target: string): boolean;
  /** Operations a project adapter's proposal validator allows, or null when it does not narrow them. */
  adapterOperations: readonly string[] | null;
  /** The confined proposal policy a project integration supplied at startup (absent or null: none). */
  integrationPolicy?: ProposalPolicy | null;
}

interface BaseFile {
  key: string;
  /** The file's text (for a file that is not UTF-8: its lossy decoding, used only for hashes). */
  text: string;
  parse: ContentParse;
  /** The bytes are not UTF-8 text: the loader reads no node from them, and DocForge never rewrites them. */
  undecodable: boolean;
}

/**
 * Parses one content source from its bytes as the index build does (libs/builder `parseSource`):
 * bytes that are not UTF-8 text give no node and one `invalid_encoding` error issue.
 */
function parseBytes(p: string, bytes: Uint8Array, descriptor: Descriptor): { text: string; parse: ContentParse; undecodable: boolean } {
  const decoded = decodeSourceText(bytes, p);
  if (!decoded.ok) {
    return { text: Buffer.from(bytes).toString('utf8'), parse: { nodes: [], edges: [], links: [], issues: [invalidEncodingIssue(p, decoded)], reviews: [] }, undecodable: true };
  }
  return { text: decoded.text, parse: parseContentSource({ path: p, text: decoded.text, descriptor }), undecodable: false };
}

/**
 * The bytes of a walked file (null when it is gone), and whether they may be cached under the
 * walked identity: only when the file read is the one the walk saw (same inode). A file replaced
 * meanwhile, or read through a folder swapped for a link (issue 30, item 16), or a symlinked node
 * file (the walk saw the link), is read but never cached, so no later projection reuses it.
 */
function readEntry(abs: string, ino: string): { bytes: Buffer; cacheable: boolean } | null {
  let fd: number;
  try {
    fd = openSync(abs, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    if (['ENOENT', 'ENOTDIR', 'ELOOP', 'EACCES'].includes((error as NodeJS.ErrnoException).code ?? '')) return null;
    throw error;
  }
  try {
    const st = fstatSync(fd, { bigint: true });
    if (!st.isFile()) return null;
    return { bytes: readFileSync(fd), cacheable: st.ino.toString() === ino };
  } finally {
    closeSync(fd);
  }
}

/** Per process: parsed canonical files by root, reused while size, mtime and inode are unchanged. */
const baseCache = new Map<string, Map<string, BaseFile>>();

function descriptorKey(descriptor: Descriptor): string {
  return sha256(canonicalJson({ root: descriptor.root, sources: descriptor.sources, vocabulary: descriptor.vocabulary, state: descriptor.state }));
}

/** A located node in the workspace's current (overlaid) state. */
export interface Located {
  node: GraphNode;
  path: string;
}

/** The canonical content files plus an overlay; resolves the projected graph. */
export class Workspace {
  readonly view: ProjectView;
  /** Canonical content files, by project-relative path. */
  private readonly base: Map<string, BaseFile>;
  /** Paths of code files (for link resolution). */
  readonly codePaths: ReadonlySet<string>;
  /** Overlay: new text, or null for a deleted file. */
  private readonly overlay = new Map<string, string | null>();
  private readonly overlayParses = new Map<string, ContentParse>();
  /** Node id -> path in the current state (first path in order wins, as resolution does). */
  private locator: Map<string, string> | null = null;

  /** Reads and parses every canonical content file (cached across calls per root). */
  constructor(view: ProjectView) {
    this.view = view;
    const walk = walkSources(view.descriptor, view.codeExtensions);
    const cacheKey = descriptorKey(view.descriptor);
    let cache = baseCache.get(cacheKey);
    if (cache === undefined) baseCache.set(cacheKey, (cache = new Map()));
    this.base = new Map();
    const code = new Set<string>();
    for (const entry of walk.entries) {
      if (entry.role === 'code') {
        code.add(entry.path);
        continue;
      }
      const key = `${entry.size}:${entry.mtime_ns}:${entry.ctime_ns}:${entry.ino}`;
      let file = cache.get(entry.path);
      if (file === undefined || file.key !== key) {
        const read = readEntry(path.join(view.root, entry.path), entry.ino);
        if (read === null) continue;
        file = { key, ...parseBytes(entry.path, read.bytes, view.descriptor) };
        if (read.cacheable) cache.set(entry.path, file);
        else cache.delete(entry.path);
      }
      this.base.set(entry.path, file);
    }
    this.codePaths = code;
  }

  /** The current text of a content path (overlay first), or null when absent. */
  text(p: string): string | null {
    if (this.overlay.has(p)) return this.overlay.get(p)!;
    return this.base.get(p)?.text ?? null;
  }

  /** Whether the canonical file at `p` (ignoring the overlay) is not UTF-8 text. */
  undecodable(p: string): boolean {
    return !this.overlay.has(p) && this.base.get(p)?.undecodable === true;
  }

  /** The canonical text of a path (ignoring the overlay), or null. */
  baseText(p: string): string | null {
    return this.base.get(p)?.text ?? null;
  }

  /** SHA-256 of the canonical file at `p`, or null when absent. */
  baseHash(p: string): string | null {
    const text = this.baseText(p);
    return text === null ? null : sha256(text);
  }

  /** Sets the overlaid text of a path (null deletes the file in the projection). */
  setText(p: string, text: string | null): void {
    this.overlay.set(p, text);
    this.overlayParses.delete(p);
    this.locator = null;
  }

  /** Paths changed by the overlay, sorted. */
  changedPaths(): string[] {
    return [...this.overlay.keys()].filter((p) => this.overlay.get(p) !== (this.base.get(p)?.text ?? null)).sort();
  }

  /** The parse of a path in the current state, or null when absent. */
  parse(p: string): ContentParse | null {
    if (!this.overlay.has(p)) return this.base.get(p)?.parse ?? null;
    const text = this.overlay.get(p)!;
    if (text === null) return null;
    let parsed = this.overlayParses.get(p);
    if (parsed === undefined) {
      // Read back as the bytes that would be written: a NUL is refused, a lone surrogate becomes U+FFFD.
      parsed = parseBytes(p, Buffer.from(text, 'utf8'), this.view.descriptor).parse;
      this.overlayParses.set(p, parsed);
    }
    return parsed;
  }

  /** Every content path of the current state, sorted. */
  paths(): string[] {
    const all = new Set([...this.base.keys(), ...this.overlay.keys()]);
    return [...all].filter((p) => this.text(p) !== null).sort();
  }

  /**
   * `p` (project-relative) with each leading part that names an existing path of the current state
   * (a content or code file, or a folder holding one) in another Unicode normal form replaced by
   * that real name: paths compare in NFC (issue 30 item 3), so a created or moved file lands on the
   * file or folder the project already has (`path_exists` when it is that file), never beside it
   * under a second name. `p` itself when every part is new or already the real name.
   */
  realPath(p: string): string {
    if (!/[^\u0000-\u007f]/.test(p)) return p;
    const real = new Map<string, string>();
    for (const known of [...this.paths(), ...this.codePaths]) {
      const parts = known.split('/');
      for (let n = 1; n <= parts.length; n += 1) {
        const prefix = parts.slice(0, n).join('/');
        const normal = prefix.normalize('NFC');
        if (!real.has(normal)) real.set(normal, prefix);
      }
    }
    const parts = p.split('/');
    let out = p;
    for (let n = parts.length; n >= 1; n -= 1) {
      const prefix = parts.slice(0, n).join('/');
      const found = real.get(prefix.normalize('NFC'));
      if (found !== undefined) {
        out = n === parts.length ? found : `${found}/${parts.slice(n).join('/')}`;
        break;
      }
    }
    return out;
  }

  /** The node with `id` in the current state, or null. */
  locate(wanted: string): Located | null {
    // Ids compare in NFC (issue 30 item 3): the loader reads every id in NFC.
    const id = wanted.normalize('NFC');
    if (this.locator === null) {
      this.locator = new Map();
      for (const p of this.paths()) for (const node of this.parse(p)?.nodes ?? []) if (!this.locator.has(node.id)) this.locator.set(node.id, p);
    }
    const p = this.locator.get(id);
    if (p === undefined) return null;
    const node = this.parse(p)?.nodes.find((n) => n.id === id);
    return node ? { node, path: p } : null;
  }

  /**
   * Resolves the graph of the current state with the canonical resolver. Code nodes come from the
   * synchronized index: a stub per referenced `code:` id that exists there, so declared relations
   * and links to code resolve exactly as in the canonical build.
   * @returns the graph and every issue (per-source and resolution), sorted as the resolver sorts
   */
  resolve(): ResolvedGraph & { allIssues: SourceIssue[] } {
    const sources: ResolveSource[] = [];
    const issues: SourceIssue[] = [];
    const codeIds = new Set<string>();
    for (const p of this.paths()) {
      const parsed = this.parse(p)!;
      sources.push({ path: p, nodes: parsed.nodes, edges: parsed.edges, links: parsed.links });
      appendAll(issues, parsed.issues);
      for (const edge of parsed.edges) if (edge.target_id.startsWith('code:')) codeIds.add(edge.target_id);
      for (const link of parsed.links) if (this.codePaths.has(link.target_path)) codeIds.add(`code:${link.target_path}`);
    }
    const stubs: GraphNode[] = [];
    for (const id of [...codeIds].sort()) {
      const node = this.view.node(id);
      if (node !== null) stubs.push(withContentHash({ ...node, body: '', anchors: [] }));
    }
    // Code stubs sort before every content path, as `code:` sources never collide with content ids.
    if (stubs.length > 0) sources.unshift({ path: '\u0000code', nodes: stubs, edges: [], links: [] });
    const graph = resolveGraph({ descriptor: this.view.descriptor, sources, codePaths: this.codePaths });
    return { ...graph, allIssues: [...issues, ...graph.issues] };
  }
}
