/**
 * The publish step of a build (DESIGN.md section 4): under the publication lock, rename the
 * finished index file into `index/`, write the generation receipt, atomically replace
 * `current.json`, and collect old generations. A crash at any point leaves the last publication valid.
 */
import { closeSync, constants as fsConstants, copyFileSync, fsyncSync, lstatSync, openSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { DocforgeError, errors, toDocforgeError } from '@docforge/core';
import { assertStateDir, ensureStateDir, fsyncDirectory, writeFileAtomic, type StateLayout } from '@docforge/fs-safe';
import type { Publication } from './publication-format.js';
import { collectOldGenerations, publicationFileIntact, publicationUnchanged, readPublication, withPublicationLock, type PublicationRead } from './publication.js';
import { commitReceipt, type ReceiptPlan, type ReceiptSide } from './receipt-commit.js';
import { INDEX_SCHEMA_VERSION } from './schema.js';
import { applicationBlocksPublication } from './application-guard.js';

/** What the publish step needs besides the layout: the finished file and the fields of the new publication. */
export interface PublishInput {
  root: string;
  layout: StateLayout;
  /** The complete new index file (a temp file inside `index/`). */
  tmpFile: string;
  /** The build's one read of `current.json`; re-read under the lock only when the file changed since. */
  prior: PublicationRead;
  minGeneration: number;
  receiptPlan: ReceiptPlan;
  /** False when the project has no cheap identity: a publication with an equal `source_identity` is then never adopted. */
  identityKnown?: boolean;
  /** The canonical application epoch read before the sources were read: publication is refused when it changed. */
  applicationEpoch?: string;
  fields: Pick<Publication, 'source_identity' | 'source_hash' | 'adapter_version' | 'logic_present' | 'logic_allowed' | 'project_id' | 'counts'>;
  /**
   * Names of files in `index/` that belong to a live process (first capture group: its pid), removed
   * once that process is gone (the build's standby copies); none when absent.
   */
  processOwned?: RegExp;
}

/** fsyncs a finished file before it is renamed into place. */
export function fsyncFile(file: string): void {
  const fd = openSync(file, 'r+');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** What {@link publishIndex} did: published a new generation, or adopted an equal one another process published meanwhile. */
export interface PublishResult {
  /** The publication now in `current.json`. */
  publication: Publication;
  /** True when nothing was published: another process had already published the same sources. */
  adopted: boolean;
  /** The published graph's node and edge hashes from its receipt (for the next build's `WrittenGraph.receiptSide`); null when adopted or without a receipt. */
  receiptSide: ReceiptSide | null;
}

/**
 * Whether `before`, published by another process while this build ran, already covers this build:
 * the same cheap source identity, Logic policy, adapter version, project and index schema, and its
 * file intact. Publishing again would add an empty generation and hide the real change's receipt.
 */
function coversBuild(layout: StateLayout, before: Publication | null, input: PublishInput): before is Publication {
  const f = input.fields;
  return before !== null && input.identityKnown !== false && before.source_identity === f.source_identity
    && before.logic_allowed === f.logic_allowed && before.adapter_version === f.adapter_version
    && before.project_id === f.project_id && before.index_schema_version === INDEX_SCHEMA_VERSION
    && publicationFileIntact(layout, before);
}

/** `details.superseded` of the `index_unavailable` a build gets when another process published other sources while it ran. */
export const PUBLICATION_SUPERSEDED = 'superseded';

/** How often one sync walks and builds again after another process's publication superseded its build. */
export const SUPERSEDED_RETRIES = 3;

/**
 * The `index_unavailable` of a build superseded by another process's publication (`details.superseded`,
 * and that publication's `details.generation` when known): nothing was published, the sync walks again.
 */
export function supersededError(reason: string, generation: number | null): DocforgeError {
  return errors.indexUnavailable(`${reason}; this build published nothing; sync again to build the current sources.`, { [PUBLICATION_SUPERSEDED]: true, generation });
}

/**
 * Copies the published index file `indexFile` to `tmpFile`, the base of a delta build.
 * @throws DocforgeError {@link supersededError} when that file is gone (other processes published
 *   newer generations meanwhile and collected it: the sync walks again); other errno errors as thrown
 */
export function copyDeltaBase(layout: StateLayout, indexFile: string, tmpFile: string): void {
  try {
    copyFileSync(path.join(layout.indexDir, indexFile), tmpFile, fsConstants.COPYFILE_FICLONE);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw supersededError(`The index file ${indexFile} this build started from was removed while it ran (newer generations were published and collected)`, null);
    throw error;
  }
}

/** Whether a (wire) error is {@link publishIndex}'s refusal to publish over a newer publication: the sync walks and builds again. */
export function isPublicationSuperseded(error: { code: string; details?: Record<string, unknown> | null }): boolean {
  return error.code === 'index_unavailable' && error.details?.[PUBLICATION_SUPERSEDED] === true;
}

/**
 * Publishes the finished index file as the next generation, unless another process published
 * since this build read `current.json`: a publication of the same sources is adopted (its receipt
 * with the real change stays); one of other sources is never published over, since this build's
 * snapshot of the sources may be the older one (a slow build would otherwise replace a newer graph
 * with an older one and call it current). The finished file is removed in both cases.
 * @returns the publication now in `current.json` and whether it was adopted
 * @throws DocforgeError `index_unavailable` with `details.superseded = true` (and the other
 *   publication's `details.generation`) when another process published other sources meanwhile:
 *   the caller walks and builds again ({@link isPublicationSuperseded}); `lock_timeout`,
 *   `path_outside_root`; errno errors of the state directory (the new file is removed when
 *   `current.json` could not be written)
 */
export function publishIndex(input: PublishInput): Promise<PublishResult> {
  const { layout } = input;
  return withPublicationLock(layout, () => {
    // Never publish what a build read while a canonical application was open or ran (issue 11).
    const blocked = applicationBlocksPublication(layout, input.applicationEpoch);
    if (blocked !== null) {
      rmSync(input.tmpFile, { force: true });
      throw DocforgeError.fromWire(blocked);
    }
    // Another process may have published since the build read current.json: only then read it again.
    const changed = !publicationUnchanged(layout, input.prior);
    const before = changed ? readPublication(layout) : input.prior.publication;
    if (changed && coversBuild(layout, before, input)) {
      rmSync(input.tmpFile, { force: true });
      return { publication: before, adopted: true, receiptSide: null };
    }
    if (changed && before !== null) {
      rmSync(input.tmpFile, { force: true });
      throw supersededError(`Another process published generation ${before.generation} from other sources while this build ran (its snapshot of the sources may be the older one)`, before.generation);
    }
    const generation = Math.max(input.minGeneration, (before?.generation ?? 0) + 1);
    const indexFile = `gen-${String(generation).padStart(8, '0')}-${Math.random().toString(36).slice(2, 10)}.sqlite`;
    const target = path.join(layout.indexDir, indexFile);
    assertStateConfined(input.root, layout);
    renameSync(input.tmpFile, target);
    fsyncDirectory(layout.indexDir);
    const st = lstatSync(target, { bigint: true });
    // The receipt is written before current.json is replaced, so current.json can record its identity.
    const receipt = commitReceipt(input.receiptPlan, before, { generation, index_file: indexFile, index_ino: String(st.ino), index_size: Number(st.size) });
    const next: Publication = {
      schema_version: 1,
      generation,
      source_identity: input.fields.source_identity,
      source_hash: input.fields.source_hash,
      index_file: indexFile,
      index_ino: String(st.ino),
      index_size: Number(st.size),
      index_schema_version: INDEX_SCHEMA_VERSION,
      adapter_version: input.fields.adapter_version,
      logic_present: input.fields.logic_present,
      logic_allowed: input.fields.logic_allowed,
      project_id: input.fields.project_id,
      counts: input.fields.counts,
      published_at: new Date().toISOString(),
      ...receipt.fields,
    };
    try {
      clearNonFile(layout.currentFile);
      writeFileAtomic(layout.currentFile, `${JSON.stringify(next, null, 2)}\n`);
    } catch (error) {
      // Not published: the new file must not linger beside the last good publication.
      rmSync(target, { force: true });
      throw error;
    }
    const keep = new Set([indexFile]);
    if (before) keep.add(before.index_file);
    collectOldGenerations(layout, keep, input.processOwned ?? null);
    return { publication: next, adopted: false, receiptSide: receipt.side };
  });
}

const STATE_ERRNOS = new Set(['ENOTDIR', 'EISDIR', 'EACCES', 'EPERM', 'EROFS', 'ENOSPC', 'EEXIST', 'ENOENT', 'EMFILE', 'EDQUOT']);

/** SQLite result codes (better-sqlite3 `SqliteError.code`) of a state directory that cannot take the index: full, failing or read-only storage. */
const STATE_SQLITE_CODES = /^SQLITE_(FULL|IOERR(_[A-Z_]+)?|READONLY(_[A-Z_]+)?|CANTOPEN(_[A-Z_]+)?|PERM)$/;

/**
 * File-system failures in the state directory (an errno, or SQLite's full, I/O, read-only and
 * cannot-open results while writing the index) become `index_unavailable` naming the code
 * (`details.errno`); nothing was published. Anything else goes through `toDocforgeError`.
 */
export function stateError(error: unknown, layout: StateLayout): DocforgeError {
  if (error instanceof DocforgeError) return error;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (typeof code === 'string' && (STATE_ERRNOS.has(code) || STATE_SQLITE_CODES.test(code))) {
    // Node's errno messages start with the code already ("ENOSPC: no space left on device, ...").
    const message = String((error as Error).message ?? '').replace(new RegExp(`^${code}: `), '');
    return errors.indexUnavailable(`The index could not be written in the state directory ${layout.stateDir} (${code}: ${message}); the last publication is unchanged.`, { errno: code }, { cause: error });
  }
  return toDocforgeError(error);
}

/**
 * Refuses to write when the state, index or locks directory is (or is reached through) a symbolic
 * link or a file, or lies outside the root: DocForge deletes old generations there, so it must be
 * its own. Checks existing components only and creates nothing (see `ensureStateDir`).
 * @throws DocforgeError `path_outside_root`
 */
export function assertStateConfined(root: string, layout: StateLayout): void {
  for (const dir of [layout.stateDir, layout.indexDir, layout.locksDir]) assertStateDir(root, dir);
}

/**
 * Creates the state, index and locks directories as real directories, each only after proving
 * that no existing component is a link or a file (so nothing is created outside the root).
 * @throws DocforgeError `path_outside_root`; errno errors when a directory cannot be created
 */
export function ensureStateConfined(root: string, layout: StateLayout): void {
  for (const dir of [layout.stateDir, layout.indexDir, layout.locksDir]) ensureStateDir(root, dir);
}

/** Removes a directory (or other non-file) standing where `current.json` must be written; it is disposable state. */
function clearNonFile(file: string): void {
  try {
    const st = lstatSync(file);
    if (st.isDirectory()) rmSync(file, { recursive: true, force: true });
  } catch {
    // absent: fine
  }
}
