/**
 * Calls through receivers, proven from declarations (DESIGN.md section 7, "no guessed edges"):
 * `this.f()`, `this.field.f()`, `this.#priv.f()`, `this[kKey]()`, `local.f()` and
 * `param.field.f()`, where every step is a declared or constructed type (class fields, constructor
 * parameter properties, constructor assignments, annotated or `new`-initialized locals and
 * parameters, interface property signatures), and a computed key names the same binding as the
 * member's declared key; object literals and `Object.create` results through literal-receivers.ts.
 * No type checker: a walk over the link data of the files.
 */
import type { TsCallSite, TsDeclRecord, TsTypedNames } from './link-data.js';
import { LiteralReceivers } from './literal-receivers.js';
import { MAX_DEPTH, type ModuleInfo, type NameResolution, type Target } from './link-model.js';

export type { NameResolution } from './link-model.js';

type ClassTarget = { kind: 'decl'; mod: ModuleInfo; decl: TsDeclRecord };

/**
 * The type text recorded for `name`, own keys only: link data are plain objects, and a source
 * name such as `constructor` or `toString` must not read Object.prototype's member as a type.
 */
function typedName(names: TsTypedNames | undefined, name: string): string | undefined {
  return names !== undefined && Object.hasOwn(names, name) ? names[name] : undefined;
}

/** The target when it is a class, interface or constructor function (a type that has methods), else null. */
function classLike(target: Target | null): ClassTarget | null {
  if (target?.kind !== 'decl') return null;
  const kind = target.decl.kind;
  return kind === 'class' || kind === 'interface' || target.mod.classLike.has(target.decl.id) ? target : null;
}

/** How a name is bound in a scope: with a proven type, bound without one, or not a local at all. */
type LocalBinding = { kind: 'typed'; type: string; scopeId: string | null } | { kind: 'untyped'; scopeId: string | null } | { kind: 'none' };

/** Resolves receiver calls (shapes `this` and `member` with a path) to method declarations. */
export class ReceiverResolver {
  private readonly identityMemo = new Map<string, string | null>();
  /** Memo keys being computed: a lookup of one of them is a cycle. */
  private readonly identityPending = new Set<string>();

  private readonly literals: LiteralReceivers;

  constructor(private readonly names: NameResolution) {
    this.literals = new LiteralReceivers(names, (mod, scopeId, key) => this.keyIdentity(mod, scopeId, key));
  }

  /**
   * The method a `this` call proves, or null. `this` must be a class or a constructor function
   * (its `this_of`); each path segment is a field with a proven type.
   */
  resolveThis(mod: ModuleInfo, call: TsCallSite): ClassTarget | null {
    if (call.this_of === null || call.this_of === undefined) return null;
    const literal = this.literals.literalOfThis(mod, call.this_of);
    if (literal !== null) return (call.path ?? []).length === 0 ? this.literals.member(mod, literal, call, mod, []) : null;
    const decl = mod.decls.get(call.this_of);
    if (decl === undefined || !(decl.kind === 'class' || mod.classLike.has(decl.id))) return null;
    return this.walk({ kind: 'decl', mod, decl }, call.path ?? [], call, mod);
  }

  /**
   * The method a `member` call proves when its root is a local or parameter; `undefined` when the
   * root is no local (the caller resolves it as a namespace, class or module name instead).
   */
  resolveMember(mod: ModuleInfo, call: TsCallSite): ClassTarget | null | undefined {
    const path = call.path ?? [];
    if (path.length === 0) return undefined;
    const ownerId = mod.decls.has(call.owner) ? call.owner : null;
    const local = this.localBinding(mod, ownerId, path[0]!);
    if (local.kind === 'none') return undefined;
    // A module-level const object literal named from the local's scope.
    const literalFrom = (name: string): string | null => {
      const base = this.localBinding(mod, local.scopeId, name);
      return base.kind === 'typed' && base.scopeId === null && base.type === `literal:${name}` ? this.literals.literalOfType(mod, base.type, () => null) ?? null : null;
    };
    if (local.kind === 'untyped') {
      const via = path.length === 1 ? this.literals.viaPrototype(mod, local.scopeId, path[0]!, call, literalFrom) : null;
      return via === null ? null : this.literals.member(via.mod, via.literal, call, mod, [path[0]!]);
    }
    const literal = this.literals.literalOfType(mod, local.type, literalFrom);
    if (literal !== undefined) {
      if (literal === null || path.length !== 1) return null;
      return this.literals.member(mod, literal, call, mod, local.type.startsWith('literal:') ? [] : [path[0]!]);
    }
    const start = this.resolveType(mod, local.scopeId, local.type);
    return start === null ? null : this.walk(start, path.slice(1), call, mod);
  }

