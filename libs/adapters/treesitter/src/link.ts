/**
 * Cross-file linking shared by the tree-sitter family (DESIGN.md section 3): `imports` edges from
 * each language's import rules (project files only), `calls` edges only where declarations prove
 * the target (a definition of the file or of its scope, a definition reached through an imported
 * package, module or class, a method of the receiver's type), `inherits`/`implements` edges to
 * resolved types, and `tested_by` edges from test files to what they call. Everything else is
 * counted as unresolved; nothing is matched by bare name across the project.
 */
import { codeId, excludedImportIssue } from '@docforge/core';
import type { GraphEdge, LinkInput, LinkResult, ModuleResolver, SourceIssue } from '@docforge/core';
import { readTreeLinkData, type TreeLinkData } from './link-data.js';
import type { ImportTarget, LanguageResolver, LanguageSpec, ResolveContext } from './spec.js';
import { AncestorWalk, type Answer, type DefRef, type Step } from './link-walk.js';
import { enclosingMember, unbare } from './link-enclosing.js';
import { typedHostOf, typedTarget, type TypedHost } from './link-typed.js';
import { CALLABLE, TYPES, parentMember, parentQname, qualifiedSuper, superMember } from './link-super.js';
import { Prototypes } from './link-proto.js';
import { byTypes, withInherited } from './link-overloads.js';

interface Binding {
  files?: string[];
  def?: { file: string; qname: string };
  /** The definition whose body the import is written in (`''`: the whole file). */
  scope: string;
}

interface FileInfo {
  path: string;
  moduleId: string;
  data: TreeLinkData;
  defs: Map<string, { id: string; kind: string; exported: boolean; static?: boolean }>;
  bindings: Map<string, Binding[]>;
  /** Files opened by imports (C# `using N;`): their top-level definitions are visible by bare name. */
  opens: string[];
  /** Types whose static members are visible by bare name (Java `import static a.b.C.*;`). */
  openTypes: { file: string; qname: string }[];
}

const stat = (stats: Record<string, number>, key: string): void => void (stats[key] = (stats[key] ?? 0) + 1);

class TreeLinker {
  readonly infos = new Map<string, FileInfo>();
  readonly edges = new Map<string, GraphEdge>();
  readonly unresolved: Record<string, number> = {};
  /** `unresolved_import` warnings: imports whose target an exclude glob leaves out (issue 30). */
  readonly issues: SourceIssue[] = [];
  readonly stats: Record<string, number> = {
    files_linked: 0, files_without_link_data: 0, imports_total: 0, imports_resolved: 0, imports_unresolved: 0,
    calls_total: 0, calls_resolved: 0, calls_unresolved: 0, heritage_total: 0, heritage_resolved: 0, heritage_unresolved: 0,
  };
  readonly context: ResolveContext;
  readonly rules: LanguageResolver;
  /** Declared supertypes by type id, in declaration order (`target` null: not resolved; `known`: its members, all known), for {@link TreeLinker.plan}. */
  readonly supertypes = new Map<string, { target: DefRef | null; relation: string; mixin?: string; known?: ReadonlySet<string> }[]>();
  /** The argument count of the call being linked (under `overloads`), read by {@link TreeLinker.ref}; undefined between calls. */
  args: number | undefined = undefined;
  /** The call being linked when it shows argument types (under `overloads`), read by {@link TreeLinker.ref}; undefined between calls. */
  call: { file: string; owner: string; types: readonly (string | null)[] } | undefined = undefined;
  /** Last names of every type the project declares, for {@link TreeLinker.sameType}; built on first use. */
  typeNames: Set<string> | undefined = undefined;
  /** Member names (last segments) declared per file, for {@link TreeLinker.callerKey}. */
  readonly memberNames = new Map<string, Set<string>>();
  readonly walk = new AncestorWalk({ plan: (type, instance) => this.plan(type, instance), own: (type, name, caller) => this.ownMember(type, name, caller), callerKey: (caller, name) => this.callerKey(caller, name) });

