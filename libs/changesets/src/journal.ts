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
 */
import { existsSync, lstatSync, mkdirSync, readFileSync, realpathSync, rmSync, symlinkSync, unlinkSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import path from 'node:path';
import { errors, sha256, type TestFaults } from '@docforge/core';
import { ensureStateDir, writeFileAtomic, type StateLayout } from '@docforge/fs-safe';

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
}

/** The backup directory. */
export function backupDir(layout: StateLayout): string {
  return path.join(layout.applicationDir, 'backup');
}

/** Whether a journal file (of any content) is open: recovery must run ({@link loadJournal} validates it). */
export function journalOpen(layout: StateLayout): boolean {
  return present(layout.applicationJournal);
}

/**
 * Writes the journal atomically (creating `application/` as a real directory inside the state dir),
 * storing every `target` relative to the real project root (schema `application-journal`).
 * @throws DocforgeError `path_outside_root` for a target outside the real project root (nothing written)
 */
export function writeJournal(layout: StateLayout, journal: Journal): void {
  ensureStateDir(layout.root, layout.applicationDir);
  const rootReal = realpathSync(layout.root);
  const files = journal.files.map((file) => {
    const rel = path.relative(rootReal, file.target);
    if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) throw errors.pathOutsideRoot(`${JSON.stringify(file.path)} resolves outside the project root; canonical application writes only inside it.`, { path: file.path });
    return { path: file.path, target: rel.split(path.sep).join('/'), before_sha256: file.before_sha256, after_sha256: file.after_sha256, backup: file.backup, link: file.link };
  });
  const { schema_version, changeset_id, changeset_sha256, applier, step, started_at } = journal;
  const record = { schema_version, changeset_id, changeset_sha256, applier, step, started_at, files };
  writeFileAtomic(layout.applicationJournal, `${JSON.stringify(record, null, 2)}\n`);
}

/** Removes the journal, then the backups (the journal goes first: a journal never outlives its backups). */
export function closeJournal(layout: StateLayout): void {
  rmSync(layout.applicationJournal, { force: true });
  rmSync(backupDir(layout), { recursive: true, force: true });
}

/** The SHA-256 of a file's bytes, or null when it does not exist. */
export function fileSha(file: string): string | null {
  try {
    return sha256(readFileSync(file));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/**
 * Restores every file of the journal to its before state (reverse order) and proves it by hash.
 * Call only with a journal built by this process or confined by {@link loadJournal}.
 * @param root absolute project root (a deleted symlinked node file is re-linked at `root/path`)
 * @throws Error when a restored file does not hash to its before state (the journal stays open)
 */
export function restoreFiles(layout: StateLayout, journal: Journal, root: string): void {
  for (const file of [...journal.files].reverse()) {
    if (file.before_sha256 === null) {
      rmSync(file.target, { force: true });
      continue;
    }
    if (file.link !== null) {
      const linkPath = path.join(root, ...file.path.split('/'));
      if (!existsLink(linkPath)) symlinkSync(file.link, linkPath);
      if (fileSha(file.target) === file.before_sha256) continue;
    }
    mkdirSync(path.dirname(file.target), { recursive: true });
    writeFileAtomic(file.target, readFileSync(path.join(backupDir(layout), file.backup!)));
  }
  for (const file of journal.files) {
    const now = fileSha(file.target);
    if (now !== file.before_sha256) throw new Error(`restoring ${file.path} did not reproduce its before state (${now ?? 'absent'} instead of ${file.before_sha256 ?? 'absent'})`);
  }
}

function existsLink(p: string): boolean {
  try {
    lstatSync(p);
    return true;
  } catch {
    return false;
  }
}

/** Deletes a staged file: the link itself for a symlinked node file, else the file. */
export function deleteFile(file: JournalFile, linkPath: string): void {
  if (file.link !== null) unlinkSync(linkPath);
  else rmSync(file.target, { force: true });
}

/** Whether every file is in its after state. */
export function filesAfter(journal: Journal): boolean {
  return journal.files.every((file) => fileSha(file.target) === file.after_sha256);
}

/**
 * Test-only fault point: with `DOCFORGE_TEST_FAULT_POINT=apply_kill_<step>` (read at start into
 * `faults`, @docforge/core's config), the application writes the marker file
 * (`DOCFORGE_TEST_FAULT_MARKER`) once the journal reached `step` and waits, so a test can SIGKILL
 * the process exactly there. No fault is armed in a normal run.
 */
export async function killPoint(faults: TestFaults, step: JournalStep | 'half_written'): Promise<void> {
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
  return existsSync(p) || existsLink(p);
}
