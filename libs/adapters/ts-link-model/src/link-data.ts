/**
 * The adapter-private `link_data` of one extracted file (JSON-serializable). The index stores it
 * opaquely and hands it back to the TypeScript adapter's `linkTypeScript`; only that adapter and
 * this package read it.
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

/** A declaration node of the file (class, interface, type alias, function, method). */
export interface TsDeclRecord {
  id: string;
  /** Simple name (last qualified segment). */
  name: string;
  /** `type`: a type alias (type-alias.ts), never a call target. */
  kind: 'class' | 'interface' | 'type' | 'function' | 'method';
  /** Id of the parent declaration, or null when the parent is the module. */
  parent: string | null;
  /** For a member declared with a computed key (`[kRun]() {}`): the key's dotted expression (`kRun`). */
  key?: string;
  /** For a function declared from an arrow function: its `this` is the enclosing one. */
  arrow?: true;
  /** For a function whose body only returns `Object.create(X)` (X an identifier): X. */
  creates?: string;
  /**
   * For a function or method with a return type annotation naming a class or interface: that
   * type's reference text; `Promise<X>` is recorded as `await:X` (the type of `await f()`).
   */
  returns?: string;
  /**
   * For a function without a declared return type whose every `return` returns one local `const`
   * object literal: per member, the name or dotted name its value is written as (resolved from the
   * function's scope), left out when the body may replace it (returned-literal.ts).
   */
  returned?: Record<string, string>;
  /**
   * With `returned`: the computed keys (dotted expressions) the body assigns on the returned object
   * (`app[kState] = ...`); its members hold only when every such key is proven a symbol.
   */
  returned_keys?: string[];
}

/**
 * Shape of a call's callee: `id` plain identifier `f()`, `member` `obj.a.f()` whose receiver is a
 * chain of property accesses from an identifier, `this` `this.a.f()`, `super` `super.f()` /
 * `super()`, `new` `new X()` / `new ns.X()`, `other` anything else (always unresolved).
 * `f.call()`/`f.apply()` are recorded as calls of `f`. A member name is an identifier, a private
 * name (`#m`) or a computed key in brackets (`[kRun]`, its dotted key expression inside).
 */
export type TsCallShape = 'id' | 'member' | 'this' | 'super' | 'new' | 'other';

/** One call site. */
export interface TsCallSite {
  /** Node id of the calling function/method, or the module id for top-level code. */
  owner: string;
  shape: TsCallShape;
  name: string;
  /** Dotted object expression for `new ns.X` and for a `member` receiver made of identifiers only, else null. */
  object: string | null;
  line: number;
  /**
   * Receiver segments of `member` (root identifier first: `['store', 'records']`) and `this`
   * (after `this`: `['ledger']` for `this.ledger.refund()`, `[]` for `this.f()`).
   */
  path?: string[];
  /**
   * For `this` calls: the declaration whose `this` the call sees (a class for its members, a
   * function for its own body and the prototype methods assigned to it), `literal:X` inside a
   * method or accessor written in the module-level `const X = { ... }`, or null when `this` is
   * rebound (inside a nested non-arrow function) or unknown.
   */
  this_of?: string | null;
}

/**
 * Declared types of a scope's names, as type reference texts without type arguments
 * (`Ledger`, `ns.Store`), or the result of a call of a dotted callee whose declared return type
 * the linker looks up (`call:createApp`, `await:store.load` for `await store.load()`), or an
 * object literal (issue 31 item 6): `literal:X` for the module-level `const X = { ... }` itself,
 * `proto:X` for a `const` set to `Object.create(X)`, `proto:this:<this_of>` for one set to
 * `Object.create(this)`. Only names whose every binding in that scope has the same type are listed.
 */
export type TsTypedNames = Record<string, string>;

/** An `extends` / `implements` clause of a class or interface. */
export interface TsHeritageRecord {
  id: string;
  relation: 'inherits' | 'implements';
  /** Identifier or dotted name as written (`Base`, `ns.Base`). */
  name: string;
  line: number;
}

/**
 * One member of a module-level `const` object literal (issue 31 item 6), in source order. `key`:
 * the member's name (`child`, `'a-b'`), or a computed key's dotted expression in brackets
 * (`[setLevelSym]`); null for a spread (`...x`) or a computed key that is no dotted name (either
 * may set any key). `value`: the identifier the member's value names (`child` shorthand,
 * `[asJsonSym]: asJson`), resolved from module scope by the linker; null for any other value
 * (an inline method, accessor, function expression or expression: never a call target).
 */
export interface TsLiteralMember {
  key: string | null;
  value: string | null;
}

/**
 * A JSDoc `@typedef` alias of a JavaScript file (jsdoc-types.ts): `type` is the bare or dotted
 * name the alias stands for, resolved from the file's module scope; with `specifier`, `type` is
 * the name that module exports (`@typedef {import('./help.js').Help} HelpT`).
 */
export interface TsTypedef {
  type: string;
  specifier?: string;
}

