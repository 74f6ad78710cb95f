/**
 * Build copies of one source collapse to one search hit (new-user trial, issue 30: date-fns ships
 * each function as `addDays.js`, `addDays.cjs`, `addDays.d.ts`, `addDays.d.cts` and inside the
 * `cdn.js` bundle, so one question got the same function six times in its top ten).
 *
 * Three rules, read from node ids, paths and file content hashes (no guess from a node's text):
 * - **Twins.** Code nodes with the same qualified name in modules whose paths are equal once the
 *   build extension (`.ts`, `.js`, `.mjs`, `.cjs`, `.d.ts`, `.d.cts`, ...) and build-layout folders
 *   (@docforge/core `twinKey`: `src`, `lib`, `dist`, `esm`, `cjs`, ...) are dropped are one group:
 *   `addDays.js#addDays` and `addDays.cjs#addDays`, `dist/esm/v4.js#v4` and `dist/cjs/v4.js#v4`,
 *   zod's `src/v4/core/api.ts#_string` and `v4/core/api.js#_string`; only while their files can
 *   be one source and its output (core `oneSource`): `src/parser.ts#parseQuux` and
 *   `lib/parser.ts#parseQuux`, two hand-written sources, stay two hits (one group per file then).
 * - **Bundles.** A node of a generated bundle (core `BUNDLE_FILE`: `cdn.js`, `*.min.js`,
 *   `*.bundle.js`, `*.umd.js`, `*.iife.js`, or a file under a `umd`/`bundles`/`cdn` folder) joins
 *   the best-ranked non-bundle group of the same qualified name, as written or with a bundler's
 *   renaming undone (`_addDays`, `addDays$1`), of any kind (a bundler turns a class into a
 *   function). Bundle nodes with no such group in the ranking window form one group by that name
 *   (`cdn.js#ISOWeekParser` and `fp/cdn.js#ISOWeekParser`).
 * - **Content copies.** Files with one content hash are one file whatever folders they sit in
 *   (lru-cache's byte-identical `dist/commonjs/{,browser/,node/,react-native/}index.js`): a node
 *   is grouped as if it were in the kept copy (@docforge/core `copyKey`).
 *
 * A group is one hit: its preferred member (core `copyPreference`: a TypeScript source, then an ES
 * module, then CommonJS, then a declaration (ES before CommonJS), then a bundle; ties by score,
 * then the kept path of core `compareCopyPaths`, then id), at the best
 * score of its members, listing the others best first in `copies` (each still a node of its own:
 * `docforge_get_node`, traversal and an exact-id search reach it).
 */
import { BUNDLE_FILE, codeParts, compareCopyPaths, copyKey, copyPreference as preference, oneSource } from '@docforge/core';
import type { RankedNode } from './ranked-node.js';

/** Most copy ids one hit lists; `copies_total` counts them all when there are more. */
export const MAX_LISTED_COPIES = 10;

/** The qualified name a bundler's renaming came from, segment by segment: `_addDays` and `addDays$1` are `addDays`. */
function unbundledName(name: string): string {
  return name.split('.').map((segment) => segment.replace(/^_+(?=[A-Za-z$])/, '').replace(/\$\d+$/, '')).join('.');
}

interface Group {
  members: RankedNode[];
}

/**
 * `ranked` (best first) with each group of build copies as one entry: the preferred member with
 * the group's best score and `copies` (the other ids, best first, at most
 * {@link MAX_LISTED_COPIES}, `copies_total` when more). Order: score, then id, as rankNodes
 * sorts. `canonical` names the kept path of a code file that has byte-identical copies (core
 * `canonicalCopyPaths`), undefined for the others. Pure; entries not in any group pass through unchanged.
 */
export function collapseCopies(ranked: readonly RankedNode[], canonical: (path: string) => string | undefined = () => undefined): RankedNode[] {
  const groups: Group[] = [];
  const byTwin = new Map<string, Group>();
  const byName = new Map<string, Group>();
  const bundles: RankedNode[] = [];
  for (const node of ranked) {
    const parts = codeParts(node.row.id);
    const key = parts === null ? null : copyKey(node.row.id, canonical);
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
  for (const group of byTwin.values()) splitSources(group, groups, canonical);
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

/**
 * A twin group whose files are not {@link oneSource one source} (two hand-written sources): one
 * group per file (byte-identical copies stay one). The first keeps the group's place (a bundle
 * joins the best-ranked one by name); the others are appended to `groups`.
 */
function splitSources(group: Group, groups: Group[], canonical: (path: string) => string | undefined): void {
  const kept = (node: RankedNode): string => {
    const path = codeParts(node.row.id)!.path;
    return canonical(path) ?? path;
  };
  if (oneSource(group.members.map(kept))) return;
  const byFile = new Map<string, RankedNode[]>();
  for (const node of group.members) {
    const list = byFile.get(kept(node));
    if (list === undefined) byFile.set(kept(node), [node]);
    else list.push(node);
  }
  const [first, ...rest] = [...byFile.values()];
  group.members = first!;
  for (const members of rest) groups.push({ members });
}

/** One group's entry: its preferred member at the group's best score, the others as `copies`. */
function hitOf(group: Group): RankedNode {
  const members = group.members;
  if (members.length === 1) return members[0]!;
  const best = Math.max(...members.map((m) => m.score));
  // Equal copies at equal scores: the kept path of mention resolution (core compareCopyPaths), so a hit and a mention agree.
  const chosen = [...members].sort((a, b) => preference(a.row.source_path) - preference(b.row.source_path) || b.score - a.score || compareCopyPaths(a.row.source_path, b.row.source_path) || (a.row.id < b.row.id ? -1 : 1))[0]!;
  const copies = members.filter((m) => m !== chosen).sort((a, b) => b.score - a.score || (a.row.id < b.row.id ? -1 : 1)).map((m) => m.row.id);
  return { ...chosen, score: best, copies: copies.slice(0, MAX_LISTED_COPIES), ...(copies.length > MAX_LISTED_COPIES ? { copies_total: copies.length } : {}) };
}
