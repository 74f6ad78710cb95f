/**
 * Several builds of one code base (new-user trial on yaml 2.9.1 and luxon 3.7.2): yaml ships
 * `dist/` (CommonJS) and `browser/dist/` (an ES module build with the same relative file names),
 * so every API function was indexed twice and doc mentions were ambiguous; luxon's
 * `build/amd/luxon.js` and `build/global/luxon.js` wrap their code in `define(...)` or an IIFE,
 * so bundled.ts (which reads declarations at the start of a line) never saw their indented
 * functions, though their source maps name luxon's `src/*.js`. init keeps one copy and excludes
 * the others, each with its reason: a script whose source map names project sources that are
 * present is a build of them (the sources are kept); scripts whose maps name the same absent
 * sources, and parallel trees with the same relative module names and the same code, are builds
 * of one another (the one package.json names for Node is kept, entries.ts).
 */
import { readFileSync, statSync } from 'node:fs';
import { join, posix } from 'node:path';
import type { PackageEntries } from './entries.js';
import type { InitLeftOut } from './left-out.js';

/** Most source maps read, and the largest read (a bound on init's cost). */
const MAX_MAPS = 2_000;
const MAX_MAP_BYTES = 16 * 1024 * 1024;
/** Most same-named files compared per name, and most file pairs read for their code. */
const MAX_NAMESAKES = 64;
const MAX_PAIRS_READ = 200;
const MAX_PAIR_BYTES = 256 * 1024;
/** Least modules two trees share by relative name to be judged builds of one code base. */
const MIN_SHARED_MODULES = 3;
/** Least length of a trimmed line compared between two files (shorter lines are braces and keywords). */
const MIN_LINE = 12;

const DECLARATION = /\.d\.[cm]?ts$/;
/** Test sources (retrieval's rule): fixtures that mirror each other (fastify's test/bundler/*) are no builds. */
const TEST_PATH = /(^|\/)(tests?|__tests__)\/|\.(test|spec|tst)\.[a-z]+$/i;
const SCRIPT_EXT = /\.[cm]?[jt]sx?$/;
const TS_SOURCE = /\.[cm]?tsx?$/;

/** `paths` as a short list for a reason: the first three, then how many more. */
function examples(paths: readonly string[]): string {
  const shown = paths.slice(0, 3).join(', ');
  return paths.length > 3 ? `${shown}, and ${paths.length - 3} more` : shown;
}

/** The project-relative files the source map beside `file` (`FILE.map`) names inside the project (not under node_modules); null without a readable map. */
function mappedSources(root: string, file: string): string[] | null {
  const map = `${file}.map`;
  try {
    if (statSync(join(root, map)).size > MAX_MAP_BYTES) return null;
    const parsed = JSON.parse(readFileSync(join(root, map), 'utf8')) as { sources?: unknown; sourceRoot?: unknown };
    const sourceRoot = typeof parsed.sourceRoot === 'string' ? parsed.sourceRoot : '';
    if (!Array.isArray(parsed.sources) || sourceRoot.includes(':')) return null;
    const inside = parsed.sources.flatMap((source: unknown) => {
      if (typeof source !== 'string' || source.includes(':')) return [];
      const target = posix.normalize(posix.join(posix.dirname(map), sourceRoot, source));
      return target.startsWith('../') || target.startsWith('/') || target.includes('node_modules/') ? [] : [target];
    });
    return [...new Set(inside)].sort();
  } catch {
    return null;
  }
}

const folderOf = (path: string): string => path.slice(0, path.lastIndexOf('/') + 1);

/** How init ranks a copy to keep: Node's entry first (its order), then a file beside it (lru-cache's Node entry is a `.min.js` init leaves out), then any file package.json names, then the rest. */
function rank(entries: PackageEntries, paths: readonly string[]): number {
  let best = 1_000;
  for (const path of paths) {
    const node = entries.node.indexOf(path);
    const beside = entries.node.findIndex((entry) => folderOf(entry) === folderOf(path));
    best = Math.min(best, node >= 0 ? node : beside >= 0 ? 50 + beside : entries.named.has(path) ? 100 : 1_000);
  }
  return best;
}

