/**
 * better-sqlite3, loaded with `require` on the first open (issue 14): a process that only compares
 * the cheap source identity with `current.json` (a no-change `docforge sync`) never loads the
 * native module.
 */
import { createRequire } from 'node:module';
import type Database from 'better-sqlite3';

let constructor: typeof Database | null = null;

/** The better-sqlite3 `Database` class; the first call loads the module (throws what `require` throws). */
export function sqliteDatabase(): typeof Database {
  constructor ??= createRequire(import.meta.url)('better-sqlite3') as typeof Database;
  return constructor;
}
