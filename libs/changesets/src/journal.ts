/**
 * The write-ahead journal of canonical application (issue 11, item 2):
 * `<state>/application/journal.json` plus one backup file per existing staged file in
 * `<state>/application/backup/`. The journal is written (atomically) only after every backup is
 * in place and before any canonical file is touched, and removed only when the files are entirely
 * before or entirely after. Its `step` records how far the application got:
 *
 * `prepared` (no canonical file touched) → `writing` (some written) → `written` (all written,
 * not verified) → `verified` (files reproduce the approved projection; receipt not yet stored) →
 * `committed` (applied receipt stored).
 *
 * Recovery rolls `prepared`, `writing` and `written` back to the exact before state from the
 * backups, and `verified` and `committed` forward (the files are proven to be the after state;
 * the receipt is stored if missing). Every restored or kept file is re-hashed against the journal.
 *
 * Issue 30 (items 16 and 24): every write, restore, link, removal and folder creation here goes
 * through a {@link ConfinedDirs} handle (a verified folder, never a path followed again), and
 * recovery also removes what a killed write leaves: the temp files `.<name>.<pid>.<random>.tmp`
 * beside the targets, and backups or temp files in the application folder without a journal.
 */
import { existsSync, lstatSync, readdirSync, realpathSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import path from 'node:path';
import { errors, sha256, type TestFaults } from '@docforge/core';
import { ConfinedDirError, writeFileAtomic, type ConfinedDirs, type DirHandle, type StateLayout } from '@docforge/fs-safe';

/** Journal steps in order. */
export const JOURNAL_STEPS = Object.freeze(['prepared', 'writing', 'written', 'verified', 'committed'] as const);

/** One journal step. */
export type JournalStep = (typeof JOURNAL_STEPS)[number];

/** Version of the journal format (schema `application-journal`); 2 stores targets relative to the root. */
export const JOURNAL_VERSION = 2;

/** One staged file (in memory; on disk `target` is relative to the real project root). */
export interface JournalFile {
  /** Project-relative path of the node file as the changeset names it. */
  path: string;
  /** Absolute real path written (a symlinked node file is written through to its target). */
  target: string;
  /** SHA-256 of the bytes before (null: the file did not exist). */
  before_sha256: string | null;
  /** SHA-256 of the bytes after (null: the file is deleted). */
  after_sha256: string | null;
  /** Backup file name under `backup/` (null when the file did not exist). */
  backup: string | null;
  /** For a deleted symlink: its link text, restored as a link on rollback. */
  link: string | null;
}

/** The journal document. */
export interface Journal {
  schema_version: typeof JOURNAL_VERSION;
  changeset_id: string;
  changeset_sha256: string;
  applier: string;
  step: JournalStep;
  started_at: string;
  files: JournalFile[];
  /**
   * Folders (relative to the real project root, shallowest first) missing at staging that the
   * application creates; rollback and recovery remove them, deepest first, when empty (break-it
   * trial: recovery left hundreds of empty folders). Absent in older journals.
   */
  made_folders?: string[];
}

/** The backup directory. */
export function backupDir(layout: StateLayout): string {
  return path.join(layout.applicationDir, 'backup');
}

/** Whether a journal file (of any content) is open: recovery must run ({@link loadJournal} validates it). */
export function journalOpen(layout: StateLayout): boolean {
  return present(layout.applicationJournal);
}

/** A path below the layout's root as the POSIX path a {@link ConfinedDirs} handle names. */
export function relToRoot(root: string, abs: string): string {
  return path.relative(root, abs).split(path.sep).join('/');
}

/**
 * Opens (creating each missing one, never through a link) the folder `rel` below the root.
 * Only for the state dir's own folders: content folders are never created this way.
 */
async function ensureDir(dirs: ConfinedDirs, rel: string): Promise<DirHandle> {
  let handle = await dirs.open('');
  for (const segment of rel.split('/')) {
    const entry = await dirs.entry(handle, segment);
    handle = entry === null ? await dirs.mkdir(handle, segment) : await dirs.open(handle.rel === '' ? segment : `${handle.rel}/${segment}`);
  }
  return handle;
}

/** The application folder (`<state>/application`), made when missing, by verified handles. */
export async function applicationHandle(dirs: ConfinedDirs, layout: StateLayout): Promise<DirHandle> {
  return ensureDir(dirs, relToRoot(layout.root, layout.applicationDir));
}

/** The backup folder (`<state>/application/backup`), made when missing, by verified handles. */
export async function backupHandle(dirs: ConfinedDirs, layout: StateLayout): Promise<DirHandle> {
  return ensureDir(dirs, relToRoot(layout.root, backupDir(layout)));
}

/**
 * Writes the journal atomically through the application folder's verified handle, storing every
 * `target` relative to the real project root (schema `application-journal`).
 * @throws DocforgeError `path_outside_root` for a target outside the real project root (nothing written)
 */
export async function writeJournal(dirs: ConfinedDirs, layout: StateLayout, journal: Journal): Promise<void> {
  const rootReal = realpathSync(layout.root);
  const files = journal.files.map((file) => {
    const rel = path.relative(rootReal, file.target);
    if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) throw errors.pathOutsideRoot(`${JSON.stringify(file.path)} resolves outside the project root; canonical application writes only inside it.`, { path: file.path });
    return { path: file.path, target: rel.split(path.sep).join('/'), before_sha256: file.before_sha256, after_sha256: file.after_sha256, backup: file.backup, link: file.link };
  });
  const { schema_version, changeset_id, changeset_sha256, applier, step, started_at } = journal;
  const record = { schema_version, changeset_id, changeset_sha256, applier, step, started_at, files, ...(journal.made_folders === undefined ? {} : { made_folders: journal.made_folders }) };
  await dirs.write(await applicationHandle(dirs, layout), path.basename(layout.applicationJournal), `${JSON.stringify(record, null, 2)}\n`);
}

