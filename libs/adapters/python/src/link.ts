/**
 * Cross-file linking of Python files (DESIGN.md section 3): `imports` module→module edges,
 * `calls` edges to functions, methods and classes, and `inherits` class→class edges, resolved
 * only through bindings Python itself would follow (local definitions, imports, re-exports,
 * wildcard imports, the receiver's class and its bases). A call that these rules cannot resolve
 * stays unresolved and is counted; nothing is matched by bare name elsewhere.
 */
import { codeId } from '@docforge/core';
import type { GraphEdge, LinkResult, ModuleResolver, ParsedSource, SourceIssue } from '@docforge/core';
import { readPythonLinkData } from './link-data.js';
import type { PythonImport, PythonLinkData } from './link-data.js';
import { pythonPublicApi } from './public-api.js';
import { excludedPythonImport } from './excluded-imports.js';

/** Python test files by the usual layout: a `test`/`tests` folder, `test_*.py` or `*_test.py`. */
function isPythonTestPath(path: string): boolean {
  const parts = path.split('/');
  const file = parts[parts.length - 1] ?? '';
  return /^test_.*\.py$|_test\.py$/.test(file) || parts.slice(0, -1).some((part) => part === 'test' || part === 'tests');
}

/** Re-export chains longer than this are not followed (guards cycles such as `a` ↔ `b`). */
const MAX_BINDING_DEPTH = 12;

/** A module, a regular package (`file` is its `__init__.py`, `dir` its folder) or a namespace package (`file` null). */
interface ModuleTarget {
  kind: 'module';
  file: string | null;
  dir: string | null;
}

/** A class, function or method node. */
interface DefTarget {
  kind: 'def';
  file: string;
  qname: string;
  id: string;
  nodeKind: string;
}

/** An instance of a project class, bound by a module-level `name = Cls(...)` (PythonLinkData.assigns). */
interface InstanceTarget {
  kind: 'instance';
  cls: DefTarget;
}

type Target = ModuleTarget | DefTarget | InstanceTarget;

/** One name an import statement binds in its scope. */
interface Binding {
  imp: PythonImport;
  /** For `from` imports, the imported name; null for plain `import`. */
  name: string | null;
}

interface FileInfo {
  path: string;
  moduleId: string;
  data: PythonLinkData;
  /** Qualified name → node of every class, function and method of the file. */
  defs: Map<string, { id: string; kind: string }>;
  /** Scope qualified name → bound name → binding. */
  bindings: Map<string, Map<string, Binding>>;
  /** Module-level `from X import *` statements. */
  wildcards: PythonImport[];
}

function dirname(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
}

function join(dir: string, parts: readonly string[]): string {
  return [...(dir === '' ? [] : [dir]), ...parts].join('/');
}

function parentQname(qname: string): string {
  const dot = qname.lastIndexOf('.');
  return dot < 0 ? '' : qname.slice(0, dot);
}

function fileInfo(file: Pick<ParsedSource, 'path' | 'nodes' | 'link_data'>, data: PythonLinkData): FileInfo {
  const moduleId = codeId(file.path);
  const prefix = `${moduleId}#`;
  const defs = new Map<string, { id: string; kind: string }>();
  for (const node of file.nodes) {
    if (node.id.startsWith(prefix)) defs.set(node.id.slice(prefix.length), { id: node.id, kind: node.kind });
  }
  // Strategy `lexical` has no definition nodes; its link data names the module-level definitions
  // instead, so `from pkg import name` prefers a definition over a same-named submodule as Python does.
  for (const def of data.defs ?? []) {
    if (!defs.has(def.name)) defs.set(def.name, { id: `${prefix}${def.name}`, kind: def.kind });
  }
  const bindings = new Map<string, Map<string, Binding>>();
  const wildcards: PythonImport[] = [];
  for (const imp of data.imports) {
    let scope = bindings.get(imp.scope);
    if (scope === undefined) {
      scope = new Map();
      bindings.set(imp.scope, scope);
    }
    if (imp.names === null) {
      scope.set(imp.alias ?? (imp.module.split('.')[0] as string), { imp, name: null });
    } else {
      for (const entry of imp.names) scope.set(entry.alias ?? entry.name, { imp, name: entry.name });
      if (imp.wildcard && imp.scope === '') wildcards.push(imp);
    }
  }
  return { path: file.path, moduleId, data, defs, bindings, wildcards };
}

