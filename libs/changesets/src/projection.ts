/**
 * Projection (issue 10, items 2 and 3): applies a changeset's operations in array order to the
 * in-memory {@link Workspace}, each seeing the earlier ones' results, and records per operation
 * what it touched and the node before and after. Hash checks, policy, confinement and the
 * `code:` refusal happen here; graph validation and conflicts build on the result (validate.ts).
 */
import { DocforgeError, errorInContext, errors, ownValue, setOwn, type GraphNode } from '@docforge/core';
import { confineProposalPath, policyRefusal, protectedPathProblem, type WriterPolicy } from './policy.js';
import { pathNameProblem, writeTargetOf } from './confinement.js';
import { realContentRoots } from './journal-check.js';
import { bindReviews, reviewLinksText } from './review-edit.js';
import { createNodeText, movedNodeText, removeNodeText, updateNodeText, updateRelationsText, type EditResult } from './serialize.js';
import { operationTextProblem, textProblemMessage } from './text-check.js';
import type { Finding, Operation } from './types.js';
import type { Located, Workspace } from './workspace.js';

/** How many inbound links of a moved node are reported, at most. */
export const MAX_INBOUND_REPORTED = 200;

/** A node as one operation saw it (for the diff). */
export interface NodeState {
  path: string;
  node: GraphNode;
  /**
   * The node's declared relations in its source at that point (front matter or record
   * `[relations]`; not body links): relation name -> targets in declared order, de-duplicated.
   */
  relations: Record<string, string[]>;
}

/** One source file an operation rewrote: its text just before and just after the operation (null: absent). */
export interface FileChange {
  path: string;
  before: string | null;
  after: string | null;
}

/** What one operation did in the projection. */
export interface OperationOutcome {
  index: number;
  op: Operation['op'];
  /** The node the operation concerns (for a move: its id before the move). */
  node_id: string;
  /** The id after the operation (differs from node_id when a plain Markdown document moves). */
  new_node_id: string | null;
  before: NodeState | null;
  after: NodeState | null;
  /** Project-relative source paths the operation touched. */
  paths: string[];
  /** `source\0relation\0target` keys of relations added or removed. */
  relationships: string[];
  /** Whether the operation's edits were applied to the projection (false: it changes nothing; see `refusal`). */
  projected: boolean;
  /**
   * Why the operation could not be projected, or (projected) why its node is not read back
   * afterwards: its error finding's code and message; null otherwise.
   */
  refusal: { code: string; message: string } | null;
  /** The files the operation rewrote, in edit order (empty when not projected). */
  files: FileChange[];
}

/** The projection of a list of operations. */
export interface Projection {
  outcomes: OperationOutcome[];
  findings: Finding[];
  /** The operations with every omitted `expected_content_hash` of an existing node captured. */
  operations: Operation[];
}

/** Thrown-before-anything refusals (nothing stored) vs findings (stored as draft). */
export interface ProjectOptions {
  policy: WriterPolicy;
  /**
   * true at registration: confinement, policy and `code:` refusals throw (nothing is written) and
   * omitted hashes are captured; false when validating a stored changeset: they become findings.
   */
  registering: boolean;
}

function finding(severity: Finding['severity'], code: string, message: string, remediation: string, index: number | null, nodeId: string | null, p: string | null = null): Finding {
  return { severity, code, message, remediation, operation_index: index, node_id: nodeId, path: p };
}

/** The node's state in the workspace now, with its declared relations read from the parse of `p`. */
function nodeState(ws: Workspace, p: string, node: GraphNode): NodeState {
  const relations: Record<string, string[]> = {};
  for (const edge of ws.parse(p)?.edges ?? []) {
    if (edge.source_id !== node.id) continue;
    const targets = ownValue(relations, edge.relation);
    if (targets === undefined) setOwn(relations, edge.relation, [edge.target_id]);
    else targets.push(edge.target_id);
  }
  return { path: p, node, relations };
}

function targetOf(op: Operation): string {
  // Ids compare in NFC (issue 30 item 3), as the loader reads every id.
  switch (op.op) {
    case 'node_create': return op.node.id.normalize('NFC');
    case 'relationship_update':
    case 'link_review': return op.source_id.normalize('NFC');
    default: return op.node_id.normalize('NFC');
  }
}