/** Whether `name` is a temp file of an atomic write of `of` (`.<of>.<pid>.<12 hex>.tmp`). */
export function isTempOf(name: string, of: string): boolean {
  return name.startsWith(`.${of}.`) && /^\.\d+\.[0-9a-f]{12}\.tmp$/.test(name.slice(of.length + 1));
}

function stateTemp(layout: StateLayout, name: string): boolean {
  return isTempOf(name, path.basename(layout.applicationJournal)) || isTempOf(name, path.basename(layout.applicationEpoch));
}

/**
 * Removes the journal, then the backups (the journal goes first: a journal never outlives its
 * backups), then any temp file a killed write left in the application folder. By verified handles.
 */
export async function closeJournal(dirs: ConfinedDirs, layout: StateLayout): Promise<void> {
  if (!present(layout.applicationDir)) return;
  const app = await dirs.open(relToRoot(layout.root, layout.applicationDir));
  await dirs.unlink(app, path.basename(layout.applicationJournal));
  const backup = await dirs.entry(app, 'backup');
  if (backup !== null && backup.type === 'dir') {
    const handle = await dirs.open(relToRoot(layout.root, backupDir(layout)));
    for (const name of await dirs.list(handle)) await dirs.unlink(handle, name);
    await dirs.rmdir(app, 'backup');
  } else if (backup !== null) await dirs.unlink(app, 'backup');
  for (const name of await dirs.list(app)) if (stateTemp(layout, name)) await dirs.unlink(app, name);
}

/** Whether an interrupted application left backups or temp files in the application folder. */
export function leftoversPresent(layout: StateLayout): boolean {
  if (present(backupDir(layout))) return true;
  try {
    return readdirSync(layout.applicationDir).some((name) => stateTemp(layout, name));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR') return false;
    throw error;
  }
}

/** Where a target lives: its folder relative to the real root, and its name there. */
export function placeOf(rootReal: string, target: string): { dir: string; name: string } {
  return { dir: relToRoot(rootReal, path.dirname(target)), name: path.basename(target) };
}

/** Opens a folder by path, or null when it is missing (a link or a replaced folder still fails). */
export async function openOrNull(dirs: ConfinedDirs, rel: string): Promise<DirHandle | null> {
  try {
    return await dirs.open(rel);
  } catch (error) {
    if (error instanceof ConfinedDirError && error.code === 'missing') return null;
    throw error;
  }
}

/** The SHA-256 of the file at a target (read by verified handle, O_NOFOLLOW), or null when absent. */
export async function targetSha(dirs: ConfinedDirs, target: string): Promise<string | null> {
  const { dir, name } = placeOf(dirs.root, target);
  const handle = await openOrNull(dirs, dir);
  if (handle === null) return null;
  const bytes = await dirs.read(handle, name);
  return bytes === null ? null : sha256(bytes);
}