class Linker {
  readonly infos = new Map<string, FileInfo>();
  readonly dirs = new Set<string>();
  readonly packageRoots: string[];
  readonly edges = new Map<string, GraphEdge>();
  readonly stats: Record<string, number> = {
    files_linked: 0,
    files_without_link_data: 0,
    imports_total: 0,
    imports_resolved: 0,
    imports_unresolved: 0,
    calls_total: 0,
    calls_resolved: 0,
    calls_unresolved: 0,
    inherits_total: 0,
    inherits_resolved: 0,
    inherits_unresolved: 0,
  };
  private readonly baseMemo = new Map<string, DefTarget[]>();
  /** Calls that gave no edge, by calling node id (every one counted, whatever the reason). */
  readonly unresolved: Record<string, number> = {};
  /** `unresolved_import` warnings: imports whose target an exclude glob leaves out (issue 30; excluded-imports.ts). */
  readonly issues: SourceIssue[] = [];

  constructor(files: readonly Pick<ParsedSource, 'path' | 'nodes' | 'link_data'>[], private readonly resolver: ModuleResolver) {
    for (const file of files) {
      const data = readPythonLinkData(file.link_data);
      if (data === null) {
        this.stats['files_without_link_data'] = (this.stats['files_without_link_data'] ?? 0) + 1;
        continue;
      }
      this.infos.set(file.path, fileInfo(file, data));
      for (let dir = dirname(file.path); dir !== ''; dir = dirname(dir)) {
        if (this.dirs.has(dir)) break;
        this.dirs.add(dir);
      }
    }
    this.dirs.add('');
    // Every folder holding a top-level regular package is a sys.path root (flat and src layouts alike).
    const roots = new Set<string>();
    for (const path of this.infos.keys()) {
      if (!path.endsWith('/__init__.py')) continue;
      const pkg = dirname(path);
      if (pkg === '') continue;
      const parent = dirname(pkg);
      if (!this.present(join(parent, ['__init__.py']))) roots.add(parent);
    }
    this.packageRoots = [...roots].sort();
  }

  present(path: string): boolean {
    return this.infos.has(path) && this.resolver.hasFile(path);
  }

  addEdge(sourceId: string, relation: string, targetId: string, sourcePath: string, line: number): void {
    const key = `${sourceId}\u0000${relation}\u0000${targetId}`;
    const existing = this.edges.get(key);
    if (existing === undefined) this.edges.set(key, { source_id: sourceId, relation, target_id: targetId, source_path: sourcePath, line });
    else if (line < existing.line) existing.line = line;
  }

  /** The regular module or package `parts` under `dir`, or null. */
  regularModule(dir: string, parts: readonly string[]): ModuleTarget | null {
    const base = join(dir, parts);
    if (this.present(`${base}.py`)) return { kind: 'module', file: `${base}.py`, dir: null };
    if (this.present(join(base, ['__init__.py']))) return { kind: 'module', file: join(base, ['__init__.py']), dir: base };
    return null;
  }

  namespaceModule(dir: string, parts: readonly string[]): ModuleTarget | null {
    const base = join(dir, parts);
    return base !== '' && this.dirs.has(base) ? { kind: 'module', file: null, dir: base } : null;
  }

  /** sys.path roots for an importing file: its own package root, its top-level folder, the project root, then every package root. */
  rootsFor(importer: string): string[] {
    let root = dirname(importer);
    while (root !== '' && this.present(join(root, ['__init__.py']))) root = dirname(root);
    const top = importer.includes('/') ? (importer.split('/')[0] as string) : '';
    return [...new Set([root, top, '', ...this.packageRoots])];
  }

  /** Python's search for an absolute module: a regular module on any root first, then a namespace folder. */
  absoluteModule(dotted: string, importer: string): ModuleTarget | null {
    const parts = dotted.split('.');
    if (parts.some((part) => part === '')) return null;
    const roots = this.rootsFor(importer);
    for (const root of roots) {
      const hit = this.regularModule(root, parts);
      if (hit !== null) return hit;
    }
    for (const root of roots) {
      const hit = this.namespaceModule(root, parts);
      if (hit !== null) return hit;
    }
    return null;
  }

