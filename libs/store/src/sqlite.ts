/**
 * better-sqlite3, loaded with `require` on the first open (issue 14): a process that only compares
 * the cheap source identity with `current.json` (a no-change `docforge sync`) never loads the
 * native module.
 */
import { createRequire } from 'node:module';
import type Database from 'better-sqlite3';

/** `require` relative to this module; Node's module cache makes every call after the first a cache lookup, so no memo is kept here. */
const requireHere = createRequire(import.meta.url);

/** The better-sqlite3 `Database` class; the first call loads the module (throws what `require` throws). */
export function sqliteDatabase(): typeof Database {
  return requireHere('better-sqlite3') as typeof Database;
}
