/**
 * Minified bundles found by what they are (new-user trial on marked 18): `lib/marked.esm.js` has no
 * bundle name (generated.ts) and copies no project file (bundled.ts), so it was indexed under its
 * minified names (`#$`, `#G`, `#ne.walkTokens`). A file most of whose text is on very long lines
 * with almost no whitespace (@docforge/core `minifiedEvidence`) is left out, with the evidence.
 */
import { openSync, readSync, closeSync, fstatSync } from 'node:fs';
import { join } from 'node:path';
import { MINIFIED_READ_CHARS, minifiedEvidence, minifiedReason } from '@docforge/core';
import type { InitLeftOut } from './left-out.js';

/** Most files sampled (a bound on init's cost); the rest are passed over. */
const MAX_FILES = 2_000;
const DECLARATION_FILE = /\.d\.[cm]?ts$/;

/** The first {@link MINIFIED_READ_CHARS} bytes of a file (all of a smaller one) as text, or null when unreadable. */
function head(path: string): string | null {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const buffer = Buffer.alloc(Math.min(fstatSync(fd).size, MINIFIED_READ_CHARS));
    const read = readSync(fd, buffer, 0, buffer.length, 0);
    return buffer.subarray(0, read).toString('utf8');
  } catch {
    return null;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * The minified files among `files` (project-relative script paths under the code roots, none
 * already left out), each excluded by its own path with the evidence as its reason; nothing when
 * every file is minified (the code there is; sync then warns `minified_source` on each). Reads at
 * most the first 8 MiB of at most 2,000 files (a leading data literal is passed over to judge the
 * code after it; declaration files are not read); never throws.
 * @param root absolute project root
 */
export function minifiedFiles(root: string, files: readonly string[]): { excludes: string[]; leftOut: InitLeftOut[] } {
  const excludes: string[] = [];
  const leftOut: InitLeftOut[] = [];
  const read = files.filter((path) => !DECLARATION_FILE.test(path)).slice(0, MAX_FILES);
  for (const file of read) {
    const text = head(join(root, file));
    const evidence = text === null ? null : minifiedEvidence(text);
    if (evidence === null) continue;
    excludes.push(file);
    leftOut.push({ path: file, reason: `minified code: ${minifiedReason(evidence)}; its declarations would be indexed under minified names; excluded as "${file}" (remove it from [sources].exclude to index it)` });
  }
  return excludes.length === files.length ? { excludes: [], leftOut: [] } : { excludes, leftOut };
}