  /** `from <dots><module> import ...` relative to the importing file's package; null above the project root. */
  relativeModule(level: number, module: string, importer: string): ModuleTarget | null {
    let base = dirname(importer);
    for (let i = 1; i < level; i += 1) {
      if (base === '') return null;
      base = dirname(base);
    }
    if (module === '') {
      const init = join(base, ['__init__.py']);
      if (this.present(init)) return { kind: 'module', file: init, dir: base };
      return { kind: 'module', file: null, dir: base };
    }
    const parts = module.split('.');
    return this.regularModule(base, parts) ?? this.namespaceModule(base, parts);
  }

  importBase(imp: PythonImport, importer: string): ModuleTarget | null {
    return imp.level > 0 ? this.relativeModule(imp.level, imp.module, importer) : this.absoluteModule(imp.module, importer);
  }

  /** `module.name`: a top-level binding of the module first, then a submodule (as `from M import name` does). */
  attribute(target: ModuleTarget, name: string, depth: number): Target | null {
    if (target.file !== null) {
      const found = this.lookupInModule(target.file, name, depth);
      if (found !== null) return found;
    }
    if (target.dir !== null) return this.regularModule(target.dir, [name]) ?? this.namespaceModule(target.dir, [name]);
    return null;
  }

  lookupInModule(file: string, name: string, depth: number): Target | null {
    if (depth > MAX_BINDING_DEPTH) return null;
    const info = this.infos.get(file);
    if (info === undefined) return null;
    const def = info.defs.get(name);
    if (def !== undefined) return { kind: 'def', file, qname: name, id: def.id, nodeKind: def.kind };
    const binding = info.bindings.get('')?.get(name);
    if (binding !== undefined) return this.resolveBinding(file, binding, depth + 1);
    return this.assigned(info, name, depth + 1) ?? this.fromWildcards(info, name, depth + 1);
  }

  /**
   * A module-level `name = a.b` (what the path names) or `name = Cls(...)` (an instance of the project class Cls); null when
   * the file assigns no such name, the path is unresolved, or the call's callee is no class of the project.
   */
  assigned(info: FileInfo, name: string, depth: number): Target | null {
    const assign = info.data.assigns?.[name];
    if (assign === undefined || depth > MAX_BINDING_DEPTH) return null;
    const target = this.resolvePath(info, '', assign.path, null, depth + 1);
    if (!assign.call) return target;
    return target?.kind === 'def' && target.nodeKind === 'class' ? { kind: 'instance', cls: target } : null;
  }

  fromWildcards(info: FileInfo, name: string, depth: number): Target | null {
    for (const imp of info.wildcards) {
      const base = this.importBase(imp, info.path);
      if (base?.file == null) continue;
      const source = this.infos.get(base.file);
      if (source === undefined) continue;
      const visible = source.data.all !== null ? source.data.all.includes(name) : !name.startsWith('_');
      if (!visible) continue;
      const found = this.lookupInModule(base.file, name, depth);
      if (found !== null) return found;
    }
    return null;
  }

  resolveBinding(file: string, binding: Binding, depth: number): Target | null {
    if (depth > MAX_BINDING_DEPTH) return null;
    const { imp } = binding;
    if (binding.name === null) {
      // `import a.b` binds `a`; `import a.b as m` binds the module a.b.
      return this.absoluteModule(imp.alias !== null ? imp.module : (imp.module.split('.')[0] as string), file);
    }
    const base = this.importBase(imp, file);
    return base === null ? null : this.attribute(base, binding.name, depth);
  }

  /** Scopes whose bindings a name in `owner` sees: the owner, enclosing functions (class bodies skipped), the module. */
  scopeChain(info: FileInfo, owner: string): string[] {
    const chain: string[] = [];
    let qname = owner;
    let first = true;
    while (qname !== '') {
      if (first || info.defs.get(qname)?.kind !== 'class') chain.push(qname);
      first = false;
      qname = parentQname(qname);
    }
    chain.push('');
    return chain;
  }

  resolveName(info: FileInfo, owner: string, name: string, depth = 0): Target | null {
    for (const scope of this.scopeChain(info, owner)) {
      const qname = scope === '' ? name : `${scope}.${name}`;
      const def = info.defs.get(qname);
      if (def !== undefined) return { kind: 'def', file: info.path, qname, id: def.id, nodeKind: def.kind };
      const binding = info.bindings.get(scope)?.get(name);
      if (binding !== undefined) return this.resolveBinding(info.path, binding, depth);
    }
    return this.assigned(info, name, depth) ?? this.fromWildcards(info, name, depth);
  }

