/**
 * Same-arity overloads chosen by argument types (Java, C#; the tree-sitter linker's `ref`, link.ts): a call whose arguments
 * show their types (TreeCall.types) reaches the one overload declaring exactly those types, where both places name the same
 * types. Nothing else is chosen: a widening, boxing, generic or unknown argument leaves the call unresolved. Also a method
 * name a type and its project ancestors both declare (Java: one overload set; C#: the derived type's first), and java.lang
 * types outside the project as argument types.
 */
import type { TreeLinkData } from './link-data.js';
import type { DefRef } from './link-walk.js';
import type { TypedHost } from './link-typed.js';
import type { LanguageSpec } from './spec.js';
import { TYPES, parentQname } from './link-super.js';
import { javaLangType } from '@docforge/module-resolution';

/** A file as these rules read it. */
export interface OverloadFile {
  path: string;
  data: TreeLinkData;
  defs: ReadonlyMap<string, { id: string; kind: string; static?: boolean }>;
}

/** One overload: its file and qualified name (`m`, `m~2`...). */
export interface Overload<I extends OverloadFile> {
  info: I;
  name: string;
}

/** The parts of the tree-sitter linker these rules read. */
export interface OverloadLinker<I extends OverloadFile> {
  readonly spec: LanguageSpec;
  readonly infos: ReadonlyMap<string, I>;
  /** The argument count of the call being linked; undefined outside a call or for a language without overloads. */
  readonly args: number | undefined;
  /** The call being linked, when it shows argument types. */
  readonly call: { file: string; owner: string; types: readonly (string | null)[] } | undefined;
  /** Declared supertypes by type id (`target` null: not resolved; `known`: its members, when all are known). */
  readonly supertypes: ReadonlyMap<string, readonly { target: DefRef | null; known?: ReadonlySet<string> }[]>;
  /** Last names of every project type (built on first use). */
  typeNames: Set<string> | undefined;
  ref(file: string, qname: string): DefRef | null;
  readonly typedHost: TypedHost;
}

/**
 * Among overloads `names` (same file or not) whose arity admits the call's `args`, the one fixed-arity overload whose every
 * declared parameter type is the evident type of the call's argument at its place (the linker's `call`); Java's and C#'s
 * overload resolution pick it (an exact match is more specific than, or better than, any other applicable overload).
 * Undefined when none or several.
 */
export function byTypes<I extends OverloadFile>(linker: OverloadLinker<I>, names: readonly Overload<I>[], args: number): Overload<I> | undefined {
  const call = linker.call;
  if (call === undefined) return undefined;
  const exact = names.filter(({ info, name }) => {
    const params = info.data.params?.[name];
    const range = info.data.arity?.[name];
    return params !== undefined && range !== undefined && range[0] === range[1] && params.length === args
      && params.every((type, i) => type !== null && type === call.types[i] && sameType(linker, type, info, name, call));
  });
  return exact.length === 1 ? exact[0] : undefined;
}

/** `qname`, `qname~2`, ... as `info` declares them. */
const overloadsOf = <I extends OverloadFile>(info: I, qname: string): Overload<I>[] => {
  const out: Overload<I>[] = [];
  for (let n = 1, name = qname; info.defs.has(name); n += 1, name = `${qname}~${n}`) out.push({ info, name });
  return out;
};

/** Whether two overloads have one signature (the nearer one overrides or hides the other): equal arity and parameter types. */
const sameSignature = <I extends OverloadFile>(a: Overload<I>, b: Overload<I>): boolean => {
  const [x, y] = [a.info.data.arity?.[a.name], b.info.data.arity?.[b.name]];
  const [p, q] = [a.info.data.params?.[a.name], b.info.data.params?.[b.name]];
  return x !== undefined && y !== undefined && x[0] === y[0] && x[1] === y[1] && p !== undefined && q !== undefined && p.length === q.length && p.every((t, i) => t === q[i]);
};

/**
 * Method `name` of `type`, which declares it, where project ancestors (resolved supertypes, transitively) declare it too
 * (LanguageSpec.inheritedOverloads); `own`, the answer from the type's own declarations, when none do. An inherited one counts
 * unless `private`, `package` from another package, a static method of an interface, or overridden (the same signature
 * nearer). Java (`merge`): one overload set, the one admitting the call's argument count, else the one exact match of the
 * arguments' evident types. C# (`derived`): the type's own admitting overloads first, by exact match, or the one own one when
 * no ancestor's admits the count; with no own one admitting it, the nearest ancestor's admitting ones, the same way. Null when not proven, and when no ancestor declares it but the one own method's arity does
 * not admit the call's count (the callee is then a supertype's outside the project).
 */