async function restoreOne(dirs: ConfinedDirs, file: JournalFile, backups: DirHandle | null): Promise<void> {
  const { dir, name } = placeOf(dirs.root, file.target);
  if (file.before_sha256 === null) {
    // A created file: remove it; a folder that is gone holds no file to remove.
    const handle = await openOrNull(dirs, dir);
    if (handle !== null) await dirs.unlink(handle, name);
    return;
  }
  if (file.link !== null) {
    const link = placeOf(dirs.root, path.join(dirs.root, ...file.path.split('/')));
    const handle = await dirs.open(link.dir);
    if ((await dirs.entry(handle, link.name)) === null) await dirs.symlink(handle, link.name, file.link);
    if ((await targetSha(dirs, file.target)) === file.before_sha256) return;
  }
  const bytes = backups === null ? null : await dirs.read(backups, file.backup!);
  if (bytes === null) throw new Error(`the backup ${file.backup} of ${file.path} is missing`);
  // Never re-created: a missing folder of an existing file fails the restore (the journal stays open).
  // A file absent now (deleted by the change) takes back its permission bits from the backup.
  await dirs.write(await dirs.open(dir), name, bytes, false, (await dirs.entry(backups!, file.backup!))?.mode);
}

/** Where one journal file stands now: its before bytes, its after bytes, or `neither` (edited or removed since, or no longer a file). */
export interface FileCheck {
  path: string;
  state: 'before' | 'after' | 'neither';
  /** SHA-256 of the bytes there now (null: absent or unreadable). */
  sha256: string | null;
  /** Its backup file name under `backup/` (null: the file did not exist before). */
  backup: string | null;
  /**
   * The by-hand step that brings a `neither` file back to its before state (null for the others):
   * `copy_backup_back`, `recreate_folder_and_copy_backup_back` (the file went with its folder),
   * or `delete_created_file` (the change created it: it has no backup; keeping it means keeping the edits).
   */
  remedy: 'copy_backup_back' | 'recreate_folder_and_copy_backup_back' | 'delete_created_file' | null;
}

/**
 * The state of every journal file, by hash through verified handles (F1 of the applier trial).
 * @throws ConfinedDirError when a folder on the way is moved or a link (the caller writes nothing); a
 *   missing folder makes its file `neither` when it existed before
 */
export async function fileStates(dirs: ConfinedDirs, journal: Journal): Promise<FileCheck[]> {
  const out: FileCheck[] = [];
  for (const file of journal.files) {
    // A name that is no longer a regular file holds neither state, as does a file gone with its
    // folder (break-it trial ap2, F2). A folder moved or swapped for a link fails the check (nothing is written).
    const { dir, name } = placeOf(dirs.root, file.target);
    const folder = await openOrNull(dirs, dir);
    const now = folder === null ? null : await dirs.read(folder, name).then((b) => (b === null ? null : sha256(b)), (error: unknown) => {
      if (error instanceof ConfinedDirError && error.code === 'not_file') return undefined;
      throw error;
    });
    const state = now === undefined ? 'neither' : now === file.before_sha256 ? 'before' : now === file.after_sha256 ? 'after' : 'neither';
    const remedy = state !== 'neither' ? null : file.backup === null ? 'delete_created_file' : folder === null ? 'recreate_folder_and_copy_backup_back' : 'copy_backup_back';
    out.push({ path: file.path, state, sha256: now ?? null, backup: file.backup, remedy });
  }
  return out;
}

/** A rollback refused before any write: some of `files` (every journal file's state) hold neither state the journal records, so writing would lose their bytes. */
export class RestoreConflict extends Error {
  constructor(readonly files: FileCheck[]) {
    super(`${files.filter((f) => f.state === 'neither').map((f) => f.path).join(', ')} hold(s) neither the before nor the after bytes the journal records (edited or removed since the application began); nothing was overwritten`);
    this.name = 'RestoreConflict';
  }
}