  classTarget(info: FileInfo, qname: string): DefTarget | null {
    const def = info.defs.get(qname);
    return def?.kind === 'class' ? { kind: 'def', file: info.path, qname, id: def.id, nodeKind: def.kind } : null;
  }

  /** Resolved base classes of a class, in declaration order. */
  basesOf(cls: DefTarget): DefTarget[] {
    const memo = this.baseMemo.get(cls.id);
    if (memo !== undefined) return memo;
    this.baseMemo.set(cls.id, []);
    const info = this.infos.get(cls.file);
    const out: DefTarget[] = [];
    for (const base of info?.data.bases ?? []) {
      if (info === undefined || base.cls !== cls.qname || base.path === null) continue;
      const target = this.resolvePath(info, parentQname(base.cls), base.path, null);
      if (target?.kind === 'def' && target.nodeKind === 'class' && target.id !== cls.id) out.push(target);
    }
    this.baseMemo.set(cls.id, out);
    return out;
  }

  /** A member of a class or, depth-first left-to-right, of its resolvable bases. */
  member(cls: DefTarget, name: string, seen: Set<string> = new Set()): DefTarget | null {
    if (seen.has(cls.id)) return null;
    seen.add(cls.id);
    const info = this.infos.get(cls.file);
    const qname = `${cls.qname}.${name}`;
    const own = info?.defs.get(qname);
    if (own !== undefined) return { kind: 'def', file: cls.file, qname, id: own.id, nodeKind: own.kind };
    for (const base of this.basesOf(cls)) {
      const found = this.member(base, name, seen);
      if (found !== null) return found;
    }
    return null;
  }

  resolvePath(info: FileInfo, owner: string, path: readonly string[], cls: string | null, depth = 0): Target | null {
    const [head, ...rest] = path;
    if (head === undefined) return null;
    if (head === '<self>' || head === '<super>') {
      const own = cls === null ? null : this.classTarget(info, cls);
      const name = rest[0];
      if (own === null || name === undefined || rest.length !== 1) return null;
      if (head === '<self>') return this.member(own, name);
      for (const base of this.basesOf(own)) {
        const found = this.member(base, name);
        if (found !== null) return found;
      }
      return null;
    }
    let target = this.resolveName(info, owner, head, depth);
    for (const part of rest) {
      if (target === null) return null;
      if (target.kind === 'module') target = this.attribute(target, part, depth);
      else if (target.kind === 'instance') target = this.member(target.cls, part);
      else if (target.nodeKind === 'class') target = this.member(target, part);
      else return null;
    }
    return target;
  }

  /** Records the warning of an import (of `name` from it) whose file an exclude glob leaves out, if so. */
  excluded(info: FileInfo, imp: PythonImport, name: string | null): void {
    const issue = excludedPythonImport(this, this.resolver, info.path, info.moduleId, imp, name);
    if (issue !== null && !this.issues.some((i) => i.line === issue.line && i.message === issue.message && i.path === issue.path)) this.issues.push(issue);
  }

  linkImports(info: FileInfo): void {
    for (const imp of info.data.imports) {
      this.stats['imports_total'] = (this.stats['imports_total'] ?? 0) + 1;
      const targets: string[] = [];
      if (imp.names === null) {
        const module = this.absoluteModule(imp.module, info.path);
        if (module?.file != null) targets.push(module.file);
      } else {
        const base = this.importBase(imp, info.path);
        if (base !== null) {
          if (imp.wildcard && base.file !== null) targets.push(base.file);
          for (const entry of imp.names) {
            const found = this.attribute(base, entry.name, 0);
            if (found?.kind === 'module' && found.file !== null) targets.push(found.file);
            else if (base.file !== null) targets.push(base.file);
            if (found === null) this.excluded(info, imp, entry.name);
          }
        }
      }
      if (targets.length === 0) this.excluded(info, imp, null);
      const external = targets.filter((target) => target !== info.path);
      for (const target of external) this.addEdge(info.moduleId, 'imports', codeId(target), info.path, imp.line);
      const key = targets.length > 0 ? 'imports_resolved' : 'imports_unresolved';
      this.stats[key] = (this.stats[key] ?? 0) + 1;
    }
  }

