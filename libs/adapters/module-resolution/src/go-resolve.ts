/**
 * Go import resolution: the module path of the nearest go.mod above the importing file (every
 * go.mod of the project is a candidate, the longest matching module path wins), then the package
 * as the directory below that module's root: its `.go` files, `_test.go` files left out. A package
 * binds its `package` clause name (or the import's explicit name); `_` and `.` imports bind none.
 */
import { ApiTable, excludedTarget, goModuleLinePath, type SourceIssue } from '@docforge/core';
import type { ImportTarget, LanguageResolver, ResolveContext, TreeImport } from './types.js';

function dirname(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
}

/**
 * The `module` path of a go.mod text, or null. Read line by line (linear in the text: a pattern
 * over the whole text with `^\s*` and the `m` flag rescans every blank run from each line start).
 */
export function goModulePath(text: string): string | null {
  for (const line of text.split('\n')) {
    const path = goModuleLinePath(line);
    if (path !== null) return path;
  }
  return null;
}

interface GoModule {
  root: string;
  path: string;
}

/** Files per directory, and the go.mod modules found above the project's Go files. */
function index(context: ResolveContext): { byDir: Map<string, string[]>; modules: GoModule[] } {
  const byDir = new Map<string, string[]>();
  for (const path of context.paths) {
    const dir = dirname(path);
    const list = byDir.get(dir);
    if (list === undefined) byDir.set(dir, [path]);
    else list.push(path);
  }
  const seen = new Set<string>();
  const modules: GoModule[] = [];
  for (const start of byDir.keys()) {
    for (let dir = start; ; dir = dirname(dir)) {
      if (seen.has(dir)) break;
      seen.add(dir);
      const text = context.resolver.readText(dir === '' ? 'go.mod' : `${dir}/go.mod`);
      const path = text === null ? null : goModulePath(text);
      if (path !== null) modules.push({ root: dir, path });
      if (dir === '') break;
    }
  }
  modules.sort((a, b) => b.path.length - a.path.length);
  return { byDir, modules };
}

/**
 * The Go import rules over one build (LanguageSpec.resolver): `resolve` maps an import path to the
 * package directory's non-test files; `scope` of a file is the files of its directory with the
 * same `package` name (test files see test files, others do not).
 */
export function goResolver(context: ResolveContext): LanguageResolver {
  const { byDir, modules } = index(context);
  const pkgOf = (path: string): string | null => context.data.get(path)?.package ?? null;
  const packageFiles = (dir: string): string[] => (byDir.get(dir) ?? []).filter((p) => !p.endsWith('_test.go') && pkgOf(p) !== null);
  // The package directory an import path names: below the root of the go.mod whose module path is its longest prefix.
  const packageDir = (spec: string): string | null => {
    const module = modules.find((m) => spec === m.path || spec.startsWith(`${m.path}/`));
    if (module === undefined) return null;
    return [module.root, spec.slice(module.path.length + 1)].filter((part) => part !== '').join('/');
  };
  return {
    resolve(_file: string, imp: TreeImport): ImportTarget | null {
      const dir = packageDir(imp.spec);
      if (dir === null) return null;
      const files = packageFiles(dir);
      if (files.length === 0) return null;
      const names = new Set(files.map(pkgOf));
      const name = imp.alias ?? (names.size === 1 ? [...names][0] : null);
      const bindings = name === null || name === undefined || name === '_' || name === '.' ? [] : [{ name, files }];
      return { files, bindings };
    },
    // An import of the project's own module whose package directory an exclude glob (or the state dir) leaves out.
    excluded: (_file, imp) => {
      const dir = packageDir(imp.spec);
      return dir === null || dir === '' ? null : excludedTarget(context.resolver, [dir]);
    },
    scope(file: string): readonly string[] {
      const pkg = pkgOf(file);
      const test = file.endsWith('_test.go');
      return (byDir.get(dirname(file)) ?? []).filter((p) => pkgOf(p) === pkg && (test || !p.endsWith('_test.go')));
    },
  };
}

/**
 * `go_module_missing` (warning, project-level) when the build has Go files but no go.mod above any
 * of them (a GOPATH layout such as Debian's /usr/share/gocode): every import then stays
 * unresolved, so imports between the project's packages and the edges from external test packages
 * (`package x_test`) to the code they test are missing. `docforge init` says the same.
 */
export function goModuleIssues(context: ResolveContext): SourceIssue[] {
  if (context.paths.length === 0 || index(context).modules.length > 0) return [];
  return [{
    severity: 'warning', code: 'go_module_missing', path: null, line: null, node_id: null,
    message: `${context.paths.length} Go ${context.paths.length === 1 ? 'file' : 'files'} but no go.mod above any of them: Go imports resolve through a go.mod's module path, so imports between the project's packages, and the edges from external test packages (package x_test) to the code they test, are missing; add a go.mod at the module root ("go mod init MODULE_PATH") and sync again`,
  }];
}

/**
 * Public Go names for doc mentions: `pkg.Name` for every exported top-level definition of a
 * non-test file (pkg: its `package` name), and `pkg.Type.Method` for exported methods of
 * exported types. `main` packages are left out.
 */
export function goApi(context: ResolveContext): Record<string, string[]> {
  const table = new ApiTable();
  for (const path of context.paths) {
    const pkg = context.data.get(path)?.package ?? null;
    if (pkg === null || pkg === 'main' || path.endsWith('_test.go')) continue;
    for (const [qname, def] of context.defsOf(path)) {
      const parts = qname.split('.');
      if (parts.length > 2 || qname.includes('~') || !def.exported) continue;
      table.add(`${pkg}.${qname}`, def.id);
    }
  }
  return table.toRecord();
}