  /** Declarations joined to their one definition (C/C++ prototypes; link-proto.ts). */
  readonly protos: Prototypes;

  constructor(readonly spec: LanguageSpec, files: readonly LinkInput[], resolver: ModuleResolver) {
    for (const file of files) {
      const data = readTreeLinkData(file.link_data, spec.id);
      if (data === null) {
        stat(this.stats, 'files_without_link_data');
        continue;
      }
      const moduleId = codeId(file.path);
      const prefix = `${moduleId}#`;
      const defs = new Map<string, { id: string; kind: string; exported: boolean; static?: boolean }>();
      for (const node of file.nodes) {
        if (!node.id.startsWith(prefix)) continue;
        defs.set(node.id.slice(prefix.length), { id: node.id, kind: node.kind, exported: node.capabilities.includes('exported'), static: node.capabilities.includes('static') });
      }
      for (const def of data.defs ?? []) if (!defs.has(def.name)) defs.set(def.name, { id: `${prefix}${def.name}`, kind: def.kind, exported: false });
      this.infos.set(file.path, { path: file.path, moduleId, data, defs, bindings: new Map(), opens: [], openTypes: [] });
    }
    const paths = [...this.infos.keys()].filter((path) => resolver.hasFile(path)).sort();
    const data = new Map(paths.map((path) => [path, (this.infos.get(path) as FileInfo).data]));
    this.context = { paths, resolver, data, defsOf: (path) => this.infos.get(path)?.defs ?? new Map() };
    this.rules = spec.resolver(this.context);
    const linked = files.filter((file) => this.infos.has(file.path));
    this.protos = new Prototypes(linked.map((file) => ({ path: file.path, nodes: file.nodes, data: (this.infos.get(file.path) as FileInfo).data })), (path) => this.rules.scope(path));
  }

  addEdge(sourceId: string, relation: string, targetId: string, sourcePath: string, line: number): void {
    const key = `${sourceId}\u0000${relation}\u0000${targetId}`;
    const existing = this.edges.get(key);
    if (existing === undefined) this.edges.set(key, { source_id: sourceId, relation, target_id: targetId, source_path: sourcePath, line });
    else if (line < existing.line) existing.line = line;
  }

  /**
   * The definition `qname` of a file; null when absent or overloaded (a `qname~2` twin), unless under `overloads` the call
   * being linked counts its arguments ({@link TreeLinker.args}) and exactly one of `qname`, `qname~2`, ... admits that count.
   */
  ref(file: string, qname: string): DefRef | null {
    const info = this.infos.get(file);
    const def = info?.defs.get(qname);
    if (info === undefined || def === undefined) return null;
    if (!info.defs.has(`${qname}~2`)) return { file, qname, id: def.id, kind: def.kind };
    const args = this.args;
    const arity = info.data.arity;
    if (args === undefined || arity === undefined) return null;
    const admitting: string[] = [];
    for (let n = 1, name = qname; info.defs.has(name); n += 1, name = `${qname}~${n}`) {
      const range = arity[name];
      if (range === undefined) return null;
      if (range[0] <= args && (range[1] === null || args <= range[1])) admitting.push(name);
    }
    const only = admitting.length === 1 ? (admitting[0] as string) : admitting.length > 1 ? byTypes(this, admitting.map((name) => ({ info, name })), args)?.name : undefined;
    const chosen = only === undefined ? undefined : info.defs.get(only);
    return only === undefined || chosen === undefined ? null : { file, qname: only, id: chosen.id, kind: chosen.kind };
  }