  private walk(start: ClassTarget, segments: readonly string[], call: TsCallSite, callMod: ModuleInfo): ClassTarget | null {
    let target: ClassTarget | null = start;
    for (const segment of segments) {
      if (target === null) return null;
      target = this.fieldTarget(target, segment);
    }
    return target === null ? null : this.method(target, call.name, callMod, call.owner);
  }

  /** How `name` is bound from a scope outwards: the nearest function/method binding, else module level. */
  private localBinding(mod: ModuleInfo, scopeId: string | null, name: string): LocalBinding {
    let current = scopeId;
    while (current !== null) {
      const decl = mod.decls.get(current);
      if (decl === undefined) break;
      if (decl.kind === 'function' || decl.kind === 'method') {
        const child = mod.children.get(current)?.get(name);
        if (child !== undefined && child.kind !== 'method') return { kind: 'none' };
        const type = typedName(mod.data.locals[current], name);
        if (type !== undefined) return { kind: 'typed', type, scopeId: current };
        if (mod.shadows.get(current)?.has(name)) return { kind: 'untyped', scopeId: current };
      }
      current = decl.parent;
    }
    if (mod.children.get('')?.has(name) || mod.bindings.has(name)) return { kind: 'none' };
    const type = typedName(mod.data.locals[mod.id], name);
    if (type !== undefined) return { kind: 'typed', type, scopeId: null };
    if (mod.shadows.get(mod.id)?.has(name)) return { kind: 'untyped', scopeId: null };
    return { kind: 'none' };
  }

  /**
   * The class, interface or constructor function a type reference text names from a scope, or
   * null. `call:f` / `await:f` stand for the (awaited) declared return type of the function or
   * method `f` resolves to.
   */
  private resolveType(mod: ModuleInfo, scopeId: string | null, type: string, depth = 0): ClassTarget | null {
    if (depth > MAX_DEPTH) return null; // a cycle of aliases or return types (memo-free, so not order-sensitive)
    const marker = /^(call|await):(.+)$/.exec(type);
    if (marker !== null) {
      const callee = this.callee(mod, scopeId, marker[2]!);
      if (callee?.kind !== 'decl' || (callee.decl.kind !== 'function' && callee.decl.kind !== 'method')) return null;
      const returns = callee.decl.returns;
      if (returns === undefined) return null;
      const awaited = returns.startsWith('await:');
      // `await f()` of a non-Promise return type is that type; `f()` of a Promise is no class.
      if (awaited && marker[1] !== 'await') return null;
      return this.resolveType(callee.mod, callee.decl.id, awaited ? returns.slice('await:'.length) : returns, depth + 1);
    }
    const root = type.split('.')[0]!;
    for (let current = scopeId; current !== null;) {
      if (mod.data.type_params[current]?.includes(root)) return null;
      current = mod.decls.get(current)?.parent ?? null;
    }
    const named = this.names.resolveDotted(mod, scopeId, type);
    const def = named === null && mod.data.typedefs !== undefined && Object.hasOwn(mod.data.typedefs, root) ? mod.data.typedefs[root] ?? null : null;
    if (def === null) return classLike(named);
    // A JSDoc alias the scope binds no other way: what its type names from module scope.
    if (def.specifier === undefined) return this.resolveType(mod, null, `${def.type}${type.slice(root.length)}`, depth + 1);
    const from = type === root ? this.names.moduleFor(mod, def.specifier) : null;
    return from === null ? null : classLike(this.names.resolveExport(from, def.type, depth + 1));
  }

  /**
   * The function or method a `call:` marker's callee names from a scope: a dotted name, or
   * `this.a.f@<this_of>`, resolved as the `this` call `this.a.f()` in that `this` would be.
   */
  private callee(mod: ModuleInfo, scopeId: string | null, text: string): Target | null {
    if (!text.startsWith('this.')) return this.names.resolveDotted(mod, scopeId, text);
    const at = text.indexOf('@');
    if (at < 0) return null;
    const path = text.slice('this.'.length, at).split('.');
    const name = path.pop()!;
    return this.resolveThis(mod, { owner: scopeId ?? mod.id, shape: 'this', name, object: null, line: 0, path, this_of: text.slice(at + 1) });
  }