/** The state one projection shares across its operations. */
interface ProjectionRun {
  ws: Workspace;
  /** The project's descriptor (read once per projection). */
  descriptor: Workspace['view']['descriptor'];
  operations: readonly Operation[];
  options: ProjectOptions;
  findings: Finding[];
  /** Ids an earlier operation already touched (only the first touch binds the content hash). */
  touchedBefore: Set<string>;
  /** Ids an earlier operation deleted or moved away (a plain document's path-derived id), by operation index. */
  removedBy: Map<string, number>;
  /** Real paths of the existing content roots, read on first use (apply's write-target rule). */
  roots: string[] | null;
}

/** One operation being projected: its outcome so far and how to refuse it. */
interface OperationStep {
  op: Operation;
  index: number;
  /** The node the operation targets ({@link targetOf}). */
  id: string;
  /** `operation N (op)`, the start of every thrown refusal's message. */
  prefix: string;
  out: OperationOutcome;
  /** Records an error finding; the first one names why the operation is not projected, when it is not (out.projected stays false). */
  refuse: (code: string, message: string, remediation: string, p?: string | null) => void;
}

/** Where an admitted operation reads its node (null: it creates one) and where it lands (null: in place). */
interface Admission {
  located: Located | null;
  landing: string | null;
}

/** A rewrite of one file by an operation. */
type Edit = { path: string; result: EditResult };

/**
 * Applies `operations` to the workspace (which must be fresh) and returns outcomes and findings.
 * Every refusal names its operation: the message starts `operation N (op)` and `details` carry
 * `operation_index` (docs/errors.md).
 * @throws DocforgeError when `registering`: `invalid_arguments` for a string the canonical loader
 *   could not read back (NUL, a lone surrogate; `details.field`); `path_outside_root` for a
 *   created or moved path outside the content roots (`..`, absolute, through a symlink, excluded)
 *   or a touched path DocForge never writes (descriptor, state dir, `.git`, a code root);
 *   `changeset_invalid` for an operation on a `code:` node or on a node that neither exists nor is
 *   created by an earlier operation (one an earlier operation deleted or moved away included);
 *   `changeset_not_writable` when the writer's policy forbids an operation
 */
export function projectOperations(ws: Workspace, operations: readonly Operation[], options: ProjectOptions): Projection {
  const run: ProjectionRun = { ws, descriptor: ws.view.descriptor, operations, options, findings: [], touchedBefore: new Set(), removedBy: new Map(), roots: null };
  const outcomes: OperationOutcome[] = [];
  const captured: Operation[] = [];
  operations.forEach((op, index) => {
    const step = startStep(run, op, index);
    outcomes.push(step.out);
    const admission = admit(run, step);
    if (admission === null) {
      captured.push(structuredClone(op));
      return;
    }
    // relation_ref's `hash` belongs to link_review (issue 32): never ignored in a relationship_update.
    if (op.op === 'relationship_update' && [...(op.add ?? []), ...(op.remove ?? [])].some((r) => (r as { hash?: string }).hash !== undefined)) {
      reviewRefusal(run, step)('hash_not_allowed', 'a relationship_update names no review hash; stamp links with link_review');
    }
    const bound = bindContentHash(run, step);
    captured.push(bound.op === 'link_review' ? bindReviews(ws.view, bound, options.registering, reviewRefusal(run, step)) : bound);
    if (bound.op === 'link_review') step.op = captured.at(-1)!;
    projectAdmitted(run, step, admission);
  });
  return { outcomes, findings: run.findings, operations: captured };
}

/**
 * How a `link_review` refusal is reported: thrown when registering (nothing is stored), else an error finding.
 * @throws DocforgeError `changeset_invalid` when registering
 */
function reviewRefusal(run: ProjectionRun, step: OperationStep): (code: string, message: string) => void {
  return (code, message) => {
    if (run.options.registering) throw errors.changesetInvalid(`${step.prefix}: ${message}`, { operation_index: step.index, node_id: step.id, op: step.op.op, reason: code });
    step.refuse(code, message, 'review_again');
  };
}

/** The outcome of operation `index` before anything is checked, and its refusal recorder. */
function startStep(run: ProjectionRun, op: Operation, index: number): OperationStep {
  const id = targetOf(op);
  const out: OperationOutcome = { index, op: op.op, node_id: id, new_node_id: id, before: null, after: null, paths: [], relationships: [], projected: false, refusal: null, files: [] };
  const refuse = (code: string, message: string, remediation: string, p: string | null = null): void => {
    run.findings.push(finding('error', code, message, remediation, index, id, p));
    out.refusal ??= { code, message };
  };
  return { op, index, id, prefix: `operation ${index} (${op.op})`, out, refuse };
}

/**
 * The checks before the content hash: unreadable text, a `code:` target, a landing path outside
 * the content roots, a node read from a file proposals never write (each refuses the operation:
 * null), then the writer's policy (a refusal that still lets the checks go on).
 * @throws DocforgeError when registering (see {@link projectOperations})
 */
