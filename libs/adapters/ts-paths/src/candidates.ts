/**
 * The files a module path may name, in the order a resolver tries them (TypeScript 5's
 * `loadModuleFromFile` / `tryAddingExtensions`, non-ESM mode): a written extension is replaced by
 * the TypeScript source, declaration and JavaScript extensions it stands for (`./x.js` → `x.ts`,
 * `x.tsx`, `x.d.ts`, `x.js`, `x.jsx`), then extensions are added to the path as written. Pure: the
 * caller takes the first candidate that is a project file.
 */

/**
 * How the specifiers of one importing file resolve. `typescript` (a .ts/.tsx/.mts/.cts file,
 * declaration files included) follows the TypeScript compiler: sources, then declarations, then
 * JavaScript. `javascript` (a .js/.jsx/.mjs/.cjs file, or a package.json `main`/`bin` target)
 * follows the runtime first: the file named, then TypeScript sources and JavaScript, and only then
 * declaration files (a declaration stands in for a file the project does not hold).
 */
export type ResolutionMode = 'typescript' | 'javascript';

const TS_JS = ['.ts', '.tsx', '.d.ts', '.js', '.jsx'];
const TSX_JSX = ['.tsx', '.ts', '.d.ts', '.jsx', '.js'];
const MTS_MJS = ['.mts', '.d.mts', '.mjs'];
const CTS_CJS = ['.cts', '.d.cts', '.cjs'];

/** Per written extension, the extensions TypeScript tries in its place, in order. */
const REPLACEMENTS: Readonly<Record<string, readonly string[]>> = {
  '.ts': TS_JS,
  '.d.ts': TS_JS,
  '.js': TS_JS,
  '.tsx': TSX_JSX,
  '.jsx': TSX_JSX,
  '.mts': MTS_MJS,
  '.d.mts': MTS_MJS,
  '.mjs': MTS_MJS,
  '.cts': CTS_CJS,
  '.d.cts': CTS_CJS,
  '.cjs': CTS_CJS,
};

/** Extensions TypeScript recognizes and strips (longest first where one ends another). */
const KNOWN_EXTENSIONS = ['.d.ts', '.d.mts', '.d.cts', '.mjs', '.mts', '.cjs', '.cts', '.ts', '.js', '.tsx', '.jsx', '.json'];

/**
 * Added after TypeScript's own list to a path as written: module-format extensions TypeScript never
 * adds but bundlers (e.g. Vite) do, kept as a last resort so such imports still resolve.
 */
const EXTRA_ADDED = ['.mts', '.d.mts', '.mjs', '.cts', '.d.cts', '.cjs'];

const DECLARATION = /\.d\.[^./]+\.ts$|\.d\.[mc]?ts$/;
const TYPESCRIPT_FILE = /\.[mc]?tsx?$/;

/** The mode of a file's specifiers: `typescript` for .ts/.tsx/.mts/.cts (and .d.ts) paths, else `javascript`. */
export function resolutionModeOf(importerPath: string): ResolutionMode {
  return TYPESCRIPT_FILE.test(importerPath) ? 'typescript' : 'javascript';
}

/**
 * The project paths a module path (project-relative, no query or fragment) may name, most
 * preferred first, without duplicates. In `typescript` mode: the written extension's replacements
 * (an unknown extension `.x` gives only `name.d.x.ts`, TypeScript's arbitrary-extension
 * declaration), then the path with `.ts`, `.tsx`, `.d.ts`, `.js`, `.jsx` added, then the extra
 * module-format extensions, then the path itself. In `javascript` mode: the path itself, then the
 * same list with every declaration file moved after the last implementation file.
 */
export function fileCandidates(path: string, mode: ResolutionMode): string[] {
  const list: string[] = [];
  const slash = path.lastIndexOf('/');
  const base = path.slice(slash + 1);
  if (base.includes('.')) {
    const known = KNOWN_EXTENSIONS.find((ext) => base.length > ext.length && base.endsWith(ext));
    const ext = known ?? base.slice(base.lastIndexOf('.'));
    const stem = path.slice(0, path.length - ext.length);
    const replacements = REPLACEMENTS[ext];
    if (replacements !== undefined) for (const replacement of replacements) list.push(stem + replacement);
    else if (!DECLARATION.test(path)) list.push(`${stem}.d${ext}.ts`);
  }
  for (const added of TS_JS) list.push(path + added);
  for (const added of EXTRA_ADDED) list.push(path + added);
  if (mode === 'typescript') return unique([...list, path]);
  return unique([path, ...list.filter((p) => !DECLARATION.test(p)), ...list.filter((p) => DECLARATION.test(p))]);
}

function unique(paths: readonly string[]): string[] {
  return [...new Set(paths)];
}
