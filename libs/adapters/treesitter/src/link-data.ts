/**
 * The adapter-private `link_data` every language of the tree-sitter family stores per file
 * (ParsedSource.link_data) and its linker reads back. Plain JSON, one shape for every language;
 * {@link readTreeLinkData} re-validates it because stored JSON may come from an older version.
 */
import type { TreeImport } from '@docforge/module-resolution';

/** Version of the {@link TreeLinkData} shape; bump on any incompatible change. */
export const TREE_LINK_DATA_VERSION = 1;

/** One import as written (the shape lives in @docforge/module-resolution, whose rules resolve it). */
export type { TreeImport };

/**
 * What proves the type of a local variable a call goes through (`x.m()` as `['<typed>', 'm']`): the type path its declaration
 * names (Go `x := T{}`, `x := &pkg.T{}`, `var x T`; Java and C# `T x = new T()`, `var x = new T()`), or the function whose
 * declared result (`index`-th, Go) it is assigned (`x := NewT()`, `x, err := pkg.NewT()`); with `as`, the type the local is declared
 * with, which the function's declared result must be (C++ `Foo* p = makeFoo()`).
 */
export type TreeRecv = { type: string[] } | { call: string[]; index: number; as?: string[] };

/** One call site. */
export interface TreeCall {
  /** Qualified name of the calling function or method (`''` for the module). */
  owner: string;
  line: number;
  /**
   * Callee path: `['f']`, `['pkg', 'F']`, `['Type', 'm']`, `['<self>', 'm']` for a method of the
   * enclosing type through its receiver (Go receiver, Rust `self`, Java `this` or an unqualified
   * call); `['<super>', 'm']` for `super.m()`/`base.M()` (`'<init>'`: the superclass's constructor, `super(...)`), `['<super>']`
   * for Ruby's `super` (the caller's own name); null when the callee is no plain name path or its head is a local variable.
   */
  path: string[] | null;
  /** How many arguments the call passes (languages with overloads; absent when not counted). */
  args?: number;
  /** The proof of the receiver's type when `path` is `['<typed>', name]`. */
  recv?: TreeRecv;
  /** Each argument's statically evident type (Java, C#: a literal's, `new T()`'s, a typed local's or field's), null where unknown; absent when all are. */
  types?: (string | null)[];
}

/** One declared supertype (`class A extends B implements C`, Rust `impl T for S`). */
export interface TreeBase {
  /** Qualified name of the declaring type. */
  owner: string;
  line: number;
  path: string[];
  relation: 'inherits' | 'implements';
  /**
   * How a mixin is taken in (Ruby `include`/`prepend`/`extend`, PHP trait `use` as `include`); absent for
   * `extends`/`implements` clauses. Decides where the linker's method resolution order visits it.
   */
  mixin?: 'include' | 'prepend' | 'extend';
}

/** A top-level definition the lexical strategy names (it emits no definition nodes). */
export interface TreeDef {
  name: string;
  kind: string;
}

/** Everything the linker needs from one file. */
export interface TreeLinkData {
  version: number;
  /** Adapter id (`go`, `rust`, `java`...). */
  lang: string;
  /** Go `package` name, Java `package` name; null when none. */
  package: string | null;
  imports: TreeImport[];
  calls: TreeCall[];
  bases: TreeBase[];
  /** Written by the lexical strategy only. */
  defs?: TreeDef[];
  /** Arity `[min, max]` (max null: varargs) by qualified name (`m~2` too) of the methods and functions of languages with overloads. */
  arity?: Record<string, [number, number | null]>;
  /** Declared parameter types (type text, null where unknown) of the overloaded methods (`m`, `m~2`...) by qualified name (Java, C#). */
  params?: Record<string, (string | null)[]>;
  /** Methods no subtype inherits (`private`) or only one of the same package (`package`), by qualified name (Java, C#). */
  access?: Record<string, 'private' | 'package'>;
  /** Declared result types by function qualified name (Go), one type path per result, null where it names no plain type. */
  results?: Record<string, (string[] | null)[]>;
  /**
   * Qualified names of the functions and methods the file only declares, without a body (a C prototype, a C++ member declared
   * in its class and defined elsewhere); absent when none. The linker joins one to its single definition (link-proto.ts).
   */
  protos?: string[];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

function isImport(value: unknown): boolean {
  return isRecord(value) && typeof value['line'] === 'number' && typeof value['spec'] === 'string'
    && (value['alias'] === null || typeof value['alias'] === 'string') && (value['static'] === undefined || typeof value['static'] === 'boolean')
    && (value['scope'] === undefined || typeof value['scope'] === 'string');
}

function isRecv(value: unknown): boolean {
  return value === undefined || (isRecord(value) && (isStringArray(value['type']) || (isStringArray(value['call']) && typeof value['index'] === 'number' && (value['as'] === undefined || isStringArray(value['as'])))));
}

function isCall(value: unknown): boolean {
  return isRecord(value) && typeof value['owner'] === 'string' && typeof value['line'] === 'number' && (value['path'] === null || isStringArray(value['path']))
    && (value['args'] === undefined || typeof value['args'] === 'number') && isRecv(value['recv']) && (value['types'] === undefined || isTypeList(value['types']));
}

function isTypeList(value: unknown): boolean {
  return Array.isArray(value) && value.every((t) => t === null || typeof t === 'string');
}

function isBase(value: unknown): boolean {
  return isRecord(value) && typeof value['owner'] === 'string' && typeof value['line'] === 'number' && isStringArray(value['path'])
    && (value['relation'] === 'inherits' || value['relation'] === 'implements')
    && (value['mixin'] === undefined || value['mixin'] === 'include' || value['mixin'] === 'prepend' || value['mixin'] === 'extend');
}

function isDef(value: unknown): boolean {
  return isRecord(value) && typeof value['name'] === 'string' && typeof value['kind'] === 'string';
}

/**
 * Validates stored `link_data` of one file of language `lang`.
 * @returns the typed data, or null when absent, of another version or language, or malformed.
 */
export function readTreeLinkData(value: unknown, lang: string): TreeLinkData | null {
  if (!isRecord(value) || value['version'] !== TREE_LINK_DATA_VERSION || value['lang'] !== lang) return null;
  if (value['package'] !== null && typeof value['package'] !== 'string') return null;
  const { imports, calls, bases, defs } = value;
  if (!Array.isArray(imports) || !imports.every(isImport)) return null;
  if (!Array.isArray(calls) || !calls.every(isCall)) return null;
  if (!Array.isArray(bases) || !bases.every(isBase)) return null;
  if (defs !== undefined && (!Array.isArray(defs) || !defs.every(isDef))) return null;
  const arity = value['arity'];
  if (arity !== undefined && (!isRecord(arity) || !Object.values(arity).every((a) => Array.isArray(a) && a.length === 2 && typeof a[0] === 'number' && (a[1] === null || typeof a[1] === 'number')))) return null;
  const results = value['results'];
  if (results !== undefined && (!isRecord(results) || !Object.values(results).every((r) => Array.isArray(r) && r.every((t) => t === null || isStringArray(t))))) return null;
  if (value['protos'] !== undefined && !isStringArray(value['protos'])) return null;
  const params = value['params'];
  if (params !== undefined && (!isRecord(params) || !Object.values(params).every(isTypeList))) return null;
  const access = value['access'];
  if (access !== undefined && (!isRecord(access) || !Object.values(access).every((a) => a === 'private' || a === 'package'))) return null;
  return value as unknown as TreeLinkData;
}