  /** The one definition named `qname` in `files` (null when none or several; under `reopenAcrossFiles` one class or module declared in several files counts once). */
  unique(files: readonly string[], qname: string): DefRef | null {
    const hits: DefRef[] = [];
    for (const file of new Set(files)) {
      const hit = this.ref(file, qname);
      if (hit !== null) hits.push(hit);
    }
    if (hits.length <= 1) return hits[0] ?? null;
    if (this.spec.reopenAcrossFiles !== true || !hits.every((h) => this.isScopeKind(h.kind)) || new Set(hits.map((h) => h.kind)).size > 1) return null;
    // One class or module reopened in several files: the file named after it (`thor/base.rb` for `Thor.Base`), else the first.
    const snake = (qname.split('.').pop() ?? '').replace(/([a-z\d])([A-Z])/g, '$1_$2').toLowerCase();
    return hits.find((h) => h.file === `${snake}.rb` || h.file.endsWith(`/${snake}.rb`)) ?? [...hits].sort((a, b) => (a.file < b.file ? -1 : 1))[0] ?? null;
  }

  /** A member of a type: in the type's file (with its ancestors' overloads, link-overloads.ts), else the one in its scope or the caller's file. */
  member(type: DefRef, name: string, caller: string): DefRef | null {
    const qname = `${type.qname}.${name}`;
    if (this.infos.get(type.file)?.defs.has(qname) === true) return withInherited(this, type, name, this.ref(type.file, qname));
    return this.unique([...this.rules.scope(type.file), caller].filter((f) => f !== type.file), qname);
  }

  /** Whether `kind` holds members a path or `<self>` reaches. */
  isScopeKind(kind: string | undefined): boolean {
    return kind !== undefined && (TYPES.has(kind) || this.spec.pathKinds?.has(kind) === true);
  }

  /**
   * `head` in the types and namespaces enclosing `owner` (itself included), innermost first, in the file then its scope (Ruby
   * constants); under `lexicalNesting: 'types'` only a type or namespace (Java, C# member types: a constructor `A.A` is none).
   */
  nested(info: FileInfo, owner: string, head: string): DefRef | null {
    const others = this.rules.scope(info.path).filter((f) => f !== info.path);
    for (let scope = owner; scope !== ''; scope = parentQname(scope)) {
      if (!this.isScopeKind(info.defs.get(scope)?.kind)) continue;
      const inner = this.ref(info.path, `${scope}.${head}`) ?? this.unique(others, `${scope}.${head}`);
      if (inner !== null && (this.spec.lexicalNesting !== 'types' || this.isScopeKind(inner.kind))) return inner;
    }
    return null;
  }

  lookupName(info: FileInfo, owner: string, head: string): DefRef | Binding | null {
    if (this.spec.lexicalNesting !== undefined) {
      const inner = this.nested(info, owner, head);
      if (inner !== null) return inner;
    }
    // Items of the enclosing inline modules first (Rust `mod tests { fn a() { helper() } }`).
    for (let scope = parentQname(owner); scope !== ''; scope = parentQname(scope)) {
      if (info.defs.get(scope)?.kind !== 'namespace') continue;
      const inner = this.ref(info.path, `${scope}.${head}`);
      if (inner !== null) return inner;
    }
    const own = this.ref(info.path, head);
    if (own !== null) return own;
    // The innermost import scope holding the caller wins (a Rust `use` inside `mod tests`).
    const visible = (info.bindings.get(head) ?? []).filter((b) => b.scope === '' || owner === b.scope || owner.startsWith(`${b.scope}.`));
    const binding = visible.sort((a, b) => b.scope.length - a.scope.length)[0];
    if (binding !== undefined) return binding;
    const files = this.rules.pathHead?.(info.path, owner, head) ?? null;
    if (files !== null) return { files: [...files], scope: '' };
    return this.unique(this.rules.scope(info.path).filter((f) => f !== info.path), head) ?? this.unique(info.opens, head);
  }

