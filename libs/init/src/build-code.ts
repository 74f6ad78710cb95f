/**
 * Build-named folders that hold the only copy of a package's code (issue 30, new-user trial 48 on
 * yargs 18.2.0): `docforge init` excludes `dist/` and `build/` by name when the code root is the
 * project root, but yargs ships its implementation only as `build/lib/*.js`, which its entry point
 * `index.mjs` imports. Excluding it left 9 nodes and no implementation. A folder is kept as code
 * when the project's own code outside it (tests aside) imports a path inside it and nothing present generates
 * it (no source map in it names a source outside it, and its scripts have no TypeScript source
 * twins elsewhere, as ajv's `dist/compile/index.js` has `lib/compile/index.ts`).
 */
import { readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import type { InitLeftOut } from './left-out.js';
import { listFiles, MAX_SCANNED_FILES } from './list-files.js';

/** Most script files read for imports, and most bytes read of each (a bound on init's cost). */
const MAX_IMPORTERS = 2_000;
const MAX_IMPORTER_BYTES = 256 * 1024;
/** Most source maps read inside a build folder. */
const MAX_MAPS = 50;

const SCRIPT = /\.[cm]?[jt]sx?$/;
const DECLARATION = /\.d\.[cm]?ts$/;
const TS_SOURCE = /\.[cm]?tsx?$/;
/** Test sources (the rule of retrieval's ranking): what only tests import is no runtime need (fastify's build/ scripts). */
const TEST_PATH = /(^|\/)(tests?|__tests__)\/|\.(test|spec|tst)\.[a-z]+$/i;
/** A relative module specifier after `from`, `require(`, `import(` or a bare `import`. */
const RELATIVE_SPECIFIER = /(?:\bfrom|\brequire\(|\bimport\(?)\s*(['"])(\.\.?\/[^'"\r\n]*)\1/g;

/** The first importer outside `folder`, not a test source, with a relative specifier that lands inside it (`file imports 'specifier'`); null when none. */
function importerInto(root: string, folder: string, outside: readonly string[]): string | null {
  for (const file of outside.filter((path) => SCRIPT.test(path) && !DECLARATION.test(path) && !TEST_PATH.test(path)).slice(0, MAX_IMPORTERS)) {
    let text: string;
    try {
      text = readFileSync(join(root, file)).subarray(0, MAX_IMPORTER_BYTES).toString('utf8');
    } catch {
      continue;
    }
    for (const match of text.matchAll(RELATIVE_SPECIFIER)) {
      const target = posix.normalize(posix.join(posix.dirname(file), match[2]!));
      if (target === folder || target.startsWith(`${folder}/`)) return `${file} imports '${match[2]}'`;
    }
  }
  return null;
}

/** Whether a source map in the folder names a source file that exists outside it. */
function mapsToPresentSources(root: string, folder: string, inside: readonly string[], present: ReadonlySet<string>): boolean {
  for (const map of inside.filter((path) => path.endsWith('.map')).slice(0, MAX_MAPS)) {
    let sources: unknown;
    let sourceRoot = '';
    try {
      const parsed = JSON.parse(readFileSync(join(root, map), 'utf8')) as { sources?: unknown; sourceRoot?: unknown };
      sources = parsed.sources;
      if (typeof parsed.sourceRoot === 'string') sourceRoot = parsed.sourceRoot;
    } catch {
      continue;
    }
    if (!Array.isArray(sources)) continue;
    for (const source of sources) {
      if (typeof source !== 'string' || /^[a-z]+:/i.test(source) || /^[a-z]+:/i.test(sourceRoot)) continue;
      const target = posix.normalize(posix.join(posix.dirname(map), sourceRoot, source));
      if (!target.startsWith(`${folder}/`) && present.has(target)) return true;
    }
  }
  return false;
}

/** `a/b/c` and its shorter tails `b/c`, `c`: a build's `dist/compile/index` and a source's `lib/compile/index` share `compile/index`. */
function tails(stem: string): string[] {
  const parts = stem.split('/');
  return parts.map((_, i) => parts.slice(i).join('/'));
}

/** Whether at least half of the folder's scripts have a TypeScript source of the same path tail outside it (`dist/compile/index.js` and `lib/compile/index.ts`). */
function hasSourceTwins(folder: string, inside: readonly string[], outside: readonly string[]): boolean {
  const built = inside.filter((path) => SCRIPT.test(path) && !DECLARATION.test(path) && !TS_SOURCE.test(path));
  if (built.length === 0) return false;
  const sourceTails = new Set(outside.filter((path) => TS_SOURCE.test(path) && !DECLARATION.test(path)).flatMap((path) => tails(path.replace(SCRIPT, ''))));
  const twins = built.filter((path) => tails(path.slice(folder.length + 1).replace(SCRIPT, '')).some((tail) => sourceTails.has(tail)));
  return twins.length * 2 >= built.length;
}

/**
 * Which of `folders` (top-level build-named folders init would exclude, such as `build`, `dist`)
 * hold the package's only copy of code its other code needs: package.json names a script inside
 * (`named`: `main`, `module`, `exports`, `bin`; mitt's `dist/mitt.js`) or a script outside them, not a test
 * source (`test/`, `*.test.js`: fastify's tests import its `build/` scripts), imports a path
 * inside (`index.mjs` → `./build/lib/yargs-factory.js`); no source map inside names a source
 * present outside, and fewer than half of their scripts have a TypeScript source twin outside.
 * Each kept folder comes with the reason init prints. Reads listings (at most
 * {@link MAX_SCANNED_FILES} files, else nothing is kept), scripts (first 256 KiB of at most 2,000)
 * and at most 50 source maps per folder; never throws on unreadable files.
 * @param root absolute project root
 * @param folders project-relative folder names (no trailing slash), each a candidate
 * @param skip project-relative folders never read (hidden and `node_modules` are always skipped)
 * @param named project-relative files package.json names (entries.ts)
 */
export function buildFoldersHoldingCode(root: string, folders: readonly string[], skip: (rel: string) => boolean, named: ReadonlySet<string> = new Set()): InitLeftOut[] {
  const candidates = new Set(folders);
  const all = listFiles(root, [''], (rel, name) => name.startsWith('.') || name === 'node_modules' || (skip(rel) && !candidates.has(rel)), () => true);
  // Past the listing bound nothing is kept: the build folders stay excluded, as init proposes by name.
  if (all === null) return [];
  const present = new Set(all);
  const kept: InitLeftOut[] = [];
  for (const folder of folders) {
    const inside = all.filter((path) => path.startsWith(`${folder}/`));
    if (!inside.some((path) => SCRIPT.test(path))) continue;
    const outside = all.filter((path) => !path.startsWith(`${folder}/`) && !folders.some((other) => path.startsWith(`${other}/`)));
    // A file package.json names (`main`, `exports`, `bin`) is used as much as one a script imports (mitt's dist/mitt.js).
    const entry = inside.find((path) => named.has(path) && SCRIPT.test(path) && !DECLARATION.test(path));
    const importer = entry !== undefined ? `package.json names ${entry}` : importerInto(root, folder, outside);
    if (importer === null || mapsToPresentSources(root, folder, inside, present) || hasSourceTwins(folder, inside, outside)) continue;
    kept.push({ path: folder, reason: `read as code although its name is a build folder's: ${importer}, and no source in the project generates it (no source map names one, no TypeScript source of the same path); add "${folder}/**" to [sources].exclude to leave it out` });
  }
  return kept;
}
