/**
 * Changeset mutations (issue 10, items 1 and 5): register (create + populate + project +
 * conflict-check + validate in one locked operation), add one operation, rebase and abandon.
 * Each runs under the store lock, reads what it needs inside the lock, and writes one document
 * atomically; nothing here touches canonical files. Canonical application (issue 11) joins as
 * another mutation of this module: it re-evaluates with {@link evaluate}, checks the exact hash,
 * and records an `applied` receipt through {@link ChangesetStore.write}.
 */
import { errors } from '@docforge/core';
import { changesetSha256 } from './hash.js';
import { writerPolicy } from './policy.js';
import { deriveStaleness } from './status.js';
import { ChangesetStore } from './store.js';
import type { ChangesetDocument, LifecycleReceipt, Operation } from './types.js';
import { evaluate, type Evaluation } from './validate.js';
import type { ProjectView } from './workspace.js';

/** The most operations one changeset holds (the changeset schema's `operations.maxItems`; the input schemas cap a list at the same). */
export const MAX_CHANGESET_OPERATIONS = 1000;

/** The result of a mutation: the stored document and its evaluation (null for abandon). */
export interface MutationOutcome {
  doc: ChangesetDocument;
  evaluation: Evaluation | null;
  outcome: 'created' | 'registered' | 'operation_added' | 'rebased' | 'abandoned';
}

/** Injected clock (tests) and id source. */
export interface LifecycleOptions {
  now?: () => Date;
}

function stamp(options: LifecycleOptions): string {
  return (options.now?.() ?? new Date()).toISOString();
}

function receipt(event: LifecycleReceipt['event'], at: string, writer: string, hash: string, details?: Record<string, unknown>): LifecycleReceipt {
  return details === undefined ? { event, at, writer, changeset_sha256: hash } : { event, at, writer, changeset_sha256: hash, details };
}

function evaluateFor(view: ProjectView, writer: string, id: string, operations: readonly Operation[], others: readonly ChangesetDocument[], registering: boolean): Evaluation {
  return evaluate(view, operations, { policy: writerPolicy(writer, view.descriptor, view.adapterOperations, view.integrationPolicy ?? null), changesetId: id, others, registering });
}

/** Whether `a` was made before `b` (created_at, then id). */
function earlier(a: ChangesetDocument, b: ChangesetDocument): boolean {
  return a.created_at < b.created_at || (a.created_at === b.created_at && a.id < b.id);
}

/**
 * The other stored changesets an overlap with `doc` is a conflict of `doc` with (break-it trial: a
 * later overlapping draft, even an invalid one, made a reviewed ready changeset unappliable). The
 * later or non-ready changeset carries the conflict: a ready `doc` is blocked only by an earlier
 * ready one; a draft `doc` by every ready one and by earlier drafts. A new registration is later
 * than all, so every draft or ready changeset still conflicts with it (contract: register_changes
 * "conflict-checks"; applied and abandoned ones never participate).
 */
export function conflictParties(doc: ChangesetDocument, all: readonly ChangesetDocument[]): ChangesetDocument[] {
  return all.filter((other) => other.id !== doc.id && (other.status === 'ready'
    ? doc.status !== 'ready' || earlier(other, doc)
    : other.status === 'draft' && doc.status !== 'ready' && earlier(other, doc)));
}

/**
 * Re-projects and validates a stored changeset against the current project, with its own writer's
 * policy and the stored changesets {@link conflictParties} names for conflicts (the read tools and the CLI). Writes nothing.
 */
export function evaluateStored(view: ProjectView, store: ChangesetStore, doc: ChangesetDocument): Evaluation {
  return evaluateFor(view, doc.writer, doc.id, doc.operations, conflictParties(doc, store.list().documents), false);
}

/**
 * Registers one complete changeset of `writer` (contract: `docforge_register_changes`; also
 * `docforge_create_changeset` with `event = "created"`). Omitted `expected_content_hash` values
 * are captured inside the lock. Stored `ready` when valid, else `draft` with its findings
 * (a conflict never refuses registration).
 * @throws DocforgeError before anything is written, each naming its operation (`projectOperations`):
 *   `invalid_arguments` (a NUL or lone surrogate in a string), `path_outside_root`,
 *   `changeset_invalid` (a `code:` node, an unknown node), `changeset_not_writable`; `lock_timeout`
 */
