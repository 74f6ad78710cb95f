/**
 * The one exact index snapshot a worker serves (contract: Visualization boundary: "The browser
 * exposes an exact validated index snapshot. It rejects index replacement or alteration"). The
 * file's identity (device, inode, size, modification and change time) is recorded when it is
 * opened and compared on every API request with one `stat`; once it differs the snapshot stays
 * replaced and every API request answers `snapshot_replaced`.
 */
import { statSync, type Stats } from 'node:fs';
import path from 'node:path';
import { DocforgeError, errors } from '@docforge/core';
import { IndexReader } from '@docforge/store';
import type { GraphBrowserWorkerConfig } from './config.js';

/** The stat fields that identify one index file version. */
interface FileIdentity {
  dev: number;
  ino: number;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
}

function identityOf(st: Stats): FileIdentity {
  return { dev: st.dev, ino: st.ino, size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs };
}

/** What differs between two identities, or null when they are the same file version. */
function difference(a: FileIdentity, b: FileIdentity): string | null {
  if (a.dev !== b.dev || a.ino !== b.ino) return 'the file was replaced';
  if (a.size !== b.size) return 'the file size changed';
  if (a.mtimeMs !== b.mtimeMs || a.ctimeMs !== b.ctimeMs) return 'the file was modified';
  return null;
}

/** The index snapshot of one worker: a read-only reader plus the identity check. */
export class Snapshot {
  readonly #config: GraphBrowserWorkerConfig;
  readonly #reader: IndexReader;
  readonly #identity: FileIdentity;
  #replaced: DocforgeError | null = null;

  private constructor(config: GraphBrowserWorkerConfig, reader: IndexReader, identity: FileIdentity) {
    this.#config = config;
    this.#reader = reader;
    this.#identity = identity;
  }

  /**
   * Opens the configured index file read-only after proving it still is the signature's file
   * (inode and size), and applies the no-AST binding before anything else is read.
   * @throws DocforgeError `snapshot_replaced` (the file is missing or no longer the signature's),
   *   `policy_violation` (under `no_ast` the index stores Logic: rejected before any read, contract:
   *   Preserved no-AST bindings), `index_unavailable` (not a readable index of this schema)
   */
  static open(config: GraphBrowserWorkerConfig): Snapshot {
    const file = config.index_path;
    const name = path.basename(file);
    const before = statIdentity(file, name);
    if (String(before.ino) !== config.signature.index_ino || before.size !== config.signature.index_size) {
      throw errors.snapshotReplaced(name, 'its inode or size differs from the publication signature', { expected_ino: config.signature.index_ino, expected_size: config.signature.index_size });
    }
    const reader = new IndexReader(file);
    try {
      if (config.no_ast && reader.hasLogic()) {
        throw errors.policyViolation('The index snapshot contains function Logic, which the --no-ast binding forbids; the viewer rejects it before any read.', { no_ast: true, index_file: name });
      }
      const after = statIdentity(file, name);
      const changed = difference(before, after);
      if (changed !== null) throw errors.snapshotReplaced(name, changed);
      return new Snapshot(config, reader, before);
    } catch (error) {
      reader.close();
      throw error;
    }
  }

  /**
   * The reader, after proving the file is still the opened version (one `stat`).
   * @throws DocforgeError `snapshot_replaced` once the file was replaced, altered or removed (and ever after)
   */
  reader(): IndexReader {
    if (this.#replaced === null) {
      const name = path.basename(this.#config.index_path);
      let changed: string | null;
      try {
        changed = difference(this.#identity, statIdentity(this.#config.index_path, name));
      } catch (error) {
        changed = error instanceof DocforgeError ? String(error.details.reason ?? 'the file is gone') : 'the file cannot be read';
      }
      if (changed !== null) {
        this.#replaced = errors.snapshotReplaced(name, changed);
        this.#reader.close();
      }
    }
    if (this.#replaced !== null) throw this.#replaced;
    return this.#reader;
  }

  /** The configuration the snapshot was opened with. */
  get config(): GraphBrowserWorkerConfig {
    return this.#config;
  }

  /** Closes the reader (idempotent). */
  close(): void {
    this.#reader.close();
  }
}

function statIdentity(file: string, name: string): FileIdentity {
  try {
    return identityOf(statSync(file));
  } catch (error) {
    throw errors.snapshotReplaced(name, 'the file is gone', {}, { cause: error });
  }
}
