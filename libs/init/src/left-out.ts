/** The record `docforge init` prints for each path it did not declare; its own module so init.ts and generated.ts share it without importing each other. */

/** A top-level path `docforge init` did not declare as a root, and why (printed, so nothing is left out without a word). */
export interface InitLeftOut {
  /** Project-relative POSIX path (a folder or a file). */
  path: string;
  reason: string;
}
