/**
 * Build copies of one source collapse to one search hit (new-user trial, issue 30: date-fns ships
 * each function as `addDays.js`, `addDays.cjs`, `addDays.d.ts`, `addDays.d.cts` and inside the
 * `cdn.js` bundle, so one question got the same function six times in its top ten).
 *
 * Two rules, both read from node ids and paths only (no guess from a node's text):
 * - **Twins.** Code nodes with the same qualified name in modules whose paths are equal once the
 *   build extension (`.ts`, `.js`, `.mjs`, `.cjs`, `.d.ts`, `.d.cts`, ...) and build-layout folders
 *   ({@link LAYOUT_FOLDER}: `src`, `lib`, `dist`, `esm`, `cjs`, ...) are dropped are one group:
 *   `addDays.js#addDays` and `addDays.cjs#addDays`, `dist/esm/v4.js#v4` and `dist/cjs/v4.js#v4`,
 *   zod's `src/v4/core/api.ts#_string` and `v4/core/api.js#_string`.
 * - **Bundles.** A node of a generated bundle ({@link BUNDLE_FILE}: `cdn.js`, `*.min.js`,
 *   `*.bundle.js`, `*.umd.js`, `*.iife.js`, or a file under a `umd`/`bundles`/`cdn` folder) joins
 *   the best-ranked non-bundle group of the same qualified name, as written or with a bundler's
 *   renaming undone (`_addDays`, `addDays$1`), of any kind (a bundler turns a class into a
 *   function). Bundle nodes with no such group in the ranking window form one group by that name
 *   (`cdn.js#ISOWeekParser` and `fp/cdn.js#ISOWeekParser`).
 *
 * A group is one hit: its preferred member ({@link preference}: a TypeScript source, then an ES
 * module, then CommonJS, then a declaration (ES before CommonJS), then a bundle; ties by score,
 * then id), at the best
 * score of its members, listing the others best first in `copies` (each still a node of its own:
 * `docforge_get_node`, traversal and an exact-id search reach it).
 */
import type { RankedNode } from './ranked-node.js';

/** Most copy ids one hit lists; `copies_total` counts them all when there are more. */
export const MAX_LISTED_COPIES = 10;

/** A JavaScript or TypeScript build file's extension, a declaration's `.d` included. */
const BUILD_EXTENSION = /(\.d)?\.[cm]?[jt]sx?$/;
/** A folder name of a build layout: source, output and module-format folders (`esm`, `cjs`, `esm2015`, `esm-browser`, ...). */
const LAYOUT_FOLDER = /^(src|lib|dist|build|out|es|esm|cjs|mjs|commonjs|module|umd|types|typings|f?esm\d+|es\d+)([-_](browser|node|bundler))?$/;
/** A generated bundle: `cdn.js`, `*.min.js`, `*.bundle.js`, `*.umd.js`, `*.iife.js`, or any script under a `umd`, `bundle(s)` or `cdn` folder. */
const BUNDLE_FILE = /(^|\/)(cdn(\.min)?|[^/]+[.-](min|bundle|umd|iife))\.[cm]?js$|(^|\/)(umd|bundles?|cdn)\/[^/]+\.[cm]?js$/;

/** The path and qualified name of a code node id (`code:<path>#<name>`), or null for other nodes. */
function codeParts(id: string): { path: string; name: string } | null {
  if (!id.startsWith('code:')) return null;
  const hash = id.indexOf('#');
  return hash < 0 ? { path: id.slice(5), name: '' } : { path: id.slice(5, hash), name: id.slice(hash + 1) };
}

/** The twin key of a code node in a JavaScript/TypeScript build file, or null (not such a file). */
function twinKey(parts: { path: string; name: string }): string | null {
  if (!BUILD_EXTENSION.test(parts.path)) return null;
  const folders = parts.path.replace(BUILD_EXTENSION, '').split('/');
  const file = folders.pop()!;
  return `${[...folders.filter((folder) => !LAYOUT_FOLDER.test(folder)), file].join('/')}#${parts.name}`;
}

