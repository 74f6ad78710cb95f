/**
 * Trusting the write-ahead journal at recovery (attacker-trial fix): `<state>/application/journal.json`
 * is a file anyone with write access to the state dir can plant, so recovery never follows it
 * blindly. {@link loadJournal} validates it against the `application-journal` schema and then
 * re-confines every entry the way the serializer confines writes at apply time: each `path` through
 * {@link confineProposalPath}, each `target` (relative to the real project root) inside a real
 * content root with no symbolic link along it and outside every path DocForge never writes (the
 * descriptor, the state dir, `.git`, a code root: `protectedPathProblem`), each backup a plain file of the journal's own
 * backup directory that hashes to the recorded before state, each deleted link's text resolving
 * back to its target. Any failure refuses the whole journal (`application_journal_invalid`) before
 * a single file is touched.
 */
import { lstatSync, realpathSync, type Stats } from 'node:fs';
import path from 'node:path';
import { errors, sha256, type DocforgeError } from '@docforge/core';
import { isInside, readStateFile, readStateText, type StateLayout } from '@docforge/fs-safe';
import type { Descriptor } from '@docforge/project';
import { describeValidationErrors, validateApplicationJournal } from '@docforge/protocol';
import { backupDir, JOURNAL_VERSION, type Journal, type JournalFile } from './journal.js';
import { contentRootOf, protectedPathProblem } from './policy.js';
import type { ChangesetDocument } from './types.js';

/** Real paths of the descriptor's existing content roots (all inside the real project root). */
export function realContentRoots(descriptor: Descriptor): string[] {
  const rootReal = realpathSync(descriptor.root);
  const roots: string[] = [];
  for (const root of descriptor.sources.content_roots) {
    try {
      const real = realpathSync(path.join(descriptor.root, root));
      if (isInside(rootReal, real)) roots.push(real);
    } catch {
      // A content root that does not exist holds no file to write through.
    }
  }
  return roots;
}

/**
 * The real path of `abs`: the realpath of its deepest existing ancestor joined with the rest.
 * A component that changes kind while it is resolved (EINVAL: a link at lstat, a folder at
 * readlink) is resolved again, up to three times.
 * @throws DocforgeError `path_outside_root` (`reason_code = "changed_during_check"`) when it keeps changing
 */
function realOfExisting(abs: string): string {
  const rest: string[] = [];
  let current = abs;
  let changes = 0;
  for (;;) {
    try {
      return path.join(realpathSync(current), ...[...rest].reverse());
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EINVAL' && changes < 3) {
        changes += 1;
        continue;
      }
      if (code === 'EINVAL') throw errors.pathOutsideRoot(`${JSON.stringify(abs)} changed on disk while it was checked (a folder on the way was moved or replaced)`, { path: abs, reason_code: 'changed_during_check' }, { cause: error });
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error;
      const parent = path.dirname(current);
      if (parent === current) return abs;
      rest.push(path.basename(current));
      current = parent;
    }
  }
}

function lstatOrNull(p: string): Stats | null {
  try {
    return lstatSync(p);
  } catch {
    return null;
  }
}

/**
 * Reads, validates and confines the open journal (call holding the application lock).
 * @returns the journal with absolute, confined `target`s, or null when none is open
 * @throws DocforgeError `application_journal_invalid` (nothing touched) for any schema or confinement failure
 */