/** Why `kept` was the copy kept, for a reason. */
function keptBecause(entries: PackageEntries, kept: readonly string[]): string {
  const node = kept.find((path) => entries.node.includes(path));
  if (node !== undefined) return `package.json's entry for Node, ${node}, is there`;
  const beside = entries.node.find((entry) => kept.some((path) => folderOf(entry) === folderOf(path)));
  if (beside !== undefined) return `it sits beside package.json's entry for Node, ${beside}`;
  const named = kept.find((path) => entries.named.has(path));
  return named !== undefined ? `package.json names ${named}` : 'it is first by name';
}

/**
 * Scripts whose source map names project sources: when at least half of the sources inside the
 * project are among `files` (and at least one), the script is a build of them and is excluded
 * citing them; scripts whose maps name the same sources, none present (mitt's `dist/mitt.js` and
 * `dist/mitt.mjs` both name the absent `src/index.ts`), are builds of one another: the best ranked
 * is kept, the others are excluded citing it.
 */
function mappedCopies(root: string, files: readonly string[], entries: PackageEntries): { excludes: string[]; leftOut: InitLeftOut[] } {
  const present = new Set(files);
  const excludes: string[] = [];
  const leftOut: InitLeftOut[] = [];
  const groups = new Map<string, string[]>();
  for (const file of files.filter((path) => !DECLARATION.test(path)).slice(0, MAX_MAPS)) {
    const sources = mappedSources(root, file)?.filter((source) => source !== file) ?? [];
    if (sources.length === 0) continue;
    const found = sources.filter((source) => present.has(source));
    if (found.length > 0 && found.length * 2 >= sources.length) {
      excludes.push(file);
      leftOut.push({ path: file, reason: `a build of project sources: its source map names ${found.length} of them, which init indexes (${examples(found)}); excluded as "${file}" (remove it from [sources].exclude to index it)` });
    } else if (found.length === 0) {
      const key = sources.join('\n');
      groups.set(key, [...(groups.get(key) ?? []), file]);
    }
  }
  for (const group of groups.values()) {
    if (group.length < 2) continue;
    const kept = [...group].sort((a, b) => rank(entries, [a]) - rank(entries, [b]) || a.localeCompare(b))[0]!;
    for (const file of group.filter((path) => path !== kept)) {
      excludes.push(file);
      leftOut.push({ path: file, reason: `another build of the code in ${kept}: their source maps name the same sources (absent here); ${kept} is kept because ${keptBecause(entries, [kept])}; excluded as "${file}" (remove it from [sources].exclude to index it)` });
    }
  }
  return { excludes, leftOut };
}

/** The distinct trimmed lines of a file's first bytes that are long enough to compare; empty when unreadable. */
function longLines(root: string, file: string): Set<string> {
  try {
    return new Set(readFileSync(join(root, file)).subarray(0, MAX_PAIR_BYTES).toString('utf8').split('\n').map((line) => line.trim()).filter((line) => line.length >= MIN_LINE));
  } catch {
    return new Set();
  }
}

/** Whether the sampled pairs hold the same code: at least three quarters of the smaller files' long lines are in their twins (yaml's two builds: 86%; date-fns' locales, same module names and shape but their own data: 49-65%). */
function sameCode(root: string, pairs: readonly (readonly [string, string])[]): boolean {
  let shared = 0;
  let smaller = 0;
  for (const [a, b] of pairs.slice(0, MAX_PAIRS_READ)) {
    const left = longLines(root, a);
    const right = longLines(root, b);
    for (const line of left) if (right.has(line)) shared += 1;
    smaller += Math.min(left.size, right.size);
  }
  return smaller > 0 && shared * 4 >= smaller * 3;
}

/** Two same-named files' differing leading folders (`''` and `browser/` for `dist/x.js` and `browser/dist/x.js`), or null when they only differ in extension. */
function prefixes(a: string, b: string): [string, string] | null {
  const left = a.replace(SCRIPT_EXT, '').split('/');
  const right = b.replace(SCRIPT_EXT, '').split('/');
  let common = 0;
  while (common < Math.min(left.length, right.length) && left[left.length - 1 - common] === right[right.length - 1 - common]) common += 1;
  const pa = left.slice(0, left.length - common).join('/');
  const pb = right.slice(0, right.length - common).join('/');
  if (pa === pb) return null;
  return [pa === '' ? '' : `${pa}/`, pb === '' ? '' : `${pb}/`];
}

/**
 * Parallel trees: two folders (one may be the project root) whose scripts have the same relative
 * module names (at least 3, and at least half of each non-root side's scripts; tests aside) and the same code
 * (sameCode), one of them the TypeScript source of the other or holding the file package.json
 * names for Node (else nothing is proposed: date-fns' near-identical `locale/nn` and `locale/nb`
 * are two locales). The kept side is the TypeScript source, else the one holding Node's entry; the
 * other is excluded as `PREFIX**`. The project root is never excluded.
 */
