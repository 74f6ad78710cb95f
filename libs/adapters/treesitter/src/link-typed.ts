/**
 * Calls through a local variable whose declaration proves its type (LanguageSpec.typedBinds): `x.m()` recorded as
 * `['<typed>', 'm']` with the proof (TreeRecv). The proof's type path is resolved where it is written (the caller's file), or
 * the proving function is resolved there and its declared result's type path where the function is declared; the type must
 * be one of the language's receiver kinds (never an interface, whose calls dispatch), and `m` its own method or, for a
 * language with inherited members, the one its ancestors give. Anything else proves nothing.
 */
import type { TreeLinkData, TreeRecv } from './link-data.js';
import type { AncestorWalk, DefRef } from './link-walk.js';
import type { LanguageSpec } from './spec.js';

/** What the resolution reads from the linker. */
export interface TypedHost {
  /** A path as written in `owner` of `file` (the linker's resolvePath), with no argument count in force. */
  resolve(file: string, owner: string, path: readonly string[]): DefRef | null;
  /** The declared result types of the function `qname` of `file` (TreeLinkData.results). */
  results(file: string, qname: string): readonly (string[] | null)[] | undefined;
  /** Method `name` of `type` as a call on an instance reaches it (own, else inherited where the language has it); null when unproven. */
  method(type: DefRef, name: string, caller: string): DefRef | null;
  /** Whether a project type names `type` as a supertype, or names an unresolved supertype spelled as `type`'s own name. */
  derived(type: DefRef): boolean;
  /** Kinds a proven type may have (LanguageSpec.receiverKinds). */
  kinds: ReadonlySet<string>;
}

/** The method a `['<typed>', name]` call of `owner` in `file` reaches under `recv`; null when not proven. */
export function typedTarget(host: TypedHost, file: string, owner: string, recv: TreeRecv, name: string): DefRef | null {
  let type: DefRef | null;
  if ('type' in recv) type = host.resolve(file, owner, recv.type);
  else {
    const fn = host.resolve(file, owner, recv.call);
    if (fn === null) return null;
    // A conversion `T(v)` is a value of type T.
    if (host.kinds.has(fn.kind)) type = recv.index === 0 ? fn : null;
    else {
      const declared = fn.kind === 'function' || fn.kind === 'method' ? host.results(fn.file, fn.qname)?.[recv.index] : undefined;
      type = declared == null ? null : host.resolve(fn.file, fn.qname, declared);
      // A pointer a factory returns (C++): the local's declared class, which no project class derives from (no override).
      if (recv.as !== undefined && (type === null || host.resolve(file, owner, recv.as)?.id !== type.id || host.derived(type))) type = null;
    }
  }
  return type === null || !host.kinds.has(type.kind) ? null : host.method(type, name, file);
}

/** The parts of the tree-sitter linker (link.ts) {@link typedHostOf} reads. */
export interface TypedLinker<I extends { data: TreeLinkData; defs: ReadonlyMap<string, unknown> }> {
  /** The argument count in force (overloads); cleared while a proof's type is resolved. */
  args: number | undefined;
  readonly infos: ReadonlyMap<string, I>;
  readonly spec: LanguageSpec;
  readonly walk: AncestorWalk;
  resolvePath(info: I, owner: string, path: readonly string[]): DefRef | null;
  member(type: DefRef, name: string, caller: string): DefRef | null;
  /** Whether a project type derives from `type` (TypedHost.derived). */
  derived(type: DefRef): boolean;
}

/** The {@link TypedHost} of a linker: its path resolution without an argument count, own members, then inherited ones. */
export function typedHostOf<I extends { data: TreeLinkData; defs: ReadonlyMap<string, unknown> }>(linker: TypedLinker<I>): TypedHost {
  return {
    resolve: (file, owner, path) => {
      const [info, args] = [linker.infos.get(file), linker.args];
      linker.args = undefined;
      const found = info === undefined ? null : linker.resolvePath(info, owner, path);
      linker.args = args;
      return found;
    },
    results: (file, qname) => linker.infos.get(file)?.data.results?.[qname],
    derived: (type) => linker.derived(type),
    method: (type, name, caller) => {
      const own = linker.member(type, name, caller);
      if (own !== null || linker.spec.inherits !== true || linker.infos.get(type.file)?.defs.has(`${type.qname}.${name}`) === true) return own;
      return linker.walk.answer(type, name, caller, true, true) ?? null;
    },
    get kinds() {
      return linker.spec.receiverKinds ?? new Set<string>();
    },
  };
}