function admit(run: ProjectionRun, step: OperationStep): Admission | null {
  const { ws, options } = run;
  const { op, index, id, prefix, out, refuse } = step;
  // Text the canonical loader could not read back is refused before anything else sees it.
  const text = operationTextProblem(op);
  if (text !== null) {
    const message = textProblemMessage(index, op.op, text);
    if (options.registering) {
      throw errors.invalidArguments(message, { operation_index: index, field: text.field, character: text.character, errors: [{ path: `/operations/${index}${text.pointer}`, message: text.reason }] });
    }
    refuse('invalid_text', message, 'fix_operation');
    return null;
  }
  if (!pathNameAllowed(run, step)) return null;
  if (id.startsWith('code:')) {
    const message = `operation ${index} (${op.op}) targets code node ${id}: code nodes come from the code adapter and are never proposed`;
    if (options.registering) throw errors.changesetInvalid(message, { operation_index: index, node_id: id });
    refuse('code_node_refused', message, 'edit_the_code_instead');
    return null;
  }
  const landing = confinedLanding(run, step);
  if (landing === undefined) return null;
  const located = op.op === 'node_create' ? null : ws.locate(id);
  // An existing node's own file must be writable too (content root ".": a Markdown file in a code root).
  const guarded = located === null ? null : protectedPathProblem(run.descriptor, located.path);
  if (guarded !== null) {
    const message = `node ${id} is read from ${located!.path}, which proposals never write: ${guarded}`;
    if (options.registering) throw errors.pathOutsideRoot(`${prefix}: ${message}.`, { path: located!.path, operation_index: index, node_id: id });
    refuse('path_outside_root', message, 'fix_path', located!.path);
    return null;
  }
  const touchedPaths = [...(located ? [located.path] : []), ...(landing ? [landing] : [])];
  if (!writeTargetsAllowed(run, step, touchedPaths)) return null;
  out.paths = touchedPaths;
  const refusal = policyRefusal(options.policy, op.op, touchedPaths);
  if (refusal !== null) {
    if (options.registering) throw errors.changesetNotWritable(`${prefix}: ${refusal}`, { operation_index: index, node_id: id, op: op.op });
    refuse('operation_not_allowed', refusal, 'ask_for_a_wider_policy');
  }
  return { located, landing };
}

/**
 * Whether the text of a created or moved path may name a canonical file (issue 30, items 22 and
 * 25: no control, bidi or invisible character, no name the file system refuses as too long);
 * false records the refusal.
 * @throws DocforgeError `invalid_arguments` naming the field when registering
 */
function pathNameAllowed(run: ProjectionRun, step: OperationStep): boolean {
  const { op, index } = step;
  if (op.op !== 'node_create' && op.op !== 'node_move') return true;
  const field = op.op === 'node_create' ? 'path' : 'new_path';
  const problem = pathNameProblem(op.op === 'node_create' ? op.path : op.new_path);
  if (problem === null) return true;
  const at = problem.offset === undefined ? '' : ` (character ${problem.offset})`;
  const message = `${step.prefix}: field ${field} holds ${problem.reason}${at}; choose another path`;
  if (run.options.registering) {
    const { reason, ...rest } = problem;
    throw errors.invalidArguments(message, { operation_index: index, field, ...rest, errors: [{ path: `/operations/${index}/${field}`, message: reason }] });
  }
  step.refuse('invalid_path', message, 'fix_path');
  return false;
}

/**
 * Whether canonical application could write every touched path: apply's own rule
 * ({@link writeTargetOf}: a created path through no link, an existing file whose real path lies
 * in a content root and is not protected), so a changeset it refuses never becomes ready
 * (issue 30, item 23); false records the refusal.
 * @throws DocforgeError `path_outside_root` (or `invalid_arguments`) naming the operation when registering
 */
function writeTargetsAllowed(run: ProjectionRun, step: OperationStep, touched: readonly string[]): boolean {
  run.roots ??= realContentRoots(run.descriptor);
  const rules = { descriptor: run.descriptor, roots: run.roots, confine: confineProposalPath, protectedProblem: protectedPathProblem };
  for (const p of touched) {
    try {
      writeTargetOf(rules, p, run.ws.baseText(p) !== null);
    } catch (error) {
      if (!(error instanceof DocforgeError)) throw error;
      if (run.options.registering) throw errorInContext(error, step.prefix, { operation_index: step.index, node_id: step.id });
      step.refuse(error.code, error.message, 'fix_path', p);
      return false;
    }
  }
  return true;
}

