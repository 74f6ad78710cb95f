/**
 * Unqualified calls from a nested type to a method of an enclosing type (Java, C#; `LanguageSpec.enclosingCalls`): a
 * simple-name call `m()` searches the innermost enclosing type of which `m` is a member (JLS 15.12.1; C#'s simple-name
 * lookup likewise), so it reaches the enclosing type's method only when the nested type and every ancestor of it are known
 * to declare no `m`. Proven only where the declarations show that: every level's ancestry resolved to project types (an
 * external superclass or interface may declare `m`), no root-object member name (`toString`, `Equals`), and no enum or
 * record level (their implicit supertypes and generated members).
 */
import type { Answer, DefRef } from './link-walk.js';

/** What the rule asks of the linker. */
export interface EnclosingHost {
  /** A definition of the caller's file by qualified name, or null. */
  ref(qname: string): DefRef | null;
  /** Declared supertypes of a type, in order (`target` null: named but not resolved). */
  supertypes(type: DefRef): readonly { target: DefRef | null }[];
  /** The member `name` reaches from `type`, its own first, then through its ancestors (the linker's walk). */
  answer(type: DefRef, name: string): Answer;
  /** A method's `[min, max]` argument count (max null: varargs), when known. */
  arity(def: DefRef): readonly [number, number | null] | undefined;
}

/** Type kinds a level may be: their members are all declared (an enum's or a record's are not). */
const LEVEL_KINDS = new Set(['class', 'interface', 'struct']);

/** Whether every ancestor of `type` is a resolved project type (no external supertype could declare a member). */
function closedAncestry(host: EnclosingHost, type: DefRef): boolean {
  const seen = new Set<string>([type.id]);
  const stack = [type];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    for (const { target } of host.supertypes(next)) {
      if (target === null || !LEVEL_KINDS.has(target.kind)) return false;
      if (!seen.has(target.id)) {
        seen.add(target.id);
        stack.push(target);
      }
    }
  }
  return true;
}

/** A callee path with its `<bare>` head (an unqualified call) read as `<self>`, and whether it had one. */
export function unbare(path: readonly string[] | null): { bare: boolean; path: readonly string[] | null } {
  return path?.[0] === '<bare>' ? { bare: true, path: ['<self>', ...path.slice(1)] } : { bare: false, path };
}

const parentQname = (qname: string): string => qname.slice(0, Math.max(0, qname.lastIndexOf('.')));

/**
 * The method an unqualified call `name` in nested type `selfType` (a qualified name of the caller's file) reaches in an
 * enclosing type of the same file: walking out from `selfType`, each level with a closed ancestry and no member `name` passes
 * to the type enclosing it; the first level declaring or inheriting `name` answers (null when that answer is unproven:
 * overloads the argument count does not split, or two interfaces). Null too when a level is not a class, interface or
 * struct, its ancestry is not closed, `selfType` is not nested in a type, `name` is a member every object has, or the
 * answer's arity does not admit `args` (the call's argument count, when counted).
 */
export function enclosingMember(host: EnclosingHost, selfType: string, name: string, rootMembers: ReadonlySet<string>, args: number | undefined): DefRef | null {
  if (rootMembers.has(name)) return null;
  for (let level = selfType; ;) {
    const type = host.ref(level);
    if (type === null || !LEVEL_KINDS.has(type.kind) || !closedAncestry(host, type)) return null;
    const outer = host.ref(parentQname(level));
    // Only types nest here: a local class's parent is a method, and the module is no level.
    if (outer === null || !LEVEL_KINDS.has(outer.kind)) return null;
    const found = host.answer(outer, name);
    const range = found === null || found === undefined ? undefined : host.arity(found);
    if (range !== undefined && args !== undefined && (args < range[0] || (range[1] !== null && args > range[1]))) return null;
    if (found !== undefined) return found;
    level = outer.qname;
  }
}
