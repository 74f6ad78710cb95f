/**
 * Canonical application (issue 11, item 2; contract "Canonical application tool"): applies one
 * ready changeset, given its exact final SHA-256, to the canonical files. Under the application
 * lock and then the store lock it revalidates the current base, ownership (`[proposals.appliers.ID]`),
 * node hashes, conflicts, graph, permissions and paths; stages every changed file with the
 * format-preserving serializer (and a project-owned applier's `stage` hook); confines every write
 * to the declared content roots; writes under the write-ahead journal (journal.ts); re-reads the
 * files and verifies that they reproduce the approved projection, restoring every file on
 * mismatch; and records the `applied` lifecycle receipt bound to the reviewed hash. Runs no
 * project command, shell, Git, build or publication.
 */
import path from 'node:path';
import { errors, type TestFaults } from '@docforge/core';
import { ConfinedDirError, ConfinedDirs, ensureStateDir, stateLayout, withLock, type StateLayout } from '@docforge/fs-safe';
import { checkApplierStillDeclared, type CanonicalApplier } from './applier.js';
import { verify } from './apply-verify.js';
import { journalRecord, reasonOf, stage, writeStaged, type ApplyRun } from './apply-write.js';
import { evaluateStored } from './lifecycle.js';
import { backupDir, closeJournal, filesAfter, journalOpen, killPoint, leftoversPresent, restoreFiles, RestoreConflict, writeJournal, type Journal } from './journal.js';
import { checkJournalFiles, loadJournal } from './journal-check.js';
import { deriveStaleness } from './status.js';
import type { ChangesetStore } from './store.js';
import type { ChangesetDocument, LifecycleReceipt } from './types.js';
import type { Descriptor } from '@docforge/project';
import type { ProjectView } from './workspace.js';

/** How long an application waits for another process's application lock, in milliseconds. */
export const APPLICATION_LOCK_TIMEOUT_MS = 60_000;

/** What recovery did with an interrupted application. */
export interface RecoveryOutcome {
  changeset_id: string;
  /** The journal step the interrupted application had reached. */
  step: string;
  /** `rolled_back`: every file is exactly as before; `rolled_forward`: exactly as after, receipt stored. */
  action: 'rolled_back' | 'rolled_forward';
}

/** One changed canonical file of an application. */
export interface AppliedFile {
  path: string;
  action: 'created' | 'updated' | 'deleted';
  /** SHA-256 of the bytes written (null: deleted). */
  sha256: string | null;
}

/** The result of a successful application. */
export interface ApplyOutcome {
  /** The stored document, now `applied`. */
  doc: ChangesetDocument;
  /** The `applied` lifecycle receipt. */
  receipt: LifecycleReceipt;
  files: AppliedFile[];
  /** An interrupted earlier application recovered first, or null. */
  recovered: RecoveryOutcome | null;
}

/** Options of {@link applyChangeset}. */
export interface ApplyOptions {
  /** The startup-bound applier id (`--canonical-applier WRITER_ID`). */
  applierId: string;
  applier: CanonicalApplier;
  now?: () => Date;
  /** Test-only fault points read at start; the store's ({@link ChangesetStore.faults}) when absent. */
  faults?: TestFaults | undefined;
  /**
   * The confined-directory process every write goes through, bound to the real project root
   * (reused across applications by a caller that applies many); absent: one is started for this
   * application and ended after it.
   */
  dirs?: ConfinedDirs | undefined;
}

function layoutOf(store: ChangesetStore): StateLayout {
  return stateLayout(path.dirname(store.dir), store.root);
}

function appliedReceipt(doc: ChangesetDocument, applierId: string, at: string, files: readonly AppliedFile[]): LifecycleReceipt {
  return {
    event: 'applied', at, writer: applierId, changeset_sha256: doc.changeset_sha256,
    details: { changeset_writer: doc.writer, created: count(files, 'created'), updated: count(files, 'updated'), deleted: count(files, 'deleted') },
  };
}

function count(files: readonly AppliedFile[], action: AppliedFile['action']): number {
  return files.filter((f) => f.action === action).length;
}

