/**
 * Shared by the incremental-build tests: the index a fresh process builds from scratch, to compare
 * an incremental publication with.
 */
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { IndexManager } from '../src/index.js';

/**
 * Copies `root`'s sources (not its state dir) to a temp folder, builds them with a new
 * IndexManager (asserting a full build) and returns `snapshot` of the published index file.
 * @param snapshot reads what the test compares from (copy root, index file name)
 */
export async function fullBuildOf<T>(root: string, snapshot: (root: string, indexFile: string) => T): Promise<T> {
  const fresh = mkdtempSync(path.join(os.tmpdir(), 'docforge-full-build-'));
  try {
    cpSync(root, fresh, { recursive: true, filter: (src) => !src.includes(`${path.sep}.docforge`) });
    const manager = new IndexManager({ root: fresh, noAst: false });
    try {
      const outcome = await manager.sync();
      assert.equal(outcome.stats!.mode, 'full');
      return snapshot(fresh, outcome.publication.index_file);
    } finally {
      await manager.close();
    }
  } finally {
    rmSync(fresh, { recursive: true, force: true });
  }
}

/**
 * Rows of a published index file of `root` (`.docforge/index/<file>`), per named query, each row as
 * the JSON of its column values: what the incremental-build tests compare.
 */
export function indexRows<K extends string>(root: string, file: string, queries: Record<K, string>): Record<K, string[]> {
  const db = new Database(path.join(root, '.docforge', 'index', file), { readonly: true });
  try {
    const out = {} as Record<K, string[]>;
    for (const key of Object.keys(queries) as K[]) {
      out[key] = (db.prepare(queries[key]).all() as Record<string, unknown>[]).map((r) => JSON.stringify(Object.values(r)));
    }
    return out;
  } finally {
    db.close();
  }
}
