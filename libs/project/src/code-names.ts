/**
 * The code name tables mentions are resolved against (resolve-refs.ts): module paths, qualified
 * names, `module.export` forms, leaf names, top-level declarations and public API names.
 */
import { canonicalCopyPaths, type GraphEdge, type GraphNode } from '@docforge/core';
import type { ApiNames } from './resolve-api.js';
import type { ReceiverTable } from './drift-mentions.js';

/** Lookup tables of code names for mentions: module paths, qualified names, `module.export` forms and leaf names. */
export interface CodeNames {
  paths: Map<string, string>;
  qualified: Map<string, string[]>;
  exports: Map<string, string[]>;
  leaves: Set<string>;
  /** Leaf names of members (`refund` of `Ledger.refund`): a top-level name that is also one is not unique. */
  members: Set<string>;
  /** Top-level declarations outside test code (no `test` capability) by name, for bare compound names. */
  topLevel: Map<string, string[]>;
  /** Public API names and proven instance members (resolve-api.ts), only ids that are nodes. */
  api: Map<string, string[]>;
  /** Public API keys by their last name (`option` → `commander.Command.option`, `<id>().option`), for `.option()` mentions. */
  apiMembers: Map<string, string[]>;
  /** Per code path with byte-identical copies, the kept one (core `canonicalCopyPaths`). */
  copies?: Map<string, string>;
  /** Receivers of qualified names (drift-mentions.ts), built on the first unresolved mention. */
  receivers?: ReceiverTable;
}

function push(map: Map<string, string[]>, key: string, id: string): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [id]);
  else if (!list.includes(id)) list.push(id);
}

/**
 * Builds the name tables from the code nodes (`code:<path>` modules, `code:<path>#<qualified>`
 * declarations; a `~n` duplicate suffix is dropped, so duplicates are ambiguous) and from the
 * `defines` edges of modules (their exports): `<module>.<export>` where `<module>` is the file's
 * base name without extension (`pino.js` gives `pino`).
 */
export function codeNames(winners: ReadonlyMap<string, GraphNode>, sources: Iterable<{ path: string; edges: readonly GraphEdge[]; api?: ApiNames; content_hash?: string }>): CodeNames {
  const names: CodeNames = { paths: new Map(), qualified: new Map(), exports: new Map(), leaves: new Set(), members: new Set(), topLevel: new Map(), api: new Map(), apiMembers: new Map() };
  for (const [id, node] of winners) {
    if (!id.startsWith('code:')) continue;
    const hash = id.indexOf('#');
    if (hash < 0) {
      names.paths.set(id.slice(5), id);
      continue;
    }
    const qualified = id.slice(hash + 1).replace(/~\d+$/, '');
    push(names.qualified, qualified, id);
    const leaf = qualified.split('.').pop()!;
    names.leaves.add(leaf);
    if (leaf !== qualified) names.members.add(leaf);
    else if (!node.capabilities.includes('test')) push(names.topLevel, qualified, id);
  }
  const hashes: [string, string][] = [];
  for (const source of sources) {
    if (source.content_hash !== undefined && names.paths.has(source.path)) hashes.push([source.path, source.content_hash]);
    for (const [name, ids] of source.api ?? []) {
      for (const id of ids) if (winners.has(id)) push(names.api, name, id);
      if (name.includes('.') && names.api.has(name)) push(names.apiMembers, name.slice(name.lastIndexOf('.') + 1), name);
    }
    for (const edge of source.edges) {
      if (edge.relation !== 'defines' || !edge.source_id.startsWith('code:') || edge.source_id.includes('#') || !winners.has(edge.target_id)) continue;
      const base = posixBase(edge.source_id.slice(5));
      const hash = edge.target_id.indexOf('#');
      if (hash < 0) continue;
      push(names.exports, `${base}.${edge.target_id.slice(hash + 1).replace(/~\d+$/, '')}`, edge.target_id);
    }
  }
  names.copies = canonicalCopyPaths(hashes);
  return names;
}

function sameLists(a: ReadonlyMap<string, readonly string[]>, b: ReadonlyMap<string, readonly string[]>): boolean {
  if (a.size !== b.size) return false;
  for (const [key, list] of a) {
    const other = b.get(key);
    if (other === undefined || other.length !== list.length || other.some((id, index) => id !== list[index])) return false;
  }
  return true;
}

/** Whether two name tables resolve every mention the same way (same entries, same order). */
export function sameCodeNames(a: CodeNames, b: CodeNames): boolean {
  if (a.paths.size !== b.paths.size || a.leaves.size !== b.leaves.size || a.members.size !== b.members.size) return false;
  for (const [key, id] of a.paths) if (b.paths.get(key) !== id) return false;
  for (const leaf of a.leaves) if (!b.leaves.has(leaf)) return false;
  for (const leaf of a.members) if (!b.members.has(leaf)) return false;
  if ((a.copies?.size ?? 0) !== (b.copies?.size ?? 0) || [...(a.copies ?? [])].some(([path, kept]) => b.copies?.get(path) !== kept)) return false;
  return sameLists(a.qualified, b.qualified) && sameLists(a.exports, b.exports) && sameLists(a.topLevel, b.topLevel) && sameLists(a.api, b.api);
}

function posixBase(path: string): string {
  const file = path.slice(path.lastIndexOf('/') + 1);
  const dot = file.indexOf('.');
  return dot > 0 ? file.slice(0, dot) : file;
}

