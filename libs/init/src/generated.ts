/**
 * Generated copies `docforge init` excludes (issue 30, new-user trial on date-fns): CommonJS twins
 * of ES modules (`addDays.cjs` beside `addDays.js`, `addDays.d.cts` beside `addDays.d.ts`) and
 * generated bundles (`cdn.js`, `*.min.js`, `*.bundle.js`, `*.umd.js`, `*.iife.js`). Each proposed
 * exclude is listed as left out with its count, examples and how to undo it. Nothing is proposed
 * from a name alone where it could be a source: a twin glob only when every file it matches has
 * its twin, a bundle glob only when the code roots hold other code too. Bundles with no telling
 * name (zod's rollup `lib/index.mjs`) are found by what they declare (bundled.ts), minified ones
 * (marked's `lib/marked.esm.js`) by the shape of their text (minified.ts), several builds of one
 * code base (yaml's `browser/dist/`, luxon's `build/amd/luxon.js`) by source maps and parallel
 * trees (builds.ts).
 */
import { bundledCopies } from './bundled.js';
import { buildCopies } from './builds.js';
import type { PackageEntries } from './entries.js';
import { minifiedFiles } from './minified.js';
import type { InitLeftOut } from './left-out.js';
import { listFiles, type MAX_SCANNED_FILES } from './list-files.js';

/** A twin rule: files ending in `ext` that each have a file ending in `twin` of the same stem beside them. */
const TWINS: readonly { ext: string; twin: string; what: string }[] = [
  { ext: '.d.cts', twin: '.d.ts', what: 'CommonJS declaration files, each beside its ES twin' },
  { ext: '.cjs', twin: '.js', what: 'CommonJS builds, each beside its ES module twin of the same source' },
];

/** Generated bundles by file name, each with its exclude glob. */
const BUNDLES: readonly { name: RegExp; glob: string }[] = [
  { name: /^cdn\.js$/, glob: '**/cdn.js' },
  { name: /\.min\.js$/, glob: '**/*.min.js' },
  { name: /\.bundle\.js$/, glob: '**/*.bundle.js' },
  { name: /\.umd\.js$/, glob: '**/*.umd.js' },
  { name: /\.iife\.js$/, glob: '**/*.iife.js' },
];

const SCRIPT = /\.[cm]?[jt]sx?$/;

/** Script files (project-relative paths) under the code roots, or null past {@link MAX_SCANNED_FILES}. */
function scripts(root: string, codeRoots: readonly string[], skipDir: (rel: string, name: string) => boolean): string[] | null {
  return listFiles(root, codeRoots.map((dir) => (dir === '.' ? '' : dir)), skipDir, (name) => SCRIPT.test(name));
}

/** `paths` as a short list for a reason: the first three, then how many more. */
function examples(paths: readonly string[]): string {
  const shown = paths.slice(0, 3).join(', ');
  return paths.length > 3 ? `${shown}, and ${paths.length - 3} more` : shown;
}

/**
 * The excludes init proposes for generated copies under `codeRoots` (project-relative, `.` the
 * root), each with a left-out entry. `skipDir(rel, name)` says which folders are not read (already
 * excluded, hidden, `node_modules`); `entries` (entries.ts) says which copy of several builds is kept.
 * Reads folder listings, then bounded parts of files (builds.ts, minified.ts, bundled.ts).
 */
export function generatedCopies(root: string, codeRoots: readonly string[], skipDir: (rel: string, name: string) => boolean, entries: PackageEntries = { node: [], named: new Set() }): { excludes: string[]; leftOut: InitLeftOut[] } {
  const files = scripts(root, codeRoots, skipDir);
  if (files === null) return { excludes: [], leftOut: [] };
  const all = new Set(files);
  const excludes: string[] = [];
  const leftOut: InitLeftOut[] = [];
  const bundled = new Set<string>();
  for (const rule of BUNDLES) {
    const matched = files.filter((path) => !bundled.has(path) && rule.name.test(path.slice(path.lastIndexOf('/') + 1)));
    if (matched.length === 0) continue;
    for (const path of matched) bundled.add(path);
    excludes.push(rule.glob);
    leftOut.push({ path: rule.glob, reason: `${matched.length} generated ${matched.length === 1 ? 'bundle' : 'bundles'} (${examples(matched)}): copies of the package's modules; excluded as "${rule.glob}" (remove it from [sources].exclude to index them)` });
  }
  if (bundled.size > 0 && bundled.size === files.length) {
    // Only bundles: they are the code there is. Propose nothing.
    return { excludes: [], leftOut: [] };
  }
  const twinned = new Set<string>();
  for (const rule of TWINS) {
    const matched = files.filter((path) => path.endsWith(rule.ext) && !bundled.has(path));
    if (matched.length === 0 || !matched.every((path) => all.has(`${path.slice(0, -rule.ext.length)}${rule.twin}`))) continue;
    for (const path of matched) twinned.add(path);
    const glob = `**/*${rule.ext}`;
    excludes.push(glob);
    leftOut.push({ path: glob, reason: `${matched.length} ${rule.what} (${examples(matched)}); excluded as "${glob}" (remove it from [sources].exclude to index them)` });
  }
  const unnamed = files.filter((path) => !bundled.has(path) && !twinned.has(path));
  // Builds of one code base first (source maps, parallel trees): they name the copy they come from.
  const builds = buildCopies(root, unnamed, entries);
  const rest = unnamed.filter((path) => !builds.excludes.some((glob) => path === glob || (glob.endsWith('**') && path.startsWith(glob.slice(0, -2)))));
  // Minified files next (marked's `lib/marked.esm.js`): what they declare is no name to compare.
  const minified = minifiedFiles(root, rest);
  const byContent = bundledCopies(root, rest.filter((path) => !minified.excludes.includes(path)));
  return { excludes: [...excludes, ...builds.excludes, ...minified.excludes, ...byContent.excludes], leftOut: [...leftOut, ...builds.leftOut, ...minified.leftOut, ...byContent.leftOut] };
}
