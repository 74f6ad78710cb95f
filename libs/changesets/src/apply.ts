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
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { canonicalJson, errors, sha256, toDocforgeError, type TestFaults } from '@docforge/core';
import { ensureStateDir, stateLayout, withLock, writeFileAtomic, type StateLayout } from '@docforge/fs-safe';
import type { CanonicalApplier } from './applier.js';
import { evaluateStored } from './lifecycle.js';
import {
  backupDir, closeJournal, deleteFile, faultSet, filesAfter, journalOpen, JOURNAL_VERSION, killPoint, restoreFiles, writeJournal, type Journal, type JournalFile,
} from './journal.js';
import { loadJournal, realContentRoots } from './journal-check.js';
import { confineProposalPath, protectedPathProblem } from './policy.js';
import { writeTargetOf } from './confinement.js';
import { deriveStaleness } from './status.js';
import type { ChangesetStore } from './store.js';
import type { ChangesetDocument, LifecycleReceipt } from './types.js';
import type { Descriptor } from '@docforge/project';
import { Workspace, type ProjectView } from './workspace.js';

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

/**
 * Recovers an interrupted application, if a journal is open (call holding the application lock):
 * steps before `verified` roll back from the backups; `verified` and `committed` roll forward
 * when every file proves to be the after state (else they roll back too).
 * @throws Error when a restore cannot be proven by hash (the journal stays open)
 */
async function recoverLocked(store: ChangesetStore, layout: StateLayout, descriptor: Descriptor, now: () => Date): Promise<RecoveryOutcome | null> {
  const journal = loadJournal(layout, descriptor);
  if (journal === null) return null;
  if ((journal.step === 'verified' || journal.step === 'committed') && filesAfter(journal)) {
    let doc: ChangesetDocument | null;
    try {
      doc = store.read(journal.changeset_id);
    } catch {
      doc = null;
    }
    if (doc === null || doc.changeset_sha256 !== journal.changeset_sha256) {
      throw errors.applicationJournalInvalid(layout.applicationJournal, backupDir(layout), `it rolls changeset ${journal.changeset_id} forward, but the store holds no changeset with that id and hash`, { reason_code: 'changeset', changeset_id: journal.changeset_id });
    }
    await store.mutate(() => storeApplied(store, journal, now().toISOString()));
    closeJournal(layout);
    return { changeset_id: journal.changeset_id, step: journal.step, action: 'rolled_forward' };
  }
  restoreFiles(layout, journal, descriptor.root);
  closeJournal(layout);
  return { changeset_id: journal.changeset_id, step: journal.step, action: 'rolled_back' };
}

/**
 * Recovers an interrupted application of this project's state directory (the next gated process
 * start, or the next apply): to the exact before or the exact after state the journal proves.
 * @param descriptor the project's descriptor: every journal entry is re-confined to its real content roots
 * @returns what was done, or null when no journal was open
 * @throws DocforgeError `application_journal_invalid` (nothing changed) for a journal failing its
 *   schema or confinement; `lock_timeout`; Error when a restore cannot be proven
 */
export async function recoverApplication(store: ChangesetStore, descriptor: Descriptor, options: { now?: () => Date } = {}): Promise<RecoveryOutcome | null> {
  const layout = layoutOf(store);
  if (!journalOpen(layout)) return null;
  ensureStateDir(layout.root, layout.locksDir);
  return withLock(layout.applicationLock, () => recoverLocked(store, layout, descriptor, options.now ?? (() => new Date())), { timeoutMs: APPLICATION_LOCK_TIMEOUT_MS, label: 'canonical_application' });
}

/** Where a staged file is written: the rule the proposal and validation run too (confinement.ts). */
function targetOf(view: ProjectView, rel: string, exists: boolean, roots: readonly string[]): { target: string; link: string | null } {
  return writeTargetOf({ descriptor: view.descriptor, roots, confine: confineProposalPath, protectedProblem: protectedPathProblem }, rel, exists);
}

/**
 * Applies changeset `id` with its exact final hash `expectedSha256`.
 * @returns the applied document, its receipt and the changed files
 * @throws DocforgeError `changeset_not_found`; `application_refused` (`details.reason_code`:
 *   `hash_mismatch`, `not_ready`, `writer_not_allowed`, `stale_base`, `invalid`) before any file
 *   is touched; `application_failed` (stage `write` or `verify`) after every file was restored;
 *   `path_outside_root`; `lock_timeout`
 */
