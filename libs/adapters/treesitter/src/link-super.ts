/**
 * Calls through a superclass (the tree-sitter linker's `<parent>`, `<super>` and `<qsuper>` paths, link.ts): PHP
 * `parent::m()`, Java `super.m()`/`super(...)`, C# `base.M()`/`: base(...)`, Ruby's bare `super`, and Java `I.super.m()` /
 * `Outer.super.m()`. Each reaches a method only where the declared supertypes prove it; null otherwise. Also the kind sets
 * and the qualified-name helper the linker and these rules share.
 */
import type { AncestorWalk, DefRef } from './link-walk.js';
import type { LanguageSpec } from './spec.js';

/** Definition kinds a call may target. */
export const CALLABLE: ReadonlySet<string> = new Set(['function', 'method']);
/** Definition kinds that are types (they hold members and have supertypes). */
export const TYPES: ReadonlySet<string> = new Set(['class', 'interface', 'struct', 'trait', 'enum', 'type', 'record']);

/** The qualified name enclosing `qname` (`''` at the top level). */
export const parentQname = (qname: string): string => (qname.lastIndexOf('.') < 0 ? '' : qname.slice(0, qname.lastIndexOf('.')));

/** The caller's file as these rules read it: its path and its definitions by qualified name. */
export interface SuperFile {
  path: string;
  defs: ReadonlyMap<string, { kind: string; static?: boolean }>;
}

/** The parts of the tree-sitter linker (link.ts) these rules read. */
export interface SuperLinker<I extends SuperFile> {
  readonly spec: LanguageSpec;
  readonly infos: ReadonlyMap<string, I>;
  readonly walk: AncestorWalk;
  /** Declared supertypes by type id, in declaration order (`target` null: named but not resolved). */
  readonly supertypes: ReadonlyMap<string, readonly { target: DefRef | null; relation: string }[]>;
  ref(file: string, qname: string): DefRef | null;
  member(type: DefRef, name: string, caller: string): DefRef | null;
  isScopeKind(kind: string | undefined): boolean;
  lookupName(info: I, owner: string, head: string): DefRef | { def?: { file: string; qname: string } } | null;
}

/** PHP `parent::name()`: `name` in the one resolved superclass of the caller's type and its ancestors; null otherwise. */
export function parentMember<I extends SuperFile>(linker: SuperLinker<I>, info: I, owner: string, name: string): DefRef | null {
  const selfType = linker.isScopeKind(info.defs.get(owner)?.kind) ? owner : parentQname(owner);
  const selfDef = selfType === '' ? null : linker.ref(info.path, selfType);
  const supers = selfDef === null ? [] : (linker.supertypes.get(selfDef.id) ?? []).filter((s) => s.relation === 'inherits');
  const parent = supers.length === 1 ? supers[0]?.target : null;
  // A class that names itself as its parent (invalid code, its inherits edge dropped) has no parent to call.
  if (parent === null || parent === undefined || parent.id === selfDef?.id) return null;
  return linker.walk.answer(parent, name, info.path, true) ?? null;
}

/**
 * The superclass of a class-like `type` a `super`/`base` call reaches: the first declared `inherits` supertype, resolved to a
 * class, struct or record (Java's `extends`, the first entry of a C# base list); null otherwise.
 */
export function superclass<I extends SuperFile>(linker: SuperLinker<I>, type: DefRef): DefRef | null {
  const declared = (linker.supertypes.get(type.id) ?? []).filter((s) => s.relation === 'inherits');
  const first = declared[0]?.target ?? null;
  return first === null || first.id === type.id || first.kind === 'interface' || !TYPES.has(first.kind) ? null : first;
}

/**
 * A `<super>` call of method `owner`: Java `super.m()`/`super(...)` and C# `base.M()`/`: base(...)` through the superclass (a
 * constructor, `<init>`, is the superclass's own constructor, never an inherited one); Ruby's bare `super` the caller's own
 * name after the caller's class in method resolution order (instance side: its included modules then the superclass; a
 * singleton method: the superclass's singleton side). A method of a Ruby module has no proven `super` (it depends on where
 * the module is included). Null when not proven.
 */
export function superMember<I extends SuperFile>(linker: SuperLinker<I>, info: I, owner: string, rest: readonly string[]): DefRef | null {
  const caller = info.defs.get(owner);
  if (caller === undefined || !CALLABLE.has(caller.kind) || rest.length > 1) return null;
  const selfDef = linker.ref(info.path, parentQname(owner));
  if (selfDef === null || !TYPES.has(selfDef.kind)) return null;
  const name = rest[0] ?? (owner.slice(owner.lastIndexOf('.') + 1).replace(/~\d+$/, ''));
  if (linker.spec.mixins === true) return rest.length === 0 && selfDef.kind === 'class' ? (linker.walk.answer(selfDef, name, info.path, caller.static !== true, true) ?? null) : null;
  if (linker.spec.inherits !== true || rest.length === 0) return null;
  const parent = superclass(linker, selfDef);
  if (parent === null) return null;
  if (name === '<init>') return linker.member(parent, parent.qname.slice(parent.qname.lastIndexOf('.') + 1), info.path);
  return linker.walk.answer(parent, name, info.path, true) ?? null;
}

/**
 * Java `I.super.m()` (`['<qsuper>', 'I', 'm']`): the method `m` as interface `I` has it (its own or, through its
 * superinterfaces, the one default method declaring it), never a static one; `Outer.super.m()` in a class nested in `Outer`
 * (same file): `m` through Outer's superclass. Null when not proven.
 */
export function qualifiedSuper<I extends SuperFile>(linker: SuperLinker<I>, info: I, owner: string, rest: readonly string[]): DefRef | null {
  const [qualifier, name] = rest;
  if (qualifier === undefined || name === undefined || rest.length !== 2 || linker.spec.inherits !== true) return null;
  const found = linker.lookupName(info, owner, qualifier);
  const type = found === null ? null : 'id' in found ? found : found.def === undefined ? null : linker.ref(found.def.file, found.def.qname);
  if (type === null) return null;
  if (type.kind === 'interface') {
    const hit = linker.walk.answer(type, name, info.path, true);
    return hit !== null && hit !== undefined && linker.infos.get(hit.file)?.defs.get(hit.qname)?.static !== true ? hit : null;
  }
  if (!TYPES.has(type.kind) || type.file !== info.path || !owner.startsWith(`${type.qname}.`)) return null;
  const parent = superclass(linker, type);
  return parent === null ? null : (linker.walk.answer(parent, name, info.path, true) ?? null);
}
