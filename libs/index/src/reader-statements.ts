/**
 * Prepared-statement cache of one read-only index connection. Internal to libs/index: the
 * connection never leaves the reader (issue 7: the reader owns all SQL).
 */
import type Database from 'better-sqlite3';

/** A prepared statement with untyped parameters; callers cast the rows they read. */
export type Statement = Database.Statement<unknown[], unknown>;

/**
 * Most distinct SQL texts kept prepared. Statements with `IN (?, ?, …)` lists vary with the list
 * length, so the cache is bounded; when full it is emptied and refilled on demand.
 */
export const MAX_CACHED_STATEMENTS = 256;

/** Caches prepared statements by SQL text (plucked statements separately). */
export class StatementCache {
  readonly #db: Database.Database;
  readonly #cache = new Map<string, Statement>();

  constructor(db: Database.Database) {
    this.#db = db;
  }

  /** The prepared statement of `sql` (rows as objects). */
  rows(sql: string): Statement {
    return this.#get(`r\u0000${sql}`, sql, false);
  }

  /** The prepared statement of `sql` returning the first column only. */
  pluck(sql: string): Statement {
    return this.#get(`p\u0000${sql}`, sql, true);
  }

  #get(key: string, sql: string, pluck: boolean): Statement {
    let stmt = this.#cache.get(key);
    if (stmt === undefined) {
      if (this.#cache.size >= MAX_CACHED_STATEMENTS) this.#cache.clear();
      stmt = this.#db.prepare<unknown[], unknown>(sql);
      if (pluck) stmt.pluck(true);
      this.#cache.set(key, stmt);
    }
    return stmt;
  }
}

/** `?, ?, ?` for a list of `n` parameters. */
export function placeholders(n: number): string {
  return Array.from({ length: n }, () => '?').join(', ');
}