function parallelTrees(root: string, files: readonly string[], entries: PackageEntries): { excludes: string[]; leftOut: InitLeftOut[] } {
  const scripts = files.filter((path) => !DECLARATION.test(path) && !TEST_PATH.test(path));
  const byName = new Map<string, string[]>();
  for (const path of scripts) {
    const name = path.slice(path.lastIndexOf('/') + 1).replace(SCRIPT_EXT, '');
    byName.set(name, [...(byName.get(name) ?? []), path]);
  }
  const pairs = new Map<string, [string, string][]>();
  for (const group of byName.values()) {
    const bounded = group.slice(0, MAX_NAMESAKES);
    for (let i = 0; i < bounded.length; i += 1) {
      for (let j = i + 1; j < bounded.length; j += 1) {
        const found = prefixes(bounded[i]!, bounded[j]!);
        if (found === null) continue;
        const [a, b] = found[0] < found[1] ? [bounded[i]!, bounded[j]!] : [bounded[j]!, bounded[i]!];
        const key = [...found].sort().join('\n');
        pairs.set(key, [...(pairs.get(key) ?? []), [a, b]]);
      }
    }
  }
  const excludes: string[] = [];
  const leftOut: InitLeftOut[] = [];
  const ordered = [...pairs].sort((x, y) => y[1].length - x[1].length || x[0].localeCompare(y[0]));
  for (const [key, matched] of ordered) {
    const sides = key.split('\n') as [string, string];
    if (matched.length < MIN_SHARED_MODULES || sides.some((side) => excludes.some((glob) => side.startsWith(glob.slice(0, -2))))) continue;
    const under = (side: string): string[] => scripts.filter((path) => path.startsWith(side));
    if (sides.some((side) => side !== '' && matched.length * 2 < under(side).length) || !sameCode(root, matched)) continue;
    const members = (index: 0 | 1): string[] => matched.map((pair) => pair[index]);
    const isSource = (index: 0 | 1): boolean => members(index).every((path) => TS_SOURCE.test(path)) && !members(index === 0 ? 1 : 0).some((path) => TS_SOURCE.test(path));
    const order = ([0, 1] as const).map((index) => ({ index, source: isSource(index) ? 0 : 1, rank: rank(entries, members(index)), root: sides[index] === '' ? 0 : 1 }));
    order.sort((x, y) => x.source - y.source || x.rank - y.rank || x.root - y.root || sides[x.index].localeCompare(sides[y.index]));
    // Proof that they are builds, not look-alike modules (date-fns' locale/nn and locale/nb): one side is the source of the other, or holds Node's entry.
    if (order[0]!.source !== 0 && order[0]!.rank >= 100) continue;
    const kept = order[0]!.index;
    const dropped = sides[kept === 0 ? 1 : 0];
    if (dropped === '') continue;
    const why = order[0]!.source === 0 ? 'it is the TypeScript source' : keptBecause(entries, members(kept));
    const glob = `${dropped}**`;
    excludes.push(glob);
    leftOut.push({ path: glob, reason: `another build of the same code: ${matched.length} of its modules have the same relative name and code under ${sides[kept] === '' ? 'the project root' : sides[kept]} (${examples(members(kept === 0 ? 1 : 0))}); that copy is kept because ${why}; excluded as "${glob}" (remove it from [sources].exclude to index it)` });
  }
  return { excludes, leftOut };
}

/**
 * The excludes for builds of one code base among `files` (project-relative script paths under
 * the code roots, none already left out), each with its left-out entry: scripts whose source map
 * proves them builds of present sources or of the same absent sources, then parallel trees.
 * Reads at most 2,000 source maps (16 MiB each) and 200 file pairs (256 KiB each); never throws.
 * @param root absolute project root
 */
export function buildCopies(root: string, files: readonly string[], entries: PackageEntries): { excludes: string[]; leftOut: InitLeftOut[] } {
  const mapped = mappedCopies(root, files, entries);
  const rest = files.filter((path) => !mapped.excludes.includes(path));
  const trees = parallelTrees(root, rest, entries);
  return { excludes: [...mapped.excludes, ...trees.excludes], leftOut: [...mapped.leftOut, ...trees.leftOut] };
}
