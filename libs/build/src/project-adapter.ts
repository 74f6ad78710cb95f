/**
 * Graph extensions applied by the build worker after resolution (DESIGN.md sections 3 and 4):
 * capabilities the code adapters' link step could only decide across files (package.json
 * entrypoints), and the nodes and edges of a project-owned adapter (`[adapter] module`).
 *
 * A project-owned adapter module is imported here, inside the build worker, never on the MCP main
 * thread. Before it is imported (and again right after) its files must hash to the implementation
 * fingerprint the process took at start; otherwise the build fails with `adapter_restart_required`.
 * The module is imported at most once per process and never reloaded.
 *
 * Module contract (an ES module):
 * - `export const version: string` (required; enters `adapter_version`);
 * - `export const inputs: string[]` (optional project-relative globs it reads; without it the
 *   project has no cheap identity and status tools report `unknown`);
 * - `export function extract(context)` (required, may be async) where `context` is
 *   `{ files: [{ path, content }], nodes: [{ id, kind, title, source_path }] }` (deep-frozen: the
 *   files matching `inputs` and summaries of every resolved node) returning
 *   `{ nodes?: [{ id, kind, title?, ... }], edges?: [{ source_id, relation, target_id }] }`;
 * - `export const proposalOperations: string[]` (optional; narrows the proposal writer's
 *   operations; reported in capabilities).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  ALIASED_RELATIONS,
  DocforgeError, errors,
  hashJson,
  toDocforgeError,
  withContentHash,
  type GraphEdge,
  type GraphNode,
  type SourceIssue,
  type WireError,
} from '@docforge/core';
import {
  cheapIdentity, decodeSourceText, fingerprintProjectAdapter, invalidEncodingIssue, MISSING_FILE_HASH, validInputGlob, walkAdapterInputs, type Descriptor, type SourceEntry, type StatIdentity,
} from '@docforge/project';

/** The project-owned adapter binding a build task carries (taken on the main thread at process start). */
export interface ProjectAdapterTask {
  /** Project-relative POSIX path of the entry module. */
  module: string;
  /** The process-start implementation fingerprint the loaded files must still hash to. */
  fingerprint: string;
}

/** What the build worker learned about the project-owned adapter; reported back to the main thread. */
export interface ProjectAdapterReport {
  /** Whether the module was imported and exports a usable `version` and `extract`. */
  loaded: boolean;
  version: string | null;
  /** Declared input globs (valid ones only), or null when the module declares none: cheap identity is then unknown. */
  inputs: string[] | null;
  /** Declared proposal operations, or null when the module does not narrow them. */
  proposal_operations: string[] | null;
  /** Why loading failed, when it did. */
  error: WireError | null;
}

/** At most this many nodes and edges are taken from one adapter run (the rest is reported as truncated). */
export const MAX_ADAPTER_NODES = 50_000;
export const MAX_ADAPTER_EDGES = 200_000;
/** Input files larger than this are passed with empty content and reported. */
export const MAX_ADAPTER_INPUT_BYTES = 8 * 1024 * 1024;
const MAX_ADAPTER_TOTAL_BYTES = 64 * 1024 * 1024;
const MAX_ADAPTER_ISSUES = 100;

interface LoadedAdapter {
  fingerprint: string;
  report: ProjectAdapterReport;
  extract: ((context: unknown) => unknown) | null;
  rawInputs: unknown[] | null;
}

/** The one module this worker loaded (the process never reloads it). */
let loaded: LoadedAdapter | null = null;
/** Set when the files changed under an import: the cached module is not the fingerprinted one. */
let poisoned: string | null = null;

function restartRequired(details: Record<string, unknown>): DocforgeError {
  return errors.adapterRestartRequired('The project-owned adapter changed after process start; restart the MCP server to load it.', details);
}

function stringList(value: unknown): string[] | null {
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) return null;
  return [...new Set(value as string[])].sort();
}