/**
 * The confined path a created or moved node lands on (null for other operations); undefined when
 * the path is refused (a finding). Confined before anything else touches it.
 * @throws DocforgeError `path_outside_root` (or the confinement's own error) when registering
 */
function confinedLanding(run: ProjectionRun, step: OperationStep): string | null | undefined {
  const { op, index, prefix } = step;
  if (op.op !== 'node_create' && op.op !== 'node_move') return null;
  const rel = op.op === 'node_create' ? op.path : op.new_path;
  try {
    // A path naming an existing file or folder in another Unicode normal form lands on that real name (issue 30 item 3).
    // The real name is confined again: it must pass every rule the path as written passed.
    const confined = confineProposalPath(run.descriptor, rel);
    const real = run.ws.realPath(confined);
    return real === confined ? confined : confineProposalPath(run.descriptor, real);
  } catch (error) {
    if (run.options.registering) {
      if (error instanceof DocforgeError && error.code === 'path_outside_root') throw errors.pathOutsideRoot(`${prefix}: ${error.message}`, { ...error.details, operation_index: index }, { cause: error });
      throw error;
    }
    step.refuse('path_outside_root', (error as Error).message, 'fix_path', rel);
    return undefined;
  }
}

/**
 * Hash binding on the first touch of an existing canonical node: an omitted expected hash is
 * captured when registering, a different one (or one for a node that does not exist) is refused.
 * Returns the operation as stored.
 */
function bindContentHash(run: ProjectionRun, step: OperationStep): Operation {
  const { op, id, refuse } = step;
  let copy: Operation = structuredClone(op);
  if (op.op !== 'node_create' && op.op !== 'link_review' && !run.touchedBefore.has(id)) {
    const canonical = run.ws.view.node(id);
    const given = (op as { expected_content_hash?: string }).expected_content_hash;
    if (canonical !== null && given === undefined && run.options.registering) {
      copy = { ...copy, expected_content_hash: canonical.content_hash } as Operation;
    } else if (canonical !== null && given !== undefined && given !== canonical.content_hash) {
      refuse('content_hash_mismatch', `node ${id} has content hash ${canonical.content_hash}, not the expected ${given}: it changed since the proposal was made`, 'rebase_or_recreate');
    } else if (canonical === null && given !== undefined) {
      refuse('content_hash_mismatch', `node ${id} carries an expected content hash but does not exist in the synchronized index`, 'rebase_or_recreate');
    }
  }
  run.touchedBefore.add(id);
  return copy;
}

/**
 * Projects an admitted operation: its target must exist (or be created) and its landing file be
 * text; its edits are computed, applied to the workspace, and its node read back.
 * @throws DocforgeError `changeset_invalid` when registering and the target does not exist
 */
function projectAdmitted(run: ProjectionRun, step: OperationStep, admission: Admission): void {
  const { ws, operations, options, removedBy } = run;
  const { op, index, id, prefix, out, refuse } = step;
  const { located, landing } = admission;
  if (op.op !== 'node_create' && located === null) {
    const earlier = removedBy.get(id);
    const message = earlier === undefined
      ? `${prefix} targets node ${id}, which does not exist in the project (nor is it created by an earlier operation of this changeset)`
      : `${prefix} targets node ${id}, which operation ${earlier} (${operations[earlier]!.op}) of this changeset already ${operations[earlier]!.op === 'node_delete' ? 'deleted' : 'moved away'}`;
    if (options.registering) throw errors.changesetInvalid(message, { operation_index: index, node_id: id, op: op.op, ...(earlier === undefined ? {} : { removed_by_operation: earlier }) });
    refuse('node_not_found', message, 'search_for_node');
    return;
  }
  if (landing !== null && ws.undecodable(landing)) {
    refuse('invalid_encoding', `${landing} is not UTF-8 text; DocForge never rewrites it (convert it to UTF-8 first)`, 'fix_file_encoding', landing);
    return;
  }
  out.before = located ? nodeState(ws, located.path, located.node) : null;
  const edits = operationEdits(ws, step, admission);
  if (edits === null || !applyEdits(run, step, edits)) return;
  out.projected = true;
  out.refusal = null;
  readBack(run, step, admission);
}