export function withInherited<I extends OverloadFile>(linker: OverloadLinker<I>, type: DefRef, name: string, own: DefRef | null): DefRef | null {
  const mode = linker.spec.inheritedOverloads;
  const self = linker.infos.get(type.file);
  const args = linker.args;
  if (mode === undefined || self === undefined || args === undefined) return own;
  const mine = overloadsOf(self, `${type.qname}.${name}`);
  const inherited: Overload<I>[] = [];
  const seen = new Set([type.id]);
  for (let queue = [type], i = 0; i < queue.length; i += 1) {
    for (const { target } of linker.supertypes.get((queue[i] as DefRef).id) ?? []) {
      if (target === null || seen.has(target.id)) continue;
      seen.add(target.id);
      queue.push(target);
      const info = linker.infos.get(target.file);
      for (const o of info === undefined ? [] : overloadsOf(info, `${target.qname}.${name}`)) {
        const access = o.info.data.access?.[o.name];
        if (access === 'private' || (access === 'package' && o.info.data.package !== self.data.package)) continue;
        if (target.kind === 'interface' && o.info.defs.get(o.name)?.static === true) continue;
        inherited.push(o);
      }
    }
  }
  const admits = (o: Overload<I>): boolean => {
    const range = o.info.data.arity?.[o.name];
    return range !== undefined && range[0] <= args && (range[1] === null || args <= range[1]);
  };
  // One own method whose arity refuses the count is not the callee: a supertype outside the project declares it (issue 33).
  if (inherited.length === 0) return own === null || self.data.arity?.[own.qname] === undefined || own.file !== self.path || admits({ info: self, name: own.qname }) ? own : null;
  // The type's own twins of one signature (enum constants' bodies) stay: only an inherited one is overridden.
  const live = [...mine, ...inherited.filter((o, i) => ![...mine, ...inherited.slice(0, i)].some((nearer) => sameSignature(nearer, o)))];
  const pool = live.filter(admits);
  const mineAdmitting = pool.filter((o) => o.info === self && mine.includes(o));
  // C# with no own overload admitting the count: the nearest ancestor whose overloads admit it (its, then its bases').
  const near = mineAdmitting.length > 0 || pool[0] === undefined ? [] : pool.filter((o) => o.info === pool[0]?.info && parentQname(o.name) === parentQname(pool[0]?.name ?? ''));
  const chosen = mode === 'merge' ? (pool.length === 1 ? pool[0] : byTypes(linker, pool, args))
    : (byTypes(linker, mineAdmitting, args) ?? (mineAdmitting.length === 1 && pool.length === 1 ? mineAdmitting[0] : near.length === 1 ? near[0] : byTypes(linker, near, args)));
  const def = chosen === undefined ? undefined : chosen.info.defs.get(chosen.name);
  return chosen === undefined || def === undefined ? null : { file: chosen.info.path, qname: chosen.name, id: def.id, kind: def.kind };
}

/**
 * Whether a java.lang type named as `path` in `info` is java.lang's where no project type answered it: no single-type import
 * names it. (A member type of that name inherited from a supertype outside the project would shadow it; like every
 * unresolved name, that is not modelled.)
 */
export function javaLangSeen<I extends OverloadFile>(info: I, path: readonly string[]): boolean {
  return javaLangType(info.data.imports, path) !== null;
}

/**
 * Whether type text `type` names one type where the call's argument shows it and where the overload `qname` of `callee`
 * declares it: a primitive or C# keyword type (or an array of one), a name both places resolve to the same project type, in
 * Java a java.lang type neither place shadows ({@link javaLangSeen}), or, in one file, a name no project type has (one
 * file's imports give both).
 */
function sameType<I extends OverloadFile>(linker: OverloadLinker<I>, type: string, callee: I, qname: string, call: { file: string; owner: string }): boolean {
  if (/^(boolean|byte|char|short|int|long|float|double|bool|sbyte|ushort|uint|ulong|decimal|string|object|nint|nuint)(\[\])*$/.test(type)) return true;
  if (!/^\w+(\.\w+)*$/.test(type)) return false;
  const path = type.split('.');
  const caller = linker.infos.get(call.file);
  const there = caller === undefined ? null : typeAt(linker, caller, call.owner, path);
  const here = typeAt(linker, callee, qname, path);
  if (there !== null || here !== null) return there?.id === here?.id;
  if (linker.spec.id === 'java' && caller !== undefined && javaLangSeen(caller, path) && javaLangSeen(callee, path)) return true;
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