/**
 * Imports the project-owned adapter once, after checking that its files still hash to the
 * process-start fingerprint. A module that cannot be imported or lacks `version`/`extract` is
 * reported (`loaded: false`, `error` `adapter_failed`) rather than thrown, so the build decides.
 * @throws DocforgeError `adapter_restart_required` when the files differ from the fingerprint, or
 *   when they changed while the module was being imported (the loaded code is then never used)
 */
export async function loadProjectAdapter(root: string, task: ProjectAdapterTask): Promise<{ report: ProjectAdapterReport; run: ProjectAdapterRunner | null }> {
  if (poisoned !== null) throw restartRequired({ reason: 'changed_during_import', path: poisoned });
  if (loaded !== null) {
    if (loaded.fingerprint !== task.fingerprint) throw restartRequired({ reason: 'fingerprint_mismatch', fingerprint: task.fingerprint });
    return { report: loaded.report, run: runnerOf(loaded) };
  }
  const before = fingerprintProjectAdapter(root, task.module);
  if (before.fingerprint !== task.fingerprint) throw restartRequired({ reason: 'fingerprint_mismatch', fingerprint: task.fingerprint });
  const missing = before.files.find((f) => f.path === before.module)?.sha256 === MISSING_FILE_HASH;
  let entry: LoadedAdapter;
  if (missing) {
    entry = failed(task.fingerprint, `The project-owned adapter module ${task.module} does not exist inside the project root.`);
  } else {
    let namespace: Record<string, unknown> | null = null;
    let loadError: string | null = null;
    try {
      namespace = (await import(pathToFileURL(path.join(root, task.module)).href)) as Record<string, unknown>;
    } catch (error) {
      loadError = error instanceof Error ? error.message : String(error);
    }
    const after = fingerprintProjectAdapter(root, task.module);
    if (after.fingerprint !== task.fingerprint) {
      poisoned = task.module;
      throw restartRequired({ reason: 'changed_during_import', path: task.module });
    }
    if (namespace === null) {
      entry = failed(task.fingerprint, `The project-owned adapter module ${task.module} cannot be imported (${loadError ?? 'unknown error'}).`);
    } else if (typeof namespace.version !== 'string' || namespace.version.trim() === '' || namespace.version.length > 128) {
      entry = failed(task.fingerprint, `The project-owned adapter module ${task.module} must export a nonempty string \`version\`.`);
    } else if (typeof namespace.extract !== 'function') {
      entry = failed(task.fingerprint, `The project-owned adapter module ${task.module} must export a function \`extract(context)\`.`);
    } else {
      const rawInputs = namespace.inputs === undefined ? null : Array.isArray(namespace.inputs) ? (namespace.inputs as unknown[]) : [];
      entry = {
        fingerprint: task.fingerprint,
        extract: namespace.extract as (context: unknown) => unknown,
        rawInputs,
        report: {
          loaded: true,
          version: namespace.version,
          inputs: rawInputs === null ? null : [...new Set(rawInputs.filter(validInputGlob))].sort(),
          proposal_operations: namespace.proposalOperations === undefined ? null : (stringList(namespace.proposalOperations) ?? []),
          error: null,
        },
      };
    }
  }
  loaded = entry;
  return { report: entry.report, run: runnerOf(entry) };
}

function failed(fingerprint: string, message: string): LoadedAdapter {
  return {
    fingerprint,
    extract: null,
    rawInputs: null,
    report: { loaded: false, version: null, inputs: null, proposal_operations: null, error: errors.adapterFailed(message).toWire() },
  };
}

/** Drops the loaded module reference (tests only; Node keeps its ES module cache regardless). */
export function resetProjectAdapterForTests(): void {
  loaded = null;
  poisoned = null;
}

/** Inputs of one adapter run. */
export interface ProjectAdapterRunInput {
  root: string;
  descriptor: Descriptor;
  /** The resolved graph's nodes (only `id`, `kind`, `title`, `source_path` are passed on). */
  nodes: readonly GraphNode[];
}

/** Validated output of one adapter run. */
export interface ProjectAdapterOutput {
  nodes: GraphNode[];
  edges: GraphEdge[];
  issues: SourceIssue[];
  /** Number of input files passed to `extract`. */
  input_files: number;
}

