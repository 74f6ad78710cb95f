import { closeSync, constants as fsConstants, copyFileSync, fsyncSync, lstatSync, mkdirSync, openSync, readFileSync, realpathSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { availableParallelism } from 'node:os';
import Database from 'better-sqlite3';
import { Piscina } from 'piscina';
import {
  DocforgeError,
  sha256,
  toDocforgeError,
  type CodeAdapter,
  type GraphEdge,
  type GraphNode,
  type LogicFlow,
  type LogicStep,
  type SourceIssue,
  type WireError,
} from '@docforge/core';
import { loadDescriptor, parseContentSource, resolveGraph, sourceHash, walkAdapterInputs, type Descriptor, type LinkRef, type SourceEntry } from '@docforge/project';
import { INDEX_DDL, INDEX_POST_DDL, INDEX_SCHEMA_VERSION } from './schema.js';
import { warmFromPublication } from './warm.js';
import {
  collectOldGenerations,
  fsyncDirectory,
  publicationFileIntact,
  readPublication,
  stateLayout,
  withPublicationLock,
  writeFileAtomic,
  type Publication,
  type StateLayout,
} from './publication.js';
import { commitReceipt, planReceipt } from './receipt.js';
import {
  adapterFailure, extendGraph, identityWithInputs, issuesHash, loadProjectAdapter, mergeCapabilityMaps, projectAdapterVersionSuffix,
  type ProjectAdapterOutput, type ProjectAdapterReport, type ProjectAdapterTask,
} from './project-adapter.js';

/** Version of the document loader, part of `adapter_version` (docs@2: anchors carry `end_line`, slugs from github-slugger). */
export const DOCUMENT_LOADER_VERSION = 'docs@2';

/** One build request, sent from the main thread to the build worker. */
export interface BuildTask {
  root: string;
  stateDir: string;
  entries: SourceEntry[];
  walkIssues: SourceIssue[];
  sourceIdentity: string;
  /** Whether Logic may be extracted (policy: not --no-ast and strategy `ast`). */
  logicAllowed: boolean;
  /** Lowest generation number to publish (the caller's last seen generation + 1). */
  minGeneration: number;
  /** Stat identities besides the sources that entered `sourceIdentity` (descriptor, adapter fingerprint). */
  identityExtra?: import('@docforge/project').StatIdentity[];
  /** False when the caller could not trust the cheap identity (project-owned adapter without declared inputs). */
  identityKnown?: boolean;
  /** Project-owned adapter bound at process start, or null/absent. */
  projectAdapter?: ProjectAdapterTask | null;
  /** Ignore caches and the previous index file (it was found damaged): parse and write everything. */
  forceFull?: boolean;
  /** Optional port receiving `{ stage, done, total }` progress messages. */
  progressPort?: import('node:worker_threads').MessagePort;
}

/** Counters and timings (milliseconds) of one build. */
export interface BuildStats {
  mode: 'full' | 'delta';
  files: number;
  parsed: number;
  reused: number;
  nodes: number;
  edges: number;
  issues: number;
  logic_steps: number;
  parse_ms: number;
  link_ms: number;
  resolve_ms: number;
  write_ms: number;
  publish_ms: number;
  total_ms: number;
}

/**
 * Result of a build task: the new publication, or a structured error (errors do not survive thread
 * boundaries as classes). `unchanged` means nothing was published because the previous publication
 * was verified to hold exactly the graph the sources give; `adapter` reports the project-owned adapter.
 */
export type BuildOutcome =
  | { ok: true; publication: Publication; stats: BuildStats; adapter?: ProjectAdapterReport | null; unchanged?: boolean }
  | { ok: false; error: WireError; adapter?: ProjectAdapterReport | null };

/** What one source contributed, kept in the worker between builds for incremental re-parse. */
export interface CachedSource {
  entry: SourceEntry;
  content_hash: string;
  nodes: GraphNode[];
  edges: GraphEdge[];
  links: LinkRef[];
  issues: SourceIssue[];
  logic_steps: LogicStep[];
  logic_flows: LogicFlow[];
  link_data: unknown;
  adapter: string | null;
  /** Whether `nodes[].body` was dropped after writing, to bound worker memory. */
  stripped: boolean;
  /** Logic steps of the source when `logic_steps` was not loaded (a warm start); the rows stay in the index. */
  logic_count?: number;
}

/** Resolved graph of the last build written by this worker, for delta writes. */
export interface WrittenState {
  root: string;
  indexFile: string;
  indexIno: string;
  indexSize: number;
  logicAllowed: boolean;
  descriptorHash: string;
  nodes: Map<string, string>;
  edges: Map<string, string>;
  /** Source rows as written: path → `size:mtime_ns:ino:content_hash`. */
  sources: Map<string, string>;
  /** Hash of the issue list as written (verification of unchanged builds). */
  issuesHash?: string;
}

/** The `sources.parse` column: one source's parse before graph resolution (bodies live in `nodes`). */
export interface PersistedParse {
  v: 1;
  node_ids: string[];
  lost_nodes: GraphNode[];
  edges: GraphEdge[];
  links: LinkRef[];
  issues: SourceIssue[];
  link_data: unknown;
  adapter: string | null;
  /** Logic steps the source had (the rows themselves live in logic_steps). */
  logic_steps: number;
}

/** Identity of a written source row: `size:mtime_ns:ino:content_hash`. */
export function sourceKey(source: CachedSource): string {
  return `${source.entry.size}:${source.entry.mtime_ns}:${source.entry.ino}:${source.content_hash}`;
}

const sourceCache = new Map<string, CachedSource>();
let written: WrittenState | null = null;

/** Code adapters available to builds, loaded on first use (keeps this module adapter-agnostic). */
const codeAdapters = new Map<string, CodeAdapter>();
const unavailableAdapters = new Set<string>();
let adapterLoader: (id: string) => Promise<CodeAdapter | null> = () => Promise.resolve(null);

/** Sets how built-in code adapters are loaded by id (the worker entry imports them lazily). */
export function setAdapterLoader(loader: (id: string) => Promise<CodeAdapter | null>): void {
  adapterLoader = loader;
}

/** Registers a code adapter under its id (tests, or adapters loaded up front). */
export function registerCodeAdapter(adapter: CodeAdapter): void {
  codeAdapters.set(adapter.id, adapter);
}

async function ensureAdapters(ids: readonly string[]): Promise<void> {
  for (const id of ids) {
    if (codeAdapters.has(id) || unavailableAdapters.has(id)) continue;
    const adapter = await adapterLoader(id).catch(() => null);
    if (adapter) codeAdapters.set(id, adapter);
    else unavailableAdapters.add(id);
  }
}

/** Drops all worker-side caches (tests; or after a failed delta). */
export function resetBuildCaches(): void {
  sourceCache.clear();
  written = null;
}

function adapterFor(descriptor: Descriptor, filePath: string): CodeAdapter | null {
  const ext = path.extname(filePath).toLowerCase();
  for (const id of descriptor.adapter.code) {
    const adapter = codeAdapters.get(id);
    if (adapter && adapter.extensions.includes(ext)) return adapter;
  }
  return null;
}

/** The composite adapter version reported in every response, e.g. `docs@1+typescript@1.0.0`. */
export function adapterVersionOf(descriptor: Descriptor): string {
  const parts = [DOCUMENT_LOADER_VERSION];
  for (const id of descriptor.adapter.code) {
    const adapter = codeAdapters.get(id);
    parts.push(`${id}@${adapter ? adapter.version : 'unavailable'}`);
  }
  parts.push(`strategy=${descriptor.adapter.strategy}`);
  return parts.join('+');
}

function sameMap(a: ReadonlyMap<string, string>, b: ReadonlyMap<string, string>): boolean {
  if (a.size !== b.size) return false;
  for (const [key, value] of a) if (b.get(key) !== value) return false;
  return true;
}

function edgeKey(edge: GraphEdge): string {
  return `${edge.source_id}\u0000${edge.relation}\u0000${edge.target_id}`;
}

/**
 * Parses changed sources, resolves the graph, writes a complete new SQLite file (a copy of the
 * previous one plus a delta when this worker wrote it, else from scratch) and publishes it
 * atomically under the publication lock (DESIGN.md section 4). Runs inside the piscina worker.
 */
export async function runBuild(task: BuildTask): Promise<BuildOutcome> {
  const started = performance.now();
  const layout = stateLayout(task.stateDir);
  let adapterReport: ProjectAdapterReport | null = null;
  try {
    const descriptor = loadDescriptor(task.root);
    await ensureAdapters(descriptor.adapter.code);
    // Project-owned adapter: checked against the process-start fingerprint, imported once (project-adapter.ts).
    const projectAdapter = task.projectAdapter ? await loadProjectAdapter(task.root, task.projectAdapter) : null;
    adapterReport = projectAdapter?.report ?? null;
    if (projectAdapter !== null && Array.isArray(projectAdapter.report.inputs)) {
      // Declared inputs join the cheap identity, computed exactly as the main thread does.
      task.sourceIdentity = identityWithInputs(task.entries, task.identityExtra ?? [], walkAdapterInputs(task.root, projectAdapter.report.inputs, descriptor.state.dir).files);
    }
    const descriptorHash = sha256(readFileSync(descriptor.path));
    // Cached parses depend on the descriptor (strategy, vocabulary, roots) and the Logic policy.
    if (task.forceFull === true || (written !== null && (written.descriptorHash !== descriptorHash || written.logicAllowed !== task.logicAllowed))) {
      sourceCache.clear();
      written = null;
    }
    assertStateConfined(task.root, layout);
    const stats: BuildStats = {
      mode: 'full', files: task.entries.length, parsed: 0, reused: 0, nodes: 0, edges: 0, issues: 0, logic_steps: 0,
      parse_ms: 0, link_ms: 0, resolve_ms: 0, write_ms: 0, publish_ms: 0, total_ms: 0,
    };
    const progress = (stage: string, done: number, total: number): void => {
      task.progressPort?.postMessage({ stage, done, total });
    };
    if (projectAdapter !== null && task.identityKnown === false && Array.isArray(projectAdapter.report.inputs)) {
      // The caller learns the declared inputs only now: a publication with the same identity is still current.
      const prior = readPublication(layout);
      if (prior && prior.source_identity === task.sourceIdentity && prior.logic_allowed === task.logicAllowed && !(prior.logic_present && !task.logicAllowed)
        && prior.adapter_version === adapterVersionOf(descriptor) + projectAdapterVersionSuffix(task.projectAdapter, adapterReport) && publicationFileIntact(layout, prior)) {
        stats.total_ms = performance.now() - started;
        return { ok: true, publication: prior, stats, adapter: adapterReport, unchanged: true };
      }
    }

    // 0. A fresh worker starts from the previous publication's persisted parses, so the first
    // build of a new process is incremental too.
    if (sourceCache.size === 0 && written === null && task.forceFull !== true) {
      const warm = warmFromPublication(layout, { root: task.root, logicAllowed: task.logicAllowed, descriptorHash });
      if (warm) {
        for (const [p, source] of warm.sources) sourceCache.set(p, source);
        written = warm.written;
      }
    }

    // 1. Parse what changed (in parallel when there is much of it); reuse the rest.
    let t = performance.now();
    const current = new Map<string, CachedSource>();
    const pending: SourceEntry[] = [];
    for (const entry of task.entries) {
      const cached = sourceCache.get(entry.path);
      if (cached && cached.entry.size === entry.size && cached.entry.mtime_ns === entry.mtime_ns && cached.entry.ino === entry.ino) {
        current.set(entry.path, cached);
        stats.reused += 1;
      } else {
        pending.push(entry);
      }
    }
    const knownHashes: Record<string, string> = {};
    for (const entry of pending) {
      const cached = sourceCache.get(entry.path);
      if (cached) knownHashes[entry.path] = cached.content_hash;
    }
    const parsedItems = pending.length >= PARALLEL_PARSE_MIN_FILES
      ? await parseInParallel({ root: task.root, entries: pending, knownHashes, logicAllowed: task.logicAllowed }, (n) => progress('parse', stats.reused + n, task.entries.length))
      : await parseBatch({ root: task.root, entries: pending, knownHashes, logicAllowed: task.logicAllowed });
    for (const item of parsedItems) {
      if (item.reuse) {
        const cached = sourceCache.get(item.entry.path)!;
        cached.entry = item.entry;
        current.set(item.entry.path, cached);
        stats.reused += 1;
      } else {
        current.set(item.entry.path, item.source);
        stats.parsed += 1;
      }
    }
    // Keep the walk's order: resolution picks duplicate winners by path order.
    if (pending.length > 0) {
      const ordered = new Map<string, CachedSource>();
      for (const entry of task.entries) ordered.set(entry.path, current.get(entry.path)!);
      current.clear();
      for (const [p, source] of ordered) current.set(p, source);
    }
    stats.parse_ms = performance.now() - t;
    progress('parse', task.entries.length, task.entries.length);

    // 2. Link code across files, per adapter.
    t = performance.now();
    const linkEdges: GraphEdge[] = [];
    const linkIssues: SourceIssue[] = [];
    const linkCapabilities = new Map<string, string[]>();
    const codePaths = new Set<string>();
    const byAdapter = new Map<string, CachedSource[]>();
    for (const source of current.values()) {
      if (source.adapter === null) continue;
      codePaths.add(source.entry.path);
      const list = byAdapter.get(source.adapter) ?? [];
      list.push(source);
      byAdapter.set(source.adapter, list);
    }
    const resolver = {
      hasFile: (p: string): boolean => codePaths.has(p),
      readText: (p: string): string | null => readProjectText(task.root, p),
    };
    for (const [id, sources] of byAdapter) {
      const adapter = codeAdapters.get(id);
      if (!adapter) continue;
      const result = adapter.link(sources.map((s) => ({ path: s.entry.path, nodes: s.nodes, link_data: s.link_data })), resolver);
      linkEdges.push(...result.edges);
      linkIssues.push(...result.issues);
      mergeCapabilityMaps(linkCapabilities, result.capabilities);
    }
    stats.link_ms = performance.now() - t;

    // 3. Resolve ids, links and relations into one graph.
    t = performance.now();
    const resolveSources = [...current.values()].map((s) => ({ path: s.entry.path, nodes: s.nodes, edges: s.edges, links: s.links }));
    // The pseudo-source of linked code edges sorts first, so resolveGraph sees sources in path order and need not sort.
    resolveSources.unshift({ path: '\u0000link', nodes: [], edges: linkEdges, links: [] });
    const graph = resolveGraph({ descriptor, sources: resolveSources, codePaths });
    const issues: SourceIssue[] = [...task.walkIssues];
    for (const source of current.values()) issues.push(...source.issues);
    issues.push(...linkIssues, ...graph.issues);
    // Link capabilities (package.json entrypoints) and the project-owned adapter's nodes and edges.
    let adapterOutput: ProjectAdapterOutput | null = null;
    if (projectAdapter !== null) {
      try {
        if (projectAdapter.run === null) throw new DocforgeError('adapter_failed', projectAdapter.report.error?.message);
        adapterOutput = await projectAdapter.run({ root: task.root, descriptor, nodes: graph.nodes });
        issues.push(...adapterOutput.issues);
      } catch (error) {
        const failure = adapterFailure(error);
        // With a last publication, fail the build so it keeps being served (stale, with this error).
        if (failure.code === 'adapter_restart_required' || readPublication(layout) !== null) throw failure;
        issues.push({ severity: 'error', code: 'adapter_failed', message: failure.message, path: descriptor.adapter.module, line: null, node_id: null });
      }
    }
    Object.assign(graph, extendGraph(graph, linkCapabilities, adapterOutput));
    let logicSteps = 0;
    for (const source of current.values()) logicSteps += source.logic_count ?? source.logic_steps.length;
    if (!task.logicAllowed && logicSteps > 0) {
      throw new DocforgeError('policy_violation', 'A nonempty Logic projection was produced while the effective policy forbids Logic; nothing was published.', { logic_steps: logicSteps });
    }
    stats.resolve_ms = performance.now() - t;

    // 4. Write a complete new index file.
    t = performance.now();
    mkdirSync(layout.indexDir, { recursive: true });
    const tmpFile = path.join(layout.indexDir, `.build-${process.pid}-${Date.now().toString(36)}.sqlite`);
    const previous = readPublication(layout);
    const canDelta = written !== null && previous !== null && written.root === task.root && written.indexFile === previous.index_file
      && written.logicAllowed === task.logicAllowed && written.descriptorHash === descriptorHash && publicationFileIntact(layout, previous)
      && previous.index_ino === written.indexIno && previous.index_size === written.indexSize;
    const nodeMap = new Map<string, string>();
    for (const node of graph.nodes) nodeMap.set(node.id, node.content_hash);
    const edgeMap = new Map<string, string>();
    for (const edge of graph.edges) edgeMap.set(edgeKey(edge), `${edge.source_path}\u0000${edge.line}`);
    const meta: Record<string, string> = {
      schema_version: String(INDEX_SCHEMA_VERSION),
      project_id: descriptor.project.id,
      root: task.root,
      source_identity: task.sourceIdentity,
      source_hash: sourceHash([...current.values()].map((s) => ({ path: s.entry.path, content_hash: s.content_hash }))),
      adapter_version: adapterVersionOf(descriptor) + projectAdapterVersionSuffix(task.projectAdapter, adapterReport),
      logic_allowed: task.logicAllowed ? '1' : '0',
      logic_present: logicSteps > 0 ? '1' : '0',
      descriptor_hash: descriptorHash,
      // Sorted relation names present in the graph, so readers never scan the edge table for them.
      relations: JSON.stringify([...new Set(graph.edges.map((e) => e.relation))].sort()),
    };
    if (task.identityKnown === false && canDelta && previous!.adapter_version === meta.adapter_version && written!.issuesHash === issuesHash(issues)
      && sameMap(written!.nodes, nodeMap) && sameMap(written!.edges, edgeMap) && sameMap(written!.sources, new Map([...current].map(([p, source]) => [p, sourceKey(source)])))) {
      // No cheap identity: the graph was re-derived and equals the last publication, which stays current.
      stats.total_ms = performance.now() - started;
      return { ok: true, publication: previous!, stats, adapter: adapterReport, unchanged: true };
    }
    let needFull = !canDelta;
    if (canDelta) {
      copyFileSync(path.join(layout.indexDir, previous!.index_file), tmpFile, fsConstants.COPYFILE_FICLONE);
      const db = new Database(tmpFile);
      try {
        needFull = !writeDelta(db, written!, graph.nodes, graph.edges, nodeMap, edgeMap, current, issues, meta);
      } finally {
        db.close();
      }
      if (needFull) rmSync(tmpFile, { force: true });
      else stats.mode = 'delta';
    }
    if (needFull) {
      // Sources whose bodies were dropped after the last write are parsed again for a full write.
      for (const [p, source] of current) {
        if (!source.stripped) continue;
        try {
          const bytes = readFileSync(path.join(task.root, p));
          current.set(p, parseSource(descriptor, source.entry, bytes.toString('utf8'), sha256(bytes), task.logicAllowed));
        } catch (error) {
          current.set(p, unreadableSource(source.entry, error));
        }
      }
      const rehydrated = resolveGraph({
        descriptor,
        sources: [{ path: '\u0000link', nodes: [], edges: linkEdges, links: [] }, ...[...current.values()].map((s) => ({ path: s.entry.path, nodes: s.nodes, edges: s.edges, links: s.links }))],
        codePaths,
      });
      Object.assign(graph, extendGraph(rehydrated, linkCapabilities, adapterOutput));
      const db = new Database(tmpFile);
      try {
        writeFull(db, graph.nodes, graph.edges, current, [...current.values()].filter((s) => s.logic_steps.length > 0), issues, meta, progress);
      } finally {
        db.close();
      }
    }
    const fd = openSync(tmpFile, 'r+');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    stats.write_ms = performance.now() - t;

    progress('publish', current.size, current.size);
    // Generation diff against the previous publication (contract: docforge_get_generation_diff).
    const receiptPlan = planReceipt({
      layout, previous, written: written !== null && written.root === task.root ? written : null, nodes: graph.nodes, nodeMap, edgeMap,
      projectId: descriptor.project.id, root: task.root, adapterVersion: meta.adapter_version!, sourceIdentity: task.sourceIdentity,
    });

    // 5. Publish atomically under the lock.
    t = performance.now();
    const counts = { sources: current.size, nodes: graph.nodes.length, edges: graph.edges.length, issues: issues.length, logic_steps: logicSteps };
    const publication = await withPublicationLock(layout, () => {
      const before = readPublication(layout);
      const generation = Math.max(task.minGeneration, (before?.generation ?? 0) + 1);
      const indexFile = `gen-${String(generation).padStart(8, '0')}-${Math.random().toString(36).slice(2, 10)}.sqlite`;
      const target = path.join(layout.indexDir, indexFile);
      assertStateConfined(task.root, layout);
      renameSync(tmpFile, target);
      fsyncDirectory(layout.indexDir);
      const st = lstatSync(target, { bigint: true });
      // The receipt is written before current.json is replaced, so current.json can record its identity.
      const receipt = commitReceipt(receiptPlan, before, { generation, index_file: indexFile, index_ino: String(st.ino), index_size: Number(st.size) });
      const next: Publication = {
        schema_version: 1,
        generation,
        source_identity: task.sourceIdentity,
        source_hash: meta.source_hash!,
        index_file: indexFile,
        index_ino: String(st.ino),
        index_size: Number(st.size),
        index_schema_version: INDEX_SCHEMA_VERSION,
        adapter_version: meta.adapter_version!,
        logic_present: logicSteps > 0,
        logic_allowed: task.logicAllowed,
        project_id: descriptor.project.id,
        counts,
        published_at: new Date().toISOString(),
        ...receipt,
      };
      try {
        clearNonFile(layout.currentFile);
        writeFileAtomic(layout.currentFile, `${JSON.stringify(next, null, 2)}\n`);
      } catch (error) {
        // Not published: the new file must not linger beside the last good publication.
        rmSync(target, { force: true });
        throw error;
      }
      const keep = new Set([indexFile]);
      if (before) keep.add(before.index_file);
      collectOldGenerations(layout, keep);
      return next;
    });
    stats.publish_ms = performance.now() - t;

    // 6. Remember what was written; drop bodies to bound worker memory.
    sourceCache.clear();
    for (const [p, source] of current) {
      if (!source.stripped) {
        for (const node of source.nodes) node.body = '';
        source.stripped = true;
      }
      sourceCache.set(p, source);
    }
    written = {
      root: task.root, indexFile: publication.index_file, indexIno: publication.index_ino, indexSize: publication.index_size,
      logicAllowed: task.logicAllowed, descriptorHash, nodes: nodeMap, edges: edgeMap,
      sources: new Map([...current].map(([p, source]) => [p, sourceKey(source)])),
      issuesHash: issuesHash(issues),
    };
    Object.assign(stats, { nodes: counts.nodes, edges: counts.edges, issues: counts.issues, logic_steps: logicSteps });
    stats.total_ms = performance.now() - started;
    return { ok: true, publication, stats, adapter: adapterReport };
  } catch (error) {
    written = null;
    return { ok: false, error: stateError(error, layout).toWire(), adapter: adapterReport };
  }
}

const STATE_ERRNOS = new Set(['ENOTDIR', 'EISDIR', 'EACCES', 'EPERM', 'EROFS', 'ENOSPC', 'EEXIST', 'ENOENT', 'EMFILE', 'EDQUOT']);

/** File-system failures in the state directory become `index_unavailable` naming the errno; nothing was published. */
function stateError(error: unknown, layout: StateLayout): DocforgeError {
  if (error instanceof DocforgeError) return error;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (typeof code === 'string' && STATE_ERRNOS.has(code)) {
    return new DocforgeError('index_unavailable', `The index could not be written in the state directory ${layout.stateDir} (${code}: ${(error as Error).message}); the last publication is unchanged.`, { errno: code }, { cause: error });
  }
  return toDocforgeError(error);
}

/**
 * Refuses to write when the state or index directory is a symbolic link or resolves anywhere but
 * `<root>/<state.dir>/index`: DocForge deletes old generations there, so it must be its own.
 * @throws DocforgeError `path_outside_root`
 */
function assertStateConfined(root: string, layout: StateLayout): void {
  for (const dir of [layout.stateDir, layout.indexDir]) {
    let st;
    try {
      st = lstatSync(dir);
    } catch {
      continue; // created below, as a real directory
    }
    if (st.isSymbolicLink() || !st.isDirectory()) {
      throw new DocforgeError('path_outside_root', `${dir} must be a real directory inside the project root (it is ${st.isSymbolicLink() ? 'a symbolic link' : 'not a directory'}); nothing was written.`, { path: path.relative(root, dir) });
    }
  }
  try {
    const real = realpathSync(layout.indexDir);
    if (real !== path.join(realpathSync(root), path.relative(root, layout.indexDir))) {
      throw new DocforgeError('path_outside_root', `${layout.indexDir} resolves to ${real}, outside its place in the project root; nothing was written.`, { path: path.relative(root, layout.indexDir) });
    }
  } catch (error) {
    if (error instanceof DocforgeError) throw error;
  }
}

/** Removes a directory (or other non-file) standing where `current.json` must be written; it is disposable state. */
function clearNonFile(file: string): void {
  try {
    const st = lstatSync(file);
    if (st.isDirectory()) rmSync(file, { recursive: true, force: true });
  } catch {
    // absent: fine
  }
}

/** Below this many changed files a build parses inline; above it, on every core. */
export const PARALLEL_PARSE_MIN_FILES = 256;
const PARSE_BATCH_FILES = 64;

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

/** Reads, hashes and parses a batch of sources (used inline and by parse-worker.ts). */
export async function parseBatch(task: ParseBatchTask): Promise<ParsedBatchItem[]> {
  const descriptor = loadDescriptor(task.root);
  await ensureAdapters(descriptor.adapter.code);
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
    if (task.knownHashes[entry.path] === contentHash) items.push({ reuse: true, entry });
    else items.push({ reuse: false, entry, source: parseSource(descriptor, entry, bytes.toString('utf8'), contentHash, task.logicAllowed) });
  }
  return items;
}

