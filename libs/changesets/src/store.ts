/**
 * The durable changeset store (issue 10, item 1): one canonical-JSON document per changeset in
 * `<state>/changesets/<id>.json`, kept apart from the disposable `index/`. Every mutation holds the
 * store lock (`<state>/locks/changesets.lock`, dead-owner takeover) and writes with
 * `writeFileAtomic`, so concurrent processes never lose or interleave writes and a kill at any
 * instant leaves every stored document readable and hash-valid (a half-written temp file is a
 * dot-file the store ignores). Nothing here ever deletes a changeset or a receipt.
 */
import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import path from 'node:path';
import { canonicalJson, errors, NO_TEST_FAULTS, type DocforgeError, type TestFaults } from '@docforge/core';
import { ensureStateDir, readStateText, StateFileError, stateLayout, withLock, writeFileAtomic } from '@docforge/fs-safe';
import { describeValidationErrors, validateChangesetDocument } from '@docforge/protocol';
import { changesetSha256 } from './hash.js';
import type { ChangesetDocument } from './types.js';

/** Pattern of a changeset id (the schema's `id` pattern). */
export const CHANGESET_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/** Largest stored document read, in bytes (64 MiB). */
export const MAX_CHANGESET_BYTES = 64 * 1024 * 1024;

/** How long a mutation waits for another process's store lock, in milliseconds. */
export const STORE_LOCK_TIMEOUT_MS = 30_000;

/**
 * Test-only fault point: with `DOCFORGE_TEST_FAULT_POINT=changeset_store_locked` (read at start into
 * the store's `faults`), a mutation that holds the store lock writes the marker file
 * (`DOCFORGE_TEST_FAULT_MARKER`) and waits, so a test can SIGKILL the process at that instant.
 * No fault is armed in a normal run.
 */
async function faultPoint(faults: TestFaults): Promise<void> {
  if (faults.point !== 'changeset_store_locked') return;
  // Written whole (temp file + rename): a test that sees the marker always reads the pid.
  if (faults.marker !== null) writeFileAtomic(faults.marker, String(process.pid));
  await sleep(120_000);
}

/** Options of a {@link ChangesetStore}. */
export interface ChangesetStoreOptions {
  /** Test-only fault points, read once at start by the process entry; absent: none armed. */
  faults?: TestFaults | undefined;
}

/** One listing: readable documents sorted by id, and how many files could not be read. */
export interface StoreListing {
  documents: ChangesetDocument[];
  /** Ids (file stems) of documents that failed to parse, their schema or their hash. */
  unreadable: string[];
}

/**
 * The store of one project's state directory.
 */
export class ChangesetStore {
  /** `<state>/changesets`. */
  readonly dir: string;
  /** `<state>/locks/changesets.lock`. */
  readonly lockPath: string;

  /** `<root>`: the store's directories are created only as real directories inside it. */
  readonly root: string;
  /** `<state>/locks`. */
  private readonly locksDir: string;
  /** Test-only fault points armed at start (none in a normal run); canonical application reads them too. */
  readonly faults: TestFaults;

  /**
   * @param stateDir absolute state directory of the project (`<root>/<state.dir>`)
   * @param root absolute project root; defaults to the parent of `stateDir`
   * @param options test-only fault points (see {@link ChangesetStoreOptions})
   */
  private readonly journalPath: string;

  constructor(stateDir: string, root: string = path.dirname(stateDir), options: ChangesetStoreOptions = {}) {
    const layout = stateLayout(stateDir, root);
    this.root = root;
    this.faults = options.faults ?? NO_TEST_FAULTS;
    this.locksDir = layout.locksDir;
    this.dir = layout.changesetsDir;
    this.lockPath = path.join(layout.locksDir, 'changesets.lock');
    this.journalPath = layout.applicationJournal;
  }

  /**
   * The changeset the open application journal names: its id, `'unknown'` for a journal that cannot
   * be read or names none, null when no journal is open. Lifecycle changes of that changeset wait
   * for its recovery (break-it trial ap2, F3).
   */
  openJournalChangeset(): string | null {
    let text: string;
    try {
      text = readStateText(this.journalPath);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      return code === 'ENOENT' || code === 'ENOTDIR' ? null : 'unknown';
    }
    try {
      const id = (JSON.parse(text) as { changeset_id?: unknown }).changeset_id;
      return typeof id === 'string' ? id : 'unknown';
    } catch {
      return 'unknown';
    }
  }

  /**
   * Creates `changesets/` and `locks/` only after proving no existing component of the state
   * directory is a link or a file.
   * @throws DocforgeError `path_outside_root`
   */
  private ensureDirs(): void {
    ensureStateDir(this.root, this.dir);
    ensureStateDir(this.root, this.locksDir);
  }

