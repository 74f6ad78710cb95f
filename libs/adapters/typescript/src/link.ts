import { appendAll, mergeLinkOutputs, type FileLinkOutput, type GraphEdge, type LinkInput, type LinkResult, type ModuleResolver, type PartialLinkPlan, type PartialLinkResult, type SourceIssue } from '@docforge/core';
import {
  buildModuleInfo, isTsLinkData, MAX_DEPTH, ReceiverResolver,
  type ModuleInfo, type NameResolution, type Target, type TsBinding, type TsCallSite, type TsDeclRecord, type TsExportRecord, type TsLinkData,
} from '@docforge/ts-link-model';
import { SpecifierResolver } from './resolve.js';
import { excludedNote } from './excluded-note.js';
import { affectedFiles, quietChanges } from './link-plan.js';
import { packageEntrypoints } from './entrypoints.js';
import { publicApi, type ApiResolution } from './public-api.js';
import { memoView, starExport, type StarMemo } from '@docforge/ts-paths';

/** One file as handed to {@link linkTypeScript} (core `LinkInput`: its link data may be parsed on first read). */
export type TsLinkInput = LinkInput;

const CODE_EXTENSIONS = /\.(?:[cm]?[jt]sx?)$/;

/**
 * Links the files extracted by this adapter: `imports` edges (module → module, one per pair,
 * line of the first reference), `calls` edges (calling function/method/module → callee
 * function/method; only through local scopes, imported bindings, `this`/`super` with the
 * resolvable superclass chain, CommonJS exports and `.call`/`.apply`; never by name guessing),
 * `inherits` / `implements` edges, and `tested_by` edges (callee module and callee → the test
 * module calling it). Unresolvable references are counted in `stats`; a relative import that
 * resolves to no project file is an `unresolved_import` warning. `capabilities` adds `entrypoint`
 * to the modules a package.json names as `main` or `bin`. Pure and deterministic.
 */
export function linkTypeScript(files: readonly TsLinkInput[], resolver: ModuleResolver): LinkResult {
  return new Linker(files, resolver).run();
}

/**
 * The incremental form of {@link linkTypeScript} (issue 14, `CodeAdapter.linkFiles`): links the
 * files of `plan.changed`, the removed files' and changed files' importers, and every file that
 * reaches one of them through imports, re-exports or bindings (in the previous import graph or the
 * current one), and returns each linked file's own output. A file's output depends only on the
 * modules its specifiers reach, so the other files' previous outputs still hold. A changed file
 * whose link data equals its `plan.previousLinkData` except in `calls` (see `importerSurface`) is
 * linked alone: its importers read nothing that changed. When the set of
 * directories holding files changed (package.json lookup by directory), or `plan` is null, every
 * file is linked.
 */
export function linkTypeScriptFiles(files: readonly TsLinkInput[], resolver: ModuleResolver, plan: PartialLinkPlan | null): PartialLinkResult {
  return new Linker(files, resolver).runFiles(plan);
}

/** One file's output while it is being linked. */
interface Bucket {
  edges: Map<string, GraphEdge>;
  issues: SourceIssue[];
  unresolved: Record<string, number>;
}

class Linker implements NameResolution {
  /** The files with link data of this adapter, by path; each file's module is built on first use ({@link module}). */
  private readonly inputs = new Map<string, TsLinkInput>();
  /** Built modules (null: the file's link data is not this adapter's). */
  private readonly built = new Map<string, ModuleInfo | null>();
  /** The paths of {@link inputs}, in input order. */
  private readonly paths: string[] = [];
  private readonly specifiers: SpecifierResolver;
  private bucket: Bucket = { edges: new Map(), issues: [], unresolved: {} };
  /** Whether a result was cut by a cycle or the depth limit (then it may depend on the linking order). */
  private sensitive = false;
  private readonly exportPending = new Set<string>();
  private readonly superPending = new Set<string>();
  private readonly stats: Record<string, number> = {
    files: 0,
    imports_total: 0,
    imports_resolved: 0,
    imports_external: 0,
    imports_unresolved: 0,
    calls_total: 0,
    calls_resolved: 0,
    calls_unresolved: 0,
    heritage_total: 0,
    heritage_resolved: 0,
  };
  private readonly exportMemo = new Map<string, Target | null>();
  /** Keys of {@link exportMemo} (module path, name) whose whole star closure was walked and exports no such name. */
  private readonly exportNone = new Set<string>();
  /** How many resolutions were cut by a cycle or the depth limit (see {@link StarMemo.cuts}). */
  private cutCount = 0;
  /** Per module path, the modules its `export *` records name, in order. */
  private readonly stars = new Map<string, ModuleInfo[]>();
  private readonly starMemo: StarMemo<ModuleInfo, Target> = memoView(this.exportMemo, this.exportPending, this.exportNone, () => this.cutCount);
  private readonly superMemo = new Map<string, Target | null>();
  private readonly receivers = new ReceiverResolver(this);

