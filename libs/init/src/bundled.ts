/**
 * Generated bundles found by content, not name (issue 30, new-user trial on zod 3.23.8): the file
 * rules of generated.ts leave out `lib/index.umd.js` by name, but `lib/index.mjs`, a rollup bundle
 * of `lib/*.js`, was indexed, so half the search hits were copies and the README's `documents`
 * edges pointed at the bundle instead of `lib/types.js`. A bundle is told by what it declares: most
 * of its top-level classes and functions are declared again in two or more smaller project files.
 * Read without the TypeScript compiler (a line scan), bounded in files and bytes.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { InitLeftOut } from './left-out.js';

/** Most script files read for declarations, and most bytes read of each (a bound on init's cost). */
const MAX_FILES = 2_000;
const MAX_FILE_BYTES = 4 * 1024 * 1024;
/** Least top-level declarations a bundle has (a small file is never judged a copy). */
const MIN_NAMES = 8;
/** Share of a bundle's declarations that smaller files declare again (at least two thirds). */
const SHARE_NUM = 2;
const SHARE_DEN = 3;

const DECLARATION_FILE = /\.d\.[cm]?ts$/;
/** Test sources (retrieval's rule): their helpers are not copies of the package. */
const TEST_PATH = /(^|\/)(tests?|__tests__)\/|\.(test|spec|tst)\.[a-z]+$/i;
/** Words that may come before `function` or `class` at the start of a line, in this order. */
const MODIFIERS = ['export', 'default', 'declare', 'abstract', 'async'];
const IDENTIFIER = /^[A-Za-z_$][\w$]*/;
const isBlank = (c: string | undefined): boolean => c === ' ' || c === '\t';

/** `rest` after `word` and the blanks that follow it, when it starts with the word and a blank (or `*` after `function`); else null. */
function after(rest: string, word: string, star = false): string | null {
  if (!rest.startsWith(word) || !(isBlank(rest[word.length]) || (star && rest[word.length] === '*'))) return null;
  return rest.slice(word.length).trimStart();
}

/**
 * The class or function a line declares at its start (`class X`, `export default async function* X`),
 * or null. A scan of words, linear in the line (no backtracking pattern).
 */
function declaredAt(line: string): string | null {
  let rest = line;
  for (const word of MODIFIERS) rest = after(rest, word) ?? rest;
  const fn = after(rest, 'function', true);
  const body = fn === null ? after(rest, 'class') : fn.startsWith('*') ? fn.slice(1).trimStart() : fn;
  return body === null ? null : IDENTIFIER.exec(body)?.[0] ?? null;
}

/** The distinct top-level class and function names in `text`. */
export function topLevelNames(text: string): Set<string> {
  const names = new Set<string>();
  for (const line of text.split('\n')) {
    const name = declaredAt(line);
    if (name !== null) names.add(name);
  }
  return names;
}

/** Each readable file's declared names (files past the bounds or unreadable are passed over). */
function declaredNames(root: string, files: readonly string[]): Map<string, Set<string>> {
  const names = new Map<string, Set<string>>();
  for (const file of files.filter((path) => !DECLARATION_FILE.test(path) && !TEST_PATH.test(path)).slice(0, MAX_FILES)) {
    try {
      names.set(file, topLevelNames(readFileSync(join(root, file)).subarray(0, MAX_FILE_BYTES).toString('utf8')));
    } catch {
      continue;
    }
  }
  return names;
}

/**
 * The files among `files` (project-relative script paths under the code roots, none already left
 * out) that bundle other project files: each declares at least 8 top-level classes or functions,
 * at least two thirds of them are declared again in files that declare fewer names than it, and
 * those come from at least two files. A hand-written index that re-exports declares nothing, a
 * bundle that is the package's only code has no smaller file beside it, and twin bundles of one
 * source tree (`index.js`, `index.mjs`) are each covered by that tree, not by each other. Each
 * bundle comes with its left-out entry; its exclude is its own path. Reads the first 4 MiB of at
 * most 2,000 files (tests and declaration files are not read); never throws on unreadable files.
 * @param root absolute project root
 */
export function bundledCopies(root: string, files: readonly string[]): { excludes: string[]; leftOut: InitLeftOut[] } {
  const names = declaredNames(root, files);
  // Who declares each name, so each file's check reads only its own names' entries.
  const declarers = new Map<string, string[]>();
  for (const [file, declared] of names) {
    for (const name of declared) {
      const list = declarers.get(name);
      if (list === undefined) declarers.set(name, [file]);
      else list.push(file);
    }
  }
  // Two passes: a bundle found in the first is no source in the second (luxon's build/es6/luxon.mjs
  // copies src/*.js, not build/cjs-browser/luxon.js, itself a bundle), so a reason cites kept files.
  const first = bundlesAmong(names, declarers, new Set());
  const second = bundlesAmong(names, declarers, new Set(first.map((found) => found.file)));
  return { excludes: second.map((found) => found.file), leftOut: second.map((found) => found.entry) };
}

/** The files of `names` that copy smaller files (never one of `bundles`), each with its left-out entry. */
function bundlesAmong(names: Map<string, Set<string>>, declarers: Map<string, string[]>, bundles: ReadonlySet<string>): { file: string; entry: InitLeftOut }[] {
  const found: { file: string; entry: InitLeftOut }[] = [];
  for (const [file, own] of names) {
    if (own.size < MIN_NAMES) continue;
    const sources = new Map<string, number>();
    let shared = 0;
    for (const name of own) {
      const from = (declarers.get(name) ?? []).filter((other) => other !== file && !bundles.has(other) && names.get(other)!.size < own.size);
      if (from.length === 0) continue;
      shared += 1;
      for (const other of from) sources.set(other, (sources.get(other) ?? 0) + 1);
    }
    if (sources.size < 2 || shared * SHARE_DEN < own.size * SHARE_NUM) continue;
    // The files it copies most from first (zod's lib/types.js before lib/errors.js).
    const ranked = [...sources].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([path]) => path);
    const shown = ranked.slice(0, 3).join(', ') + (ranked.length > 3 ? `, and ${ranked.length - 3} more` : '');
    found.push({ file, entry: { path: file, reason: `a generated bundle: ${shared} of its ${own.size} top-level classes and functions are declared again in ${sources.size} project files (${shown}), so it copies them; excluded as "${file}" (remove it from [sources].exclude to index it)` } });
  }
  return found;
}
