/**
 * The adapter-private `link_data` of one extracted file (JSON-serializable). The index stores it
 * opaquely and hands it back to {@link linkTypeScript}; no other package reads it.
 */

/** One module reference: ES import, export-from, `require('x')` or `import('x')`. */
export interface TsImportRecord {
  specifier: string;
  /** 1-based line of the reference. */
  line: number;
  kind: 'import' | 'export' | 'require' | 'dynamic';
}

/**
 * A module-level name bound to another module's export.
 * `imported` is an export name, `default`, `*` (namespace) or `=` (the whole CommonJS value).
 */
export interface TsBinding {
  local: string;
  specifier: string;
  imported: string;
}

/**
 * One export of the module. `name` is the exported name (`default`, `=` for `module.exports = x`,
 * `*` for a star re-export). Either `local` names a module-level binding or declaration, or
 * `specifier` + `imported` name another module's export.
 */
export interface TsExportRecord {
  name: string;
  local: string | null;
  specifier: string | null;
  imported: string | null;
  line: number;
}

/** A declaration node of the file (class, interface, function, method). */
export interface TsDeclRecord {
  id: string;
  /** Simple name (last qualified segment). */
  name: string;
  kind: 'class' | 'interface' | 'function' | 'method';
  /** Id of the parent declaration, or null when the parent is the module. */
  parent: string | null;
}

/**
 * Shape of a call's callee: `id` plain identifier `f()`, `member` `obj.f()` with a dotted
 * identifier object, `this` `this.f()`, `super` `super.f()` / `super()`, `new` `new X()` /
 * `new ns.X()`, `other` anything else (always unresolved). `f.call()`/`f.apply()` are recorded
 * as calls of `f`.
 */
export type TsCallShape = 'id' | 'member' | 'this' | 'super' | 'new' | 'other';

/** One call site. */
export interface TsCallSite {
  /** Node id of the calling function/method, or the module id for top-level code. */
  owner: string;
  shape: TsCallShape;
  name: string;
  /** Dotted object expression for `member` / `new ns.X`, else null. */
  object: string | null;
  line: number;
}

/** An `extends` / `implements` clause of a class or interface. */
export interface TsHeritageRecord {
  id: string;
  relation: 'inherits' | 'implements';
  /** Identifier or dotted name as written (`Base`, `ns.Base`). */
  name: string;
  line: number;
}

/** Everything the linker needs from one file. */
export interface TsLinkData {
  format: 'docforge-ts-link/1';
  module_id: string;
  is_test: boolean;
  imports: TsImportRecord[];
  bindings: TsBinding[];
  exports: TsExportRecord[];
  decls: TsDeclRecord[];
  /** Per owner id (function, method or module), local names that shadow outer declarations. */
  shadows: Record<string, string[]>;
  calls: TsCallSite[];
  heritage: TsHeritageRecord[];
}

/** Whether a value is link data produced by this adapter version. */
export function isTsLinkData(value: unknown): value is TsLinkData {
  return typeof value === 'object' && value !== null && (value as { format?: unknown }).format === 'docforge-ts-link/1';
}