  /**
   * Reads only what linking needs: a file's link data is read (and, for a warmed build worker,
   * parsed) when the file is linked or a linked file's specifier reaches it. A file whose input
   * says `link_data_present` counts as a module without being read; one whose link data then turns
   * out not to be this adapter's is no module (see {@link module}).
   */
  constructor(files: readonly TsLinkInput[], private readonly resolver: ModuleResolver) {
    for (const file of files) {
      if (file.link_data_present === false) continue;
      if (file.link_data_present === undefined && !isTsLinkData(file.link_data)) continue;
      if (!this.inputs.has(file.path)) this.paths.push(file.path);
      this.inputs.set(file.path, file);
    }
    this.specifiers = new SpecifierResolver(resolver, this.paths);
  }

  /** The module of the file at `path`, built on first use; undefined when there is none. */
  private module(path: string): ModuleInfo | undefined {
    let mod = this.built.get(path);
    if (mod === undefined) {
      const input = this.inputs.get(path);
      if (input === undefined) return undefined;
      const data = input.link_data;
      mod = isTsLinkData(data) ? buildModuleInfo(path, data) : null;
      this.built.set(path, mod);
    }
    return mod ?? undefined;
  }

  run(): LinkResult {
    const { files, capabilities, api, api_issues: apiIssues } = this.runFiles(null);
    const { edges, issues, unresolved } = mergeLinkOutputs(files.values());
    appendAll(issues, apiIssues ?? []);
    for (const edge of edges) {
      const key = `edges_${edge.relation}`;
      this.stats[key] = (this.stats[key] ?? 0) + 1;
    }
    this.stats['package_entrypoints'] = Object.keys(capabilities).length;
    return { edges, issues, stats: this.stats, capabilities, unresolved_calls: unresolved, api: api ?? {} };
  }

  /** Links the files `plan` can affect (all when null), one file at a time in path order; see {@link linkTypeScriptFiles}. */
  runFiles(plan: PartialLinkPlan | null): PartialLinkResult {
    const paths = [...this.paths].sort();
    this.stats['files'] = paths.length;
    const quiet = plan === null ? new Set<string>() : quietChanges(plan, (path) => this.module(path)?.data ?? null);
    const affected = plan === null ? null : affectedFiles(plan, paths, (path) => {
      const mod = this.module(path);
      return mod === undefined ? [] : this.depsOf(mod);
    }, quiet);
    const files = new Map<string, FileLinkOutput>();
    for (const path of paths) {
      if (affected !== null && !affected.has(path)) continue;
      const mod = this.module(path);
      if (mod === undefined) continue;
      this.bucket = { edges: new Map(), issues: [], unresolved: {} };
      this.linkImports(mod);
      this.linkHeritage(mod);
      this.linkCalls(mod);
      files.set(path, { edges: [...this.bucket.edges.values()], issues: this.bucket.issues, unresolved_calls: this.bucket.unresolved, deps: this.depsOf(mod) });
    }
    const capabilities = packageEntrypoints(this.paths, this.resolver, (from, specifier) => this.specifiers.resolve(from, specifier), (path) => this.module(path)?.id ?? null);
    const { api, issues } = publicApi(this.apiResolution(), this.specifiers.packagesWithSubpaths());
    return { files, capabilities, api, api_issues: [...this.specifiers.packageIssues(), ...issues], reusable: !this.sensitive };
  }

  /** What the public API table (public-api.ts) reads of this linker. */
  private apiResolution(): ApiResolution {
    return {
      entryFiles: (specifier) => this.specifiers.entryFiles(specifier),
      moduleAt: (path) => this.moduleAt(path),
      exportOf: (mod, name) => this.resolveExport(mod, name, 0),
      starTargets: (mod) => this.starTargets(mod),
      ownExport: (mod, name) => this.ownExport(mod, name, 0),
      returnedMethods: (callee) => this.receivers.returnedMethods(callee),
    };
  }

