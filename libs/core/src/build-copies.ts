/**
 * Build copies of one source, shared by search's collapse (retrieval ranking-copies.ts) and
 * mention resolution (project resolve-refs.ts), so a search hit and a documentation mention name
 * the same kept copy (issue 30; new-user trial on lru-cache, whose `dist/commonjs/index.js` is
 * byte for byte `dist/commonjs/{browser,node,react-native}/index.js`).
 *
 * - **Content copies.** Code files with the same content hash are one file: each stands for its
 *   {@link canonicalCopyPaths canonical path}, whatever folders the copies sit in.
 * - **Twins.** Modules whose (canonical) paths are equal once the build extension and build-layout
 *   folders are dropped ({@link twinKey}), and only while one of them can be the source of the
 *   others ({@link oneSource}): two hand-written sources of different content are never copies
 *   (`src/parser.ts` and `lib/parser.ts`, attacker trial on main, 2026-12-08).
 * - **Preference.** A TypeScript source, then an ES module, then CommonJS, then declarations, then a
 *   bundle ({@link copyPreference}).
 */

/** A JavaScript or TypeScript build file's extension, a declaration's `.d` included. */
const BUILD_EXTENSION = /(\.d)?\.[cm]?[jt]sx?$/;
/** A folder name of a build layout: source, output and module-format folders (`esm`, `cjs`, `esm2015`, `esm-browser`, ...). */
const LAYOUT_FOLDER = /^(src|lib|dist|build|out|es|esm|cjs|mjs|commonjs|module|umd|types|typings|f?esm\d+|es\d+)([-_](browser|node|bundler))?$/;
/** A folder only build output is written to: a layout folder other than the source folders `src` and `lib`. */
const OUTPUT_FOLDER = /^(dist|build|out|es|esm|cjs|mjs|commonjs|module|umd|types|typings|f?esm\d+|es\d+)([-_](browser|node|bundler))?$/;
/** A declaration file (`.d.ts`, `.d.mts`, `.d.cts`). */
const DECLARATION = /\.d\.[cm]?ts$/;
/** A TypeScript source (a declaration is tested first). */
const TYPESCRIPT_SOURCE = /\.(ts|tsx|mts|cts)$/;
/** A generated bundle: `cdn.js`, `*.min.js`, `*.bundle.js`, `*.umd.js`, `*.iife.js`, or any script under a `umd`, `bundle(s)` or `cdn` folder. */
export const BUNDLE_FILE = /(^|\/)(cdn(\.min)?|[^/]+[.-](min|bundle|umd|iife))\.[cm]?js$|(^|\/)(umd|bundles?|cdn)\/[^/]+\.[cm]?js$/;

/** The path and qualified name of a code node id (`code:<path>#<name>`), or null for other nodes. */
export function codeParts(id: string): { path: string; name: string } | null {
  if (!id.startsWith('code:')) return null;
  const hash = id.indexOf('#');
  return hash < 0 ? { path: id.slice(5), name: '' } : { path: id.slice(5, hash), name: id.slice(hash + 1) };
}

/** The twin key of a code node in a JavaScript/TypeScript build file (`index#LRUCache.dispose`), or null (not such a file). */
export function twinKey(parts: { path: string; name: string }): string | null {
  if (!BUILD_EXTENSION.test(parts.path)) return null;
  const folders = parts.path.replace(BUILD_EXTENSION, '').split('/');
  const file = folders.pop()!;
  return `${[...folders.filter((folder) => !LAYOUT_FOLDER.test(folder)), file].join('/')}#${parts.name}`;
}

/**
 * Whether build files of one {@link twinKey} (their canonical paths) can all stand for one source,
 * that is whether at most one of them is hand-written; the others are then provably its build
 * output. A TypeScript source (no declaration) is hand-written: tsc writes JavaScript and
 * declarations, never TypeScript, so with one TypeScript source the scripts and declarations are
 * its emit (zod's `src/v4/core/api.ts` and `v4/core/api.js`), and two of them are two sources
 * (`src/parser.ts` and `lib/parser.ts` of different content). Without one, a declaration and a
 * script under an output folder (`dist`, `build`, `esm`, `cjs`, ...; not `src` or `lib`) are output,
 * and the other scripts are one source only when they sit in one folder (a module's formats side
 * by side: date-fns `addDays.js`, `addDays.cjs`); `src/x.js` and `lib/x.js` are two.
 */