function filesOf(journal: Journal): AppliedFile[] {
  return journal.files.map((f) => ({ path: f.path, action: f.before_sha256 === null ? 'created' : f.after_sha256 === null ? 'deleted' : 'updated', sha256: f.after_sha256 }));
}

/** Stores the applied receipt unless the document already carries it (roll-forward is idempotent). */
function storeApplied(store: ChangesetStore, journal: Journal, at: string): { doc: ChangesetDocument; receipt: LifecycleReceipt } {
  const doc = store.get(journal.changeset_id);
  const existing = doc.receipts.find((r) => r.event === 'applied' && r.changeset_sha256 === journal.changeset_sha256);
  if (doc.status === 'applied' && existing !== undefined) return { doc, receipt: existing };
  const receipt = appliedReceipt(doc, journal.applier, at, filesOf(journal));
  const next: ChangesetDocument = { ...doc, status: 'applied', updated_at: at, receipts: [...doc.receipts, receipt] };
  store.write(next);
  return { doc: next, receipt };
}

/** A folder that cannot be read through a verified handle does not prove the after state. */
function notAfter(error: unknown): false {
  if (error instanceof ConfinedDirError) return false;
  throw error;
}

/**
 * Recovers an interrupted application, if a journal is open (call holding the application lock):
 * steps before `verified` roll back from the backups; `verified` and `committed` roll forward
 * when every file proves to be the after state (else they roll back too). A file at neither state
 * (edited or removed after the crash) is never overwritten: nothing is written and
 * `application_recovery_conflict` names it (applier trial F1). Without a journal,
 * removes what a kill before the journal existed left (backups, temp files).
 * @throws DocforgeError `application_journal_invalid` (nothing touched); `application_recovery_conflict`
 *   (nothing touched; journal and backups kept); `application_in_progress` (`restored: false`, naming the journal, which stays open) when the rollback cannot complete
 */
async function recoverLocked(store: ChangesetStore, layout: StateLayout, descriptor: Descriptor, dirs: ConfinedDirs, now: () => Date): Promise<RecoveryOutcome | null> {
  const journal = loadJournal(layout, descriptor);
  if (journal === null) {
    if (leftoversPresent(layout)) await closeJournal(dirs, layout);
    return null;
  }
  let doc: ChangesetDocument | null;
  try {
    doc = store.read(journal.changeset_id);
  } catch {
    doc = null;
  }
  // The journal names exactly the files the approved changeset writes (break-it trial ap2, F4).
  if (doc !== null && doc.changeset_sha256 === journal.changeset_sha256) checkJournalFiles(layout, journal, doc);
  if ((journal.step === 'verified' || journal.step === 'committed') && (await filesAfter(dirs, journal).catch(notAfter))) {
    if (doc === null || doc.changeset_sha256 !== journal.changeset_sha256) {
      throw errors.applicationJournalInvalid(layout.applicationJournal, backupDir(layout), `it rolls changeset ${journal.changeset_id} forward, but the store holds no changeset with that id and hash`, { reason_code: 'changeset', changeset_id: journal.changeset_id });
    }
    await store.mutate(() => storeApplied(store, journal, now().toISOString()));
    await closeJournal(dirs, layout);
    return { changeset_id: journal.changeset_id, step: journal.step, action: 'rolled_forward' };
  }
  try {
    await restoreFiles(dirs, layout, journal);
    await closeJournal(dirs, layout);
  } catch (error) {
    // A file edited or removed since the crash is never overwritten: nothing was written, the journal and backups stay.
    if (error instanceof RestoreConflict) throw errors.applicationRecoveryConflict(journal.changeset_id, layout.applicationJournal, backupDir(layout), error.files, { cause: error });
    throw errors.applicationInProgress(journal.changeset_id, { journal: layout.applicationJournal, backup_dir: backupDir(layout), restored: false, reason: `recovery could not roll the interrupted application back: ${reasonOf(error)}` }, { cause: error });
  }
  return { changeset_id: journal.changeset_id, step: journal.step, action: 'rolled_back' };
}