  /** `path` as one qualified name under each enclosing namespace or type of `owner` (innermost first, then bare), in the file then its scope. */
  dotted(info: FileInfo, owner: string, path: readonly string[]): DefRef | null {
    const tail = path.join('.');
    const others = this.rules.scope(info.path).filter((f) => f !== info.path);
    const prefixes: string[] = [];
    for (let scope = owner; scope !== ''; scope = parentQname(scope)) if (this.isScopeKind(info.defs.get(scope)?.kind) || !info.defs.has(scope)) prefixes.push(`${scope}.`);
    for (const prefix of [...prefixes, '']) {
      const qname = `${prefix}${tail}`;
      const hit = this.ref(info.path, qname) ?? (info.defs.has(qname) ? null : this.unique(others, qname));
      if (hit !== null || info.defs.has(qname)) return hit;
    }
    // `Base::m()` where Base inherits m: qualified lookup in Base's scope sees its ancestors' members.
    const type = path.length === 2 && this.spec.inherits === true ? this.dotted(info, owner, path.slice(0, 1)) : null;
    return type !== null && TYPES.has(type.kind) ? (this.walk.answer(type, path[1] as string, info.path, true) ?? null) : null;
  }

  /**
   * The steps of the ancestor walk ({@link AncestorWalk}) of `type`. Under `mixins` (Ruby, PHP), method resolution order: on
   * the instance side the prepended modules (last first, each with its own ancestors), the type's own member, the included
   * modules or used traits (last first), then the superclass; on the class side (a call on the class itself) the own member,
   * then the superclass, and an `extend`ed module stops the search (it answers with instance methods the side rule does not
   * pair); `implements` clauses (PHP interfaces) hold no bodies and are skipped; an unresolved ancestor stops the walk
   * unproven. Otherwise (Java, C#, C++): the own member, the one superclass, then the interfaces, or the several base classes
   * of a C++ class, as one group whose one distinct answer counts. A supertype declared outside the project (not resolved)
   * may declare any name, and an inherited member hides a static import, an enclosing type's member or (C++) a free
   * function, so it stops the walk unproven (an unresolved superclass in its place; unresolved interfaces, an interface's
   * among them, or a C++ class's other bases after the group: one default method the resolved ones give is the member, as
   * two unrelated inherited defaults would not compile).
   */
  plan(type: DefRef, instance: boolean): Step[] {
    const declared = this.supertypes.get(type.id) ?? [];
    const seq = (list: readonly { target: DefRef | null; known?: ReadonlySet<string> }[]): Step[] => list.map(({ target, known }) => (known !== undefined ? { known } : { seq: target, onUnresolved: 'stop' }));
    if (this.spec.mixins === true) {
      const inherits = seq(declared.filter((s) => s.relation === 'inherits'));
      if (!instance) return [{ own: true }, ...(declared.some((s) => s.mixin === 'extend') ? [{ seq: null, onUnresolved: 'stop' } as const] : []), ...inherits];
      return [...seq(declared.filter((s) => s.mixin === 'prepend').reverse()), { own: true }, ...seq(declared.filter((s) => s.mixin === 'include').reverse()), ...inherits];
    }
    // An interface's supertypes are all interfaces, an unresolved one too: none takes a superclass's place ahead of the group.
    const classes = type.kind === 'interface' ? [] : declared.filter((s) => s.relation === 'inherits' && s.target?.kind !== 'interface');
    const others = declared.filter((s) => !classes.includes(s) && s.target !== null).map((s) => s.target as DefRef);
    const steps: Step[] = [{ own: true }];
    if (classes.length === 1) steps.push(...seq(classes));
    else if (classes.length > 1) steps.push({ group: classes.filter((s) => s.target !== null).map((s) => s.target as DefRef) });
    if (others.length > 0) steps.push({ group: others });
    return [...steps, ...seq(declared.filter((s) => s.target === null && !(classes.length === 1 && s === classes[0])))];
  }

  /** The walk's own-member step: `name` declared by `type` (null when the type's file declares it more than once). */
  ownMember(type: DefRef, name: string, caller: string): Answer {
    const own = this.member(type, name, caller);
    if (own !== null) return own;
    return this.infos.get(type.file)?.defs.has(`${type.qname}.${name}`) === true ? null : undefined;
  }