  linkCalls(info: FileInfo): void {
    for (const call of info.data.calls) {
      this.stats['calls_total'] = (this.stats['calls_total'] ?? 0) + 1;
      const sourceId = call.owner === '' ? info.moduleId : info.defs.get(call.owner)?.id;
      const target = call.path === null || sourceId === undefined ? null : this.resolvePath(info, call.owner, call.path, call.cls);
      if (target?.kind === 'def' && sourceId !== undefined) {
        this.stats['calls_resolved'] = (this.stats['calls_resolved'] ?? 0) + 1;
        this.addEdge(sourceId, 'calls', target.id, info.path, call.line);
      } else {
        this.stats['calls_unresolved'] = (this.stats['calls_unresolved'] ?? 0) + 1;
        if (sourceId !== undefined) this.unresolved[sourceId] = (this.unresolved[sourceId] ?? 0) + 1;
      }
    }
  }

  linkBases(info: FileInfo): void {
    for (const base of info.data.bases) {
      this.stats['inherits_total'] = (this.stats['inherits_total'] ?? 0) + 1;
      const cls = this.classTarget(info, base.cls);
      const target = cls === null || base.path === null ? null : this.resolvePath(info, parentQname(base.cls), base.path, null);
      if (cls !== null && target?.kind === 'def' && target.nodeKind === 'class' && target.id !== cls.id) {
        this.stats['inherits_resolved'] = (this.stats['inherits_resolved'] ?? 0) + 1;
        this.addEdge(cls.id, 'inherits', target.id, info.path, base.line);
      } else {
        this.stats['inherits_unresolved'] = (this.stats['inherits_unresolved'] ?? 0) + 1;
      }
    }
  }

  run(): LinkResult {
    const paths = [...this.infos.keys()].sort();
    for (const path of paths) {
      const info = this.infos.get(path) as FileInfo;
      this.stats['files_linked'] = (this.stats['files_linked'] ?? 0) + 1;
      this.linkImports(info);
      this.linkCalls(info);
      this.linkBases(info);
    }
    const edges = [...this.edges.values()].sort((a, b) =>
      a.source_id < b.source_id ? -1 : a.source_id > b.source_id ? 1
        : a.relation < b.relation ? -1 : a.relation > b.relation ? 1
          : a.target_id < b.target_id ? -1 : a.target_id > b.target_id ? 1 : 0);
    const api = pythonPublicApi({
      files: () => [...this.infos.values()].map((info) => ({
        path: info.path, defs: info.defs, bound: info.bindings.get('')?.keys() ?? [], all: info.data.all, isTest: isPythonTestPath(info.path),
      })),
      present: (path) => this.present(path),
      lookup: (file, name) => {
        const target = this.lookupInModule(file, name, 0);
        return target?.kind === 'def' ? target : null;
      },
    });
    return { edges, issues: this.issues, stats: this.stats, unresolved_calls: this.unresolved, api };
  }
}

/**
 * Links the Python files of one build (CodeAdapter.link).
 * Import resolution: relative imports from the importing file's package folder; absolute `a.b`
 * as `a/b.py` or `a/b/__init__.py` (or a namespace folder `a/b`) under, in order, the importing
 * file's package root, its top-level folder, the project root and every folder holding a
 * top-level package. Only files in `files` that `resolver.hasFile` confirms are targets.
 * Edges: `imports` module→module, `calls` function/method/class/module→function/method/class,
 * `inherits` class→class; unique per `(source, relation, target)` with the smallest line.
 * Stats: `imports_*`, `calls_*`, `inherits_*` (`_total`, `_resolved`, `_unresolved`),
 * `files_linked`, `files_without_link_data`. `unresolved_calls`: per calling node, every call that
 * gave no edge (a callee that is no dotted name, a local, an unresolved name or a non-definition). Issues: none (unresolved imports are usually
 * third-party packages). Never throws for unknown or malformed `link_data`: such files are skipped.
 */
export function linkPython(files: readonly Pick<ParsedSource, 'path' | 'nodes' | 'link_data'>[], resolver: ModuleResolver): LinkResult {
  return new Linker(files, resolver).run();
}
