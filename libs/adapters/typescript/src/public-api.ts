/**
 * The public API of the packages a project holds (issue 31 item 3): the names a user reaches
 * through a package's entry points (`pino.transport`, `fastify`, `pkg/sub.fn`), each proven by
 * following the entry module's exports and re-exports to a declaration. Documentation names code
 * this way; the project resolver links such mentions with this table. Nothing is guessed from
 * spelling: a name is listed only when the linker's export resolution reaches a declaration.
 */
import { ApiTable, MAX_API_NAMES, type SourceIssue } from '@docforge/core';
import type { Target, ModuleInfo } from '@docforge/ts-link-model';
import { exportTable, WalkBudget, type StarWalk } from '@docforge/ts-paths';

/** What enumerating a package's public names needs from the linker. */
export interface ApiResolution extends StarWalk<ModuleInfo, Target> {
  /**
   * The project files a specifier's entry point resolves to, one per `exports` condition naming an
   * existing file, in condition order (the first is what the specifier resolves to); empty when none.
   */
  entryFiles(specifier: string): readonly string[];
  /** The extracted module at a project path, or null. */
  moduleAt(path: string): ModuleInfo | null;
  /** An export of a module by name, followed through re-exports (`=` the whole CommonJS value). */
  exportOf(mod: ModuleInfo, name: string): Target | null;
  /** The methods of the value a call of a function returns, when its declared return type proves them. */
  returnedMethods(callee: Extract<Target, { kind: 'decl' }>): ReadonlyMap<string, Extract<Target, { kind: 'decl' }>>;
}

/** One package of the project as {@link publicApi} reads it. */
export interface ApiPackage {
  /** Its package.json `name`. */
  name: string;
  /** Project-relative path of its package.json (named in findings). */
  path: string;
  /** The explicit subpaths of its `exports` map (`./sub`), in map order. */
  subpaths: readonly string[];
}

/** How deep namespaces are followed below an entry (`pkg.ns.fn` is depth 1). */
const MAX_NAMESPACE_DEPTH = 2;
/**
 * Most walk steps (one per module, own export name and star edge reached; star-exports.ts) one
 * package's public API may cost: a package whose thousands of modules re-export each other from
 * hundreds of entry points stops here with a `public_api_bounded` finding instead of running for
 * minutes. Real packages spend a few dozen (measured 2026-12-06: fastify 7, pino 44).
 */
export const MAX_API_STEPS = 1_000_000;

/** The table and the findings of {@link publicApi}. */
export interface PublicApi {
  /** Public name → declaration ids (sorted), as LinkResult `api`. */
  api: Record<string, string[]>;
  /** `public_api_bounded` warnings: a package whose walk ran out of {@link MAX_API_STEPS}, or names beyond {@link MAX_API_NAMES}. */
  issues: SourceIssue[];
}

/**
 * Public names of the project's packages: `<specifier>` for the entry's whole export (CommonJS
 * `module.exports = f` or ESM `export default f`), `<specifier>.<name>` for each named export
 * (CommonJS `module.exports.name = ...`, `exports.name`, `module.exports = { a, b }`, ESM
 * `export { x } from`, `export *`), `<specifier>.<ns>.<name>` through exported namespaces, and
 * `<prefix>.<member>` for the static and prototype methods of an exported function or class
 * (`pino.destination = ...` on the exported function). A specifier is a package's `name` or
 * `name/sub` for an explicit `exports` subpath, visited in that order. Values are the declaration
 * ids, sorted; a name reaching several declarations lists them all (the resolver links none of
 * them). A package whose entry module is test code (`is_test`: a fixture package) is left out.
 * Bounded: a package stops at {@link MAX_API_STEPS} (the entry points already listed keep their
 * names) and the whole table at {@link MAX_API_NAMES} names (the names listed first are kept); each
 * stop is a `public_api_bounded` warning naming the package.json, never silent.
 */
