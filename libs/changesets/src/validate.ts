/**
 * Validation of a projected changeset (issue 10, item 3): the projected graph is validated
 * exactly as `docforge_validate_project` validates canonical files (the same loader and resolver
 * issues), plus the proposal rules: hashes match the base, the policy allows each operation, and
 * no overlap with another `draft` or `ready` changeset (applied and abandoned ones never
 * conflict). Findings carry the operation index, node id, code and remediation.
 */
import { canonicalJson, setOwn, sha256, type SourceIssue } from '@docforge/core';
import { MAX_CONTENT_SOURCE_BYTES } from '@docforge/project';
import { projectOperations, type OperationOutcome, type Projection } from './projection.js';
import type { WriterPolicy } from './policy.js';
import type { ChangesetDocument, Finding, Operation } from './types.js';
import { Workspace, type ProjectView } from './workspace.js';

/** The outcome of projecting and validating one list of operations. */
export interface Evaluation {
  projection: Projection;
  /** Every finding, sorted by operation index (changeset-wide last), then code. */
  findings: Finding[];
  /** No error finding. */
  valid: boolean;
  /** Canonical content hash (null: absent) of every touched source path. */
  captured: Record<string, string | null>;
  /** The workspace after the operations (for the diff). */
  workspace: Workspace;
}

/** What {@link evaluate} needs besides the view and the operations. */
export interface EvaluateOptions {
  policy: WriterPolicy;
  /** The changeset's own id (conflict findings name it; it never conflicts with itself). */
  changesetId: string;
  /** Every other stored changeset (only `draft` and `ready` ones are compared). */
  others: readonly ChangesetDocument[];
  registering: boolean;
}

const baseIssueCache = new Map<string, SourceIssue[]>();

/** An issue's identity across projections: line numbers inside messages shift with edits. */
function issueKey(issue: SourceIssue): string {
  return `${issue.severity}\u0000${issue.code}\u0000${issue.path ?? ''}\u0000${issue.node_id ?? ''}\u0000${issue.message.replace(/:\d+(?=:)/g, '')}`;
}

function baseIssues(view: ProjectView): SourceIssue[] {
  const key = sha256(canonicalJson({ root: view.root, hash: view.sourceHash, sources: view.descriptor.sources, vocabulary: view.descriptor.vocabulary }));
  let issues = baseIssueCache.get(key);
  if (issues === undefined) {
    issues = new Workspace(view).resolve().allIssues;
    if (baseIssueCache.size > 16) baseIssueCache.clear();
    baseIssueCache.set(key, issues);
  }
  return issues;
}

/** The operation an issue belongs to: the last one touching its path or node. */
function attribute(issue: SourceIssue, outcomes: readonly OperationOutcome[]): number | null {
  for (let i = outcomes.length - 1; i >= 0; i -= 1) {
    const o = outcomes[i]!;
    if ((issue.path !== null && o.paths.includes(issue.path)) || (issue.node_id !== null && (o.node_id === issue.node_id || o.new_node_id === issue.node_id))) return o.index;
  }
  // A link elsewhere that pointed at a moved or deleted file names that file's old path.
  for (let i = outcomes.length - 1; i >= 0; i -= 1) {
    const o = outcomes[i]!;
    if ((o.op === 'node_move' || o.op === 'node_delete') && o.before !== null && issue.message.includes(`"${o.before.path}"`)) return o.index;
  }
  return null;
}

/** Touched nodes, source paths and relationships of a stored changeset (for conflicts). */
export interface TouchedSet {
  nodes: Set<string>;
  paths: Set<string>;
  relationships: Set<string>;
}

/**
 * The static touched set of operations plus their captured source paths. Paths, ids and
 * relationships are held in NFC (issue 30 item 3): two changesets creating `café.md` in NFC and
 * in NFD touch the same file.
 */
export function touchedSet(operations: readonly Operation[], capturedPaths: Iterable<string>): TouchedSet {
  const set = rawTouchedSet(operations);
  for (const p of capturedPaths) set.paths.add(p);
  return { nodes: nfcSet(set.nodes), paths: nfcSet(set.paths), relationships: nfcSet(set.relationships) };
}

function nfcSet(values: Set<string>): Set<string> {
  return new Set([...values].map((v) => v.normalize('NFC')));
}

function rawTouchedSet(operations: readonly Operation[]): TouchedSet {
  const set: TouchedSet = { nodes: new Set(), paths: new Set(), relationships: new Set() };
  for (const op of operations) {
    if (op.op === 'node_create') {
      set.nodes.add(op.node.id);
      for (const [relation, targets] of Object.entries(op.node.relations ?? {})) for (const t of targets) set.relationships.add(`${op.node.id}\u0000${relation}\u0000${t}`);
    } else if (op.op === 'relationship_update') {
      set.nodes.add(op.source_id);
      for (const ref of [...(op.add ?? []), ...(op.remove ?? [])]) set.relationships.add(`${op.source_id}\u0000${ref.relation}\u0000${ref.target_id}`);
    } else if (op.op === 'link_review') {
      set.nodes.add(op.source_id);
    } else {
      set.nodes.add(op.node_id);
    }
  }
  return set;
}

function firstShared(a: Set<string>, b: Set<string>): string | null {
  for (const x of a) if (b.has(x)) return x;
  return null;
}

