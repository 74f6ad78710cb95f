/**
 * Calls through object literals (issue 31 item 6), proven from declarations only ("no guessed
 * edges"): `this.f()` / `this[k]()` inside a method written in a module-level `const X = { ... }`
 * or inside a function whose only use is as a member value of X, `X.f()`, and `o.f()` for a
 * `const o = Object.create(X)` (or `Object.create(this)` where `this` is X). The member found is
 * the last one with that key; a spread or an unidentifiable computed key after it, a member value
 * that is no function, a key the module assigns at run time, or an exported X gives no edge.
 * Extraction side: literals.ts.
 */
import type { TsCallSite, TsDeclRecord, TsLiteralMember } from './link-data.js';
import type { ModuleInfo, NameResolution } from './link-model.js';

/** A declaration a call resolves to. */
type DeclTarget = { kind: 'decl'; mod: ModuleInfo; decl: TsDeclRecord };

/** The canonical identity of a computed key's binding (receivers.ts `keyIdentity`). */
type KeyIdentity = (mod: ModuleInfo, scopeId: string | null, key: string) => string | null;

/** Resolves calls whose receiver is a module-level const object literal or an object made from one. */
export class LiteralReceivers {
  constructor(private readonly names: NameResolution, private readonly keyIdentity: KeyIdentity) {}

  /**
   * The literal a `this_of` sees (`literal:X`, or a function whose only use is as a member value of
   * X), or null; also null when the module copies X into another object (that copy may be `this`).
   */
  literalOfThis(mod: ModuleInfo, thisOf: string): string | null {
    const literal = this.thisLiteral(mod, thisOf);
    return literal === null || mod.data.copied?.includes(literal) ? null : literal;
  }

  private thisLiteral(mod: ModuleInfo, thisOf: string): string | null {
    if (thisOf.startsWith('literal:')) return this.provenLiteral(mod, thisOf.slice('literal:'.length));
    const decl = mod.decls.get(thisOf);
    if (decl === undefined || decl.kind !== 'function' || decl.parent !== null || decl.arrow === true || mod.classLike.has(decl.id)) return null;
    const name = decl.name;
    if (mod.children.get('')?.get(name)?.id !== decl.id || mod.data.value_refs?.[name] !== 1) return null;
    if (mod.data.exports.some((record) => record.local === name)) return null;
    // A direct call (`f()`, `f.call(x)`) or `f.bind(x)` gives `this` another value.
    if (mod.data.calls.some((call) => (call.shape === 'id' && call.name === name) || call.path?.[0] === name)) return null;
    for (const [literal, members] of Object.entries(mod.data.literals ?? {})) {
      if (members.some((member) => member.value === name)) return this.provenLiteral(mod, literal);
    }
    return null;
  }

  /**
   * The literal a typed local stands for: `literal:X` (X itself), `proto:X` (`Object.create(X)`,
   * X read from the local's scope) or `proto:this:<this_of>`; undefined when the type is no literal type.
   */
  literalOfType(mod: ModuleInfo, type: string, literalFrom: (name: string) => string | null): string | null | undefined {
    if (type.startsWith('literal:')) return this.provenLiteral(mod, type.slice('literal:'.length));
    if (type.startsWith('proto:this:')) return this.literalOfThis(mod, type.slice('proto:this:'.length));
    if (type.startsWith('proto:')) return literalFrom(type.slice('proto:'.length));
    return undefined;
  }

  /**
   * The literal whose object is the prototype `Object.setPrototypeOf` gave the function-local
   * `const name = { ... }` (link data `protos`) on a line before the call: `f()` of a module-level function whose body only
   * returns `Object.create(X)` (X that module's literal, not shadowed in `f`), or `Object.create(Y)`
   * / `Y` of a literal of this module (`literalFrom`). Null when unproven or absent.
   */
  viaPrototype(mod: ModuleInfo, scopeId: string | null, name: string, call: TsCallSite, literalFrom: (name: string) => string | null): { mod: ModuleInfo; literal: string } | null {
    const protos = mod.data.protos?.[scopeId ?? mod.id];
    // Own keys only: a local named `constructor` must not read Object.prototype's member.
    const recorded = /^(\d+):(.+)$/.exec(protos !== undefined && Object.hasOwn(protos, name) ? protos[name]! : '');
    // A call on an earlier line runs before the prototype is set.
    if (recorded === null || Number(recorded[1]) >= call.line) return null;
    const proto = recorded[2]!;
    if (proto.startsWith('proto:')) {
      const literal = literalFrom(proto.slice('proto:'.length));
      return literal === null ? null : { mod, literal };
    }
    if (!proto.startsWith('call:')) return null;
    const callee = this.names.resolveDotted(mod, scopeId, proto.slice('call:'.length));
    if (callee?.kind !== 'decl' || callee.decl.kind !== 'function' || callee.decl.parent !== null || callee.decl.creates === undefined) return null;
    const created = callee.decl.creates;
    if (callee.mod.shadows.get(callee.decl.id)?.has(created) || callee.mod.children.get(callee.decl.id)?.has(created)) return null;
    const literal = this.provenLiteral(callee.mod, created);
    return literal === null ? null : { mod: callee.mod, literal };
  }