  /**
   * The part of a walk's memo key the call adds: the calling file when it declares a member named `name` (of any type; only
   * then can it change a member lookup's answer), and the argument count (it picks among overloads).
   */
  callerKey(caller: string, name: string): string {
    let names = this.memberNames.get(caller);
    if (names === undefined) {
      names = new Set([...(this.infos.get(caller)?.defs.keys() ?? [])].map((qname) => qname.slice(qname.lastIndexOf('.') + 1).replace(/~\d+$/, '')));
      this.memberNames.set(caller, names);
    }
    // Argument types pick among overloads by where the call and the overload name their types.
    const typed = this.call === undefined ? '' : `\u0000${this.call.file}\u0000${this.call.owner}\u0000${this.call.types.join('\u0001')}`;
    return names.has(name) ? `${caller}\u0000${this.args ?? ''}${typed}` : `\u0000${this.args ?? ''}${typed}`;
  }

  /** The one `static` member `name` of the types opened by static on-demand imports; null when none or several declare it. */
  openStatic(info: FileInfo, name: string): DefRef | null {
    const declaring = info.openTypes.filter((t) => this.infos.get(t.file)?.defs.has(`${t.qname}.${name}`) === true);
    const only = declaring.length === 1 ? declaring[0] : undefined;
    const hit = only === undefined ? null : this.ref(only.file, `${only.qname}.${name}`);
    return hit !== null && this.infos.get(hit.file)?.defs.get(hit.qname)?.static === true ? hit : null;
  }

  /** `bare`: an unqualified call (`<bare>` in the link data), which may reach an enclosing type's method (`enclosingCalls`). */
  resolvePath(info: FileInfo, owner: string, path: readonly string[], bare = false): DefRef | null {
    const [head, ...rest] = path;
    if (head === undefined) return null;
    if (head === '<parent>') return rest.length === 1 && this.spec.mixins === true ? parentMember(this, info, owner, rest[0] as string) : null;
    if (head === '<super>') return superMember(this, info, owner, rest);
    if (head === '<qsuper>') return qualifiedSuper(this, info, owner, rest);
    if (head === '<self>') {
      // A call owned by a type (outside any method) names that type's members; a method's, its type's.
      const selfType = this.isScopeKind(info.defs.get(owner)?.kind) ? owner : parentQname(owner);
      const name = rest[0];
      if (name === undefined || rest.length !== 1) return null;
      if (selfType === '') return this.spec.plainSelfAtTop === true ? this.resolvePath(info, owner, [name]) : null;
      // `this(...)`: another constructor of the own class, never an inherited one.
      if (name === '<init>') return this.ref(info.path, `${selfType}.${selfType.slice(selfType.lastIndexOf('.') + 1)}`);
      const qname = `${selfType}.${name}`;
      const selfDef = this.ref(info.path, selfType);
      const own = selfDef !== null ? this.member(selfDef, name, info.path) : this.ref(info.path, qname) ?? this.unique(this.rules.scope(info.path).filter((f) => f !== info.path), qname);
      if (own === null && this.spec.inherits === true && selfDef !== null && !info.defs.has(qname)) {
        // Inherited: the nearest ancestor declaring the name; an unproven one (overloaded, two bases) gives none.
        const inherited = this.walk.answer(selfDef, name, info.path, true, true);
        if (inherited !== undefined) return inherited;
        const outer = bare && this.spec.enclosingCalls !== undefined ? this.enclosing(info, selfType, name) : null;
        if (outer !== null) return outer;
      }
      if (own === null && this.spec.selfThenName === true && !info.defs.has(qname)) return this.resolvePath(info, owner, [name]);
      if (this.spec.mixins === true && selfDef !== null) {
        // A singleton method or a type body calls on the class (Ruby): its ancestors are the superclasses only, not the
        // included modules. PHP's `self::`/`static::` and `$this->` reach both sides.
        const caller = info.defs.get(owner);
        const instance = this.spec.staticCalls === 'named' || (caller !== undefined && !this.isScopeKind(caller.kind) && caller.static !== true);
        return this.walk.answer(selfDef, name, info.path, instance) ?? null;
      }
      if (own !== null || this.spec.implicitSelf !== true || info.defs.has(qname)) return own;
      const imported = this.lookupName(info, owner, name);
      if (imported === null) return this.openStatic(info, name);
      return !('id' in imported) && imported.def !== undefined ? this.ref(imported.def.file, imported.def.qname) : null;
    }
    if (this.spec.dottedPaths === true) return this.dotted(info, owner, path);
    const found = this.lookupName(info, owner, head);
    if (found === null) return null;
    let target: DefRef | null;
    let index = 0;
    if ('id' in found) target = found;
    else if (found.def !== undefined) target = this.ref(found.def.file, found.def.qname);
    else {
      const name = rest[0];
      if (name === undefined || found.files === undefined) return null;
      target = this.unique(found.files, name);
      index = 1;
    }
    for (; target !== null && index < rest.length; index += 1) {
      if (!this.isScopeKind(target.kind)) return null;
      const name = rest[index] as string;
      const own = this.member(target, name, info.path);
      target = own === null && index === rest.length - 1 ? this.inheritedStatic(target, name, info.path) : own;
    }
    return target;
  }