/** Runs `extract` once; rejects with the adapter's own exception (the build turns it into `adapter_failed`). */
export type ProjectAdapterRunner = (input: ProjectAdapterRunInput) => Promise<ProjectAdapterOutput>;

/** The cheap identity of the sources plus the adapter's declared input files (same on both threads). */
export function identityWithInputs(
  entries: readonly SourceEntry[],
  extra: readonly StatIdentity[],
  inputFiles: readonly StatIdentity[],
): string {
  return cheapIdentity(entries, [...extra, ...inputFiles.map((f) => ({ ...f, path: `\u0000input:${f.path}` }))]);
}

function runnerOf(entry: LoadedAdapter): ProjectAdapterRunner | null {
  const extract = entry.extract;
  if (extract === null) return null;
  const module = entry.report;
  return async (input) => {
    const issues: SourceIssue[] = [];
    const issue = (severity: SourceIssue['severity'], code: string, message: string, nodeId: string | null = null): void => {
      if (issues.length < MAX_ADAPTER_ISSUES) issues.push({ severity, code, message, path: null, line: null, node_id: nodeId });
    };
    const walk = walkAdapterInputs(input.root, entry.rawInputs ?? [], input.descriptor.state.dir);
    for (const glob of walk.invalid) issue('warning', 'adapter_invalid_input', `Adapter input glob ${JSON.stringify(glob).slice(0, 200)} is not a project-relative pattern; ignored.`);
    if (walk.truncated) issue('warning', 'adapter_inputs_truncated', 'The adapter input globs match too many files; only the first ones were read.');
    const files: { path: string; content: string }[] = [];
    let total = 0;
    for (const file of walk.files) {
      let content = '';
      if (file.size > MAX_ADAPTER_INPUT_BYTES || total + file.size > MAX_ADAPTER_TOTAL_BYTES) {
        issue('warning', 'adapter_input_too_large', `Adapter input ${file.path} (${file.size} bytes) exceeds the input size limit; passed with empty content.`);
      } else {
        try {
          // Never U+FFFD: an input that is not UTF-8 is passed with empty content and an invalid_encoding finding.
          const decoded = decodeSourceText(readFileSync(path.join(input.root, file.path)), file.path);
          if (decoded.ok) content = decoded.text;
          else if (issues.length < MAX_ADAPTER_ISSUES) issues.push(invalidEncodingIssue(file.path, decoded));
          total += file.size;
        } catch {
          issue('warning', 'adapter_input_unreadable', `Adapter input ${file.path} cannot be read.`);
        }
      }
      files.push(Object.freeze({ path: file.path, content }));
    }
    const summaries = input.nodes.map((n) => Object.freeze({ id: n.id, kind: n.kind, title: n.title, source_path: n.source_path }));
    const context = Object.freeze({ files: Object.freeze(files), nodes: Object.freeze(summaries) });
    const raw = await extract(context);
    const output = normalizeOutput(raw, input, module.version ?? '', issue);
    return { ...output, issues: [...issues, ...output.issues], input_files: files.length };
  };
}

function optionalString(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

function lineOf(value: unknown): number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 ? value : 1;
}

function sortedStrings(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return [...new Set(value.filter((v): v is string => typeof v === 'string' && v !== ''))].sort();
}

