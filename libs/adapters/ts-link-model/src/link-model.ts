/**
 * The linker's view of one extracted file ({@link ModuleInfo}: its link data indexed by id, parent
 * and name), what a name resolves to ({@link Target}) and what receiver resolution needs from the
 * linker ({@link NameResolution}). Shared by link.ts, receivers.ts and literal-receivers.ts.
 */
import type { TsBinding, TsDeclRecord, TsExportRecord, TsLinkData } from './link-data.js';

/** Longest chain of re-exports, bindings, superclasses or member accesses the linker follows. */
export const MAX_DEPTH = 24;

/** One extracted file as the linker sees it. */
export interface ModuleInfo {
  path: string;
  id: string;
  data: TsLinkData;
  decls: Map<string, TsDeclRecord>;
  /** Parent decl id ('' for the module) → simple name → first declaration with that name. */
  children: Map<string, Map<string, TsDeclRecord>>;
  bindings: Map<string, TsBinding>;
  exports: Map<string, TsExportRecord[]>;
  stars: TsExportRecord[];
  shadows: Map<string, Set<string>>;
  /** Ids of functions that own prototype/static methods (constructor functions). */
  classLike: Set<string>;
  /** Parent decl id → members declared with a computed key (`[kRun]() {}`). */
  keyed: Map<string, TsDeclRecord[]>;
}

/** What a name resolves to: one declaration, or a whole module (namespace / CommonJS object). */
export type Target = { kind: 'decl'; mod: ModuleInfo; decl: TsDeclRecord } | { kind: 'module'; mod: ModuleInfo };


/** Indexes one file's link data for resolution. */
export function buildModuleInfo(path: string, data: TsLinkData): ModuleInfo {
  const decls = new Map<string, TsDeclRecord>();
  const children = new Map<string, Map<string, TsDeclRecord>>();
  const classLike = new Set<string>();
  const keyed = new Map<string, TsDeclRecord[]>();
  for (const decl of data.decls) {
    decls.set(decl.id, decl);
    const parentKey = decl.parent ?? '';
    let map = children.get(parentKey);
    if (map === undefined) {
      map = new Map();
      children.set(parentKey, map);
    }
    if (!map.has(decl.name)) map.set(decl.name, decl);
    if (decl.key !== undefined) {
      const list = keyed.get(parentKey) ?? [];
      list.push(decl);
      keyed.set(parentKey, list);
    }
  }
  for (const decl of data.decls) {
    if (decl.kind === 'method' && decl.parent !== null && decls.get(decl.parent)?.kind === 'function') classLike.add(decl.parent);
  }
  const bindings = new Map<string, TsBinding>();
  for (const binding of data.bindings) if (!bindings.has(binding.local)) bindings.set(binding.local, binding);
  const exports = new Map<string, TsExportRecord[]>();
  const stars: TsExportRecord[] = [];
  for (const record of data.exports) {
    if (record.name === '*') {
      stars.push(record);
      continue;
    }
    const list = exports.get(record.name);
    if (list) list.push(record);
    else exports.set(record.name, [record]);
  }
  const shadows = new Map<string, Set<string>>();
  for (const [owner, names] of Object.entries(data.shadows)) shadows.set(owner, new Set(names));
  return { path, id: data.module_id, data, decls, children, bindings, exports, stars, shadows, classLike, keyed };
}

/** What receiver resolution needs from the linker's name and module resolution. */
export interface NameResolution {
  /** Resolves `a.b.c` as a value or type name from a scope (a decl id, or null for module level). */
  resolveDotted(mod: ModuleInfo, scopeId: string | null, dotted: string): Target | null;
  /** The superclass of a class, when its `extends` clause resolves to a class. */
  superclass(cls: Target): Target | null;
  /** The module a specifier of `mod` names, or null (external, unresolved or not extracted). */
  moduleFor(mod: ModuleInfo, specifier: string): ModuleInfo | null;
  /** What `mod` exports as `name` (own exports, re-exports, star exports), or null; `depth` counts the steps taken so far. */
  resolveExport(mod: ModuleInfo, name: string, depth: number): Target | null;
  /** The extracted module at a project path, or null. */
  moduleAt(path: string): ModuleInfo | null;
  /** Records that a result was cut by a cycle or the depth limit, so it may depend on the linking order. */
  orderSensitive(): void;
}