export async function registerChangeset(store: ChangesetStore, view: ProjectView, writer: string, operations: readonly Operation[], event: 'created' | 'registered', options: LifecycleOptions = {}): Promise<MutationOutcome> {
  return store.mutate(() => {
    const id = ChangesetStore.newId(options.now?.());
    const others = store.list().documents;
    const evaluation = evaluateFor(view, writer, id, operations, others, true);
    const at = stamp(options);
    const body = { id, writer, base: view.sourceHash, operations: evaluation.projection.operations };
    const hash = changesetSha256(body);
    const doc: ChangesetDocument = {
      schema_version: 1,
      ...body,
      changeset_sha256: hash,
      status: evaluation.valid && operations.length > 0 ? 'ready' : 'draft',
      captured: { sources: evaluation.captured },
      findings: evaluation.findings,
      receipts: [receipt(event, at, writer, hash, { operation_count: operations.length, valid: evaluation.valid })],
      created_at: at,
      updated_at: at,
    };
    store.write(doc);
    return { doc, evaluation, outcome: event };
  });
}

function writable(store: ChangesetStore, doc: ChangesetDocument, writer: string): void {
  // The changeset an open journal names changes only through its recovery (break-it trial ap2, F3).
  const open = store.openJournalChangeset();
  if (open === doc.id || open === 'unknown') {
    throw errors.applicationInProgress(open, { step: 'open', reason: `the application journal of changeset ${open} is open: changeset ${doc.id} changes only once a gated DocForge process recovers it` });
  }
  if (doc.writer !== writer) throw errors.changesetNotWritable(`changeset ${doc.id} belongs to writer ${JSON.stringify(doc.writer)}, not ${JSON.stringify(writer)}`, { changeset_id: doc.id, writer: doc.writer });
  if (doc.status === 'applied' || doc.status === 'abandoned') throw errors.changesetNotWritable(`changeset ${doc.id} is ${doc.status} and can no longer change`, { changeset_id: doc.id, status: doc.status });
}

/**
 * Appends one operation to a draft or ready changeset of `writer` (the `docforge_propose_*`
 * tools with a `changeset_id`), re-projecting and re-validating the whole changeset. Its hash
 * changes, because its operations did; the receipt records both hashes.
 * @throws DocforgeError `changeset_not_found`, `changeset_not_writable` (also for a changeset that
 *   already holds {@link MAX_CHANGESET_OPERATIONS}: `details.reason_code = "operation_limit"`), and
 *   the registration refusals
 */
export async function addOperation(store: ChangesetStore, view: ProjectView, writer: string, id: string, operation: Operation, options: LifecycleOptions = {}): Promise<MutationOutcome> {
  return store.mutate(() => {
    const doc = store.get(id);
    writable(store, doc, writer);
    if (doc.operations.length >= MAX_CHANGESET_OPERATIONS) {
      throw errors.changesetNotWritable(`changeset ${id} already holds ${doc.operations.length} operations, the most one changeset can hold (${MAX_CHANGESET_OPERATIONS}); put further operations in a new changeset`, { changeset_id: id, reason_code: 'operation_limit', limit: MAX_CHANGESET_OPERATIONS, operation_count: doc.operations.length });
    }
    const stale = deriveStaleness(doc, view);
    if (stale !== null) throw errors.changesetNotWritable(`changeset ${id} is stale (${stale.reason}); rebase it before adding operations`, { changeset_id: id, stale });
    const others = conflictParties(doc, store.list().documents);
    const evaluation = evaluateFor(view, writer, id, [...doc.operations, operation], others, true);
    const at = stamp(options);
    const previous = doc.changeset_sha256;
    const next: ChangesetDocument = { ...doc, operations: evaluation.projection.operations, captured: { sources: evaluation.captured }, findings: evaluation.findings, updated_at: at };
    next.changeset_sha256 = changesetSha256(next);
    next.status = evaluation.valid ? 'ready' : 'draft';
    next.receipts = [...doc.receipts, receipt('operation_added', at, writer, next.changeset_sha256, { previous_sha256: previous, operation_index: next.operations.length - 1 })];
    store.write(next);
    return { doc: next, evaluation, outcome: 'operation_added' };
  });
}