  /** A fresh changeset id: `cs-<base36 ms>-<8 hex>`, unique without coordination. */
  static newId(now: Date = new Date()): string {
    return `cs-${now.getTime().toString(36)}-${randomBytes(4).toString('hex')}`;
  }

  /**
   * Runs `fn` holding the store lock: every mutation (and its read-check-write) goes through here.
   * @throws DocforgeError `lock_timeout` when another live process holds the lock too long
   */
  async mutate<T>(fn: () => T | Promise<T>): Promise<T> {
    this.ensureDirs();
    return withLock(this.lockPath, async () => {
      await faultPoint(this.faults);
      return fn();
    }, { timeoutMs: STORE_LOCK_TIMEOUT_MS, label: 'changeset_store' });
  }

  /**
   * Writes one document atomically (call inside {@link mutate}). The hash is recomputed and must
   * equal the document's `changeset_sha256`, and the document must match its schema.
   * @throws DocforgeError `internal_error` for a document that would not read back
   */
  write(doc: ChangesetDocument): void {
    const problem = documentProblem(doc);
    if (problem !== null) throw errors.internalError(`refusing to store an invalid changeset document: ${problem}`, { changeset_id: doc.id });
    this.ensureDirs();
    writeFileAtomic(this.file(doc.id), `${canonicalJson(doc)}\n`);
  }

  /**
   * Reads one document.
   * @returns the document, or null when no file has that id
   * @throws DocforgeError `changeset_corrupt` for a file that fails to parse, its schema or its hash
   */
  read(id: string): ChangesetDocument | null {
    if (!CHANGESET_ID_PATTERN.test(id)) return null;
    let text: string;
    try {
      // Never through a symbolic link, and never quoting what a planted file holds (break-it trial).
      text = readStateText(this.file(id), MAX_CHANGESET_BYTES + 1);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw errors.changesetCorrupt(id, error instanceof StateFileError ? error.message : `it cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`, { cause: error });
    }
    return parseDocument(id, text);
  }

  /**
   * Reads one document that must exist.
   * @throws DocforgeError `changeset_not_found`, or `changeset_corrupt`
   */
  get(id: string): ChangesetDocument {
    const doc = this.read(id);
    if (doc === null) throw errors.changesetNotFound(id);
    return doc;
  }

  /** Every readable document sorted by id, plus the ids of unreadable ones. Never throws for one bad file. */
  list(): StoreListing {
    let names: string[];
    try {
      names = readdirSync(this.dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { documents: [], unreadable: [] };
      throw error;
    }
    const documents: ChangesetDocument[] = [];
    const unreadable: string[] = [];
    for (const name of names.filter((n) => n.endsWith('.json') && !n.startsWith('.')).sort()) {
      const id = name.slice(0, -'.json'.length);
      try {
        const doc = this.read(id);
        if (doc !== null) documents.push(doc);
      } catch {
        unreadable.push(id);
      }
    }
    return { documents, unreadable };
  }

  private file(id: string): string {
    return path.join(this.dir, `${id}.json`);
  }
}

/** Why a document is not storable (schema, id/file agreement or hash), or null. */
export function documentProblem(doc: unknown): string | null {
  if (!validateChangesetDocument(doc)) {
    return describeValidationErrors(validateChangesetDocument.errors).slice(0, 3).map((e) => `${e.path} ${e.message}`).join('; ');
  }
  const typed = doc as unknown as ChangesetDocument;
  const expected = changesetSha256(typed);
  return expected === typed.changeset_sha256 ? null : `changeset_sha256 ${typed.changeset_sha256} does not match the content (${expected})`;
}

function parseDocument(id: string, text: string): ChangesetDocument {
  if (text.length > MAX_CHANGESET_BYTES) throw errors.changesetCorrupt(id, 'the document is larger than the store limit');
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch (error) {
    throw errors.changesetCorrupt(id, 'the document is not valid JSON', { cause: error });
  }
  const problem = documentProblem(value);
  if (problem !== null) throw errors.changesetCorrupt(id, problem);
  const doc = value as ChangesetDocument;
  if (doc.id !== id) throw errors.changesetCorrupt(id, `the document names id ${JSON.stringify(doc.id)}`);
  return doc;
}

/** Whether an error is the store's corrupt-document error (for callers that skip bad files). */
export function isCorrupt(error: unknown): error is DocforgeError {
  return (error as { code?: unknown } | null)?.code === 'changeset_corrupt';
}
