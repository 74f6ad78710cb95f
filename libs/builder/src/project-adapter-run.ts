/**
 * Running the project-owned adapter's `extract` once per build (project-adapter.ts has the module
 * contract): its declared inputs are read within the size limits, and what it returns is checked
 * node by node and edge by edge; anything unusable is dropped and reported as an issue.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ALIASED_RELATIONS, withContentHash, type GraphEdge, type GraphNode, type SourceIssue } from '@docforge/core';
import { decodeSourceText, invalidEncodingIssue } from '@docforge/core';
import { MAX_NODE_ID_CHARS, nodeIdProblem, walkAdapterInputs, type Descriptor } from '@docforge/project';
import { authoredTextProblem } from '@docforge/core';
import {
  MAX_ADAPTER_EDGES, MAX_ADAPTER_INPUT_BYTES, MAX_ADAPTER_ISSUES, MAX_ADAPTER_NODES, MAX_ADAPTER_TOTAL_BYTES,
  type LoadedAdapter, type ProjectAdapterOutput, type ProjectAdapterRunInput, type ProjectAdapterRunner,
} from './project-adapter.js';

/** Reports one issue of a run (the run keeps at most {@link MAX_ADAPTER_ISSUES}). */
type IssueSink = (severity: SourceIssue['severity'], code: string, message: string, nodeId?: string | null) => void;

/** The runner of a loaded adapter, or null when it did not load (no `extract`). */
export function runnerOf(entry: LoadedAdapter): ProjectAdapterRunner | null {
  const extract = entry.extract;
  if (extract === null) return null;
  return async (input) => {
    const issues: SourceIssue[] = [];
    const issue: IssueSink = (severity, code, message, nodeId = null) => {
      if (issues.length < MAX_ADAPTER_ISSUES) issues.push({ severity, code, message, path: null, line: null, node_id: nodeId });
    };
    const files = readInputs(input.root, entry.rawInputs ?? [], input.descriptor, issues, issue);
    const summaries = input.nodes.map((n) => Object.freeze({ id: n.id, kind: n.kind, title: n.title, source_path: n.source_path }));
    const context = Object.freeze({ files: Object.freeze(files), nodes: Object.freeze(summaries) });
    const raw = await extract(context);
    const output = normalizeOutput(raw, input, issue);
    return { ...output, issues: [...issues, ...output.issues], input_files: files.length };
  };
}

/** The adapter's declared input files, frozen, with empty content where a limit, the encoding or a read failed (each reported). */
function readInputs(root: string, rawInputs: readonly unknown[], descriptor: Descriptor, issues: SourceIssue[], issue: IssueSink): { path: string; content: string }[] {
  const walk = walkAdapterInputs(root, [...rawInputs], descriptor.state.dir);
  for (const glob of walk.invalid) issue('warning', 'adapter_invalid_input', `Adapter input glob ${JSON.stringify(glob).slice(0, 200)} is not a project-relative pattern; ignored.`);
  if (walk.truncated) issue('warning', 'adapter_inputs_truncated', 'The adapter input globs match too many files; only the first ones were read.');
  const files: { path: string; content: string }[] = [];
  let total = 0;
  for (const file of walk.files) {
    let content = '';
    if (file.size > MAX_ADAPTER_INPUT_BYTES || total + file.size > MAX_ADAPTER_TOTAL_BYTES) {
      const over = file.size > MAX_ADAPTER_INPUT_BYTES ? `the ${MAX_ADAPTER_INPUT_BYTES}-byte limit per input` : `the ${MAX_ADAPTER_TOTAL_BYTES}-byte limit on all inputs together`;
      issue('warning', 'adapter_input_too_large', `Adapter input ${file.path} (${file.size} bytes) exceeds ${over} (fixed; no descriptor key raises it); passed with empty content. Narrow the adapter's inputs globs so they leave it out.`);
    } else {
      try {
        // Never U+FFFD: an input that is not UTF-8 is passed with empty content and an invalid_encoding finding.
        const decoded = decodeSourceText(readFileSync(path.join(root, file.path)), file.path);
        if (decoded.ok) content = decoded.text;
        else if (issues.length < MAX_ADAPTER_ISSUES) issues.push(invalidEncodingIssue(file.path, decoded));
        total += file.size;
      } catch {
        issue('warning', 'adapter_input_unreadable', `Adapter input ${file.path} cannot be read.`);
      }
    }
    files.push(Object.freeze({ path: file.path, content }));
  }
  return files;
}

function optionalString(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

/** Largest `start_line` / `end_line` an adapter node may give (a 32-bit line number). */
const MAX_ADAPTER_LINE = 2 ** 31 - 1;

/** Why a node's `start_line` or `end_line` (when given) is unusable, or null. */
function lineProblem(n: Record<string, unknown>): string | null {
  for (const key of ['start_line', 'end_line'] as const) {
    const v = n[key];
    if (v === undefined) continue;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > MAX_ADAPTER_LINE) return `"${key}" must be an integer from 1 to ${MAX_ADAPTER_LINE}, got ${JSON.stringify(v)}`;
  }
  return null;
}

function lineOf(value: unknown): number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 ? value : 1;
}

function sortedStrings(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return [...new Set(value.filter((v): v is string => typeof v === 'string' && v !== ''))].sort();
}