  /**
   * A static method named through a subclass (Java `Sub.staticOfBase()`): when the named class declares no member `name`,
   * the nearest superclass that declares it, if that declaration is `static` and belongs to a class (static methods of an
   * interface are not inherited). Null otherwise, and always for a language without inherited members or `static` marks.
   */
  inheritedStatic(type: DefRef, name: string, caller: string): DefRef | null {
    if (this.spec.inherits !== true || !TYPES.has(type.kind) || type.kind === 'interface') return null;
    if (this.infos.get(type.file)?.defs.has(`${type.qname}.${name}`) === true) return null;
    const found = this.walk.answer(type, name, caller, true, true);
    if (found === null || found === undefined || this.infos.get(found.file)?.defs.get(found.qname)?.static !== true) return null;
    const declaring = this.ref(found.file, parentQname(found.qname));
    return declaring !== null && declaring.kind !== 'interface' ? found : null;
  }

  linkImports(info: FileInfo): void {
    info.opens.push(...(this.rules.implicitOpens?.(info.path) ?? []));
    for (const imp of info.data.imports) {
      stat(this.stats, 'imports_total');
      const target: ImportTarget | null = this.rules.resolve(info.path, imp);
      if (target === null) {
        stat(this.stats, 'imports_unresolved');
        const excluded = this.rules.excluded?.(info.path, imp) ?? null;
        if (excluded !== null) this.issues.push(excludedImportIssue(info.path, imp.line, info.moduleId, imp.spec, excluded));
        continue;
      }
      stat(this.stats, 'imports_resolved');
      for (const file of target.files) if (file !== info.path && this.infos.has(file)) this.addEdge(info.moduleId, 'imports', codeId(file), info.path, imp.line);
      for (const file of target.opens ?? []) if (!info.opens.includes(file)) info.opens.push(file);
      for (const type of target.openTypes ?? []) if (!info.openTypes.some((t) => t.file === type.file && t.qname === type.qname)) info.openTypes.push(type);
      for (const binding of target.bindings) {
        const entry: Binding = { files: binding.files, def: binding.def, scope: imp.scope ?? '' };
        info.bindings.set(binding.name, [...(info.bindings.get(binding.name) ?? []), entry]);
      }
    }
  }