export function oneSource(paths: Iterable<string>): boolean {
  const typescript = new Set<string>();
  const folders = new Set<string>();
  for (const path of paths) {
    if (DECLARATION.test(path)) continue;
    if (TYPESCRIPT_SOURCE.test(path)) {
      typescript.add(path);
      continue;
    }
    const parts = path.split('/');
    parts.pop();
    if (!parts.some((folder) => OUTPUT_FOLDER.test(folder))) folders.add(parts.join('/'));
  }
  return typescript.size === 1 || (typescript.size === 0 && folders.size <= 1);
}

/**
 * How much a member is preferred as its group's kept copy (lower first): a TypeScript source 0,
 * an ES module or plain script 1, CommonJS 2, an ES declaration (`.d.ts`, `.d.mts`) 3, a CommonJS
 * one (`.d.cts`) 4, a bundle 5, anything else 6.
 */
export function copyPreference(path: string): number {
  if (BUNDLE_FILE.test(path)) return 5;
  if (/\.d\.cts$/.test(path)) return 4;
  if (/\.d\.m?ts$/.test(path)) return 3;
  if (/\.(ts|tsx|mts)$/.test(path)) return 0;
  if (/\.(js|jsx|mjs)$/.test(path)) return 1;
  if (/\.(cjs|cts)$/.test(path)) return 2;
  return 6;
}

/** Orders two copies' paths as the kept one comes first: {@link copyPreference}, fewer folders, shorter, then code-point order. */
export function compareCopyPaths(a: string, b: string): number {
  const depth = (p: string): number => p.split('/').length;
  return copyPreference(a) - copyPreference(b) || depth(a) - depth(b) || a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}

/**
 * Per code path that has a byte-identical copy (same content hash), the path its copies share:
 * the first of them by {@link compareCopyPaths} (`dist/commonjs/index.js` for its `browser/`,
 * `node/` and `react-native/` copies, and for itself). Paths without a copy are absent. An empty
 * hash (an unreadable file) is no content.
 * @param files project-relative code paths with their content hashes (sha256 hex)
 */
export function canonicalCopyPaths(files: Iterable<readonly [path: string, hash: string]>): Map<string, string> {
  const byHash = new Map<string, string[]>();
  for (const [path, hash] of files) {
    if (hash === '') continue;
    const list = byHash.get(hash);
    if (list === undefined) byHash.set(hash, [path]);
    else list.push(path);
  }
  const out = new Map<string, string>();
  for (const paths of byHash.values()) {
    if (paths.length < 2) continue;
    const kept = [...paths].sort(compareCopyPaths)[0]!;
    for (const path of paths) out.set(path, kept);
  }
  return out;
}

/**
 * The copy-group key of a code node id, or null (no code node, or one of a file with neither a
 * content copy nor a build extension): its twin key over its canonical path, or, for other
 * languages, its canonical path and name.
 * @param canonical {@link canonicalCopyPaths}' answer (or a lookup of it)
 */
export function copyKey(id: string, canonical: (path: string) => string | undefined): string | null {
  const parts = codeParts(id);
  if (parts === null) return null;
  const kept = canonical(parts.path);
  const path = kept ?? parts.path;
  return twinKey({ path, name: parts.name }) ?? (kept === undefined ? null : `${path}#${parts.name}`);
}

/**
 * The one id `ids` name when all of them are copies of one declaration (one {@link copyKey}, none a
 * bundle, their files {@link oneSource one source}), the kept one by {@link compareCopyPaths}; else
 * `ids` unchanged.
 */
export function oneOfCopies(ids: readonly string[], canonical: (path: string) => string | undefined): readonly string[] {
  if (ids.length < 2) return ids;
  const key = copyKey(ids[0]!, canonical);
  if (key === null || ids.some((id) => BUNDLE_FILE.test(codeParts(id)!.path) || copyKey(id, canonical) !== key)) return ids;
  if (!oneSource(ids.map((id) => { const path = codeParts(id)!.path; return canonical(path) ?? path; }))) return ids;
  return [[...ids].sort((a, b) => compareCopyPaths(codeParts(a)!.path, codeParts(b)!.path) || (a < b ? -1 : 1))[0]!];
}
