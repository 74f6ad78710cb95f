/**
 * Reading, hashing and parsing of single sources: content sources through @docforge/project, code
 * sources through their adapter. Used inline by the build session and by parse-worker.ts.
 */
import { lstatSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { codeReviewHashes, documentReviewHash, ownValue, setOwn, sha256 } from '@docforge/core';
import { readConfined } from '@docforge/fs-safe';
import { decodeSourceText, invalidEncodingIssue, minifiedEvidence, minifiedReason, type GraphNode, type MinifiedEvidence } from '@docforge/core';
import { loadDescriptor, parseContentSource, type Descriptor, type SourceEntry } from '@docforge/project';
import { adapterFor, adaptersFor, adaptersSettled, ensureAdapters } from '@docforge/identity';
import type { CachedSource } from './build-types.js';
import type { CodeExtractInput } from '@docforge/core';

/** A batch of sources to read, hash and parse (possibly in a parse worker). */
export interface ParseBatchTask {
  root: string;
  entries: SourceEntry[];
  /** Content hashes already known for some paths: an unchanged hash is reused, not parsed. */
  knownHashes: Record<string, string>;
  logicAllowed: boolean;
}

/** Outcome for one source of a batch: reuse the cached parse, or a fresh one. */
export type ParsedBatchItem = { reuse: true; entry: SourceEntry } | { reuse: false; entry: SourceEntry; source: CachedSource };

/**
 * A parse thread's answer for one batch (parse-worker.ts): the JSON text of its `ParsedBatchItem[]`.
 * One flat string costs the build worker one `JSON.parse`, whose objects of one key order share a
 * hidden class, instead of a structured clone whose objects are copied again (`reshaped`); a parse
 * is plain JSON data (the parse cache persists it as JSON).
 */
export type ParsedBatchJson = string;

/**
 * Reads, hashes and parses a batch of sources (used inline and by parse-worker.ts); loads a code
 * adapter (adapter-registry.ts `ensureAdapters`) when the first of its files is parsed.
 * @param descriptor the root's descriptor when the caller already loaded it for this build; loaded here otherwise
 */
export async function parseBatch(task: ParseBatchTask, descriptor: Descriptor = loadDescriptor(task.root)): Promise<ParsedBatchItem[]> {
  // Code files without a known hash are parsed for certain: their adapters load first (loaded
  // after the batch's other parses instead, the compiler raised a cold build's peak RSS by 8 MB).
  await ensureAdapters(adaptersFor(descriptor, task.entries.filter((entry) => ownValue(task.knownHashes, entry.path) === undefined)));
  const items: ParsedBatchItem[] = [];
  for (const entry of task.entries) {
    let bytes: Buffer;
    try {
      bytes = readFileSync(path.join(task.root, entry.path));
    } catch (error) {
      items.push({ reuse: false, entry, source: unreadableSource(entry, error) });
      continue;
    }
    const contentHash = sha256(bytes);
    if (ownValue(task.knownHashes, entry.path) === contentHash) {
      items.push({ reuse: true, entry });
      continue;
    }
    // Any other code file's adapter loads when the file needs its parser (a reused hash never does).
    let failure: unknown;
    if (entry.role === 'code') {
      const ids = adaptersFor(descriptor, [entry]);
      if (!adaptersSettled(ids)) await ensureAdapters(ids);
      failure = await prepareParser(descriptor, entry.path);
    }
    items.push({ reuse: false, entry, source: parseSource(descriptor, entry, bytes, contentHash, task.logicAllowed, failure) });
  }
  return items;
}

/** The descriptor's adapter option tables as `CodeExtractInput.options` has them, or undefined when none is declared. */
function extractOptions(descriptor: Descriptor): CodeExtractInput['options'] {
  return descriptor.adapter.c?.headers === 'c' ? { c: { headers: 'c' } } : undefined;
}

/**
 * Loads what the adapter of the code file at `filePath` needs to extract it on this thread (`CodeAdapter.prepare`: a
 * tree-sitter grammar on first need); resolves to the load's error when it failed (a later call retries), else undefined.
 */
export async function prepareParser(descriptor: Descriptor, filePath: string): Promise<unknown> {
  const options = extractOptions(descriptor);
  const pending = adapterFor(descriptor, filePath)?.prepare?.({ path: filePath, strategy: descriptor.adapter.strategy, ...(options === undefined ? {} : { options }) }) ?? null;
  return pending === null ? undefined : pending.then(() => undefined, (error: unknown) => error);
}

/** The cached form of a source that could not be read: no nodes, one `unreadable_source` issue. */
export function unreadableSource(entry: SourceEntry, error: unknown): CachedSource {
  return {
    entry, content_hash: '', nodes: [], edges: [], links: [], logic_steps: [], logic_flows: [], link_data: null, code_text: [], adapter: null, stripped: false,
    issues: [{ severity: 'error', code: 'unreadable_source', message: `${entry.path}: cannot be read (${error instanceof Error ? error.message : String(error)})`, path: entry.path, line: null, node_id: null }],
  };
}

/**
 * Decodes and parses one source's bytes; never throws. Bytes that are not UTF-8 text (see
 * @docforge/project `decodeSourceText`) give no nodes and one `invalid_encoding` error issue, for
 * content and code alike (the file keeps its adapter, so links and imports to it add no finding of
 * their own); an adapter failure, or `prepareFailure` (what {@link prepareParser} gave, when
 * defined), becomes an `adapter_extraction_failed` issue.
 */
export function parseSource(descriptor: Descriptor, entry: SourceEntry, bytes: Uint8Array, contentHash: string, logicAllowed: boolean, prepareFailure?: unknown): CachedSource {
  const decoded = decodeSourceText(bytes, entry.path);
  if (!decoded.ok) {
    const adapterId = entry.role === 'code' ? adapterFor(descriptor, entry.path)?.id ?? null : null;
    return {
      entry, content_hash: contentHash, nodes: [], edges: [], links: [], logic_steps: [], logic_flows: [], link_data: null, code_text: [], adapter: adapterId, stripped: false,
      issues: [invalidEncodingIssue(entry.path, decoded)],
    };
  }
  const text = decoded.text;
  if (entry.role === 'content') {
    const parsed = parseContentSource({ path: entry.path, text, descriptor });
    // Review hashes (issue 32 item 1) are kept with the source, also after its bodies are dropped.
    const review_hashes = parsed.nodes.map((node) => ({ node_id: node.id, hash: documentReviewHash(node) }));
    return { entry, content_hash: contentHash, ...parsed, review_hashes, logic_steps: [], logic_flows: [], link_data: null, code_text: [], adapter: null, stripped: false };
  }
  const adapter = adapterFor(descriptor, entry.path);
  if (!adapter) {
    return { entry, content_hash: contentHash, nodes: [], edges: [], links: [], issues: [], logic_steps: [], logic_flows: [], link_data: null, code_text: [], adapter: null, stripped: false };
  }
  try {
    if (prepareFailure !== undefined) throw prepareFailure;
    const options = extractOptions(descriptor);
    const minified = minifiedEvidence(text);
    const extracted = adapter.extract({ path: entry.path, content: text, strategy: descriptor.adapter.strategy, logic: logicAllowed && descriptor.adapter.strategy === 'ast' && minified === null, ...(options === undefined ? {} : { options }) });
    if (minified !== null) return minifiedSource(entry, text, contentHash, extracted.nodes, adapter.id, minified);
    // A code node's review hash is over its declaration's lines, whitespace normalised (issue 32 item 1).
    const review_hashes = extracted.review_hashes ?? codeReviewHashes(text, extracted.nodes);
    return { entry, content_hash: contentHash, ...extracted, code_text: extracted.code_text ?? [], review_hashes, links: [], adapter: adapter.id, stripped: false };
  } catch (error) {
    return {
      entry, content_hash: contentHash, nodes: [], edges: [], links: [], logic_steps: [], logic_flows: [], link_data: null, code_text: [], adapter: adapter.id, stripped: false,
      issues: [{ severity: 'error', code: 'adapter_extraction_failed', message: `${entry.path}: ${adapter.id} adapter failed (${error instanceof Error ? error.message : String(error)})`, path: entry.path, line: null, node_id: null }],
    };
  }
}

/**
 * A minified code file (core `minifiedEvidence`; new-user trial on marked: `lib/marked.esm.js` gave
 * `#$`, `#G`, `#ne.walkTokens`): its module node only, so a link or import to the file still
 * resolves, and one `minified_source` warning with the evidence; no declarations, no edges.
 */
function minifiedSource(entry: SourceEntry, text: string, contentHash: string, nodes: readonly GraphNode[], adapterId: string, evidence: MinifiedEvidence): CachedSource {
  const kept = nodes.filter((node) => node.kind === 'module' && !node.id.includes('#'));
  return {
    entry, content_hash: contentHash, nodes: kept, edges: [], links: [], logic_steps: [], logic_flows: [], link_data: null, code_text: [], adapter: adapterId, stripped: false,
    review_hashes: codeReviewHashes(text, kept),
    issues: [{
      severity: 'warning', code: 'minified_source', path: entry.path, line: null, node_id: kept[0]?.id ?? null,
      message: `${entry.path}: minified code (${minifiedReason(evidence)}); only its module is indexed, not its minified names; exclude it under [sources].exclude, or index the sources it was built from`,
    }],
  };
}

/** Re-reads and parses a source whose bodies were dropped after the last write (a full write needs them); `prepareFailure` as for {@link parseSource}. */
export function reparseSource(root: string, descriptor: Descriptor, source: CachedSource, logicAllowed: boolean, prepareFailure?: unknown): CachedSource {
  try {
    const bytes = readFileSync(path.join(root, source.entry.path));
    return parseSource(descriptor, source.entry, bytes, sha256(bytes), logicAllowed, prepareFailure);
  } catch (error) {
    return unreadableSource(source.entry, error);
  }
}

/** Largest project file a linker may read, in bytes. */
const PROJECT_TEXT_MAX_BYTES = 1_000_000;

/**
 * Why {@link readProjectText} answers null for a regular file of the project: it is larger than
 * 1 MB (`ModuleResolver.unreadable`); null otherwise (absent, or another reason it is not text).
 */
export function projectTextProblem(root: string, rel: string): string | null {
  try {
    const st = lstatSync(path.join(root, rel));
    return st.isFile() && st.size > PROJECT_TEXT_MAX_BYTES ? `larger than ${PROJECT_TEXT_MAX_BYTES} bytes, the most a project text may hold` : null;
  } catch (error) {
    // Absent or not statable: that is no file a linker could report.
    if (error instanceof Error) return null;
    throw error;
  }
}

/**
 * Text of a project file for an adapter's linker (e.g. package.json): null when absent, not a
 * regular file (a symlink included), over 1 MB, or resolving outside the root (`..`, absolute, or
 * through a linked directory; @docforge/fs-safe `readConfined`), or not UTF-8 text.
 */
export function readProjectText(root: string, rel: string): string | null {
  try {
    const st = lstatSync(path.join(root, rel));
    if (!st.isFile() || st.size > PROJECT_TEXT_MAX_BYTES) return null;
    const decoded = decodeSourceText(readConfined(root, rel, { maxBytes: PROJECT_TEXT_MAX_BYTES }), rel);
    return decoded.ok ? decoded.text : null;
  } catch {
    return null;
  }
}

/** A copy of a plain object built key by key in its own key order: copies of same-keyed objects share one hidden class. */
export function sameShape<T extends object>(value: T): T {
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) setOwn(copy, key, (value as Record<string, unknown>)[key]);
  return copy as T;
}

/**
 * A freshly parsed source with its entry, nodes, edges and links rebuilt in this thread. Structured
 * clone (task messages; parse threads answered so before issue 35) gives each message's objects
 * their own hidden classes (50+ for 10k nodes), and code adapters build nodes of varying key order,
 * so every later pass over the graph ran megamorphic, several times slower, for the worker's
 * lifetime; rebuilt objects share one hidden class per kind. Used for code parses.
 */
export function reshaped(source: CachedSource): CachedSource {
  return sameShape({ ...source, entry: sameShape(source.entry), nodes: source.nodes.map(sameShape), edges: source.edges.map(sameShape), links: source.links.map(sameShape) });
}

/**
 * A content source parsed on this thread, kept as it was built (issue 35): its nodes, edges and
 * links were made by one object literal per kind, so they already share hidden classes and are not
 * copied again as {@link reshaped} copies a clone; only its entry (from the task message) is rebuilt.
 */
export function keptInline(source: CachedSource): CachedSource {
  source.entry = sameShape(source.entry);
  return source;
}
