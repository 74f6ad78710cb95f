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
import { errors, hashJson, locatedIssueMessage, toDocforgeError, withContentHash, type DocforgeError, type GraphEdge, type GraphNode, type SourceIssue, type WireError } from '@docforge/core';
import { cheapIdentity, type Descriptor, type SourceEntry, type StatIdentity } from '@docforge/project';

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
/** Input bytes passed to one run at most; later inputs are passed with empty content and reported. */
export const MAX_ADAPTER_TOTAL_BYTES = 64 * 1024 * 1024;
/** Issues reported by one run at most. */
export const MAX_ADAPTER_ISSUES = 100;

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

/**
 * Stable hash of an issue list as it is stored (verification of an unchanged build): each message
 * located as the index writer stores it ({@link locatedIssueMessage}), so the issues a build resolved
 * and the same issues read back from the published file hash alike.
 */
export function issuesHash(issues: readonly SourceIssue[]): string {
  return hashJson(issues.map((issue) => ({ ...issue, message: locatedIssueMessage(issue) })));
}

/** The loaded module (or why it could not load), bound to the fingerprint it was loaded under. */
export interface LoadedAdapter {
  fingerprint: string;
  report: ProjectAdapterReport;
  extract: ((context: unknown) => unknown) | null;
  rawInputs: unknown[] | null;
}
