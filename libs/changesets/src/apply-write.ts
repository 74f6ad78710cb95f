/**
 * The write half of canonical application (issue 11, item 2; issue 30, items 16, 17 and 24):
 * staging by verified folder handles, backups, the journal, the writes, and the rollback. Every
 * create, write, rename, restore, removal and mkdir goes through one {@link ConfinedDirs} (a
 * child process acting only inside folders it verified by (dev, ino), walking without following
 * links), so a content folder swapped for a symbolic link during apply can never redirect a write:
 * the write lands in the verified folder or fails, and a folder moved or replaced meanwhile fails
 * the application, which rolls back. A rollback that cannot complete says so (`restored: false`,
 * the journal named and left open), never "nothing was changed".
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { DocforgeError, errors, sha256, type TestFaults } from '@docforge/core';
import { ConfinedDirError, replaceProblem, type ConfinedDirs, type DirHandle, type StateLayout } from '@docforge/fs-safe';
import type { CanonicalApplier } from './applier.js';
import { applyTarget, folderPlan, type FolderPlan } from './apply-target.js';
import {
  applicationHandle, backupHandle, backupDir, closeJournal, faultSet, fileStates, JOURNAL_VERSION, killPoint, placeOf, restoreFiles, writeJournal, type Journal, type JournalFile,
} from './journal.js';
import { realContentRoots } from './journal-check.js';
import type { ChangesetDocument } from './types.js';
import type { ProjectView, Workspace } from './workspace.js';

/** One staged file: its journal entry, its folder plan and the folder verified at staging. */
export interface StagedFile extends JournalFile {
  plan: FolderPlan;
  folder: DirHandle;
}

/** A staged application: the journal (in memory), the texts to write, the folders used. */
export interface StagedApply {
  journal: Omit<Journal, 'files'> & { files: StagedFile[] };
  texts: Map<string, string | null>;
}

/** What one application works with. */
export interface ApplyRun {
  layout: StateLayout;
  view: ProjectView;
  dirs: ConfinedDirs;
  faults: TestFaults;
}

/** The journal as stored (no in-memory fields). */
export function journalRecord(journal: Journal): Journal {
  const files = journal.files.map(({ path: p, target, before_sha256, after_sha256, backup, link }) => ({ path: p, target, before_sha256, after_sha256, backup, link }));
  return { ...journal, files };
}

function staleFile(id: string, rel: string, why: string): Error {
  return errors.applicationRefused(id, `${rel} ${why}`, { reason_code: 'stale_base', path: rel });
}

/** The sentence of a failure, without the internal_error wrapping ("nothing was changed" would be untrue here). */
export function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The text of an existing staged file, read through its verified folder (a link or non-file is a change). */
async function diskText(dirs: ConfinedDirs, folder: DirHandle, name: string, id: string, rel: string): Promise<string | null> {
  try {
    return (await dirs.read(folder, name))?.toString('utf8') ?? null;
  } catch (error) {
    if (error instanceof ConfinedDirError) throw staleFile(id, rel, `cannot be read back through its verified folder (${error.message})`);
    throw error;
  }
}

/**
 * Refuses, before any write, a file a rename cannot replace keeping who may read it (applier trial
 * F2; fs-safe `replaceProblem`): more than one hard link, or an owner or group this process cannot give.
 * @throws DocforgeError `application_refused` (`reason_code` `hard_link` or `owner`; `stale_base` when its folder changed)
 */
async function checkReplaceable(dirs: ConfinedDirs, folder: DirHandle, name: string, id: string, rel: string): Promise<void> {
  let problem;
  try {
    const kept = await dirs.entry(folder, name);
    problem = kept === null ? null : replaceProblem(kept);
  } catch (error) {
    if (error instanceof ConfinedDirError) throw staleFile(id, rel, `cannot be checked through its verified folder (${error.message})`);
    throw error;
  }
  if (problem !== null) throw errors.applicationRefused(id, `${rel} ${problem.reason}`, { reason_code: problem.code, path: rel });
}

/**
 * Stages every changed file of the projected workspace (step `prepared`, nothing written): its
 * target by the apply confinement rules, its folder verified by handle (dev, ino), and its bytes
 * on disk, read through that handle, must still be the base the projection read.
 * @throws DocforgeError `path_outside_root`; `application_refused` (`stale_base`) for a changed
 *   file or a missing content folder
 */