/** What `extract` returned, checked: the usable nodes and edges (issues go to `issue`). */
function normalizeOutput(raw: unknown, input: ProjectAdapterRunInput, issue: IssueSink): Omit<ProjectAdapterOutput, 'input_files'> {
  if (raw === undefined || raw === null) return { nodes: [], edges: [], issues: [] };
  if (typeof raw !== 'object') {
    issue('error', 'adapter_invalid_output', '`extract` must return an object with optional `nodes` and `edges` arrays.');
    return { nodes: [], edges: [], issues: [] };
  }
  const out = raw as { nodes?: unknown; edges?: unknown };
  const existing = new Set(input.nodes.map((n) => n.id));
  const nodes = normalizeNodes(out.nodes, input.descriptor, existing, issue);
  const added = new Set(nodes.map((n) => n.id));
  const edges = normalizeEdges(out.edges, input.descriptor, (id) => existing.has(id) || added.has(id), issue);
  return { nodes, edges, issues: [] };
}

/** The adapter's nodes with a usable id and kind that no other node has, in order; each other one is reported. */
function normalizeNodes(value: unknown, descriptor: Descriptor, existing: ReadonlySet<string>, issue: IssueSink): GraphNode[] {
  const nodes: GraphNode[] = [];
  const added = new Set<string>();
  const modulePath = descriptor.adapter.module ?? '';
  const vocabulary = descriptor.vocabulary;
  const rawNodes = Array.isArray(value) ? value : [];
  if (value !== undefined && !Array.isArray(value)) issue('error', 'adapter_invalid_output', '`nodes` must be an array.');
  if (rawNodes.length > MAX_ADAPTER_NODES) issue('warning', 'adapter_output_truncated', `The adapter returned ${rawNodes.length} nodes; only the first ${MAX_ADAPTER_NODES} are used.`);
  for (const item of rawNodes.slice(0, MAX_ADAPTER_NODES)) {
    const n = (item ?? {}) as Record<string, unknown>;
    const id = n.id;
    const kind = n.kind;
    if (typeof id !== 'string' || id.trim() === '' || id.length > MAX_NODE_ID_CHARS || typeof kind !== 'string' || kind.trim() === '' || kind.length > 128) {
      issue('error', 'adapter_invalid_node', 'An adapter node needs a nonempty string `id` (at most 1024 characters) and `kind`; it was dropped.', typeof id === 'string' ? id.slice(0, 1024) : null);
      continue;
    }
    // The id rules of every authored id (front matter, records), and lines a file can have.
    const problem = nodeIdProblem(id.normalize('NFC')) ?? lineProblem(n) ?? authoredTextProblem({ title: optionalString(n.title), kind, tags: Array.isArray(n.tags) ? n.tags.filter((t): t is string => typeof t === 'string') : null, family: optionalString(n.family), authority: optionalString(n.authority), status: optionalString(n.status) })?.message ?? null;
    if (problem !== null) {
      issue('error', 'adapter_invalid_node', `An adapter node was dropped: ${problem}.`, null);
      continue;
    }
    if (existing.has(id) || added.has(id)) {
      issue('error', 'duplicate_id', `The project-owned adapter returned id "${id}", which already exists; the adapter node is ignored.`, id);
      continue;
    }
    const node = adapterNode(n, id, kind, modulePath);
    added.add(id);
    nodes.push(node);
    for (const [field, v, allowed] of [['kind', node.kind, vocabulary.kinds], ['authority', node.authority, vocabulary.authorities], ['status', node.status, vocabulary.statuses]] as const) {
      if (v !== null && allowed !== null && !allowed.includes(v)) {
        issue('warning', `undeclared_${field}`, `${field} "${v}" of adapter node "${id}" is not declared in [vocabulary] of docforge.toml`, id);
      }
    }
  }
  return nodes;
}

/** One adapter node as a graph node (origin `adapter`; a source path outside the root falls back to the module's). */
function adapterNode(n: Record<string, unknown>, id: string, kind: string, modulePath: string): GraphNode {
  const start = lineOf(n.start_line);
  return withContentHash({
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
}

/** The adapter's edges between known nodes, unique and not to themselves, in order; each unusable one is reported. */
function normalizeEdges(value: unknown, descriptor: Descriptor, isNode: (id: string) => boolean, issue: IssueSink): GraphEdge[] {
  const edges: GraphEdge[] = [];
  const modulePath = descriptor.adapter.module ?? '';
  const rawEdges = Array.isArray(value) ? value : [];
  if (value !== undefined && !Array.isArray(value)) issue('error', 'adapter_invalid_output', '`edges` must be an array.');
  if (rawEdges.length > MAX_ADAPTER_EDGES) issue('warning', 'adapter_output_truncated', `The adapter returned ${rawEdges.length} edges; only the first ${MAX_ADAPTER_EDGES} are used.`);
  const allowed = descriptor.vocabulary.relations === null ? null : new Set([...ALIASED_RELATIONS, ...descriptor.vocabulary.relations]);
  const seen = new Set<string>();
  for (const item of rawEdges.slice(0, MAX_ADAPTER_EDGES)) {
    const e = (item ?? {}) as Record<string, unknown>;
    const { source_id: sourceId, relation, target_id: targetId } = e;
    if (typeof sourceId !== 'string' || typeof targetId !== 'string' || typeof relation !== 'string' || !/^[a-z][a-z0-9_]{0,63}$/.test(relation)) {
      issue('error', 'adapter_invalid_edge', 'An adapter edge needs string `source_id` and `target_id` and a snake_case `relation`; it was dropped.');
      continue;
    }
    const missing = [sourceId, targetId].find((id) => !isNode(id));
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
  return edges;
}