/**
 * Recovers an interrupted application of this project's state directory (the next gated process
 * start, or the next apply): to the exact before or the exact after state the journal proves, and
 * removes the backups and temp files a killed application left.
 * @param descriptor the project's descriptor: every journal entry is re-confined to its real content roots
 * @param options.lockTimeoutMs longest wait for the application lock (default {@link APPLICATION_LOCK_TIMEOUT_MS})
 * @returns what was done, or null when no journal was open
 * @throws DocforgeError `application_journal_invalid` (nothing changed) for a journal failing its
 *   schema or confinement; `application_recovery_conflict` (nothing changed) when a file holds
 *   neither recorded state; `application_in_progress` when a rollback cannot complete; `lock_timeout`
 */
export async function recoverApplication(store: ChangesetStore, descriptor: Descriptor, options: { now?: () => Date; lockTimeoutMs?: number } = {}): Promise<RecoveryOutcome | null> {
  const layout = layoutOf(store);
  if (!journalOpen(layout) && !leftoversPresent(layout)) return null;
  ensureStateDir(layout.root, layout.locksDir);
  return withLock(layout.applicationLock, async () => {
    const dirs = await ConfinedDirs.start(layout.root);
    try {
      return await recoverLocked(store, layout, descriptor, dirs, options.now ?? (() => new Date()));
    } finally {
      await dirs.close();
    }
  }, { timeoutMs: options.lockTimeoutMs ?? APPLICATION_LOCK_TIMEOUT_MS, label: 'canonical_application' });
}

/**
 * Applies changeset `id` with its exact final hash `expectedSha256`.
 * @returns the applied document, its receipt and the changed files
 * Every canonical write goes through a {@link ConfinedDirs} child (verified folder handles; issue
 * 30 item 16): a folder moved or replaced during the application fails it and rolls it back.
 * @throws DocforgeError `canonical_applier_unavailable` when the descriptor no longer declares
 *   `options.applier` (see {@link checkApplierStillDeclared}); `changeset_not_found`; `application_refused` (`details.reason_code`:
 *   `hash_mismatch`, `not_ready`, `writer_not_allowed`, `stale_base` (also a missing content
 *   folder, never re-created), `invalid`) before any file is touched; `application_failed` (stage
 *   `write` or `verify`) with `restored: true` after every file was restored, or `restored: false`
 *   naming the journal left open when the rollback could not complete; `application_in_progress`
 *   when an earlier interrupted application cannot be recovered, or the commit after a verified
 *   write fails (the journal rolls forward); `path_outside_root`; `lock_timeout`
 */
export async function applyChangeset(store: ChangesetStore, view: ProjectView, id: string, expectedSha256: string, options: ApplyOptions): Promise<ApplyOutcome> {
  // The applier bound at start must still be the one the project declares (break-it trial 48).
  checkApplierStillDeclared(view.descriptor, options.applier);
  const layout = layoutOf(store);
  const now = options.now ?? (() => new Date());
  const faults = options.faults ?? store.faults;
  ensureStateDir(layout.root, layout.locksDir);
  return withLock(layout.applicationLock, async () => {
    const dirs = options.dirs ?? (await ConfinedDirs.start(view.root, { marker: faults.point === 'apply_kill_temp_written' ? faults.marker : null }));
    try {
      const run: ApplyRun = { layout, view, dirs, faults };
      const recovered = await recoverLocked(store, layout, view.descriptor, dirs, now);
      return await store.mutate(() => applyLocked(store, run, id, expectedSha256, options, now, recovered));
    } finally {
      if (options.dirs === undefined) await dirs.close();
    }
  }, { timeoutMs: APPLICATION_LOCK_TIMEOUT_MS, label: 'canonical_application' });
}