function normalizeOutput(
  raw: unknown,
  input: ProjectAdapterRunInput,
  _version: string,
  issue: (severity: SourceIssue['severity'], code: string, message: string, nodeId?: string | null) => void,
): Omit<ProjectAdapterOutput, 'input_files'> {
  const nodes: GraphNode[] = [];
  const edges: GraphEdge[] = [];
  const issues: SourceIssue[] = [];
  if (raw === undefined || raw === null) return { nodes, edges, issues };
  if (typeof raw !== 'object') {
    issue('error', 'adapter_invalid_output', '`extract` must return an object with optional `nodes` and `edges` arrays.');
    return { nodes, edges, issues };
  }
  const out = raw as { nodes?: unknown; edges?: unknown };
  const modulePath = input.descriptor.adapter.module ?? '';
  const existing = new Set(input.nodes.map((n) => n.id));
  const added = new Set<string>();
  const vocabulary = input.descriptor.vocabulary;
  const rawNodes = Array.isArray(out.nodes) ? out.nodes : [];
  if (out.nodes !== undefined && !Array.isArray(out.nodes)) issue('error', 'adapter_invalid_output', '`nodes` must be an array.');
  if (rawNodes.length > MAX_ADAPTER_NODES) issue('warning', 'adapter_output_truncated', `The adapter returned ${rawNodes.length} nodes; only the first ${MAX_ADAPTER_NODES} are used.`);
  for (const value of rawNodes.slice(0, MAX_ADAPTER_NODES)) {
    const n = (value ?? {}) as Record<string, unknown>;
    const id = n.id;
    const kind = n.kind;
    if (typeof id !== 'string' || id.trim() === '' || id.length > 1024 || typeof kind !== 'string' || kind.trim() === '' || kind.length > 128) {
      issue('error', 'adapter_invalid_node', 'An adapter node needs a nonempty string `id` (at most 1024 characters) and `kind`; it was dropped.', typeof id === 'string' ? id.slice(0, 1024) : null);
      continue;
    }
    if (existing.has(id) || added.has(id)) {
      issue('error', 'duplicate_id', `The project-owned adapter returned id "${id}", which already exists; the adapter node is ignored.`, id);
      continue;
    }
    const start = lineOf(n.start_line);
    const node = withContentHash({
      id,
      kind,
      title: typeof n.title === 'string' && n.title !== '' ? n.title : id,
      family: optionalString(n.family),
      authority: optionalString(n.authority),
      status: optionalString(n.status),
      tags: sortedStrings(n.tags),
      summary: typeof n.summary === 'string' ? n.summary.slice(0, 400) : '',
      body: typeof n.body === 'string' ? n.body : '',
      source_path: typeof n.source_path === 'string' && n.source_path !== '' && !path.isAbsolute(n.source_path) && !n.source_path.split('/').includes('..') ? n.source_path : modulePath,
      start_line: start,
      end_line: Math.max(start, lineOf(n.end_line)),
      anchors: [],
      language: optionalString(n.language),
      capabilities: sortedStrings(n.capabilities),
      origin: 'adapter',
    });
    added.add(id);
    nodes.push(node);
    for (const [field, value, allowed] of [['kind', node.kind, vocabulary.kinds], ['authority', node.authority, vocabulary.authorities], ['status', node.status, vocabulary.statuses]] as const) {
      if (value !== null && allowed !== null && !allowed.includes(value)) {
        issue('warning', `undeclared_${field}`, `${field} "${value}" of adapter node "${id}" is not declared in [vocabulary] of docforge.toml`, id);
      }
    }
  }
  const rawEdges = Array.isArray(out.edges) ? out.edges : [];
  if (out.edges !== undefined && !Array.isArray(out.edges)) issue('error', 'adapter_invalid_output', '`edges` must be an array.');
  if (rawEdges.length > MAX_ADAPTER_EDGES) issue('warning', 'adapter_output_truncated', `The adapter returned ${rawEdges.length} edges; only the first ${MAX_ADAPTER_EDGES} are used.`);
  const allowed = vocabulary.relations === null ? null : new Set([...ALIASED_RELATIONS, ...vocabulary.relations]);
  const seen = new Set<string>();
  for (const value of rawEdges.slice(0, MAX_ADAPTER_EDGES)) {
    const e = (value ?? {}) as Record<string, unknown>;
    const { source_id: sourceId, relation, target_id: targetId } = e;
    if (typeof sourceId !== 'string' || typeof targetId !== 'string' || typeof relation !== 'string' || !/^[a-z][a-z0-9_]{0,63}$/.test(relation)) {
      issue('error', 'adapter_invalid_edge', 'An adapter edge needs string `source_id` and `target_id` and a snake_case `relation`; it was dropped.');
      continue;
    }
    const missing = [sourceId, targetId].find((id) => !existing.has(id) && !added.has(id));
    if (missing !== undefined) {
      issue('error', 'dangling_relation', `Adapter relation "${relation}" from "${sourceId}" to "${targetId}" names "${missing}", which is not a node; dropped.`, sourceId);
      continue;
    }
    if (sourceId === targetId) continue;
    const key = `${sourceId}\u0000${relation}\u0000${targetId}`;
    if (seen.has(key)) continue;
    seen.add(key);
    edges.push({ source_id: sourceId, relation, target_id: targetId, source_path: modulePath, line: 0 });
    if (allowed !== null && !allowed.has(relation)) {
      issue('warning', 'undeclared_relation', `relation "${relation}" of an adapter edge is neither an aliased relation nor declared in [vocabulary].relations of docforge.toml`, sourceId);
    }
  }
  return { nodes, edges, issues };
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Returns the graph with link capabilities and adapter output merged in, as new arrays (cached
 * node objects are never mutated): a node named in `capabilities` is replaced by a copy whose
 * capabilities are the sorted union and whose `content_hash` is recomputed; adapter nodes and
 * edges are added (edges already present keep their first declaration). Nodes stay sorted by id,
 * edges by `(source_id, relation, target_id)`.
 */
export function extendGraph(
  graph: { nodes: readonly GraphNode[]; edges: readonly GraphEdge[] },
  capabilities: ReadonlyMap<string, readonly string[]>,
  adapter: Pick<ProjectAdapterOutput, 'nodes' | 'edges'> | null,
): { nodes: GraphNode[]; edges: GraphEdge[] } {
  let nodes: GraphNode[] = graph.nodes.map((node) => {
    const extra = capabilities.get(node.id);
    if (extra === undefined || extra.every((c) => node.capabilities.includes(c))) return node;
    const copy: GraphNode = { ...node, capabilities: [...new Set([...node.capabilities, ...extra])].sort() };
    return withContentHash(copy);
  });
  let edges: GraphEdge[] = [...graph.edges];
  if (adapter !== null && (adapter.nodes.length > 0 || adapter.edges.length > 0)) {
    const ids = new Set(nodes.map((n) => n.id));
    nodes = [...nodes, ...adapter.nodes.filter((n) => !ids.has(n.id))].sort((a, b) => compare(a.id, b.id));
    const keys = new Set(edges.map((e) => `${e.source_id}\u0000${e.relation}\u0000${e.target_id}`));
    for (const edge of adapter.edges) {
      if (!keys.has(`${edge.source_id}\u0000${edge.relation}\u0000${edge.target_id}`)) edges.push(edge);
    }
    edges = edges.sort((a, b) => compare(a.source_id, b.source_id) || compare(a.relation, b.relation) || compare(a.target_id, b.target_id));
  }
  return { nodes, edges };
}

/** Merges link `capabilities` maps of several adapters (sorted, unique per node). */
export function mergeCapabilityMaps(into: Map<string, string[]>, add: Readonly<Record<string, readonly string[]>> | undefined): void {
  if (add === undefined) return;
  for (const [id, caps] of Object.entries(add)) {
    into.set(id, [...new Set([...(into.get(id) ?? []), ...caps])].sort());
  }
}

/** The `adapter_version` suffix of a loaded project-owned adapter: `+project@<version>#<fingerprint prefix>`. */
export function projectAdapterVersionSuffix(task: ProjectAdapterTask | null | undefined, report: ProjectAdapterReport | null): string {
  if (!task) return '';
  return `+project@${report?.version ?? 'unavailable'}#${task.fingerprint.slice(0, 12)}`;
}

/** Turns an adapter exception into a wire error `adapter_failed`. */
export function adapterFailure(error: unknown): DocforgeError {
  const wrapped = toDocforgeError(error, 'adapter_failed');
  if (wrapped.code === 'adapter_failed' || wrapped.code === 'adapter_restart_required') return wrapped;
  return errors.adapterFailed(`The project-owned adapter failed: ${wrapped.message}`);
}

/** Stable hash of an issue list (verification of an unchanged build). */
export function issuesHash(issues: readonly SourceIssue[]): string {
  return hashJson(issues);
}