  /**
   * The function a call of `call.name` (made in `callMod`) on literal `literal` of `mod` proves, or null.
   * @param roots names in `callMod` whose run-time writes count besides the literal's own (an `Object.create` local)
   */
  member(mod: ModuleInfo, literal: string, call: TsCallSite, callMod: ModuleInfo, roots: readonly string[]): DeclTarget | null {
    const members = mod.data.literals?.[literal];
    if (members === undefined) return null;
    const name = call.name;
    const computed = name.startsWith('[') && name.endsWith(']');
    const ownerScope = callMod.decls.has(call.owner) ? call.owner : null;
    const identity = computed ? this.keyIdentity(callMod, ownerScope, name.slice(1, -1)) : null;
    if (computed && identity === null) return null;
    const found = this.lastMember(mod, members, name, identity);
    if (found === null || found.value === null) return null;
    if (this.writtenAtRunTime(mod, this.literalRoots(mod, literal, members), name, identity)) return null;
    if (this.writtenAtRunTime(callMod, new Set(roots), name, identity)) return null;
    const target = this.names.resolveDotted(mod, null, found.value);
    if (target?.kind !== 'decl' || (target.decl.kind !== 'function' && target.decl.kind !== 'method')) return null;
    return target;
  }

  /** A literal the linker may read: recorded, and not exported (another module could write its keys). */
  private provenLiteral(mod: ModuleInfo, literal: string): string | null {
    if (mod.data.literals?.[literal] === undefined) return null;
    return mod.data.exports.some((record) => record.local === literal) ? null : literal;
  }

  /** The last member with the key (the one that wins), or null when a later spread or unknown key may replace it. */
  private lastMember(mod: ModuleInfo, members: readonly TsLiteralMember[], name: string, identity: string | null): TsLiteralMember | null {
    for (let index = members.length - 1; index >= 0; index -= 1) {
      const member = members[index]!;
      if (member.key === null) return null;
      const memberComputed = member.key.startsWith('[') && member.key.endsWith(']');
      if (memberComputed !== (identity !== null)) continue;
      if (!memberComputed) {
        if (member.key === name) return member;
        continue;
      }
      const memberIdentity = this.keyIdentity(mod, null, member.key.slice(1, -1));
      if (memberIdentity === null) return null;
      if (memberIdentity === identity) return member;
    }
    return null;
  }

  /** The roots whose writes reach the literal's own keys: its name, and `this` of its methods and member functions. */
  private literalRoots(mod: ModuleInfo, literal: string, members: readonly TsLiteralMember[]): Set<string> {
    const own = new Set<string>([literal, `this@literal:${literal}`]);
    for (const member of members) {
      const decl = member.value === null ? undefined : mod.children.get('')?.get(member.value);
      if (decl !== undefined) own.add(`this@${decl.id}`);
    }
    return own;
  }

  /**
   * Whether the key may be written at run time in `mod`: under a root of `own`, any write of that
   * key or of an unknown key (`*`), and for a string key any computed write whose key is not a
   * proven Symbol; under any other root, a write of that same key (a computed key is compared by its
   * binding).
   */
  private writtenAtRunTime(mod: ModuleInfo, own: ReadonlySet<string>, name: string, identity: string | null): boolean {
    for (const [root, keys] of Object.entries(mod.data.mutated ?? {})) {
      for (const key of keys) {
        if (key === name) return true;
        if (key === '*') {
          if (own.has(root)) return true;
          continue;
        }
        if (key.startsWith('[') && key.endsWith(']')) {
          const dotted = key.slice(1, -1);
          if (identity !== null) {
            const written = this.keyIdentity(mod, null, dotted);
            if (written === identity || (written === null && own.has(root))) return true;
          } else if (own.has(root) && !(mod.data.symbols ?? []).includes(dotted)) {
            // A string key (`f`) may be written through any computed key but a proven Symbol
            // (`const k = 'f'; X[k] = g`): no guessed edge.
            return true;
          }
        }
      }
    }
    return false;
  }
}