/** The index of the first operation touching `node` or `file`, or null. */
function firstOperation(operations: readonly Operation[], node: string | null, file: string | null): number | null {
  for (let i = 0; i < operations.length; i += 1) {
    const op = operations[i]!;
    const set = touchedSet([op], []);
    if (node !== null && set.nodes.has(node)) return i;
    const landing = op.op === 'node_create' ? op.path : op.op === 'node_move' ? op.new_path : null;
    if (file !== null && landing !== null && landing.normalize('NFC') === file) return i;
  }
  return null;
}

/**
 * One `conflict` finding per other draft or ready changeset that overlaps `mine` (on a node, a
 * source file or a relationship), naming both ids and the first operation of `operations` involved.
 */
export function conflictFindings(changesetId: string, mine: TouchedSet, others: readonly ChangesetDocument[], operations: readonly Operation[] = []): Finding[] {
  const findings: Finding[] = [];
  for (const other of others) {
    if (other.id === changesetId || (other.status !== 'draft' && other.status !== 'ready')) continue;
    const theirs = touchedSet(other.operations, Object.keys(other.captured.sources));
    const node = firstShared(mine.nodes, theirs.nodes);
    const file = node === null ? firstShared(mine.paths, theirs.paths) : null;
    const rel = node === null && file === null ? firstShared(mine.relationships, theirs.relationships) : null;
    if (node === null && file === null && rel === null) continue;
    const what = node !== null ? `node ${node}` : file !== null ? `source file ${file}` : `relationship ${rel!.split('\u0000').join(' ')}`;
    findings.push({
      severity: 'error',
      code: 'conflict',
      message: `changeset ${changesetId} overlaps changeset ${other.id} on ${what}; it cannot become ready while ${other.id} is draft or ready`,
      remediation: 'wait_for_or_abandon_the_other_changeset',
      operation_index: firstOperation(operations, node, file),
      node_id: node,
      path: file,
      changeset_ids: [changesetId, other.id],
    });
  }
  return findings;
}

function compareFindings(a: Finding, b: Finding): number {
  const ai = a.operation_index ?? Number.MAX_SAFE_INTEGER;
  const bi = b.operation_index ?? Number.MAX_SAFE_INTEGER;
  return ai - bi || (a.code < b.code ? -1 : a.code > b.code ? 1 : 0) || (a.message < b.message ? -1 : a.message > b.message ? 1 : 0);
}

/**
 * Projects `operations` onto a fresh workspace of the current project and validates the result.
 * @throws DocforgeError when registering (see `projectOperations`)
 */
export function evaluate(view: ProjectView, operations: readonly Operation[], options: EvaluateOptions): Evaluation {
  const ws = new Workspace(view);
  const projection = projectOperations(ws, operations, { policy: options.policy, registering: options.registering });
  const findings = [...projection.findings];

  // Graph validation of the projection: issues the canonical validation would newly report.
  const before = new Map<string, number>();
  for (const issue of baseIssues(view)) before.set(issueKey(issue), (before.get(issueKey(issue)) ?? 0) + 1);
  for (const issue of ws.resolve().allIssues) {
    const key = issueKey(issue);
    const left = before.get(key) ?? 0;
    if (left > 0) {
      before.set(key, left - 1);
      continue;
    }
    findings.push({
      severity: issue.severity === 'error' ? 'error' : 'warning',
      code: issue.code,
      message: `projected: ${issue.message}`,
      remediation: 'fix_operation',
      operation_index: attribute(issue, projection.outcomes),
      node_id: issue.node_id,
      path: issue.path,
    });
  }

  // Operations that change no canonical file (a node created then deleted, only relations the node
  // lacks removed) could never be applied: apply refuses them. A reason that holds already must keep
  // the changeset draft, never let it become ready (break-it trial 48; the rule of issue 30 item 23).
  // When an operation was already refused (its own error finding), that error says why nothing
  // changed, and `no_change` would only repeat it.
  if (projection.operations.length > 0 && ws.changedPaths().length === 0 && !findings.some((f) => f.severity === 'error')) {
    findings.push({ severity: 'error', code: 'no_change', message: 'the changeset changes no canonical file: its operations cancel out or change nothing, so it could never be applied', remediation: 'fix_operation', operation_index: null, node_id: null, path: null });
  }

  // The loader does not index a content file over the fixed source limit (`source_too_large`), so a
  // change that makes one could never verify after application (applier trial F4): refused here.
  for (const p of ws.changedPaths()) {
    const bytes = Buffer.byteLength(ws.text(p) ?? '', 'utf8');
    if (bytes > MAX_CONTENT_SOURCE_BYTES) findings.push({ severity: 'error', code: 'file_too_large', message: `${p} would be ${bytes} bytes, over the ${MAX_CONTENT_SOURCE_BYTES}-byte (16 MiB) limit on content sources: the loader would not index it (source_too_large), so its nodes would vanish`, remediation: 'fix_operation', operation_index: null, node_id: null, path: p });
  }

  const captured: Record<string, string | null> = {};
  for (const outcome of projection.outcomes) for (const p of outcome.paths) setOwn(captured, p, ws.baseHash(p));
  findings.push(...conflictFindings(options.changesetId, touchedSet(projection.operations, Object.keys(captured)), options.others, projection.operations));
  findings.sort(compareFindings);
  return { projection, findings, valid: !findings.some((f) => f.severity === 'error'), captured, workspace: ws };
}