  /** Project files the module's import, re-export and binding specifiers resolve to (sorted, unique). */
  private depsOf(mod: ModuleInfo): string[] {
    const deps = new Set<string>();
    const specifiers: string[] = [];
    for (const record of mod.data.imports) specifiers.push(record.specifier);
    for (const binding of mod.data.bindings) specifiers.push(binding.specifier);
    for (const record of mod.data.exports) if (record.specifier !== null) specifiers.push(record.specifier);
    for (const specifier of specifiers) {
      const resolution = this.specifiers.resolve(mod.path, specifier);
      if (resolution.kind === 'file') deps.add(resolution.path);
    }
    return [...deps].sort();
  }

  orderSensitive(): void {
    this.cut();
  }

  private addEdge(sourceId: string, relation: string, targetId: string, sourcePath: string, line: number): void {
    if (sourceId === targetId) return;
    const key = `${sourceId}\u0000${relation}\u0000${targetId}`;
    if (!this.bucket.edges.has(key)) this.bucket.edges.set(key, { source_id: sourceId, relation, target_id: targetId, source_path: sourcePath, line });
  }

  moduleAt(path: string): ModuleInfo | null {
    return this.module(path) ?? null;
  }

  /** The module a specifier of `mod` names, or null (external, unresolved or not extracted). */
  moduleFor(mod: ModuleInfo, specifier: string): ModuleInfo | null {
    const resolution = this.specifiers.resolve(mod.path, specifier);
    return resolution.kind === 'file' ? this.module(resolution.path) ?? null : null;
  }

  private linkImports(mod: ModuleInfo): void {
    for (const record of mod.data.imports) {
      this.stats['imports_total']! += 1;
      const resolution = this.specifiers.resolve(mod.path, record.specifier);
      const target = resolution.kind === 'file' ? this.module(resolution.path) : undefined;
      if (target !== undefined) {
        this.stats['imports_resolved']! += 1;
        this.addEdge(mod.id, 'imports', target.id, mod.path, record.line);
      } else if (resolution.kind === 'external' || (!isCodeSpecifier(record.specifier) && !(resolution.kind === 'unresolved' && resolution.alias !== undefined))) {
        this.stats['imports_external']! += 1;
      } else {
        this.stats['imports_unresolved']! += 1;
        this.bucket.issues.push({
          severity: 'warning',
          code: 'unresolved_import',
          message: resolution.kind === 'unresolved' && resolution.alias !== undefined
            ? `Cannot resolve module '${record.specifier}' to a project file (alias ${resolution.alias}).`
            : `Cannot resolve module '${record.specifier}' to a project file${excludedNote(this.resolver, mod.path, record.specifier)}.`,
          path: mod.path,
          line: record.line,
          node_id: mod.id,
        });
      }
    }
  }

  private linkHeritage(mod: ModuleInfo): void {
    for (const record of mod.data.heritage) {
      this.stats['heritage_total']! += 1;
      const decl = mod.decls.get(record.id);
      const target = decl ? this.resolveDotted(mod, decl.parent, record.name) : null;
      if (target?.kind !== 'decl') continue;
      const targetKind = target.decl.kind;
      const ok = record.relation === 'inherits'
        ? (targetKind === 'class' || targetKind === 'interface')
        : (targetKind === 'interface' || targetKind === 'class');
      if (!ok) continue;
      this.stats['heritage_resolved']! += 1;
      this.addEdge(record.id, record.relation, target.decl.id, mod.path, record.line);
    }
  }

  private linkCalls(mod: ModuleInfo): void {
    for (const call of mod.data.calls) {
      this.stats['calls_total']! += 1;
      const callee = this.resolveCall(mod, call);
      if (callee === null) {
        this.stats['calls_unresolved']! += 1;
        this.bucket.unresolved[call.owner] = (this.bucket.unresolved[call.owner] ?? 0) + 1;
        continue;
      }
      this.stats['calls_resolved']! += 1;
      this.addEdge(call.owner, 'calls', callee.decl.id, mod.path, call.line);
      if (mod.data.is_test && callee.mod !== mod && !callee.mod.data.is_test) {
        this.addEdge(callee.mod.id, 'tested_by', mod.id, mod.path, call.line);
        this.addEdge(callee.decl.id, 'tested_by', mod.id, mod.path, call.line);
      }
    }
  }

  // ------------------------------------------------------------------ resolution