/**
 * Restores every file of the journal to its before state (reverse order) by verified folder
 * handles, proves it by hash, and removes the temp files killed writes left beside the targets.
 * A file already at its before bytes is not written (a read-only folder holding only such files
 * rolls back); a file at neither state is never overwritten: {@link RestoreConflict} is thrown
 * before any write. Call only with a journal built by this process or confined by {@link loadJournal}.
 * @returns how many files were rewritten from their backups (or removed, for created ones)
 * @throws RestoreConflict (nothing written); Error (or ConfinedDirError) when a file cannot be restored or does not hash to its before state (the journal stays open)
 */
export async function restoreFiles(dirs: ConfinedDirs, layout: StateLayout, journal: Journal): Promise<number> {
  const states = await fileStates(dirs, journal);
  if (states.some((f) => f.state === 'neither')) throw new RestoreConflict(states);
  const backups = await openOrNull(dirs, relToRoot(layout.root, backupDir(layout)));
  let rewritten = 0;
  for (const [i, file] of [...journal.files.entries()].reverse()) {
    // A deleted link's target keeps its before bytes: only the link itself may need restoring.
    if (states[i]!.state === 'before' && file.link === null) continue;
    await restoreOne(dirs, file, backups);
    if (states[i]!.state === 'after') rewritten += 1;
  }
  for (const file of journal.files) {
    const now = await targetSha(dirs, file.target);
    if (now !== file.before_sha256) throw new Error(`restoring ${file.path} did not reproduce its before state (${now ?? 'absent'} instead of ${file.before_sha256 ?? 'absent'})`);
  }
  await removeTemps(dirs, journal);
  await removeMadeFolders(dirs, journal.made_folders ?? []);
  return rewritten;
}

/** Removes the folders an application made, deepest first, when they are empty (a folder holding anything, or gone, stays as it is). */
async function removeMadeFolders(dirs: ConfinedDirs, folders: readonly string[]): Promise<void> {
  for (const rel of [...folders].reverse()) {
    const slash = rel.lastIndexOf('/');
    const parent = await openOrNull(dirs, slash < 0 ? '' : rel.slice(0, slash));
    if (parent === null) continue;
    await dirs.rmdir(parent, rel.slice(slash + 1)).catch((error: unknown) => {
      if (!(error instanceof ConfinedDirError)) throw error;
    });
  }
}

/** Removes the temp files (`.<name>.<pid>.<random>.tmp`) of the journal's targets left by a killed write. */
export async function removeTemps(dirs: ConfinedDirs, journal: Journal): Promise<void> {
  const byDir = new Map<string, Set<string>>();
  for (const file of journal.files) {
    const { dir, name } = placeOf(dirs.root, file.target);
    byDir.set(dir, (byDir.get(dir) ?? new Set<string>()).add(name));
  }
  for (const [dir, names] of byDir) {
    const handle = await openOrNull(dirs, dir);
    if (handle === null) continue;
    for (const entry of await dirs.list(handle)) if ([...names].some((n) => isTempOf(entry, n))) await dirs.unlink(handle, entry);
  }
}

/** Whether every file is in its after state (read by verified handles). */
export async function filesAfter(dirs: ConfinedDirs, journal: Journal): Promise<boolean> {
  for (const file of journal.files) if ((await targetSha(dirs, file.target)) !== file.after_sha256) return false;
  return true;
}

/**
 * Test-only fault point: with `DOCFORGE_TEST_FAULT_POINT=apply_kill_<step>` (read at start into
 * `faults`, @docforge/core's config), the application writes the marker file
 * (`DOCFORGE_TEST_FAULT_MARKER`) once the journal reached `step` and waits, so a test can SIGKILL
 * the process exactly there. No fault is armed in a normal run.
 */
export async function killPoint(faults: TestFaults, step: JournalStep | 'half_written' | 'backed_up'): Promise<void> {
  if (faults.point !== `apply_kill_${step}`) return;
  // Written whole (temp file + rename): a test that sees the marker always reads the pid.
  if (faults.marker !== null) writeFileAtomic(faults.marker, String(process.pid));
  await sleep(120_000);
}

/** Whether the test-only fault point `name` is armed in `faults` (`apply_half_written`, `apply_verify_mismatch`). */
export function faultSet(faults: TestFaults, name: string): boolean {
  return faults.point === name;
}

/** Whether a path exists (no symlink following for the final component). */
export function present(p: string): boolean {
  if (existsSync(p)) return true;
  try {
    lstatSync(p);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR') return false;
    throw error;
  }
}