  linkBases(info: FileInfo): void {
    for (const base of info.data.bases) {
      stat(this.stats, 'heritage_total');
      const owner = this.ref(info.path, base.owner);
      const target = owner === null ? null : this.resolvePath(info, parentQname(base.owner), base.path);
      const typed = target !== null && (TYPES.has(target.kind) || (this.spec.mixins === true && this.isScopeKind(target.kind)));
      // A supertype outside the project whose members are all known (java.lang's).
      const known = typed || owner === null ? undefined : this.spec.knownExternal?.(info.data.imports, base.path);
      if (owner !== null) this.supertypes.set(owner.id, [...(this.supertypes.get(owner.id) ?? []), { target: typed ? target : null, relation: base.relation, mixin: base.mixin, known }]);
      if (owner !== null && target !== null && typed && target.id !== owner.id) {
        stat(this.stats, 'heritage_resolved');
        // A C# base list does not say which base is an interface: the resolved kind does.
        const relation = target.kind === 'interface' && owner.kind !== 'interface' ? 'implements' : base.relation;
        this.addEdge(owner.id, relation, target.id, info.path, base.line);
      } else stat(this.stats, 'heritage_unresolved');
    }
  }

  /**
   * Under `staticCalls`: a call through a type's name reaches only its `static` members; under
   * `side`, a `<self>` call reaches members of the caller's own side (static from a static method
   * or a type body, else instance); a top-level function is reachable from both.
   */
  sideMatches(info: FileInfo, owner: string, path: readonly string[], target: DefRef): boolean {
    if (this.spec.staticCalls === undefined || !target.qname.includes('.')) return true;
    const targetStatic = this.infos.get(target.file)?.defs.get(target.qname)?.static === true;
    if (path[0] !== '<self>' && path[0] !== '<parent>' && path[0] !== '<super>') return targetStatic;
    if (this.spec.staticCalls === 'named') return true;
    const caller = info.defs.get(owner);
    const callerStatic = caller === undefined || this.isScopeKind(caller.kind) || caller.static === true;
    return callerStatic === targetStatic;
  }

  /** {@link enclosingMember} for an unqualified call `name` in type `selfType` of `info`, with the call's argument count. */
  enclosing(info: FileInfo, selfType: string, name: string): DefRef | null {
    return enclosingMember({ ref: (q) => this.ref(info.path, q), supertypes: (t) => this.supertypes.get(t.id) ?? [], answer: (t, m) => this.walk.answer(t, m, info.path, true), arity: (d) => this.infos.get(d.file)?.data.arity?.[d.qname] }, selfType, name, this.spec.enclosingCalls?.rootMembers ?? new Set(), this.args);
  }

  /** Ids of the types some project type names as a supertype, and the last names of every declared supertype (resolved or not); built on first use. */
  bases: { ids: Set<string>; names: Set<string> } | undefined = undefined;

  /** Whether a project type derives from `type`, or may (an unresolved supertype spelled as its name); for TypedHost.derived. */
  derived(type: DefRef): boolean {
    if (this.bases === undefined) {
      const bases = { ids: new Set<string>(), names: new Set<string>() };
      for (const info of this.infos.values()) for (const base of info.data.bases) bases.names.add(base.path[base.path.length - 1] ?? '');
      for (const declared of this.supertypes.values()) for (const { target } of declared) if (target !== null) bases.ids.add(target.id);
      this.bases = bases;
    }
    return this.bases.ids.has(type.id) || this.bases.names.has(type.qname.slice(type.qname.lastIndexOf('.') + 1));
  }

  /** Resolution of calls through proven locals (link-typed.ts). */
  readonly typedHost: TypedHost = typedHostOf(this);