  private resolveCall(mod: ModuleInfo, call: TsCallSite): { mod: ModuleInfo; decl: TsDeclRecord } | null {
    const ownerDecl = mod.decls.get(call.owner) ?? null;
    let target: Target | null = null;
    switch (call.shape) {
      case 'id':
        target = this.resolveName(mod, ownerDecl?.id ?? null, call.name);
        break;
      case 'member': {
        const viaLocal = this.receivers.resolveMember(mod, call);
        if (viaLocal !== undefined) target = viaLocal;
        else target = call.object === null ? null : this.resolveDotted(mod, ownerDecl?.id ?? null, `${call.object}.${call.name}`);
        break;
      }
      case 'this':
        target = this.receivers.resolveThis(mod, call);
        break;
      case 'super': {
        const cls = this.enclosingClass(mod, ownerDecl);
        const base = cls ? this.superclass(cls) : null;
        target = base ? this.findMember(base, call.name) : null;
        break;
      }
      case 'new': {
        const cls = this.resolveDotted(mod, ownerDecl?.id ?? null, call.object ? `${call.object}.${call.name}` : call.name);
        if (cls?.kind === 'decl' && cls.decl.kind === 'class') target = this.findMember(cls, 'constructor');
        else target = cls;
        break;
      }
      default:
        return null;
    }
    if (target?.kind === 'decl' && (target.decl.kind === 'function' || target.decl.kind === 'method')) {
      return { mod: target.mod, decl: target.decl };
    }
    return null;
  }

  /** Resolves a plain identifier from a scope (a decl id, or null for module level). */
  private resolveName(mod: ModuleInfo, scopeId: string | null, name: string): Target | null {
    let current: string | null = scopeId;
    while (current !== null) {
      const decl = mod.decls.get(current);
      if (decl === undefined) break;
      if (decl.kind !== 'class' && decl.kind !== 'interface') {
        const child = mod.children.get(current)?.get(name);
        if (child !== undefined && child.kind !== 'method') return { kind: 'decl', mod, decl: child };
        if (mod.shadows.get(current)?.has(name)) return null;
      }
      current = decl.parent;
    }
    return this.resolveLocal(mod, name, 0);
  }

  /** Resolves `a.b.c` from a scope: the first segment as a name, then members. */
  resolveDotted(mod: ModuleInfo, scopeId: string | null, dotted: string): Target | null {
    const parts = dotted.split('.');
    let target: Target | null;
    let index = 1;
    if (parts[0] === 'module' && parts[1] === 'exports') {
      target = { kind: 'module', mod };
      index = 2;
    } else if (parts[0] === 'exports' && !mod.bindings.has('exports')) {
      target = { kind: 'module', mod };
    } else {
      target = this.resolveName(mod, scopeId, parts[0]!);
    }
    for (; index < parts.length && target !== null; index += 1) {
      const part = parts[index]!;
      if (part === 'prototype') continue;
      target = this.member(target, part);
    }
    return target;
  }

  private member(target: Target, name: string): Target | null {
    if (target.kind === 'module') return this.resolveExport(target.mod, name, 0);
    const child = target.mod.children.get(target.decl.id)?.get(name);
    if (child !== undefined) return { kind: 'decl', mod: target.mod, decl: child };
    const whole = this.resolveExport(target.mod, '=', 0);
    if (whole?.kind === 'decl' && whole.decl.id === target.decl.id) return this.resolveExport(target.mod, name, 0);
    return null;
  }

  /** A module-level name: declaration first, then imported binding. */
  private resolveLocal(mod: ModuleInfo, name: string, depth: number): Target | null {
    const decl = mod.children.get('')?.get(name);
    if (decl !== undefined) return { kind: 'decl', mod, decl };
    const binding = mod.bindings.get(name);
    if (binding !== undefined) return this.resolveBinding(mod, binding, depth + 1);
    return null;
  }

  private resolveBinding(mod: ModuleInfo, binding: TsBinding, depth: number): Target | null {
    const target = this.moduleFor(mod, binding.specifier);
    if (target === null) return null;
    return this.importFrom(target, binding.imported, depth);
  }

  /** What importing `imported` (`*`, `=`, `default` or a name) from a module yields. */
  private importFrom(target: ModuleInfo, imported: string, depth: number): Target | null {
    if (imported === '*') return { kind: 'module', mod: target };
    if (imported === '=' || imported === 'default') return this.resolveExport(target, imported, depth + 1) ?? { kind: 'module', mod: target };
    return this.resolveExport(target, imported, depth + 1);
  }