/** Revalidates, stages, writes, verifies and commits (holding the application and store locks). */
async function applyLocked(store: ChangesetStore, run: ApplyRun, id: string, expectedSha256: string, options: ApplyOptions, now: () => Date, recovered: RecoveryOutcome | null): Promise<ApplyOutcome> {
  const doc = store.get(id);
  checkApplicable(doc, run.view, expectedSha256, options.applierId);
  const evaluation = evaluateStored(run.view, store, doc);
  const blocking = evaluation.findings.filter((f) => f.severity === 'error');
  if (blocking.length > 0) {
    throw errors.applicationRefused(id, `revalidation on the current canonical base found ${blocking.length} error finding(s), first: ${blocking[0]!.code}: ${blocking[0]!.message}`, { reason_code: 'invalid', findings: blocking.slice(0, 20) });
  }
  const staged = await stage(run, evaluation.workspace, doc, options.applierId, options.applier);
  if (staged.journal.files.length === 0) throw errors.applicationRefused(id, 'the changeset changes no canonical file', { reason_code: 'invalid' });
  await writeStaged(run, staged);
  await verify(run, evaluation.workspace, staged, evaluation.projection.outcomes.map((o) => o.new_node_id ?? o.node_id));
  const journal = staged.journal;
  journal.step = 'verified';
  await writeJournal(run.dirs, run.layout, journalRecord(journal));
  await killPoint(run.faults, 'verified');
  let stored: { doc: ChangesetDocument; receipt: LifecycleReceipt };
  try {
    stored = storeApplied(store, journal, now().toISOString());
    journal.step = 'committed';
    await writeJournal(run.dirs, run.layout, journalRecord(journal));
  } catch (error) {
    // The files are verified to be the after state and the journal says so: recovery rolls forward.
    throw errors.applicationInProgress(journal.changeset_id, { journal: run.layout.applicationJournal, backup_dir: backupDir(run.layout), restored: false, step: 'verified', reason: `storing the applied receipt failed: ${reasonOf(error)}` }, { cause: error });
  }
  await killPoint(run.faults, 'committed');
  try {
    await closeJournal(run.dirs, run.layout);
  } catch (error) {
    // Committed: the receipt is stored and every file is the after state. A journal left open is
    // rolled forward (idempotently) by the next recovery, so the committed answer stands.
    if (!(error instanceof Error)) throw error;
  }
  return { doc: stored.doc, receipt: stored.receipt, files: filesOf(journal), recovered };
}

/** The refusals that precede any projection: exact hash, status, ownership, staleness. */
function checkApplicable(doc: ChangesetDocument, view: ProjectView, expectedSha256: string, applierId: string): void {
  if (doc.changeset_sha256 !== expectedSha256) {
    throw errors.applicationRefused(doc.id, `the given SHA-256 ${expectedSha256} is not the changeset's exact final hash; review the changeset again and pass the hash you approved`, { reason_code: 'hash_mismatch' });
  }
  if (doc.status !== 'ready') {
    throw errors.applicationRefused(doc.id, `the changeset is ${doc.status}, not ready${doc.status === 'applied' ? ' (it was already applied: never apply the same change twice)' : ''}`, { reason_code: 'not_ready', status: doc.status });
  }
  const policy = Object.prototype.hasOwnProperty.call(view.descriptor.proposals.appliers, applierId) ? view.descriptor.proposals.appliers[applierId] : undefined;
  if (policy !== undefined && !policy.writers.includes(doc.writer)) {
    throw errors.applicationRefused(doc.id, `the proposal policy lets applier ${JSON.stringify(applierId)} apply changesets of ${policy.writers.map((w) => JSON.stringify(w)).join(', ') || 'no writer'} only, not of ${JSON.stringify(doc.writer)}`, { reason_code: 'writer_not_allowed', writer: doc.writer, applier: applierId });
  }
  const stale = deriveStaleness(doc, view);
  if (stale !== null) {
    throw errors.applicationRefused(doc.id, `the changeset is stale (${stale.reason}${stale.node_ids.length > 0 ? `: ${stale.node_ids.join(', ')}` : ''}${stale.paths.length > 0 ? `: ${stale.paths.join(', ')}` : ''}); rebase it and review again`, { reason_code: 'stale_base', stale });
  }
}