  /**
   * The methods of the value a call of `callee` returns, by name: the members of a returned object
   * literal whose values resolve to functions (`returned`), or, when its declared return type
   * (`returns`, not a promise) resolves to a class or interface, each name as {@link method}
   * resolves it (own or inherited, never one assigned at run time). Empty otherwise.
   */
  returnedMethods(callee: ClassTarget): Map<string, ClassTarget> {
    const out = new Map<string, ClassTarget>();
    const keysProven = (callee.decl.returned_keys ?? []).every((key) => this.wellKnownSymbol(callee.mod, callee.decl.id, key)
      || this.isSymbol(this.keyIdentity(callee.mod, callee.decl.id, key)));
    for (const [member, dotted] of Object.entries(keysProven ? callee.decl.returned ?? {} : {})) {
      const target = this.names.resolveDotted(callee.mod, callee.decl.id, dotted);
      if (target?.kind === 'decl' && (target.decl.kind === 'function' || target.decl.kind === 'method' || target.decl.kind === 'class')) out.set(member, target);
    }
    const returns = callee.decl.returns;
    if (returns === undefined || returns.startsWith('await:')) return out;
    const type = this.resolveType(callee.mod, callee.decl.id, returns);
    if (type === null) return out;
    for (const current of this.lineage(type)) {
      for (const child of current.mod.children.get(current.decl.id)?.values() ?? []) {
        if (child.kind !== 'method' || child.key !== undefined || child.name.startsWith('#') || out.has(child.name)) continue;
        const found = this.method(type, child.name, type.mod, type.decl.id);
        if (found !== null) out.set(child.name, found);
      }
    }
    return out;
  }

  /** Whether a key is a well-known symbol (`Symbol.asyncDispose`) with the global `Symbol` not rebound in the scope chain or the module. */
  private wellKnownSymbol(mod: ModuleInfo, scopeId: string | null, key: string): boolean {
    if (!/^Symbol\.[A-Za-z]+$/.test(key)) return false;
    for (let current = scopeId; current !== null; current = mod.decls.get(current)?.parent ?? null) {
      if (mod.shadows.get(current)?.has('Symbol') || mod.children.get(current)?.has('Symbol')) return false;
    }
    return !mod.bindings.has('Symbol') && !mod.children.get('')?.has('Symbol') && !mod.data.consts.includes('Symbol') && !mod.shadows.get(mod.id)?.has('Symbol');
  }

  /** Whether a key identity (`path:name`, `path:keys.name`) names a module const initialized with `Symbol(...)`. */
  private isSymbol(identity: string | null): boolean {
    if (identity === null || identity.startsWith('external:') || identity.startsWith('ns:')) return false;
    const colon = identity.lastIndexOf(':');
    const mod = this.names.moduleAt(identity.slice(0, colon));
    return mod !== null && (mod.data.symbols ?? []).includes(identity.slice(colon + 1));
  }

  /** The declaring classes of a member lookup: the class, then its superclasses or base interfaces. */
  private lineage(target: ClassTarget): ClassTarget[] {
    const out: ClassTarget[] = [target];
    const seen = new Set<string>([target.decl.id]);
    for (let index = 0; index < out.length && out.length < MAX_DEPTH; index += 1) {
      const current = out[index]!;
      const bases: ClassTarget[] = [];
      if (current.decl.kind === 'interface') {
        for (const record of current.mod.data.heritage) {
          if (record.id !== current.decl.id || record.relation !== 'inherits') continue;
          const base = this.names.resolveDotted(current.mod, current.decl.parent, record.name);
          if (base?.kind === 'decl' && base.decl.kind === 'interface') bases.push(base);
        }
      } else {
        const base = this.names.superclass(current);
        if (base?.kind === 'decl') bases.push(base);
      }
      for (const base of bases) {
        if (seen.has(base.decl.id)) continue;
        seen.add(base.decl.id);
        out.push(base);
      }
    }
    return out;
  }

  /** The proven type of a field of a class or interface (own or inherited), or null. */
  private fieldTarget(target: ClassTarget, field: string): ClassTarget | null {
    if (field.startsWith('[')) return null;
    const chain = field.startsWith('#') ? [target] : this.lineage(target);
    for (const current of chain) {
      const type = typedName(current.mod.data.fields[current.decl.id], field);
      if (type !== undefined) return this.resolveType(current.mod, current.decl.id, type);
      if (current.mod.children.get(current.decl.id)?.has(field)) return null;
    }
    return null;
  }

