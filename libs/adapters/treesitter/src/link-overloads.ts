/**
 * Same-arity overloads chosen by argument types (Java, C#; the tree-sitter linker's `ref`, link.ts): a call whose arguments
 * show their types (TreeCall.types) reaches the one overload declaring exactly those types, where both places name the same
 * types. Nothing else is chosen: a widening, boxing, generic or unknown argument leaves the call unresolved.
 */
import type { TreeLinkData } from './link-data.js';
import type { DefRef } from './link-walk.js';
import type { TypedHost } from './link-typed.js';
import type { LanguageSpec } from './spec.js';
import { TYPES, parentQname } from './link-super.js';

/** A file as these rules read it. */
export interface OverloadFile {
  path: string;
  data: TreeLinkData;
  defs: ReadonlyMap<string, { kind: string }>;
}

/** The parts of the tree-sitter linker these rules read. */
export interface OverloadLinker<I extends OverloadFile> {
  readonly spec: LanguageSpec;
  readonly infos: ReadonlyMap<string, I>;
  /** The call being linked, when it shows argument types. */
  readonly call: { file: string; owner: string; types: readonly (string | null)[] } | undefined;
  /** Last names of every project type (built on first use). */
  typeNames: Set<string> | undefined;
  ref(file: string, qname: string): DefRef | null;
  readonly typedHost: TypedHost;
}

/**
 * Among same-arity overloads `names` of `info`, the one fixed-arity overload whose every declared parameter type is the
 * evident type of the call's argument at its place (the linker's `call`); Java's and C#'s overload resolution pick it
 * (an exact match is more specific than, or better than, any other applicable overload). Undefined when none or several.
 */
export function byTypes<I extends OverloadFile>(linker: OverloadLinker<I>, info: I, names: readonly string[], args: number): string | undefined {
  const call = linker.call;
  if (call === undefined) return undefined;
  const exact = names.filter((name) => {
    const params = info.data.params?.[name];
    const range = info.data.arity?.[name];
    return params !== undefined && range !== undefined && range[0] === range[1] && params.length === args
      && params.every((type, i) => type !== null && type === call.types[i] && sameType(linker, type, info, name, call));
  });
  return exact.length === 1 ? exact[0] : undefined;
}

/**
 * Whether type text `type` names one type where the call's argument shows it and where the overload `qname` of `callee`
 * declares it: a primitive or C# keyword type (or an array of one), Java's `String` and `Object`, a name both places
 * resolve to the same project type, or, in one file, a name no project type has (one file's imports give both).
 */
function sameType<I extends OverloadFile>(linker: OverloadLinker<I>, type: string, callee: I, qname: string, call: { file: string; owner: string }): boolean {
  if (/^(boolean|byte|char|short|int|long|float|double|bool|sbyte|ushort|uint|ulong|decimal|string|object|nint|nuint)(\[\])*$/.test(type)) return true;
  if (linker.spec.id === 'java' && (type === 'String' || type === 'Object') && !projectTypeNames(linker).has(type)) return true;
  if (!/^\w+(\.\w+)*$/.test(type)) return false;
  const path = type.split('.');
  const caller = linker.infos.get(call.file);
  const there = caller === undefined ? null : typeAt(linker, caller, call.owner, path);
  const here = typeAt(linker, callee, qname, path);
  if (there !== null || here !== null) return there?.id === here?.id;
  return call.file === callee.path && !projectTypeNames(linker).has(path[path.length - 1] as string);
}

/** Last names of every type the project declares. */
function projectTypeNames<I extends OverloadFile>(linker: OverloadLinker<I>): Set<string> {
  if (linker.typeNames === undefined) {
    linker.typeNames = new Set();
    for (const info of linker.infos.values()) for (const [qname, def] of info.defs) if (TYPES.has(def.kind)) linker.typeNames.add(qname.slice(qname.lastIndexOf('.') + 1));
  }
  return linker.typeNames;
}

/** The project type `path` names in `owner` of `info`: a type nested in an enclosing one (innermost first), else as a path resolves there. */
function typeAt<I extends OverloadFile>(linker: OverloadLinker<I>, info: I, owner: string, path: readonly string[]): DefRef | null {
  if (path.length === 1) {
    for (let scope = parentQname(owner); scope !== ''; scope = parentQname(scope)) {
      const nested = info.defs.get(`${scope}.${path[0] as string}`);
      if (nested !== undefined && TYPES.has(nested.kind)) return linker.ref(info.path, `${scope}.${path[0] as string}`);
    }
  }
  const found = linker.typedHost.resolve(info.path, owner, path);
  return found !== null && TYPES.has(found.kind) ? found : null;
}
