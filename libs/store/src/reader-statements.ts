/**
 * Prepared-statement cache of one read-only index connection. Internal to libs/store: the
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

let rowsRead = 0;

/**
 * Rows returned so far by every index reader of this process (`all`, `get`, `iterate` of the
 * statements of {@link StatementCache}). Monotonic; callers take the difference around a piece of
 * work, as the `rows_read` diagnostics counter does (contract: `--diagnostics`).
 */
export function rowsReadTotal(): number {
  return rowsRead;
}

/** Wraps a statement so that the rows it returns are counted in {@link rowsReadTotal}. */
function counted(stmt: Statement): Statement {
  return new Proxy(stmt, {
    get(target, key, receiver) {
      const value: unknown = Reflect.get(target, key, receiver);
      if (key === 'all') {
        return (...params: unknown[]) => {
          const rows = target.all(...params);
          rowsRead += rows.length;
          return rows;
        };
      }
      if (key === 'get') {
        return (...params: unknown[]) => {
          const row = target.get(...params);
          if (row !== undefined) rowsRead += 1;
          return row;
        };
      }
      if (key === 'iterate') {
        return function* iterate(...params: unknown[]) {
          for (const row of target.iterate(...params)) {
            rowsRead += 1;
            yield row;
          }
        };
      }
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

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
      stmt = counted(stmt);
      this.#cache.set(key, stmt);
    }
    return stmt;
  }
}

/** `?, ?, ?` for a list of `n` parameters. */
export function placeholders(n: number): string {
  return Array.from({ length: n }, () => '?').join(', ');
}