/** Everything the linker needs from one file. */
export interface TsLinkData {
  format: 'docforge-ts-link/2';
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
  /** Per owner id (function, method or module): locals and parameters with a declared or constructed type. */
  locals: Record<string, TsTypedNames>;
  /** Per class or interface id (or constructor function): fields with a declared or constructed type. */
  fields: Record<string, TsTypedNames>;
  /**
   * Per class id (or constructor function): member names assigned at run time through `this`
   * (`this.x = ...`, `this[kX] = ...`); a call of such a name is never resolved to a method.
   */
  assigned: Record<string, string[]>;
  /** Per declaration id: its type parameter names (they shadow outer type names). */
  type_params: Record<string, string[]>;
  /** Module-level `const` names (immutable bindings usable as member keys). */
  consts: string[];
  /**
   * Module-level `const X = { ... }` object literals by name: their members in source order
   * (issue 31 item 6). Absent in link data of the lexical strategy.
   */
  literals?: Record<string, TsLiteralMember[]>;
  /**
   * Keys assigned at run time, per root: `x.k = v`, `x[k] = v`, `delete x.k` record `k` / `[k]`
   * under `x`; `Object.assign(x, ...)`, `Object.defineProperty(x, ...)` and a key that is no
   * dotted name record `*`. Assignments through `this` are recorded under `this@<this_of>`.
   */
  mutated?: Record<string, string[]>;
  /**
   * The literals of `literals` that the module copies into other objects (`{ ...X }`,
   * `Object.assign(o, X)`): `this` in their functions may be such a copy, so it proves nothing.
   */
  copied?: string[];
  /**
   * Per owner id, per `const` local initialized with an object literal: the line of
   * `Object.setPrototypeOf(local, p)` and what it set the prototype to (`228:call:f` for `f()`,
   * `228:proto:Y` for `Object.create(Y)` or `Y`), or `?` for anything else or a second call.
   */
  protos?: Record<string, Record<string, string>>;
  /**
   * For each name a literal member's value names: how many times the module references it as a
   * value (every identifier read; calls of it are in `calls`). 1 means the literal is its only use.
   */
  value_refs?: Record<string, number>;
  /** Module-level consts (`k`) and const object literal members (`keys.k`) initialized with `Symbol(...)`; absent when none. */
  symbols?: string[];
  /** A JavaScript file's JSDoc `@typedef` aliases: null for one whose type is refused or defined twice differently; absent when none. */
  typedefs?: Record<string, TsTypedef | null>;
}

type Check = (value: unknown) => boolean;
const str: Check = (v) => typeof v === 'string';
const num: Check = (v) => typeof v === 'number';
const strOrNull: Check = (v) => v === null || typeof v === 'string';
const optional = (check: Check): Check => (v) => v === undefined || check(v);
const strings: Check = (v) => Array.isArray(v) && v.every(str);
/** A record whose listed fields each pass their check (other fields are not looked at). */
const record = (fields: Record<string, Check>): Check => (v) => {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const r = v as Record<string, unknown>;
  for (const key in fields) if (!fields[key]!(r[key])) return false;
  return true;
};
const listOf = (check: Check): Check => (v) => Array.isArray(v) && v.every(check);
/** A plain object whose every value passes `check`. */
const mapOf = (check: Check): Check => (v) => typeof v === 'object' && v !== null && !Array.isArray(v) && Object.values(v).every(check);

/** The shape of every field of {@link TsLinkData} down to its records' fields (what the linker reads). */
const LINK_DATA_FIELDS: Record<string, Check> = {
  module_id: str,
  is_test: (v) => typeof v === 'boolean',
  imports: listOf(record({ specifier: str, line: num, kind: str })),
  bindings: listOf(record({ local: str, specifier: str, imported: str })),
  exports: listOf(record({ name: str, local: strOrNull, specifier: strOrNull, imported: strOrNull, line: num })),
  decls: listOf(record({ id: str, name: str, kind: str, parent: strOrNull, key: optional(str), returns: optional(str), creates: optional(str), returned: optional(mapOf(str)), returned_keys: optional(strings) })),
  shadows: mapOf(strings),
  calls: listOf(record({ owner: str, shape: str, name: str, object: strOrNull, line: num, path: optional(strings), this_of: optional(strOrNull) })),
  heritage: listOf(record({ id: str, relation: str, name: str, line: num })),
  locals: mapOf(mapOf(str)),
  fields: mapOf(mapOf(str)),
  assigned: mapOf(strings),
  type_params: mapOf(strings),
  consts: strings,
  literals: optional(mapOf(listOf(record({ key: strOrNull, value: strOrNull })))),
  mutated: optional(mapOf(strings)),
  value_refs: optional(mapOf(num)),
  protos: optional(mapOf(mapOf(str))),
  copied: optional(strings),
  symbols: optional(strings),
  typedefs: optional(mapOf((v) => v === null || record({ type: str, specifier: optional(str) })(v))),
};

/** Whether a value carries this adapter version's link data tag (what the linker checks: data it reads from a cache was checked whole by {@link isWellFormedTsLinkData} when read). */
export function isTsLinkData(value: unknown): value is TsLinkData {
  return typeof value === 'object' && value !== null && (value as { format?: unknown }).format === 'docforge-ts-link/2';
}

/**
 * Whether a value is link data produced by this adapter version: the format tag and every field
 * of {@link TsLinkData}, down to the fields of its records, with its JSON type (a cache row
 * damaged in any of them is not link data; libs/builder lazy-link-data.ts then builds from the
 * sources). Linear in the size of the data (about 6-10 ms for all of fastify's 281 files): the
 * adapter's `isLinkData`, run once per cached text a build reads.
 */
export function isWellFormedTsLinkData(value: unknown): value is TsLinkData {
  if (!isTsLinkData(value)) return false;
  const v = value as unknown as Record<string, unknown>;
  for (const key in LINK_DATA_FIELDS) if (!LINK_DATA_FIELDS[key]!(v[key])) return false;
  return true;
}
