/**
 * The parse cache (issue 14 item 4): per source, its parse before graph resolution
 * (`PersistedParse`: node ids, whole nodes where the published row is not the source's own, declared edges, links, issues,
 * adapter link data), which lets a new build worker build incrementally (warm.ts). It lives in
 * `<state>/parse-cache.sqlite`, beside `index/` and never part of a publication, so a publication
 * does not copy or fsync it: published index files stay immutable and smaller. A row is used only
 * when its key (index schema, root, descriptor hash, Logic policy, adapter version, and the
 * source's `size:mtime_ns:ctime_ns:ino:content_hash`) matches the published `sources` row; any other row,
 * or a missing or damaged cache, only means that source is parsed again.
 */
import { lstatSync, rmSync } from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import type { StateLayout } from '@docforge/fs-safe';
import { sqliteDatabase } from './sqlite.js';
import { INDEX_SCHEMA_VERSION } from './schema.js';

type Db = InstanceType<typeof Database>;

/** One source's cache row: its path, its `sourceKey`, the JSON of its `PersistedParse` and the JSON of its link data (null: none). */
export interface ParseRow {
  path: string;
  sourceKey: string;
  parse: string;
  linkData: string | null;
}

/**
 * A source's link data as the parse cache holds it: null (none), or a function that reads its
 * JSON text from the cache when called (null when the row is gone or now holds another parse).
 */
export type LinkDataFetch = () => string | null;

/**
 * A cached parse as read: the `PersistedParse` JSON, and the link data, kept apart so it is read
 * from the cache and parsed only when linking reads it (lazy-link-data.ts).
 */
export interface CachedParseText {
  parse: string;
  linkData: LinkDataFetch | null;
}

/**
 * The cache file's format (`PRAGMA user_version`): 2 since link data has its own column. A file of
 * another format is read as empty and its `parses` table is replaced on the next write.
 */
const CACHE_FORMAT = 2;

/** What every row of a cache must have been written under (besides the source's own key). */
export interface ParseCacheStamp {
  root: string;
  descriptorHash: string;
  logicAllowed: boolean;
  adapterVersion: string;
}

/** `<state>/parse-cache.sqlite`. */
export function parseCacheFile(layout: StateLayout): string {
  return path.join(layout.stateDir, 'parse-cache.sqlite');
}

function stampKey(stamp: ParseCacheStamp, sourceKey: string): string {
  return [INDEX_SCHEMA_VERSION, stamp.root, stamp.descriptorHash, stamp.logicAllowed ? '1' : '0', stamp.adapterVersion, sourceKey].join('\u0000');
}

/**
 * Whether the cache files are regular files or absent; anything else (a symbolic link planted in
 * the state directory, a directory) is removed first when `clear`, since SQLite would follow it.
 */
export function cacheFilesPlain(layout: StateLayout, clear: boolean): boolean {
  let plain = true;
  for (const suffix of ['', '-wal', '-shm', '-journal']) {
    const file = parseCacheFile(layout) + suffix;
    try {
      if (lstatSync(file).isFile()) continue;
    } catch {
      continue;
    }
    plain = false;
    if (clear) rmSync(file, { recursive: true, force: true });
  }
  return plain || clear;
}

/** Removes the cache files; never throws (a file that cannot be removed stays, and its rows stay self-validating). */
function removeCache(layout: StateLayout): void {
  for (const suffix of ['', '-wal', '-shm', '-journal']) {
    try {
      rmSync(parseCacheFile(layout) + suffix, { force: true });
    } catch {
      // an undeletable file (immutable, a directory with an undeletable entry): left in place
    }
  }
}

/**
 * Stores parses after a publication: with `replaceAll` (a full write) the cache holds exactly
 * `rows`; otherwise `rows` replace those paths and `removed` paths are deleted. WAL journal without
 * fsync per commit: the cache may lose its last writes in a power loss, never its consistency.
 * Never throws: a cache that cannot be written is removed and written anew with `rows`; failing
 * that, it is left removed (a new worker then parses the sources it lacks).
 */
export function writeParseCache(layout: StateLayout, stamp: ParseCacheStamp, rows: readonly ParseRow[], removed: readonly string[], replaceAll: boolean): void {
  // A damaged cache is removed and written again once: rows are self-validating, so a partial cache is fine.
  if (!tryWrite(layout, stamp, rows, removed, replaceAll)) {
    removeCache(layout);
    if (!tryWrite(layout, stamp, rows, removed, replaceAll)) removeCache(layout);
  }
}

