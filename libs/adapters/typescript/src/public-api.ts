/**
 * The public API of the packages a project holds (issue 31 item 3): the names a user reaches
 * through a package's entry points (`pino.transport`, `fastify`, `pkg/sub.fn`), each proven by
 * following the entry module's exports and re-exports to a declaration. Documentation names code
 * this way; the project resolver links such mentions with this table. Nothing is guessed from
 * spelling: a name is listed only when the linker's export resolution reaches a declaration.
 */
import { ApiTable } from '@docforge/core';
import type { Target, ModuleInfo } from './link-model.js';

/** What enumerating a package's public names needs from the linker. */
export interface ApiResolution {
  /** The project file a specifier resolves to from the project root (as a package.json target), or null. */
  entryFile(specifier: string): string | null;
  /** The extracted module at a project path, or null. */
  moduleAt(path: string): ModuleInfo | null;
  /** The module a specifier of `mod` names, or null (external, unresolved or not extracted). */
  moduleFor(mod: ModuleInfo, specifier: string): ModuleInfo | null;
  /** An export of a module by name, followed through re-exports (`=` the whole CommonJS value). */
  exportOf(mod: ModuleInfo, name: string): Target | null;
  /** The methods of the value a call of a function returns, when its declared return type proves them. */
  returnedMethods(callee: Extract<Target, { kind: 'decl' }>): ReadonlyMap<string, Extract<Target, { kind: 'decl' }>>;
}

/** How deep namespaces are followed below an entry (`pkg.ns.fn` is depth 1). */
const MAX_NAMESPACE_DEPTH = 2;
/**
 * Public names of the project's packages: `<specifier>` for the entry's whole export (CommonJS
 * `module.exports = f` or ESM `export default f`), `<specifier>.<name>` for each named export
 * (CommonJS `module.exports.name = ...`, `exports.name`, `module.exports = { a, b }`, ESM
 * `export { x } from`, `export *`), `<specifier>.<ns>.<name>` through exported namespaces, and
 * `<prefix>.<member>` for the static and prototype methods of an exported function or class
 * (`pino.destination = ...` on the exported function). A specifier is a package's `name` or
 * `name/sub` for an explicit `exports` subpath. Values are the declaration ids, sorted; a name
 * reaching several declarations lists them all (the resolver links none of them). A package whose
 * entry module is test code (`is_test`: a fixture package) is left out.
 */
export function publicApi(linker: ApiResolution, packages: readonly { name: string; subpaths: readonly string[] }[]): Record<string, string[]> {
  const table = new ApiTable();
  const seenDecls = new Set<string>();
  const add = (name: string, id: string): void => table.add(name, id);
  for (const pkg of packages) {
    for (const specifier of [pkg.name, ...pkg.subpaths.map((sub) => `${pkg.name}/${sub.slice(2)}`)]) {
      const path = linker.entryFile(specifier);
      const mod = path === null ? null : linker.moduleAt(path);
      // A package whose entry is test code (a fixture package under test/) is no API the docs describe.
      if (mod !== null && !mod.data.is_test) visitModule(linker, mod, specifier, 0, new Set(), add, seenDecls);
    }
  }
  return table.toRecord();
}

/** Lists a module's public names under `prefix` (its whole export as `prefix` itself). */
function visitModule(
  linker: ApiResolution, mod: ModuleInfo, prefix: string, depth: number, seen: Set<string>, add: (name: string, id: string) => void, decls: Set<string>,
): void {
  if (seen.has(mod.path)) return;
  seen.add(mod.path);
  const whole = linker.exportOf(mod, '=') ?? linker.exportOf(mod, 'default');
  if (whole?.kind === 'decl') declared(linker, whole, prefix, add, decls);
  else if (whole?.kind === 'module' && whole.mod !== mod) visitModule(linker, whole.mod, prefix, depth, seen, add, decls);
  for (const name of exportNames(linker, mod, new Set())) {
    const target = linker.exportOf(mod, name);
    if (target?.kind === 'decl') declared(linker, target, `${prefix}.${name}`, add, decls);
    else if (target?.kind === 'module' && depth < MAX_NAMESPACE_DEPTH) visitModule(linker, target.mod, `${prefix}.${name}`, depth + 1, new Set(seen), add, decls);
  }
}

/**
 * A declaration reached under `name`, its methods as `name.<method>`, and (once per declaration)
 * the methods its declared return type proves as `<id>().<method>` (the project's `returnMemberKey`).
 */
function declared(
  linker: ApiResolution, target: Extract<Target, { kind: 'decl' }>, name: string, add: (name: string, id: string) => void, decls: Set<string>,
): void {
  add(name, target.decl.id);
  if (target.decl.kind !== 'function' && target.decl.kind !== 'class' && target.decl.kind !== 'method') return;
  if (!decls.has(target.decl.id)) {
    decls.add(target.decl.id);
    for (const [method, found] of linker.returnedMethods(target)) add(`${target.decl.id}().${method}`, found.decl.id);
  }
  if (target.decl.kind === 'method') return;
  for (const child of target.mod.children.get(target.decl.id)?.values() ?? []) {
    if (child.kind === 'method' && child.key === undefined) declared(linker, { kind: 'decl', mod: target.mod, decl: child }, `${name}.${child.name}`, add, decls);
  }
}

/** The names a module exports: its own export records and those of its `export *` targets (never `default`, `=` or `*`). */
function exportNames(linker: ApiResolution, mod: ModuleInfo, seen: Set<string>): string[] {
  if (seen.has(mod.path)) return [];
  seen.add(mod.path);
  const names = new Set<string>();
  for (const name of mod.exports.keys()) if (name !== '=' && name !== 'default') names.add(name);
  for (const star of mod.stars) {
    const target = star.specifier === null ? null : linker.moduleFor(mod, star.specifier);
    if (target === null) continue;
    for (const name of exportNames(linker, target, seen)) names.add(name);
  }
  return [...names].sort();
}