export async function stage(run: ApplyRun, ws: Workspace, doc: ChangesetDocument, applierId: string, applier: CanonicalApplier): Promise<StagedApply> {
  const descriptor = run.view.descriptor;
  const roots = realContentRoots(descriptor);
  const files: StagedFile[] = [];
  const texts = new Map<string, string | null>();
  for (const rel of ws.changedPaths()) {
    const before = ws.baseText(rel);
    let after = ws.text(rel);
    if (applier.stage !== undefined) after = applier.stage({ path: rel, before, after });
    let placed;
    let plan;
    try {
      placed = applyTarget(descriptor, rel, before !== null, roots);
      plan = folderPlan(descriptor, rel, placed.target);
    } catch (error) {
      // A path that changes while it is resolved (ENOENT, or EINVAL from a folder swapped between lstat and readlink) is a changed base.
      if (!(error instanceof DocforgeError) && typeof (error as NodeJS.ErrnoException).code === 'string') throw staleFile(doc.id, rel, `changed on disk since the projection read it (${(error as Error).message})`);
      throw error;
    }
    if (typeof plan === 'string') throw staleFile(doc.id, rel, `cannot be written: ${plan}`);
    const folder = await openFolder(run.dirs, doc, rel, plan.existing);
    if (before !== null && (await diskText(run.dirs, folder, plan.name, doc.id, rel)) !== before) throw staleFile(doc.id, rel, 'changed on disk since the projection read it');
    if (before !== null) await checkReplaceable(run.dirs, folder, plan.name, doc.id, rel);
    files.push({ path: rel, target: placed.target, before_sha256: before === null ? null : sha256(before), after_sha256: after === null ? null : sha256(after), backup: null, link: after === null ? placed.link : null, plan, folder });
    texts.set(rel, after);
  }
  const journal = { schema_version: JOURNAL_VERSION as typeof JOURNAL_VERSION, changeset_id: doc.id, changeset_sha256: doc.changeset_sha256, applier: applierId, step: 'prepared' as const, started_at: new Date().toISOString(), files, made_folders: madeFolders(files) };
  return { journal, texts };
}

/** The folders the staged files make, shallowest first, each once (journal `made_folders`). */
function madeFolders(files: readonly StagedFile[]): string[] {
  const made = new Set<string>();
  for (const { plan } of files) {
    let rel = plan.existing;
    for (const name of plan.create) {
      rel = rel === '' ? name : `${rel}/${name}`;
      made.add(rel);
    }
  }
  return [...made];
}

async function openFolder(dirs: ConfinedDirs, doc: ChangesetDocument, rel: string, folder: string): Promise<DirHandle> {
  try {
    return await dirs.open(folder);
  } catch (error) {
    if (error instanceof ConfinedDirError) throw staleFile(doc.id, rel, `cannot be written: its folder ${folder || '.'} changed (${error.message})`);
    throw error;
  }
}

/** Writes the backups of every existing file (read through its verified folder) and the epoch token. */
async function writeBackups(run: ApplyRun, staged: StagedApply): Promise<void> {
  const app = await applicationHandle(run.dirs, run.layout);
  // The epoch changes before any canonical byte does: a build that read sources before now never publishes.
  await run.dirs.write(app, path.basename(run.layout.applicationEpoch), randomBytes(12).toString('hex'));
  const backups = await backupHandle(run.dirs, run.layout);
  for (const [i, file] of staged.journal.files.entries()) {
    if (file.before_sha256 === null) continue;
    const bytes = await run.dirs.read(file.folder, file.plan.name);
    if (bytes === null || sha256(bytes) !== file.before_sha256) throw staleFile(staged.journal.changeset_id, file.path, 'changed on disk while it was backed up');
    file.backup = `file-${i}`;
    // The backup keeps the file's permission bits (no more readable than the file; a restore of a deleted file takes them back).
    await run.dirs.write(backups, file.backup, bytes, false, ((await run.dirs.entry(file.folder, file.plan.name))?.mode ?? 0o600) & 0o777);
  }
}