let parsePool: Piscina | null = null;

/**
 * Parses batches on every core: `parallelism - 1` parse threads and this build worker itself take
 * batches from one queue, so only one extra copy of a compiler is loaded on a 2-core machine.
 */
async function parseInParallel(task: ParseBatchTask, onBatch: (done: number) => void): Promise<ParsedBatchItem[]> {
  parsePool ??= createParsePool();
  const pool = parsePool;
  const batches: SourceEntry[][] = [];
  for (let i = 0; i < task.entries.length; i += PARSE_BATCH_FILES) batches.push(task.entries.slice(i, i + PARSE_BATCH_FILES));
  const results: ParsedBatchItem[][] = new Array<ParsedBatchItem[]>(batches.length);
  let next = 0;
  let done = 0;
  const batchTask = (entries: SourceEntry[]): ParseBatchTask => {
    const knownHashes: Record<string, string> = {};
    for (const entry of entries) if (task.knownHashes[entry.path] !== undefined) knownHashes[entry.path] = task.knownHashes[entry.path]!;
    return { ...task, entries, knownHashes };
  };
  const finish = (index: number, items: ParsedBatchItem[]): void => {
    results[index] = items;
    done += batches[index]!.length;
    onBatch(done);
  };
  const remote = async (): Promise<void> => {
    while (next < batches.length) {
      const index = next++;
      finish(index, (await pool.run(batchTask(batches[index]!))) as ParsedBatchItem[]);
    }
  };
  const remotes = Array.from({ length: Math.max(1, availableParallelism() - 1) }, () => remote());
  while (next < batches.length) {
    const index = next++;
    finish(index, await parseBatch(batchTask(batches[index]!)));
    // Let finished remote batches be collected between local ones.
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  await Promise.all(remotes);
  return results.flat();
}

function createParsePool(): Piscina {
  const pool = new Piscina({
    filename: new URL('./parse-worker.js', import.meta.url).href,
    minThreads: 0,
    maxThreads: Math.max(1, availableParallelism() - 1),
    // Threads exit when idle so a quiet server does not keep parser heaps alive.
    idleTimeout: 5_000,
  });
  // An unhandled pool 'error' event would kill the process (DESIGN.md section 8).
  pool.on('error', () => undefined);
  return pool;
}

function unreadableSource(entry: SourceEntry, error: unknown): CachedSource {
  return {
    entry, content_hash: '', nodes: [], edges: [], links: [], logic_steps: [], logic_flows: [], link_data: null, adapter: null, stripped: false,
    issues: [{ severity: 'error', code: 'unreadable_source', message: `${entry.path}: cannot be read (${error instanceof Error ? error.message : String(error)})`, path: entry.path, line: null, node_id: null }],
  };
}

function parseSource(descriptor: Descriptor, entry: SourceEntry, text: string, contentHash: string, logicAllowed: boolean): CachedSource {
  if (entry.role === 'content') {
    const parsed = parseContentSource({ path: entry.path, text, descriptor });
    return { entry, content_hash: contentHash, ...parsed, logic_steps: [], logic_flows: [], link_data: null, adapter: null, stripped: false };
  }
  const adapter = adapterFor(descriptor, entry.path);
  if (!adapter) {
    return { entry, content_hash: contentHash, nodes: [], edges: [], links: [], issues: [], logic_steps: [], logic_flows: [], link_data: null, adapter: null, stripped: false };
  }
  try {
    const extracted = adapter.extract({ path: entry.path, content: text, strategy: descriptor.adapter.strategy, logic: logicAllowed && descriptor.adapter.strategy === 'ast' });
    return { entry, content_hash: contentHash, ...extracted, links: [], adapter: adapter.id, stripped: false };
  } catch (error) {
    return {
      entry, content_hash: contentHash, nodes: [], edges: [], links: [], logic_steps: [], logic_flows: [], link_data: null, adapter: adapter.id, stripped: false,
      issues: [{ severity: 'error', code: 'adapter_extraction_failed', message: `${entry.path}: ${adapter.id} adapter failed (${error instanceof Error ? error.message : String(error)})`, path: entry.path, line: null, node_id: null }],
    };
  }
}

function readProjectText(root: string, rel: string): string | null {
  if (rel.startsWith('/') || rel.split('/').includes('..')) return null;
  try {
    const st = lstatSync(path.join(root, rel));
    if (!st.isFile() || st.size > 1_000_000) return null;
    return readFileSync(path.join(root, rel), 'utf8');
  } catch {
    return null;
  }
}

type Db = InstanceType<typeof Database>;

type Stmt = Database.Statement<unknown[], unknown>;

interface Statements {
  node: Database.Statement<[Record<string, unknown>], unknown>;
  fts: Stmt;
  tag: Stmt;
  capability: Stmt;
  edge: Stmt;
}

function prepareInserts(db: Db): Statements {
  return {
    node: db.prepare<[Record<string, unknown>]>(`INSERT INTO nodes (id, kind, title, family, authority, status, tags, summary, body, source_path, start_line, end_line, anchors, headings, language, capabilities, origin, content_hash)
      VALUES (@id, @kind, @title, @family, @authority, @status, @tags, @summary, @body, @source_path, @start_line, @end_line, @anchors, @headings, @language, @capabilities, @origin, @content_hash)`),
    fts: db.prepare('INSERT INTO node_fts (rowid, id, title, headings, summary, body, tags) SELECT rowid, id, title, headings, summary, body, tags FROM nodes WHERE rowid = ?'),
    tag: db.prepare('INSERT OR IGNORE INTO node_tags (tag, node_id) VALUES (?, ?)'),
    capability: db.prepare('INSERT OR IGNORE INTO node_capabilities (capability, node_id) VALUES (?, ?)'),
    edge: db.prepare('INSERT OR REPLACE INTO edges (source_id, relation, target_id, source_path, line) VALUES (?, ?, ?, ?, ?)'),
  };
}

/** Inserts a node row; its full-text row is added by the caller (per row in deltas, by 'rebuild' in full builds). */
function insertNode(st: Statements, node: GraphNode, withFts: boolean): void {
  const info = st.node.run({
    ...node,
    tags: JSON.stringify(node.tags),
    anchors: JSON.stringify(node.anchors),
    headings: node.anchors.map((a) => a.title).join('\n'),
    capabilities: JSON.stringify(node.capabilities),
  });
  if (withFts) st.fts.run(info.lastInsertRowid);
  for (const tag of node.tags) st.tag.run(tag, node.id);
  for (const capability of node.capabilities) st.capability.run(capability, node.id);
}

function writeMeta(db: Db, meta: Record<string, string>): void {
  const stmt = db.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)');
  for (const [key, value] of Object.entries(meta)) stmt.run(key, value);
}