function tryWrite(layout: StateLayout, stamp: ParseCacheStamp, rows: readonly ParseRow[], removed: readonly string[], replaceAll: boolean): boolean {
  let db: Db | null = null;
  try {
    cacheFilesPlain(layout, true);
    db = new (sqliteDatabase())(parseCacheFile(layout), { timeout: 5000 });
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    if (db.pragma('user_version', { simple: true }) !== CACHE_FORMAT) {
      db.transaction(() => {
        db!.exec('DROP TABLE IF EXISTS parses');
        db!.pragma(`user_version = ${CACHE_FORMAT}`);
      })();
    }
    db.exec('CREATE TABLE IF NOT EXISTS parses (path TEXT PRIMARY KEY, key TEXT NOT NULL, parse TEXT NOT NULL, link_data TEXT) WITHOUT ROWID');
    const put = db.prepare('INSERT OR REPLACE INTO parses (path, key, parse, link_data) VALUES (?, ?, ?, ?)');
    const drop = db.prepare('DELETE FROM parses WHERE path = ?');
    db.transaction(() => {
      if (replaceAll) db!.exec('DELETE FROM parses');
      for (const p of removed) drop.run(p);
      for (const row of rows) put.run(row.path, stampKey(stamp, row.sourceKey), row.parse, row.linkData);
    })();
    return true;
  } catch {
    return false;
  } finally {
    db?.close();
  }
}

/** A key without the source's stat fields: the stamp and the content hash, what link data depends on. */
function parseIdentity(key: string): string {
  const cut = key.lastIndexOf('\u0000');
  const sourceKey = key.slice(cut + 1);
  return `${key.slice(0, cut)}\u0000${sourceKey.slice(sourceKey.lastIndexOf(':') + 1)}`;
}

/**
 * The cached parse of each path whose row matches `stamp` and the given source key; paths without
 * a matching row are absent. The link data is not read here (in an edit most of it never is): a
 * row with link data gets a function that reads it later, by path, through this read's read-only
 * connection, kept open for that (and released with the last fetch holding it); it returns null when the row then holds another parse (another stamp or
 * content hash; the stat fields may differ, as when a source was touched) or is gone, or the read
 * fails. Never throws: a missing or damaged cache, or one of another format, gives an empty map.
 */
export function readParseCache(layout: StateLayout, stamp: ParseCacheStamp, sourceKeys: ReadonlyMap<string, string>): Map<string, CachedParseText> {
  const out = new Map<string, CachedParseText>();
  let db: Db | null = null;
  try {
    if (!cacheFilesPlain(layout, false)) return out;
    db = new (sqliteDatabase())(parseCacheFile(layout), { readonly: true, fileMustExist: true, timeout: 5000 });
    if (db.pragma('user_version', { simple: true }) !== CACHE_FORMAT) return out;
    const fetchOf = linkDataFetcher(db);
    type Row = { path: string; key: string; parse: string; has_link: number };
    // `link_data IS NOT NULL` needs only the record header: the link data's overflow pages are not read.
    for (const row of db.prepare('SELECT path, key, parse, link_data IS NOT NULL AS has_link FROM parses').iterate() as IterableIterator<Row>) {
      const sourceKey = sourceKeys.get(row.path);
      if (sourceKey === undefined || row.key !== stampKey(stamp, sourceKey)) continue;
      out.set(row.path, { parse: row.parse, linkData: row.has_link === 1 ? fetchOf(row.path, parseIdentity(row.key)) : null });
    }
  } catch {
    out.clear();
  } finally {
    // Kept open only for the fetches of what was found; the connection is released with them.
    if (out.size === 0) db?.close();
  }
  return out;
}

/**
 * Makes the link-data fetches of one read over its connection `db`: each reads its row by path
 * (one statement, prepared on the first fetch) and checks it still holds the same parse identity.
 */
function linkDataFetcher(db: Db): (sourcePath: string, identity: string) => LinkDataFetch {
  const reads: { statement: Database.Statement | null } = { statement: null };
  return (sourcePath, identity) => () => {
    try {
      if (!db.open) return null;
      reads.statement ??= db.prepare('SELECT key, link_data FROM parses WHERE path = ?');
      const row = reads.statement.get(sourcePath) as { key: string; link_data: string | null } | undefined;
      return row !== undefined && typeof row.link_data === 'string' && parseIdentity(row.key) === identity ? row.link_data : null;
    } catch {
      return null;
    }
  };
}