export async function applyChangeset(store: ChangesetStore, view: ProjectView, id: string, expectedSha256: string, options: ApplyOptions): Promise<ApplyOutcome> {
  const layout = layoutOf(store);
  const now = options.now ?? (() => new Date());
  const faults = options.faults ?? store.faults;
  ensureStateDir(layout.root, layout.locksDir);
  return withLock(layout.applicationLock, async () => {
    const recovered = await recoverLocked(store, layout, view.descriptor, now);
    return store.mutate(async () => {
      const doc = store.get(id);
      checkApplicable(doc, view, expectedSha256, options.applierId);
      const evaluation = evaluateStored(view, store, doc);
      const blocking = evaluation.findings.filter((f) => f.severity === 'error');
      if (blocking.length > 0) {
        throw errors.applicationRefused(id, `revalidation on the current canonical base found ${blocking.length} error finding(s), first: ${blocking[0]!.code}: ${blocking[0]!.message}`, { reason_code: 'invalid', findings: blocking.slice(0, 20) });
      }
      const ws = evaluation.workspace;
      const journal = stage(view, ws, doc, options);
      if (journal.files.length === 0) throw errors.applicationRefused(id, 'the changeset changes no canonical file', { reason_code: 'invalid' });
      await writeStaged(layout, view, journal, faults);
      verify(view, ws, journal, faults, evaluation.projection.outcomes.map((o) => o.new_node_id ?? o.node_id));
      journal.step = 'verified';
      writeJournal(layout, journal);
      await killPoint(faults, 'verified');
      const stored = storeApplied(store, journal, now().toISOString());
      journal.step = 'committed';
      writeJournal(layout, journal);
      await killPoint(faults, 'committed');
      closeJournal(layout);
      return { doc: stored.doc, receipt: stored.receipt, files: filesOf(journal), recovered };
    });
  }, { timeoutMs: APPLICATION_LOCK_TIMEOUT_MS, label: 'canonical_application' });
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

/** Stages every changed file of the projected workspace as a journal (step `prepared`, not yet written). */
function stage(view: ProjectView, ws: Workspace, doc: ChangesetDocument, options: ApplyOptions): Journal & { texts: Map<string, string | null> } {
  const roots = realContentRoots(view.descriptor);
  const files: JournalFile[] = [];
  const texts = new Map<string, string | null>();
  for (const rel of ws.changedPaths()) {
    const before = ws.baseText(rel);
    let after = ws.text(rel);
    if (options.applier.stage !== undefined) after = options.applier.stage({ path: rel, before, after });
    const { target, link } = targetOf(view, rel, before !== null, roots);
    // The bytes on disk must still be the base the projection read.
    let disk: string | null = null;
    try {
      disk = before === null ? null : readFileSync(target, 'utf8');
    } catch {
      disk = null;
    }
    if (disk !== before) throw errors.applicationRefused(doc.id, `${rel} changed on disk since the projection read it`, { reason_code: 'stale_base', path: rel });
    files.push({ path: rel, target, before_sha256: before === null ? null : sha256(before), after_sha256: after === null ? null : sha256(after), backup: null, link: after === null ? link : null });
    texts.set(rel, after);
  }
  return { schema_version: JOURNAL_VERSION, changeset_id: doc.id, changeset_sha256: doc.changeset_sha256, applier: options.applierId, step: 'prepared', started_at: new Date().toISOString(), files, texts };
}

/**
 * Writes backups, the epoch token and the journal, then every staged file; a failure restores
 * every file and closes the journal.
 * @throws DocforgeError `application_failed` with stage `write`
 */
async function writeStaged(layout: StateLayout, view: ProjectView, journal: Journal & { texts: Map<string, string | null> }, faults: TestFaults): Promise<void> {
  ensureStateDir(layout.root, layout.applicationDir);
  // The epoch changes before any canonical byte does: a build that read sources before now never publishes.
  writeFileAtomic(layout.applicationEpoch, randomBytes(12).toString('hex'));
  mkdirSync(backupDir(layout), { recursive: true });
  journal.files.forEach((file, i) => {
    if (file.before_sha256 === null) return;
    file.backup = `file-${i}`;
    writeFileAtomic(path.join(backupDir(layout), file.backup), readFileSync(file.target));
  });
  writeJournal(layout, stripTexts(journal));
  await killPoint(faults, 'prepared');
  try {
    journal.step = 'writing';
    writeJournal(layout, stripTexts(journal));
    const half = Math.ceil(journal.files.length / 2);
    for (let i = 0; i < journal.files.length; i += 1) {
      if (i === half) {
        await killPoint(faults, 'half_written');
        if (faultSet(faults, 'apply_half_written')) throw new Error('test fault point apply_half_written: failure after half the files were written');
      }
      const file = journal.files[i]!;
      const text = journal.texts.get(file.path) ?? null;
      if (text === null) deleteFile(file, path.join(view.root, file.path));
      else {
        mkdirSync(path.dirname(file.target), { recursive: true });
        writeFileAtomic(file.target, text);
      }
    }
    if (journal.files.length === 1) {
      await killPoint(faults, 'half_written');
      if (faultSet(faults, 'apply_half_written')) throw new Error('test fault point apply_half_written: failure after the files were written');
    }
    journal.step = 'written';
    writeJournal(layout, stripTexts(journal));
    await killPoint(faults, 'written');
  } catch (error) {
    rollBack(layout, stripTexts(journal));
    throw errors.applicationFailed(journal.changeset_id, 'write', toDocforgeError(error).message, {}, { cause: error });
  }
}

function stripTexts(journal: Journal & { texts?: unknown }): Journal {
  const { texts: _texts, ...record } = journal;
  return record;
}

function rollBack(layout: StateLayout, journal: Journal): void {
  restoreFiles(layout, journal, layout.root);
  closeJournal(layout);
}

/** What the canonical loader reads from one source path: its complete parse (nodes with every field, edges, links, issues), hashed; `absent` when the walk finds no file there. */
function readBack(ws: Workspace, rel: string): { digest: string; ids: string[] } {
  const parsed = ws.parse(rel);
  if (parsed === null) return { digest: 'absent', ids: [] };
  return { digest: sha256(canonicalJson(parsed)), ids: parsed.nodes.map((n) => n.id) };
}

/**
 * Re-reads every written file as the index build reads it (a fresh {@link Workspace}: the source
 * walk, strict UTF-8 decoding, the canonical loader) and compares it with the approved projection:
 * each file must hash to its staged bytes, each written path must give exactly the projected
 * parse (every node with its content hash, edges, links and issues; a node that vanished, e.g. a
 * file the loader refuses as `invalid_encoding` or one the walk does not reach, is a mismatch),
 * and each touched node must have the projected content hash (or be absent as projected).
 * @throws DocforgeError `application_failed` with stage `verify` after restoring every file
 */
function verify(view: ProjectView, projected: Workspace, journal: Journal & { texts: Map<string, string | null> }, faults: TestFaults, touched: readonly string[]): void {
  const layout = stateLayout(path.join(view.root, view.descriptor.state.dir), view.root);
  if (faultSet(faults, 'apply_verify_mismatch')) {
    const first = journal.files.find((f) => f.after_sha256 !== null);
    if (first !== undefined) writeFileAtomic(first.target, `${readFileSync(first.target, 'utf8')}\ntampered by the test fault point apply_verify_mismatch\n`);
  }
  const record = stripTexts(journal);
  let problem: string | null = null;
  if (!filesAfter(record)) problem = 'a written file does not hold the staged bytes';
  if (problem === null) {
    const fresh = new Workspace(view);
    for (const file of journal.files) {
      const want = readBack(projected, file.path);
      const got = readBack(fresh, file.path);
      if (want.digest !== got.digest) {
        const lost = want.ids.filter((id) => !got.ids.includes(id));
        problem = `${file.path} read back by the canonical loader does not reproduce the approved projection${lost.length > 0 ? ` (node${lost.length > 1 ? 's' : ''} ${lost.slice(0, 5).join(', ')} missing)` : ''}`;
        break;
      }
    }
    for (const id of new Set(touched)) {
      if (problem !== null) break;
      const want = projected.locate(id)?.node.content_hash ?? null;
      const got = fresh.locate(id)?.node.content_hash ?? null;
      if (want !== got) problem = `node ${id} read back from the files does not reproduce the approved projection`;
    }
  }
  if (problem !== null) {
    rollBack(layout, record);
    throw errors.applicationFailed(journal.changeset_id, 'verify', problem);
  }
}