  linkCalls(info: FileInfo): void {
    const isTest = this.spec.isTestPath(info.path);
    for (const call of info.data.calls) {
      stat(this.stats, 'calls_total');
      const sourceId = call.owner === '' ? info.moduleId : info.defs.get(call.owner)?.id;
      this.args = this.spec.overloads === true ? call.args : undefined;
      this.call = this.spec.overloads === true && call.types !== undefined ? { file: info.path, owner: call.owner, types: call.types } : undefined;
      const { bare, path } = unbare(call.path);
      const typed = path?.[0] === '<typed>' && call.recv !== undefined && path.length === 2 ? typedTarget(this.typedHost, info.path, call.owner, call.recv, path[1] as string) : undefined;
      const found = sourceId === undefined || path === null ? null : typed !== undefined ? typed : this.resolvePath(info, call.owner, path, bare);
      this.args = undefined;
      this.call = undefined;
      const reached = found !== null && path !== null && this.sideMatches(info, call.owner, path, found) ? found : null;
      const target = reached === null ? null : (this.protos.definitionOf(reached) ?? reached);
      if (sourceId === undefined || target === null || !CALLABLE.has(target.kind)) {
        stat(this.stats, 'calls_unresolved');
        if (sourceId !== undefined) this.unresolved[sourceId] = (this.unresolved[sourceId] ?? 0) + 1;
        continue;
      }
      stat(this.stats, 'calls_resolved');
      this.addEdge(sourceId, 'calls', target.id, info.path, call.line);
      if (isTest && target.file !== info.path && !this.spec.isTestPath(target.file)) {
        this.addEdge(codeId(target.file), 'tested_by', info.moduleId, info.path, call.line);
        this.addEdge(target.id, 'tested_by', info.moduleId, info.path, call.line);
      }
    }
  }

  /**
   * `tested_by` by the language's naming convention (spec `conventionTested`): a test file tests
   * the existing non-test source its name pairs with, module to module, even where its calls reach
   * that source only through the package's API (Go's `encode_test.go` calls `yaml.Marshal` in
   * yaml.go, which runs the encoder of encode.go). The edge's line is the test file's first, unless a
   * call already gave the edge (then the call's line stays).
   */
  linkConventionTests(info: FileInfo): void {
    // Strategy lexical links imports only (its `defs` are names, not definition nodes); a test file
    // without definition nodes holds no test to count.
    if (this.spec.conventionTested === undefined || !this.spec.isTestPath(info.path) || info.data.defs !== undefined || info.defs.size === 0) return;
    for (const tested of new Set(this.spec.conventionTested(info.path))) {
      if (tested === info.path || !this.infos.has(tested) || this.spec.isTestPath(tested)) continue;
      // A call already proved the edge: its line (the call) stays the evidence.
      if (this.edges.has(`${codeId(tested)}\u0000tested_by\u0000${info.moduleId}`)) continue;
      this.addEdge(codeId(tested), 'tested_by', info.moduleId, info.path, 1);
    }
  }

  run(): LinkResult {
    const paths = this.context.paths;
    for (const path of paths) this.linkImports(this.infos.get(path) as FileInfo);
    // Every file's supertypes before any call: a receiver call may reach an ancestor declared in another file.
    for (const path of paths) this.linkBases(this.infos.get(path) as FileInfo);
    for (const path of paths) {
      stat(this.stats, 'files_linked');
      this.linkCalls(this.infos.get(path) as FileInfo);
    }
    for (const path of paths) this.linkConventionTests(this.infos.get(path) as FileInfo);
    for (const edge of this.protos.edges()) this.addEdge(edge.source_id, 'implements', edge.target_id, edge.source_path, edge.line);
    const edges = [...this.edges].sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)).map(([, edge]) => edge);
    return { edges, issues: [...this.issues, ...(this.spec.issues?.(this.context) ?? [])], stats: this.stats, unresolved_calls: this.unresolved, api: this.spec.api?.(this.context) ?? {} };
  }
}

/**
 * Links the files of one language of the family (CodeAdapter.link). Edges: `imports`
 * module→module, `calls` function/method/module→function/method, `inherits`/`implements`
 * type→type, `tested_by` callee (and its module)→test module; unique per (source, relation,
 * target) with the smallest line. Stats: `imports_*`, `calls_*`, `heritage_*` (`_total`,
 * `_resolved`, `_unresolved`), `files_linked`, `files_without_link_data`. Never throws for
 * unknown or malformed `link_data`: such files are skipped.
 */
export function linkTree(spec: LanguageSpec, files: readonly LinkInput[], resolver: ModuleResolver): LinkResult {
  return new TreeLinker(spec, files, resolver).run();
}