  /**
   * An export of a module by name (`default` and `=` stand in for each other; `*` re-exports
   * followed by one star walk, star-exports.ts). A result cut by a cycle or the depth limit is not
   * remembered when it is null: a later resolution from elsewhere walks again rather than read it.
   */
  resolveExport(mod: ModuleInfo, name: string, depth: number): Target | null {
    if (depth > MAX_DEPTH) {
      this.cut();
      return null;
    }
    const key = `${mod.path}\u0000${name}`;
    if (this.exportNone.has(key)) return null;
    if (this.exportMemo.has(key)) {
      if (this.exportPending.has(key)) this.cut();
      return this.exportMemo.get(key)!;
    }
    const cutsBefore = this.cutCount;
    this.exportMemo.set(key, null);
    this.exportPending.add(key);
    let result = this.exportByRecords(mod, mod.exports.get(name), depth);
    if (result === null && name === 'default') result = this.exportByRecords(mod, mod.exports.get('='), depth);
    if (result === null && name === '=') result = this.exportByRecords(mod, mod.exports.get('default'), depth);
    if (result === null && name !== 'default' && name !== '=') {
      result = starExport({ starTargets: (m) => this.starTargets(m), ownExport: (m, n) => this.ownExport(m, n, depth + 1) }, this.starMemo, mod, name);
    }
    this.exportPending.delete(key);
    if (result === null && this.cutCount !== cutsBefore) this.exportMemo.delete(key);
    else this.exportMemo.set(key, result);
    return result;
  }

  /** Records a resolution cut by a cycle or the depth limit (then results may depend on the linking order). */
  private cut(): void {
    this.sensitive = true;
    this.cutCount += 1;
  }

  /** The modules the `export *` records of `mod` name, in record order (computed once per module). */
  starTargets(mod: ModuleInfo): readonly ModuleInfo[] {
    let targets = this.stars.get(mod.path);
    if (targets === undefined) {
      targets = [];
      for (const star of mod.stars) {
        const target = star.specifier === null ? null : this.moduleFor(mod, star.specifier);
        if (target !== null) targets.push(target);
      }
      this.stars.set(mod.path, targets);
    }
    return targets;
  }

  /** `name` as the module's own export records give it (no `export *` followed), or null. */
  ownExport(mod: ModuleInfo, name: string, depth: number): Target | null {
    return this.exportByRecords(mod, mod.exports.get(name), depth);
  }

  private exportByRecords(mod: ModuleInfo, records: readonly TsExportRecord[] | undefined, depth: number): Target | null {
    for (const record of records ?? []) {
      let result: Target | null = null;
      if (record.local !== null) {
        result = this.resolveLocal(mod, record.local, depth + 1);
      } else if (record.specifier !== null) {
        const target = this.moduleFor(mod, record.specifier);
        if (target !== null) result = this.importFrom(target, record.imported ?? '*', depth);
      }
      if (result !== null) return result;
    }
    return null;
  }

  /** The class (or constructor function) whose `this` a call in `owner` refers to. */
  private enclosingClass(mod: ModuleInfo, owner: TsDeclRecord | null): Target | null {
    let current = owner;
    while (current !== null) {
      if (current.kind === 'class' || mod.classLike.has(current.id)) return { kind: 'decl', mod, decl: current };
      if (current.kind === 'method') {
        const parent = current.parent === null ? undefined : mod.decls.get(current.parent);
        return parent ? { kind: 'decl', mod, decl: parent } : null;
      }
      // A non-arrow function has its own `this` (and no `super`).
      if (current.kind === 'function' && current.arrow !== true) return null;
      current = current.parent === null ? null : mod.decls.get(current.parent) ?? null;
    }
    return null;
  }

  superclass(cls: Target): Target | null {
    if (cls.kind !== 'decl') return null;
    const key = cls.decl.id;
    if (this.superMemo.has(key)) {
      if (this.superPending.has(key)) this.sensitive = true;
      return this.superMemo.get(key)!;
    }
    this.superMemo.set(key, null);
    this.superPending.add(key);
    let result: Target | null = null;
    for (const record of cls.mod.data.heritage) {
      if (record.id !== key || record.relation !== 'inherits') continue;
      const target = this.resolveDotted(cls.mod, cls.decl.parent, record.name);
      if (target?.kind === 'decl' && target.decl.kind === 'class') {
        result = target;
        break;
      }
    }
    this.superPending.delete(key);
    this.superMemo.set(key, result);
    return result;
  }

  /** A method of a class, searching the resolvable superclass chain. */
  private findMember(cls: Target, name: string): Target | null {
    let current: Target | null = cls;
    for (let depth = 0; current !== null && current.kind === 'decl' && depth < MAX_DEPTH; depth += 1) {
      const child = current.mod.children.get(current.decl.id)?.get(name);
      if (child !== undefined && child.kind === 'method') return { kind: 'decl', mod: current.mod, decl: child };
      current = this.superclass(current);
    }
    return null;
  }
}

function isCodeSpecifier(specifier: string): boolean {
  const base = specifier.split('/').pop() ?? '';
  return !base.includes('.') || base === '.' || base === '..' || CODE_EXTENSIONS.test(base);
}