/**
 * Moves a stale changeset to the current base (contract: `docforge_rebase_changeset`) only when
 * every touched node and source is unchanged and the re-projection validates (graph, policy,
 * paths, no conflict). Never merges prose.
 * @throws DocforgeError `rebase_refused` with `details.invariant` (`touched_node_unchanged`,
 *   `touched_source_unchanged`, `graph_valid`, `no_conflict`, `proposal_policy`); `changeset_not_found`;
 *   `changeset_not_writable`
 */
export async function rebaseChangeset(store: ChangesetStore, view: ProjectView, writer: string, id: string, options: LifecycleOptions = {}): Promise<MutationOutcome> {
  return store.mutate(() => {
    const doc = store.get(id);
    writable(store, doc, writer);
    const stale = deriveStaleness(doc, view);
    if (stale?.reason === 'touched_node_changed') {
      throw errors.rebaseRefused(id, `touched node(s) ${stale.node_ids.join(', ')} changed since the proposal; rebase never merges prose`, { invariant: 'touched_node_unchanged', node_ids: stale.node_ids });
    }
    if (stale?.reason === 'touched_source_changed') {
      throw errors.rebaseRefused(id, `touched source file(s) ${stale.paths.join(', ')} changed since the proposal`, { invariant: 'touched_source_unchanged', paths: stale.paths });
    }
    const others = conflictParties(doc, store.list().documents);
    let evaluation: Evaluation;
    try {
      evaluation = evaluateFor(view, writer, id, doc.operations, others, true);
    } catch (error) {
      const code = (error as { code?: string }).code;
      throw errors.rebaseRefused(id, (error as Error).message, { invariant: code === 'changeset_not_writable' ? 'proposal_policy' : 'paths_confined' }, { cause: error });
    }
    const blocking = evaluation.findings.filter((f) => f.severity === 'error');
    if (blocking.length > 0) {
      const invariant = blocking.some((f) => f.code === 'conflict') ? 'no_conflict' : blocking.some((f) => f.code === 'operation_not_allowed') ? 'proposal_policy' : 'graph_valid';
      throw errors.rebaseRefused(id, `${blocking.length} error finding(s) on the current base, first: ${blocking[0]!.code}: ${blocking[0]!.message}`, { invariant, findings: blocking.slice(0, 20) });
    }
    const at = stamp(options);
    const previous = doc.changeset_sha256;
    const next: ChangesetDocument = { ...doc, base: view.sourceHash, operations: evaluation.projection.operations, captured: { sources: evaluation.captured }, findings: evaluation.findings, status: 'ready', updated_at: at };
    next.changeset_sha256 = changesetSha256(next);
    next.receipts = [...doc.receipts, receipt('rebased', at, writer, next.changeset_sha256, { previous_sha256: previous, previous_base: doc.base })];
    store.write(next);
    return { doc: next, evaluation, outcome: 'rebased' };
  });
}

/**
 * Abandons a changeset of `writer` (contract: `docforge_abandon_changeset`; CLI `changeset abandon
 * ID --writer W`): status `abandoned` plus an audit receipt; nothing is deleted.
 * @throws DocforgeError `changeset_not_found`; `changeset_not_writable` for another writer's
 *   changeset or one already applied or abandoned; `application_in_progress` while the open
 *   application journal names it (or cannot be read)
 */
export async function abandonChangeset(store: ChangesetStore, writer: string, id: string, reason: string | null, options: LifecycleOptions = {}): Promise<MutationOutcome> {
  return store.mutate(() => {
    const doc = store.get(id);
    writable(store, doc, writer);
    const at = stamp(options);
    const next: ChangesetDocument = {
      ...doc,
      status: 'abandoned',
      updated_at: at,
      receipts: [...doc.receipts, receipt('abandoned', at, writer, doc.changeset_sha256, reason === null ? { previous_status: doc.status } : { previous_status: doc.status, reason })],
    };
    store.write(next);
    return { doc: next, evaluation: null, outcome: 'abandoned' };
  });
}