function writeIssues(db: Db, issues: readonly SourceIssue[]): void {
  db.prepare('DELETE FROM issues').run();
  const stmt = db.prepare('INSERT INTO issues (severity, code, message, path, line, node_id) VALUES (?, ?, ?, ?, ?, ?)');
  for (const issue of issues) stmt.run(issue.severity, issue.code, issue.message, issue.path, issue.line, issue.node_id);
}

/**
 * Writes source rows with their pre-resolution parse (declared edges, links, issues, adapter link
 * data, and the node ids; nodes that lost a duplicate-id clash are kept whole because the nodes
 * table does not hold them), so a new process can build incrementally (see warm.ts). Call after
 * the nodes table is written.
 */
function writeSources(db: Db, sources: Iterable<CachedSource>): void {
  const stmt = db.prepare('INSERT OR REPLACE INTO sources (path, role, size, mtime_ns, ino, content_hash, node_count, parse) VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
  const winnerPath = db.prepare('SELECT source_path FROM nodes WHERE id = ?').pluck();
  for (const s of sources) {
    const lost = s.nodes.filter((n) => winnerPath.get(n.id) !== s.entry.path).map((n) => ({ ...n, body: '' }));
    const parse: PersistedParse = {
      v: 1, node_ids: s.nodes.map((n) => n.id), lost_nodes: lost, edges: s.edges, links: s.links, issues: s.issues,
      link_data: s.link_data, adapter: s.adapter, logic_steps: s.logic_count ?? s.logic_steps.length,
    };
    stmt.run(s.entry.path, s.entry.role, s.entry.size, s.entry.mtime_ns, s.entry.ino, s.content_hash, s.nodes.length, JSON.stringify(parse));
  }
}

function writeLogic(db: Db, sources: Iterable<CachedSource>): void {
  const step = db.prepare('INSERT OR REPLACE INTO logic_steps (owner_id, step, kind, label, start_line, end_line, source_path) VALUES (?, ?, ?, ?, ?, ?, ?)');
  const flow = db.prepare('INSERT OR REPLACE INTO logic_flows (owner_id, from_step, to_step, kind, label, source_path) VALUES (?, ?, ?, ?, ?, ?)');
  for (const s of sources) {
    for (const x of s.logic_steps) step.run(x.owner_id, x.step, x.kind, x.label, x.start_line, x.end_line, s.entry.path);
    for (const f of s.logic_flows) flow.run(f.owner_id, f.from_step, f.to_step, f.kind, f.label, s.entry.path);
  }
}

function writeFull(
  db: Db,
  nodes: readonly GraphNode[],
  edges: readonly GraphEdge[],
  current: Map<string, CachedSource>,
  logicSources: readonly CachedSource[],
  issues: readonly SourceIssue[],
  meta: Record<string, string>,
  progress: (stage: string, done: number, total: number) => void,
): void {
  db.pragma('journal_mode = OFF');
  db.pragma('synchronous = OFF');
  db.pragma('page_size = 8192');
  db.exec(INDEX_DDL);
  db.exec(INDEX_POST_DDL);
  const st = prepareInserts(db);
  db.transaction(() => {
    let n = 0;
    for (const node of nodes) {
      insertNode(st, node, false);
      n += 1;
      if (n % 2000 === 0) progress('write', n, nodes.length);
    }
    for (const e of edges) st.edge.run(e.source_id, e.relation, e.target_id, e.source_path, e.line);
    writeSources(db, current.values());
    writeLogic(db, logicSources);
    writeIssues(db, issues);
    writeMeta(db, meta);
    db.exec("INSERT INTO node_fts (node_fts) VALUES ('rebuild')");
  })();
  db.pragma('journal_mode = DELETE');
}

/**
 * Applies the difference between the previously written graph and the new one to a copy of the
 * previous index file. Returns false when a changed node's body is not available (the caller
 * then writes a full index).
 */
function writeDelta(
  db: Db,
  prev: WrittenState,
  nodes: readonly GraphNode[],
  edges: readonly GraphEdge[],
  nodeMap: Map<string, string>,
  edgeMap: Map<string, string>,
  current: Map<string, CachedSource>,
  issues: readonly SourceIssue[],
  meta: Record<string, string>,
): boolean {
  const changedNodes = nodes.filter((n) => prev.nodes.get(n.id) !== n.content_hash);
  for (const node of changedNodes) {
    if (current.get(node.source_path)?.stripped !== false) return false;
  }
  db.pragma('synchronous = OFF');
  const st = prepareInserts(db);
  const rowidOf = db.prepare('SELECT rowid FROM nodes WHERE id = ?').pluck();
  const delNode = db.prepare('DELETE FROM nodes WHERE id = ?');
  const delFts = db.prepare("INSERT INTO node_fts (node_fts, rowid, id, title, headings, summary, body, tags) SELECT 'delete', rowid, id, title, headings, summary, body, tags FROM nodes WHERE rowid = ?");
  const delCaps = db.prepare('DELETE FROM node_capabilities WHERE node_id = ?');
  const delEdge = db.prepare('DELETE FROM edges WHERE source_id = ? AND relation = ? AND target_id = ?');
  const delTagByNode = db.prepare('DELETE FROM node_tags WHERE tag IN (SELECT value FROM json_each(?)) AND node_id = ?');
  const tagsOf = db.prepare('SELECT tags FROM nodes WHERE id = ?').pluck();
  const removeNode = (id: string): void => {
    const rowid = rowidOf.get(id) as number | bigint | undefined;
    if (rowid === undefined) return;
    delTagByNode.run(tagsOf.get(id) as string, id);
    delCaps.run(id);
    delFts.run(rowid);
    delNode.run(id);
  };
  db.transaction(() => {
    for (const id of prev.nodes.keys()) if (!nodeMap.has(id)) removeNode(id);
    for (const node of changedNodes) {
      removeNode(node.id);
      insertNode(st, node, true);
    }
    for (const key of prev.edges.keys()) {
      if (!edgeMap.has(key)) {
        const [s, r, t] = key.split('\u0000');
        delEdge.run(s, r, t);
      }
    }
    for (const e of edges) {
      const key = edgeKey(e);
      if (prev.edges.get(key) !== edgeMap.get(key)) st.edge.run(e.source_id, e.relation, e.target_id, e.source_path, e.line);
    }
    const delSource = db.prepare('DELETE FROM sources WHERE path = ?');
    const delSteps = db.prepare('DELETE FROM logic_steps WHERE source_path = ?');
    const delFlows = db.prepare('DELETE FROM logic_flows WHERE source_path = ?');
    for (const p of prev.sources.keys()) {
      if (current.has(p)) continue;
      delSource.run(p);
      delSteps.run(p);
      delFlows.run(p);
    }
    writeSources(db, [...current.values()].filter((s) => prev.sources.get(s.entry.path) !== sourceKey(s)));
    // Freshly parsed code sources (not stripped) replace their Logic rows.
    const changedLogic = [...current.values()].filter((s) => !s.stripped && s.adapter !== null);
    for (const s of changedLogic) {
      delSteps.run(s.entry.path);
      delFlows.run(s.entry.path);
    }
    writeLogic(db, changedLogic);
    writeIssues(db, issues);
    writeMeta(db, meta);
  })();
  return true;
}