export function publicApi(linker: ApiResolution, packages: readonly ApiPackage[]): PublicApi {
  const table = new ApiTable();
  const walk = new ApiWalk(linker, table);
  const issues: SourceIssue[] = [];
  for (const pkg of packages) {
    const specifiers = [pkg.name, ...pkg.subpaths.map((sub) => `${pkg.name}/${sub.slice(2)}`)];
    const budget = new WalkBudget(MAX_API_STEPS);
    let done = 0;
    for (const specifier of specifiers) {
      // Each entry point costs a step of its own: 20,000 `exports` subpaths of one module are bounded too.
      if (table.dropped > 0 || !budget.spend(1)) break;
      // Every condition's entry file, first first: a name an earlier entry lists is kept as it is
      // (dual builds name each declaration once), and a later entry adds the names the earlier one
      // could not prove (an ESM wrapper's `export const { a } = cjs` proves none).
      let complete = true;
      for (const path of linker.entryFiles(specifier)) {
        table.beginRound();
        const mod = linker.moduleAt(path);
        // A package whose entry is test code (a fixture package under test/) is no API the docs describe.
        if (mod !== null && !mod.data.is_test && !walk.visit(mod, specifier, budget)) complete = false;
        if (!complete) break;
      }
      if (!complete) break;
      if (table.dropped === 0) done += 1;
    }
    if (done < specifiers.length) issues.push(boundedIssue(pkg, specifiers, done, table.dropped > 0));
  }
  return { api: table.toRecord(), issues };
}

/** The `public_api_bounded` warning of a package whose entry points from `done` on were cut. */
function boundedIssue(pkg: ApiPackage, specifiers: readonly string[], done: number, full: boolean): SourceIssue {
  const why = full
    ? `the public API table is full (${MAX_API_NAMES} names)`
    : `its export graph exceeded the work bound (${MAX_API_STEPS} steps)`;
  return {
    severity: 'warning',
    code: 'public_api_bounded',
    message: `Public API of package '${pkg.name}' linked for ${done} of ${specifiers.length} entry points: ${why}; names of entry point '${specifiers[done]}' and those after it are not (all) linked from documentation.`,
    path: pkg.path,
    line: null,
    node_id: null,
  };
}

/** One walk over the packages' entry points: the export tables of the modules reached, computed once each. */
class ApiWalk {
  private readonly tables = new Map<string, Map<string, Target>>();
  private readonly decls = new Set<string>();

  constructor(private readonly linker: ApiResolution, private readonly table: ApiTable) {}

  /** Lists an entry module's public names under `specifier`; false when `budget` ran out. */
  visit(mod: ModuleInfo, specifier: string, budget: WalkBudget): boolean {
    return this.visitModule(mod, specifier, 0, new Set(), budget);
  }

  /** Lists a module's public names under `prefix` (its whole export as `prefix` itself); false when `budget` ran out. */
  private visitModule(mod: ModuleInfo, prefix: string, depth: number, seen: Set<string>, budget: WalkBudget): boolean {
    if (seen.has(mod.path)) return true;
    seen.add(mod.path);
    const linker = this.linker;
    const whole = linker.exportOf(mod, '=') ?? linker.exportOf(mod, 'default');
    if (whole?.kind === 'decl') this.declared(whole, prefix);
    else if (whole?.kind === 'module' && whole.mod !== mod && !this.visitModule(whole.mod, prefix, depth, seen, budget)) return false;
    const exported = this.exportsOf(mod, budget);
    if (exported === null) return false;
    for (const name of [...exported.keys()].sort()) {
      const target = exported.get(name)!;
      if (target.kind === 'decl') this.declared(target, `${prefix}.${name}`);
      else if (depth < MAX_NAMESPACE_DEPTH && !this.visitModule(target.mod, `${prefix}.${name}`, depth + 1, new Set(seen), budget)) return false;
    }
    return true;
  }

  /** A module's export table (star-exports.ts), computed once per module; null when `budget` ran out. */
  private exportsOf(mod: ModuleInfo, budget: WalkBudget): Map<string, Target> | null {
    let exported = this.tables.get(mod.path);
    if (exported === undefined) {
      const computed = exportTable(this.linker, mod, budget);
      if (computed === null) return null;
      this.tables.set(mod.path, (exported = computed));
    }
    return exported;
  }

  /**
   * A declaration reached under `name`, its methods as `name.<method>`, and (once per declaration)
   * the methods its declared return type proves as `<id>().<method>` (the project's `returnMemberKey`).
   */
  private declared(target: Extract<Target, { kind: 'decl' }>, name: string): void {
    this.table.add(name, target.decl.id);
    if (target.decl.kind !== 'function' && target.decl.kind !== 'class' && target.decl.kind !== 'method') return;
    if (!this.decls.has(target.decl.id)) {
      this.decls.add(target.decl.id);
      for (const [method, found] of this.linker.returnedMethods(target)) this.table.add(`${target.decl.id}().${method}`, found.decl.id);
    }
    if (target.decl.kind === 'method') return;
    for (const child of target.mod.children.get(target.decl.id)?.values() ?? []) {
      if (child.kind === 'method' && child.key === undefined) this.declared({ kind: 'decl', mod: target.mod, decl: child }, `${name}.${child.name}`);
    }
  }
}
