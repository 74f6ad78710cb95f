import { closeSync, fsyncSync, lstatSync, mkdirSync, openSync, readFileSync, readdirSync, renameSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import lockfile from 'proper-lockfile';
import { DocforgeError } from '@docforge/core';

/**
 * The content of `index/current.json`: which index file is published, and the five-field index
 * publication signature (`generation`, `source_identity`, `index_file`, `index_ino`, `index_size`)
 * of DESIGN.md section 4, plus the bindings every response reports.
 */
export interface Publication {
  schema_version: 1;
  generation: number;
  source_identity: string;
  source_hash: string;
  /** File name of the index inside `<state>/index/`. */
  index_file: string;
  /** Inode of the index file, decimal string. */
  index_ino: string;
  /** Size of the index file in bytes. */
  index_size: number;
  index_schema_version: number;
  adapter_version: string;
  /** Whether the published index holds any Logic rows. */
  logic_present: boolean;
  /** Whether the build that published it was allowed to extract Logic. */
  logic_allowed: boolean;
  project_id: string;
  counts: { sources: number; nodes: number; edges: number; issues: number; logic_steps: number };
  /** ISO-8601 time of publication. */
  published_at: string;
  /** File name of the generation receipt written with this publication (absent when none could be written). */
  receipt_file?: string;
  /** Inode of the receipt file, decimal string. */
  receipt_ino?: string;
  /** Size of the receipt file in bytes. */
  receipt_size?: number;
  /** `receipt_hash` of the receipt (SHA-256 of its canonical JSON without that field). */
  receipt_hash?: string;
}

/** Paths of the disposable state of one project. */
export interface StateLayout {
  stateDir: string;
  indexDir: string;
  currentFile: string;
  receiptFile: string;
}

/** Resolves the state layout for an absolute state directory. */
export function stateLayout(stateDir: string): StateLayout {
  const indexDir = path.join(stateDir, 'index');
  return {
    stateDir,
    indexDir,
    currentFile: path.join(indexDir, 'current.json'),
    receiptFile: path.join(indexDir, 'generation-receipt.json'),
  };
}

const MAX_CURRENT_BYTES = 64 * 1024;

/**
 * Reads `current.json`. Returns null when it is missing, not a regular file, oversized or does
 * not have the publication shape: an invalid publication is simply "no publication".
 */
export function readPublication(layout: StateLayout): Publication | null {
  try {
    const st = lstatSync(layout.currentFile);
    if (!st.isFile() || st.size > MAX_CURRENT_BYTES) return null;
    const value = JSON.parse(readFileSync(layout.currentFile, 'utf8')) as Partial<Publication>;
    return isPublication(value) ? value : null;
  } catch {
    return null;
  }
}

/** Highest generation number accepted from disk; anything above is treated as corrupt state. */
export const MAX_GENERATION = 2 ** 40;

const HEX64 = /^[0-9a-f]{64}$/;

/** Whether a parsed current.json has every field of a publication with the right type and range. */
function isPublication(value: Partial<Publication>): value is Publication {
  const counts = value.counts as Record<string, unknown> | undefined;
  return value.schema_version === 1
    && Number.isSafeInteger(value.generation) && value.generation! >= 1 && value.generation! <= MAX_GENERATION
    && typeof value.index_file === 'string' && /^gen-\d+-[a-z0-9]+\.sqlite$/.test(value.index_file)
    && typeof value.source_identity === 'string' && HEX64.test(value.source_identity)
    && typeof value.source_hash === 'string' && HEX64.test(value.source_hash)
    && typeof value.index_ino === 'string' && /^\d+$/.test(value.index_ino)
    && Number.isSafeInteger(value.index_size) && value.index_size! > 0
    && Number.isSafeInteger(value.index_schema_version)
    && typeof value.adapter_version === 'string' && value.adapter_version.length <= 1024
    && typeof value.logic_present === 'boolean' && typeof value.logic_allowed === 'boolean'
    && typeof value.project_id === 'string'
    && typeof counts === 'object' && counts !== null
    && ['sources', 'nodes', 'edges', 'issues', 'logic_steps'].every((k) => Number.isSafeInteger(counts[k]) && (counts[k] as number) >= 0)
    && typeof value.published_at === 'string';
}

/**
 * Whether the published index file still exists with the recorded inode and size. Uses `lstat`
 * only and never opens SQLite (DESIGN.md section 4: health checks compare the signature).
 */
export function publicationFileIntact(layout: StateLayout, publication: Publication): boolean {
  try {
    const st = lstatSync(path.join(layout.indexDir, publication.index_file), { bigint: true });
    return st.isFile() && String(st.ino) === publication.index_ino && Number(st.size) === publication.index_size;
  } catch {
    return false;
  }
}

/** Writes a file atomically: temp file in the same directory, fsync, rename, fsync of the directory. */
export function writeFileAtomic(file: string, text: string): void {
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
  const fd = openSync(tmp, 'w', 0o644);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, file);
  fsyncDirectory(path.dirname(file));
}

/** fsyncs a directory so a rename inside it is durable; ignores platforms that refuse. */
export function fsyncDirectory(dir: string): void {
  try {
    const fd = openSync(dir, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Some filesystems do not allow fsync on directories; the rename is still atomic.
  }
}

/**
 * Runs `fn` while holding the publication lock of the index directory (proper-lockfile).
 * @throws DocforgeError `lock_timeout` when the lock cannot be acquired within about 10 s.
 */
export async function withPublicationLock<T>(layout: StateLayout, fn: () => T | Promise<T>): Promise<T> {
  mkdirSync(layout.indexDir, { recursive: true });
  let release: () => Promise<void>;
  try {
    release = await lockfile.lock(layout.indexDir, {
      lockfilePath: path.join(layout.indexDir, 'publish.lock'),
      stale: 15_000,
      retries: { retries: 50, minTimeout: 20, maxTimeout: 250, factor: 1.5 },
      realpath: false,
    });
  } catch (error) {
    throw new DocforgeError('lock_timeout', undefined, { lock: 'index_publication' }, { cause: error });
  }
  try {
    return await fn();
  } finally {
    await release().catch(() => undefined);
  }
}

/**
 * Deletes index files that are neither the current nor the previous publication, and stale temp
 * files left by crashed builds (older than one minute).
 */
export function collectOldGenerations(layout: StateLayout, keep: ReadonlySet<string>): void {
  let names: string[];
  try {
    names = readdirSync(layout.indexDir);
  } catch {
    return;
  }
  const now = Date.now();
  for (const name of names) {
    const full = path.join(layout.indexDir, name);
    if (/^gen-\d+-[a-z0-9]+\.sqlite$/.test(name) && !keep.has(name)) {
      rmSync(full, { force: true });
    } else if (name.endsWith('.tmp') || name.startsWith('.build-')) {
      try {
        if (now - lstatSync(full).mtimeMs > 60_000) rmSync(full, { force: true });
      } catch {
        // already gone
      }
    }
  }
}
