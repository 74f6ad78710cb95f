/** The record `docforge init` prints for each path it did not declare; its own module so init.ts and generated.ts share it without importing each other. */

/** A top-level path `docforge init` did not declare as a root, and why (printed, so nothing is left out without a word). */
export interface InitLeftOut {
  /** Project-relative POSIX path (a folder or a file). */
  path: string;
  reason: string;
}

/** The top-level folders init could not read (name and error code), each as left out with the error and what to do (nothing is skipped without a word). */
export function unreadableLeftOut(unreadable: readonly { name: string; code: string }[]): InitLeftOut[] {
  return unreadable.map(({ name, code }) => ({ path: name, reason: `could not be read (${code}); init looked at nothing inside it: make it readable and run init again, or add it to content_roots or code_roots by hand` }));
}