/** Writes or deletes one staged file in its verified folder, making its new subfolders one at a time. */
async function writeOne(run: ApplyRun, staged: StagedApply, file: StagedFile, kill: boolean): Promise<DirHandle> {
  const text = staged.texts.get(file.path) ?? null;
  if (text === null) {
    if (file.link === null) await run.dirs.unlink(file.folder, file.plan.name);
    else {
      const link = placeOf(run.dirs.root, path.join(run.dirs.root, ...file.path.split('/')));
      await run.dirs.unlink(await run.dirs.open(link.dir), link.name);
    }
    return file.folder;
  }
  let folder = file.folder;
  for (const name of file.plan.create) {
    folder = await run.dirs.mkdir(folder, name);
  }
  await run.dirs.write(folder, file.plan.name, text, kill);
  return folder;
}

async function halfPoint(faults: TestFaults, last: boolean): Promise<void> {
  await killPoint(faults, 'half_written');
  if (faultSet(faults, 'apply_half_written')) throw new Error(`test fault point apply_half_written: failure after ${last ? 'the' : 'half the'} files were written`);
}

/**
 * Writes backups, the epoch token and the journal, then every staged file; then checks that every
 * folder written is still the verified one at its path. A failure rolls back.
 * @throws DocforgeError `application_failed` with stage `write` (`restored` true, or false naming the open journal)
 */
export async function writeStaged(run: ApplyRun, staged: StagedApply): Promise<void> {
  try {
    await writeBackups(run, staged);
    await killPoint(run.faults, 'backed_up');
    await writeJournal(run.dirs, run.layout, journalRecord(staged.journal));
  } catch (error) {
    // No canonical file was touched: drop the backups (a kill here leaves them to recovery).
    await closeJournal(run.dirs, run.layout);
    if (error instanceof ConfinedDirError) throw errors.applicationFailed(staged.journal.changeset_id, 'write', `before any canonical file was written: ${error.message}`, {}, { cause: error });
    throw error;
  }
  await killPoint(run.faults, 'prepared');
  try {
    staged.journal.step = 'writing';
    await writeJournal(run.dirs, run.layout, journalRecord(staged.journal));
    const files = staged.journal.files;
    const used: DirHandle[] = [];
    // Test kill point: the first file written (not deleted) stops with its temp file on disk.
    const killAt = files.findIndex((f) => staged.texts.get(f.path) != null);
    for (let i = 0; i < files.length; i += 1) {
      if (i === Math.ceil(files.length / 2)) await halfPoint(run.faults, false);
      used.push(await writeOne(run, staged, files[i]!, i === killAt && faultSet(run.faults, 'apply_kill_temp_written')));
    }
    if (files.length === 1) await halfPoint(run.faults, true);
    for (const folder of used) {
      if (!(await run.dirs.stillThere(folder))) throw new ConfinedDirError('moved_after', `the folder ${folder.rel || '.'} was moved or replaced while the files were written`);
    }
    staged.journal.step = 'written';
    await writeJournal(run.dirs, run.layout, journalRecord(staged.journal));
    await killPoint(run.faults, 'written');
  } catch (error) {
    await rollBack(run, staged, 'write', reasonOf(error), error);
  }
}

/**
 * Restores every file not at its before bytes from the backups (a file already there is not
 * written), proves it by hash, removes temp files and the folders this application made, and
 * closes the journal; then answers `application_failed`.
 * @throws DocforgeError `application_failed`, always: `restored: true` and `details.rewritten` after a
 *   complete rollback; `restored: false` with `details.journal` (left open for recovery) and
 *   `details.files` (each file's state) when the rollback could not complete or a file holds neither state
 */
export async function rollBack(run: ApplyRun, staged: StagedApply, stageName: 'write' | 'verify', reason: string, cause?: unknown): Promise<never> {
  let rewritten: number;
  try {
    // Also removes the folders this application made (journal `made_folders`), when empty again.
    rewritten = await restoreFiles(run.dirs, run.layout, journalRecord(staged.journal));
    await closeJournal(run.dirs, run.layout);
  } catch (failure) {
    // Say what is true of each file (applier trial F3), when the files can still be read.
    const files = await fileStates(run.dirs, journalRecord(staged.journal)).catch(() => undefined);
    throw errors.applicationFailed(staged.journal.changeset_id, stageName, reason, {
      restored: false, journal: run.layout.applicationJournal, backup_dir: backupDir(run.layout), rollback_error: reasonOf(failure), ...(files === undefined ? {} : { files }),
    }, { cause: failure });
  }
  throw errors.applicationFailed(staged.journal.changeset_id, stageName, reason, { rewritten }, cause === undefined ? undefined : { cause });
}