export function loadJournal(layout: StateLayout, descriptor: Descriptor): Journal | null {
  const backups = backupDir(layout);
  const refuse = (reason: string, details: Record<string, unknown> = {}): DocforgeError => errors.applicationJournalInvalid(layout.applicationJournal, backups, reason, details);
  let text: string;
  try {
    text = readStateText(layout.applicationJournal);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw refuse(`it cannot be read (${(error as Error).message})`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw refuse(`it is not JSON (${(error as Error).message})`);
  }
  if (!validateApplicationJournal(value)) {
    const [first] = describeValidationErrors(validateApplicationJournal.errors, 1);
    throw refuse(`it does not match the schema application-journal version ${JOURNAL_VERSION} (${first ? `${first.path}: ${first.message}` : 'invalid'})`, { reason_code: 'schema' });
  }
  const stored = value as unknown as Journal;
  const rootReal = realpathSync(descriptor.root);
  const roots = realContentRoots(descriptor);
  // Never a target: the descriptor and anything in the state dir (a content root may be `.`).
  const forbidden = [realOfExisting(descriptor.path), realOfExisting(path.join(rootReal, descriptor.state.dir))];
  const backupStat = lstatOrNull(backups);
  if (backupStat !== null && (!backupStat.isDirectory() || realpathSync(backups) !== path.join(realpathSync(layout.applicationDir), 'backup'))) {
    throw refuse(`its backup directory ${backups} is not a plain directory of the journal directory`, { reason_code: 'backup' });
  }
  const seen = new Set<string>();
  const files = stored.files.map((file, entry): JournalFile => {
    const bad = (why: string, code: string): DocforgeError => refuse(`file entry ${entry} (${JSON.stringify(file.path)}) ${why}`, { reason_code: code, entry, path: file.path });
    if (contentRootOf(file.path, descriptor) === null || file.path === descriptor.state.dir || file.path.startsWith(`${descriptor.state.dir}/`)) {
      throw bad(`names a path outside the content roots (${descriptor.sources.content_roots.join(', ')})`, 'path');
    }
    const guarded = protectedPathProblem(descriptor, file.path);
    if (guarded !== null) throw bad(`names a path DocForge never writes: ${guarded}`, 'path');
    const target = path.join(rootReal, ...file.target.split('/'));
    if (!roots.some((root) => isInside(root, target)) || !roots.some((root) => isInside(root, realOfExisting(target)))) {
      throw bad(`has the target ${JSON.stringify(file.target)}, outside the real content roots (${descriptor.sources.content_roots.join(', ')})`, 'target');
    }
    if (target === forbidden[0] || isInside(forbidden[1]!, target)) throw bad(`has the target ${JSON.stringify(file.target)}, the descriptor or a file of the state dir`, 'target');
    const targetGuarded = protectedPathProblem(descriptor, path.relative(rootReal, target).split(path.sep).join('/'));
    if (targetGuarded !== null) throw bad(`has the target ${JSON.stringify(file.target)}, which DocForge never writes: ${targetGuarded}`, 'target');
    if (lstatOrNull(target)?.isSymbolicLink() === true || realOfExisting(target) !== target) throw bad(`has the target ${JSON.stringify(file.target)}, which passes through a symbolic link`, 'target');
    if (seen.has(target)) throw bad(`repeats the target ${JSON.stringify(file.target)}`, 'target');
    seen.add(target);
    if ((file.before_sha256 === null) !== (file.backup === null)) throw bad('must have a backup exactly when the file existed before', 'backup');
    if (file.backup !== null) {
      const backup = path.join(backups, file.backup);
      const st = lstatOrNull(backup);
      if (st === null || !st.isFile()) throw bad(`has no plain backup file ${backup}`, 'backup');
      if (sha256(readStateFile(backup)) !== file.before_sha256) throw bad(`has a backup ${backup} that does not hash to its before state`, 'backup');
    }
    if (file.link !== null) {
      if (file.before_sha256 === null || file.after_sha256 !== null) throw bad('records a link for a file that was not deleted', 'link');
      const linkAbs = path.join(rootReal, ...file.path.split('/'));
      if (!roots.some((root) => isInside(root, realOfExisting(path.dirname(linkAbs))))) throw bad('records a link whose folder lies outside the real content roots', 'link');
      if (realOfExisting(path.resolve(path.dirname(linkAbs), file.link)) !== target) throw bad(`records a link text ${JSON.stringify(file.link)} that does not resolve to its target`, 'link');
    }
    return { ...file, target };
  });
  for (const [entry, rel] of (stored.made_folders ?? []).entries()) {
    const abs = path.join(rootReal, ...rel.split('/'));
    // A made folder lies strictly inside a real content root, outside the state dir, through no link.
    const inside = roots.some((root) => abs !== root && isInside(root, abs)) && !isInside(forbidden[1]!, abs) && protectedPathProblem(descriptor, rel) === null;
    if (!inside || realOfExisting(abs) !== abs) throw refuse(`made folder ${entry} (${JSON.stringify(rel)}) is not a plain folder strictly inside the real content roots`, { reason_code: 'made_folder', entry, path: rel });
  }
  return { ...stored, files };
}

/**
 * Refuses a journal whose files are not the ones changeset `doc` writes (break-it trial ap2, F4):
 * it names at least one file, each a source the changeset was approved on at the bytes it
 * captured (`captured.sources`), and every path its operations create or move to.
 * @throws DocforgeError `application_journal_invalid` (`reason_code` `files`; nothing touched)
 */
export function checkJournalFiles(layout: StateLayout, journal: Journal, doc: ChangesetDocument): void {
  const captured = new Map(Object.entries(doc.captured.sources));
  const listed = new Set(journal.files.map((f) => f.path));
  const made = doc.operations.flatMap((op) => (op.op === 'node_create' ? [op.path] : op.op === 'node_move' ? [op.new_path] : []));
  const stray = journal.files.find((f) => captured.get(f.path) !== f.before_sha256 || !captured.has(f.path));
  const missing = made.find((p) => !listed.has(p));
  const problem = journal.files.length === 0 ? 'it names no file'
    : stray !== undefined ? `it names ${stray.path}, which changeset ${doc.id} was not approved on at those before bytes`
    : missing !== undefined ? `it omits ${missing}, which changeset ${doc.id} creates` : null;
  if (problem === null) return;
  throw errors.applicationJournalInvalid(layout.applicationJournal, backupDir(layout), `${problem}: its files are not the ones the changeset writes`, { reason_code: 'files', changeset_id: doc.id, entry: stray?.path ?? missing ?? null });
}