/** The qualified name a bundler's renaming came from, segment by segment: `_addDays` and `addDays$1` are `addDays`. */
function unbundledName(name: string): string {
  return name.split('.').map((segment) => segment.replace(/^_+(?=[A-Za-z$])/, '').replace(/\$\d+$/, '')).join('.');
}

/**
 * How much a member is preferred as its group's hit (lower first): a TypeScript source 0, an ES
 * module or plain script 1, CommonJS 2, an ES declaration (`.d.ts`, `.d.mts`) 3, a CommonJS one
 * (`.d.cts`) 4, a bundle 5, anything else 6.
 */
function preference(path: string): number {
  if (BUNDLE_FILE.test(path)) return 5;
  if (/\.d\.cts$/.test(path)) return 4;
  if (/\.d\.m?ts$/.test(path)) return 3;
  if (/\.(ts|tsx|mts)$/.test(path)) return 0;
  if (/\.(js|jsx|mjs)$/.test(path)) return 1;
  if (/\.(cjs|cts)$/.test(path)) return 2;
  return 6;
}

interface Group {
  members: RankedNode[];
}

/**
 * `ranked` (best first) with each group of build copies as one entry: the preferred member with
 * the group's best score and `copies` (the other ids, best first, at most
 * {@link MAX_LISTED_COPIES}, `copies_total` when more). Order: score, then id, as rankNodes
 * sorts. Pure; entries not in any group pass through unchanged.
 */
export function collapseCopies(ranked: readonly RankedNode[]): RankedNode[] {
  const groups: Group[] = [];
  const byTwin = new Map<string, Group>();
  const byName = new Map<string, Group>();
  const bundles: RankedNode[] = [];
  for (const node of ranked) {
    const parts = codeParts(node.row.id);
    const key = parts === null ? null : twinKey(parts);
    if (parts === null || key === null) {
      groups.push({ members: [node] });
      continue;
    }
    if (BUNDLE_FILE.test(parts.path)) {
      bundles.push(node);
      continue;
    }
    let group = byTwin.get(key);
    if (group === undefined) {
      group = { members: [] };
      byTwin.set(key, group);
      groups.push(group);
    }
    group.members.push(node);
    if (parts.name !== '' && !byName.has(parts.name)) byName.set(parts.name, group);
  }
  // Bundlers transpile (a class becomes a function): a bundle node joins by name alone, and bundles
  // without a source copy in the window (`cdn.js`, `fp/cdn.js`) join each other.
  const bundleGroups = new Map<string, Group>();
  for (const node of bundles) {
    const name = codeParts(node.row.id)!.name;
    const plain = unbundledName(name);
    let group = name === '' ? undefined : byName.get(name) ?? byName.get(plain) ?? bundleGroups.get(plain);
    if (group === undefined) {
      group = { members: [] };
      groups.push(group);
      if (name !== '') bundleGroups.set(plain, group);
    }
    group.members.push(node);
  }
  return groups.map(hitOf).sort((a, b) => b.score - a.score || (a.row.id < b.row.id ? -1 : a.row.id > b.row.id ? 1 : 0));
}

/** One group's entry: its preferred member at the group's best score, the others as `copies`. */
function hitOf(group: Group): RankedNode {
  const members = group.members;
  if (members.length === 1) return members[0]!;
  const best = Math.max(...members.map((m) => m.score));
  const chosen = [...members].sort((a, b) => preference(a.row.source_path) - preference(b.row.source_path) || b.score - a.score || (a.row.id < b.row.id ? -1 : 1))[0]!;
  const copies = members.filter((m) => m !== chosen).sort((a, b) => b.score - a.score || (a.row.id < b.row.id ? -1 : 1)).map((m) => m.row.id);
  return { ...chosen, score: best, copies: copies.slice(0, MAX_LISTED_COPIES), ...(copies.length > MAX_LISTED_COPIES ? { copies_total: copies.length } : {}) };
}