  /**
   * The method `name` of a class or interface, searching its lineage (private names only in the
   * class itself). A computed name matches a member declared with a key that names the same
   * binding. A member also assigned through `this` at run time is never proven.
   */
  private method(target: ClassTarget, name: string, callMod: ModuleInfo, ownerId: string): ClassTarget | null {
    const computed = name.startsWith('[') && name.endsWith(']');
    const identity = computed ? this.keyIdentity(callMod, callMod.decls.has(ownerId) ? ownerId : null, name.slice(1, -1)) : null;
    if (computed && identity === null) return null;
    const chain = name.startsWith('#') ? [target] : this.lineage(target);
    for (const current of chain) {
      if (this.assignedAtRunTime(current, name, identity)) return null;
      if (computed) {
        for (const decl of current.mod.keyed.get(current.decl.id) ?? []) {
          if (decl.kind === 'method' && this.keyIdentity(current.mod, current.decl.parent, decl.key!) === identity) {
            return { kind: 'decl', mod: current.mod, decl };
          }
        }
        continue;
      }
      const child = current.mod.children.get(current.decl.id)?.get(name);
      if (child !== undefined) return child.kind === 'method' ? { kind: 'decl', mod: current.mod, decl: child } : null;
      if (typedName(current.mod.data.fields[current.decl.id], name) !== undefined) return null;
    }
    return null;
  }

  private assignedAtRunTime(cls: ClassTarget, name: string, identity: string | null): boolean {
    for (const assigned of cls.mod.data.assigned[cls.decl.id] ?? []) {
      if (assigned === name) return true;
      if (identity !== null && assigned.startsWith('[')) {
        // An assigned computed key that cannot be identified might be this one: not proven.
        const other = this.keyIdentity(cls.mod, cls.decl.parent, assigned.slice(1, -1));
        if (other === null || other === identity) return true;
      }
    }
    return false;
  }

  /**
   * A canonical identity of the binding a dotted key expression names from a scope: a module-level
   * `const` (`lib/symbols.js:kRun`), a member of one (`lib/symbols.js:keys.kRun`), or an export
   * followed through imports and re-exports. Null when the key is a function-local binding, a
   * mutable module binding, or cannot be followed.
   */
  keyIdentity(mod: ModuleInfo, scopeId: string | null, key: string): string | null {
    const parts = key.split('.');
    const root = parts[0]!;
    for (let current = scopeId; current !== null;) {
      const decl = mod.decls.get(current);
      if (decl === undefined) break;
      if (mod.shadows.get(current)?.has(root) || mod.children.get(current)?.has(root)) return null;
      current = decl.parent;
    }
    let base = this.localIdentity(mod, root, 0);
    for (const part of parts.slice(1)) {
      if (base === null) return null;
      base = base.startsWith('ns:') ? this.exportIdentity(base.slice(3), part, 0) : `${base}.${part}`;
    }
    return base;
  }

  private localIdentity(mod: ModuleInfo, name: string, depth: number): string | null {
    if (depth > MAX_DEPTH) {
      this.names.orderSensitive();
      return null;
    }
    if (mod.data.consts.includes(name)) return `${mod.path}:${name}`;
    const binding = mod.bindings.get(name);
    if (binding === undefined) return null;
    const target = this.names.moduleFor(mod, binding.specifier);
    if (target === null) return `external:${binding.specifier}:${binding.imported}`;
    if (binding.imported === '*' || binding.imported === '=') return `ns:${target.path}`;
    return this.exportIdentity(target.path, binding.imported, depth + 1);
  }

  private exportIdentity(path: string, name: string, depth: number): string | null {
    const memo = `${path}\u0000${name}`;
    if (this.identityMemo.has(memo)) {
      if (this.identityPending.has(memo)) this.names.orderSensitive();
      return this.identityMemo.get(memo)!;
    }
    this.identityMemo.set(memo, null);
    this.identityPending.add(memo);
    const result = this.computeExportIdentity(path, name, depth);
    this.identityPending.delete(memo);
    this.identityMemo.set(memo, result);
    return result;
  }

  private computeExportIdentity(path: string, name: string, depth: number): string | null {
    if (depth > MAX_DEPTH) {
      this.names.orderSensitive();
      return null;
    }
    const mod = this.names.moduleAt(path);
    if (mod === null) return `${path}:export:${name}`;
    const record = mod.exports.get(name)?.[0];
    if (record !== undefined) {
      if (record.local !== null) return this.localIdentity(mod, record.local, depth + 1);
      if (record.specifier === null) return null;
      const target = this.names.moduleFor(mod, record.specifier);
      if (target === null) return `external:${record.specifier}:${record.imported ?? '*'}`;
      const imported = record.imported ?? '*';
      return imported === '*' || imported === '=' ? `ns:${target.path}` : this.exportIdentity(target.path, imported, depth + 1);
    }
    // `module.exports = keys` with `const keys = { kRun: Symbol() }`: the member of that const.
    const whole = mod.exports.get('=')?.[0];
    if (whole?.local != null && mod.data.consts.includes(whole.local)) return `${mod.path}:${whole.local}.${name}`;
    return `${mod.path}:export:${name}`;
  }
}
