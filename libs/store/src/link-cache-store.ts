/**
 * The stored link caches (issue 14: a one-file edit of a new process re-links only what the change
 * can affect). A build worker keeps, per code adapter, every file's own link output between builds
 * (build-graph.ts); without it a new process links every file again. After a publication the
 * worker stores those outputs in the parse cache's database (`<state>/parse-cache.sqlite`, table
 * `link_caches`, never part of a publication), bound to that publication's index file and to the
 * parse cache's stamp; the next process restores them only when they describe exactly the sources
 * it warmed from that same publication (see `restoreLinkCaches` in build-graph.ts). Anything else,
 * or a missing or damaged store, only means every file is linked again.
 */
import type Database from 'better-sqlite3';
import type { FileLinkOutput } from '@docforge/core';
import type { StateLayout } from '@docforge/fs-safe';
import { cacheFilesPlain, parseCacheFile, type ParseCacheStamp } from './parse-cache.js';
import { sqliteDatabase } from './sqlite.js';
import { INDEX_SCHEMA_VERSION } from './schema.js';

type Db = InstanceType<typeof Database>;

/** One adapter's link cache as stored: everything but the link data, which the parse cache holds. */
export interface StoredLinkCache {
  /** The code adapter id. */
  adapter: string;
  root: string;
  /** Per code path, its own link output. */
  outputs: [string, FileLinkOutput][];
  /** Per code path, the content hash its output was linked from. */
  hashes: [string, string][];
  /** Project texts the linker read (package.json, tsconfig.json) and what they held (null: absent). */
  texts: [string, string | null][];
  /** Every code path the resolver answered for. */
  codePaths: string[];
}

const isString = (value: unknown): value is string => typeof value === 'string';
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const pairsOf = (value: unknown, second: (v: unknown) => boolean): boolean =>
  Array.isArray(value) && value.every((pair) => Array.isArray(pair) && pair.length === 2 && isString(pair[0]) && second(pair[1]));

/** Whether a stored edge or issue list has the shapes the linker merges (edges with their key fields). */
function outputShaped(value: unknown): boolean {
  if (!isRecord(value) || !Array.isArray(value.edges) || !Array.isArray(value.issues) || !isRecord(value.unresolved_calls) || !Array.isArray(value.deps)) return false;
  return value.edges.every((e) => isRecord(e) && isString(e.source_id) && isString(e.relation) && isString(e.target_id) && isString(e.source_path) && Number.isInteger(e.line))
    && value.issues.every((i) => isRecord(i) && isString(i.code) && isString(i.severity) && isString(i.message))
    && Object.values(value.unresolved_calls).every((n) => Number.isInteger(n))
    && value.deps.every(isString);
}

/** Whether a parsed row has every field of a {@link StoredLinkCache} in its shape (a damaged or foreign row is not used). */
function wellFormed(value: unknown): value is StoredLinkCache {
  return isRecord(value) && isString(value.adapter) && isString(value.root) && pairsOf(value.outputs, outputShaped) && pairsOf(value.hashes, isString)
    && pairsOf(value.texts, (t) => t === null || isString(t)) && Array.isArray(value.codePaths) && value.codePaths.every(isString);
}

/**
 * Removes every stored link cache (a build failed after restoring them: the next one links every
 * file rather than trust them again). Never throws.
 */
export function clearLinkCaches(layout: StateLayout): void {
  let db: Db | null = null;
  try {
    if (!cacheFilesPlain(layout, false)) return;
    db = new (sqliteDatabase())(parseCacheFile(layout), { fileMustExist: true, timeout: 5000 });
    db.exec(DDL);
    db.exec('DELETE FROM link_caches');
  } catch {
    // no store, or one the parse cache's recovery removes
  } finally {
    db?.close();
  }
}

/** The key every stored cache must match: index schema, the parse cache's stamp and the publication's index file. */
function storeKey(stamp: ParseCacheStamp, indexFile: string): string {
  return [INDEX_SCHEMA_VERSION, stamp.root, stamp.descriptorHash, stamp.logicAllowed ? '1' : '0', stamp.adapterVersion, indexFile].join('\u0000');
}

const DDL = 'CREATE TABLE IF NOT EXISTS link_caches (adapter TEXT PRIMARY KEY, key TEXT NOT NULL, data TEXT NOT NULL) WITHOUT ROWID';

/**
 * Replaces the stored link caches with `caches`, bound to the publication whose index file is
 * `indexFile` (adapters without a cache now are removed). WAL without fsync per commit, as the
 * parse cache. Never throws: a store that cannot be written is left as it was or emptied, and a
 * stale one never matches a later publication.
 */
export function writeLinkCaches(layout: StateLayout, stamp: ParseCacheStamp, indexFile: string, caches: readonly StoredLinkCache[]): void {
  let db: Db | null = null;
  try {
    // SQLite would follow a link planted in the state directory: such files are removed first.
    cacheFilesPlain(layout, true);
    db = new (sqliteDatabase())(parseCacheFile(layout), { timeout: 5000 });
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.exec(DDL);
    const put = db.prepare('INSERT OR REPLACE INTO link_caches (adapter, key, data) VALUES (?, ?, ?)');
    const key = storeKey(stamp, indexFile);
    db.transaction(() => {
      db!.exec('DELETE FROM link_caches');
      for (const cache of caches) put.run(cache.adapter, key, JSON.stringify(cache));
    })();
  } catch {
    try {
      db?.exec('DELETE FROM link_caches');
    } catch {
      // the parse cache's own recovery removes a damaged file
    }
  } finally {
    db?.close();
  }
}

/**
 * The stored link caches bound to `indexFile` under `stamp`; none when the store is missing,
 * damaged or bound to anything else. Never throws.
 */
export function readLinkCaches(layout: StateLayout, stamp: ParseCacheStamp, indexFile: string): StoredLinkCache[] {
  let db: Db | null = null;
  try {
    if (!cacheFilesPlain(layout, false)) return [];
    db = new (sqliteDatabase())(parseCacheFile(layout), { readonly: true, fileMustExist: true, timeout: 5000 });
    const key = storeKey(stamp, indexFile);
    const out: StoredLinkCache[] = [];
    for (const row of db.prepare('SELECT adapter, key, data FROM link_caches').all() as { adapter: string; key: string; data: string }[]) {
      if (row.key !== key) continue;
      const cache = JSON.parse(row.data) as unknown;
      if (wellFormed(cache) && cache.adapter === row.adapter && cache.root === stamp.root) out.push(cache);
    }
    return out;
  } catch {
    return [];
  } finally {
    db?.close();
  }
}