/** The file rewrites of one operation (recording the relationships it adds or removes); null when refused. */
function operationEdits(ws: Workspace, step: OperationStep, admission: Admission): Edit[] | null {
  const { op, id, out, refuse } = step;
  const { located, landing } = admission;
  switch (op.op) {
    case 'node_create': {
      const existing = ws.locate(op.node.id);
      if (existing !== null) {
        refuse('node_exists', `node ${op.node.id} already exists in ${existing.path}`, 'choose_another_id');
        return null;
      }
      const edits = [{ path: landing!, result: createNodeText(op, ws.text(landing!)) }];
      for (const [relation, targets] of Object.entries(op.node.relations ?? {})) for (const t of targets) out.relationships.push(`${op.node.id}\u0000${relation}\u0000${t}`);
      return edits;
    }
    case 'node_update':
      return [{ path: located!.path, result: updateNodeText(located!.node, ws.text(located!.path)!, op.set, op.body) }];
    case 'relationship_update': {
      const edits = [{ path: located!.path, result: updateRelationsText(located!.node, ws.text(located!.path)!, op.add ?? [], op.remove ?? []) }];
      for (const ref of [...(op.add ?? []), ...(op.remove ?? [])]) out.relationships.push(`${id}\u0000${ref.relation}\u0000${ref.target_id}`);
      return edits;
    }
    case 'node_delete':
      return [{ path: located!.path, result: removeNodeText(located!.node, ws.text(located!.path)!) }];
    case 'link_review':
      // A review of a relation that is not there, or of no current hash, was refused when bound.
      if (out.refusal !== null) return null;
      return [{ path: located!.path, result: reviewLinksText(located!.node, ws.text(located!.path)!, op.links.map((l) => ({ ...l, hash: l.hash!, ...(op.section === undefined ? {} : { section: op.section }) }))) }];
    case 'node_move': {
      if (landing === located!.path) {
        refuse('move_to_same_path', `node ${id} is already in ${landing}`, 'fix_path', landing);
        return null;
      }
      const sourceText = ws.text(located!.path)!;
      return [
        { path: landing!, result: movedNodeText(located!.node, sourceText, landing!, ws.text(landing!)) },
        { path: located!.path, result: removeNodeText(located!.node, sourceText) },
      ];
    }
    default:
      // Unreachable for a validated operation; rewrites nothing.
      return [];
  }
}

/** Applies the edits to the workspace, recording each file's change and warnings; false (nothing applied) when one is refused. */
function applyEdits(run: ProjectionRun, step: OperationStep, edits: readonly Edit[]): boolean {
  const { ws, findings } = run;
  for (const edit of edits) {
    if (edit.result.refused) {
      step.refuse(edit.result.code, edit.result.message, 'fix_operation', edit.path);
      return false;
    }
  }
  for (const edit of edits) {
    if (edit.result.refused) continue;
    step.out.files.push({ path: edit.path, before: ws.text(edit.path), after: edit.result.text });
    ws.setText(edit.path, edit.result.text);
    for (const w of edit.result.warnings) findings.push(finding('warning', w.code, w.message, 'review_operation', step.index, step.id, edit.path));
  }
  return true;
}

/** The node after the operation, found by id or (for a path-derived id) at its new path; a moved id's inbound links are reported broken. */
function readBack(run: ProjectionRun, step: OperationStep, admission: Admission): void {
  const { ws, findings, removedBy } = run;
  const { op, index, id, out, refuse } = step;
  const { located, landing } = admission;
  if (op.op === 'node_create') removedBy.delete(id);
  if (op.op === 'node_delete') {
    out.new_node_id = null;
    removedBy.set(id, index);
    return;
  }
  let after = ws.locate(id);
  if (op.op === 'node_move') {
    const moved = ws.parse(landing!)?.nodes.find((n) => n.id === id) ?? (located!.node.origin === 'markdown' ? ws.parse(landing!)?.nodes[0] : undefined);
    after = moved ? { node: moved, path: landing! } : null;
  }
  if (after === null) {
    refuse('node_not_readable', `after ${op.op}, node ${id} is not read back from ${landing ?? located?.path ?? '?'} by the canonical loader`, 'fix_operation', landing ?? located?.path ?? null);
    return;
  }
  out.after = nodeState(ws, after.path, after.node);
  out.new_node_id = after.node.id;
  if (after.node.id !== id) removedBy.set(id, index);
  if (op.op === 'node_move' && after.node.id !== id) {
    for (const edge of ws.view.inbound(id, MAX_INBOUND_REPORTED)) {
      findings.push(finding('warning', 'inbound_link_broken', `moving ${id} to ${landing} changes its path-derived id to ${after.node.id}: the ${edge.relation} link from ${edge.source_id} (${edge.source_path}:${edge.line}) would break`, 'update_inbound_links', index, id, edge.source_path));
    }
  }
}
