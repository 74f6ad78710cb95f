import { builtinModules } from 'node:module';
import { posix } from 'node:path';
import type { ModuleResolver, SourceIssue } from '@docforge/core';
import { createRequire } from 'node:module';
import type * as TS from 'typescript';
import { readDocforgeConfig, withoutQuery } from '@docforge/core';
import { Accelerators } from '@docforge/accelerate';
import {
  exportTargets, parsePackageJson, validExportTarget, type PackageInfo,
  AliasConfigs, OutDirMap, fileCandidates, joinRelative as join, normalizeRelative as normalize, packageDirectories, pathCandidates, resolutionModeOf, type ResolutionMode,
} from '@docforge/ts-paths';
import { primeCompiler } from './compiler.cjs';

/**
 * Outcome of resolving one specifier: a project file path, an external package, or nothing
 * (`alias` names the tsconfig/jsconfig `paths` pattern that matched but led to no file).
 */
export type Resolution = { kind: 'file'; path: string } | { kind: 'external' } | { kind: 'unresolved'; alias?: string };

const BUILTINS = new Set(builtinModules);

/**
 * Resolves module specifiers the way Node and TypeScript's NodeNext/bundler resolution do, over
 * the project files the resolver knows: relative paths (the candidates of candidates.ts: a written
 * `.js`/`.jsx`/`.mjs`/`.cjs` stands for the TypeScript source or declaration file, extensions are
 * added; then `package.json` `types`/`main`/`exports` of a directory and `index.*`), and bare
 * specifiers naming a package that lives inside the project (its `package.json` `name`), after the
 * `paths` aliases and `baseUrl` of the nearest tsconfig.json/jsconfig.json (tsconfig.ts). Everything
 * else (builtins, `node_modules` packages, URLs) is `external`. The importing file's extension
 * picks the {@link ResolutionMode}: a TypeScript file prefers `x.ts`, then `x.d.ts`, then `x.js`;
 * a JavaScript file (or a package.json target) the file named, and a declaration file last. A
 * path into a build output folder left out of the index resolves to its source when the project's
 * tsconfig.json proves the mapping (`outDir`/`rootDir`, issue 30); `..` or the package's own name
 * reach it through package.json `main`/`exports`.
 * Results are cached per directory and mode.
 */
export class SpecifierResolver {
  private readonly cache = new Map<string, Resolution>();
  private readonly packages = new Map<string, PackageInfo | null>();
  /** Per package directory whose package.json is no JSON object (JSON.parse's message) or cannot be read (the resolver's reason). */
  private readonly malformed = new Map<string, { code: 'malformed_package_json' | 'unreadable_package_json'; why: string }>();
  private projectPackages: Map<string, string> | null = null;
  private readonly aliases: AliasConfigs;
  private readonly outputs: OutDirMap;

  constructor(private readonly resolver: ModuleResolver, private readonly allPaths: readonly string[]) {
    this.aliases = new AliasConfigs(resolver, lenientConfigText);
    this.outputs = new OutDirMap(this.aliases);
  }

  /**
   * Resolves `specifier` as written in the file at `fromPath` (project-relative); the path's
   * extension picks the mode (`resolutionModeOf`: TypeScript files prefer sources and declarations).
   */
  resolve(fromPath: string, specifier: string): Resolution {
    const dir = posix.dirname(fromPath);
    const mode = resolutionModeOf(fromPath);
    const key = `${mode}\u0000${dir === '.' ? '' : dir}\u0000${specifier}`;
    let result = this.cache.get(key);
    if (result === undefined) {
      result = this.compute(dir === '.' ? '' : dir, specifier, mode);
      this.cache.set(key, result);
    }
    return result;
  }

  private compute(dir: string, specifier: string, mode: ResolutionMode): Resolution {
    const clean = withoutQuery(specifier);
    if (clean === '.' || clean === '..' || clean.startsWith('./') || clean.startsWith('../')) {
      const target = normalize(posix.join(dir === '' ? '.' : dir, clean));
      if (target === null) return { kind: 'unresolved' };
      const path = this.fileOrDirectory(target, mode);
      return path === null ? { kind: 'unresolved' } : { kind: 'file', path };
    }
    const alias = this.aliases.forDirectory(dir);
    if (alias !== null) {
      const matched = pathCandidates(alias, specifier);
      if (matched !== null) {
        for (const candidate of matched.candidates) {
          const path = this.fileOrDirectory(candidate, mode);
          if (path !== null) return { kind: 'file', path };
        }
        return { kind: 'unresolved', alias: `${alias.file} paths '${matched.pattern}'` };
      }
    }
    if (clean.startsWith('/') || /^[a-z][a-z0-9+.-]*:/i.test(clean) || clean.startsWith('#')) {
      return clean.startsWith('node:') || !clean.startsWith('/') ? { kind: 'external' } : { kind: 'unresolved' };
    }
    const parts = clean.split('/');
    const packageName = clean.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
    if (BUILTINS.has(packageName)) return { kind: 'external' };
    if (alias?.baseUrl != null) {
      const path = this.fileOrDirectory(join(alias.baseUrl, clean), mode);
      if (path !== null) return { kind: 'file', path };
    }
    const packageDir = this.findProjectPackage(packageName);
    if (packageDir === undefined) return { kind: 'external' };
    const subpath = parts.slice(clean.startsWith('@') ? 2 : 1).join('/');
    const path = subpath === ''
      ? this.packageEntry(packageDir, '.', mode)
      : (this.packageEntry(packageDir, `./${subpath}`, mode) ?? this.fileOrDirectory(join(packageDir, subpath), mode));
    return path === null ? { kind: 'unresolved' } : { kind: 'file', path };
  }

  /**
   * Every project file a project package's entry point (`name` or `name/sub`) resolves to as
   * JavaScript, one per `exports` condition that names an existing file (`import`, `require`,
   * `node`, `default`, then the others), distinct, in that order; for a package without `exports`,
   * the one entry `resolve` gives. A package whose `import` entry is an ESM wrapper of its CommonJS
   * entry (commander's `esm.mjs`) has both listed, so its public API is read from both.
   * @returns project-relative paths; empty for a specifier that is no project package
   */
  entryFiles(specifier: string): string[] {
    const parts = specifier.split('/');
    const packageName = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
    const packageDir = this.findProjectPackage(packageName);
    const info = packageDir === undefined ? null : this.readPackage(packageDir);
    const first = this.resolve('package.json', specifier);
    const out = first.kind === 'file' ? [first.path] : [];
    if (packageDir === undefined || info === null) return out;
    const subpath = parts.slice(specifier.startsWith('@') ? 2 : 1).join('/');
    for (const target of exportTargets(info, subpath === '' ? '.' : `./${subpath}`, 'javascript')) {
      const path = validExportTarget(target) ? normalize(join(packageDir, target)) : null;
      const file = path === null ? null : this.file(path, 'javascript');
      if (file !== null && !out.includes(file)) out.push(file);
    }
    return out;
  }

  /**
   * The first project file among the candidates of `path` (candidates.ts); else, for a path in a
   * build output folder the project does not index (`dist/index.js`), the source the project's
   * tsconfig.json proves is compiled there (ts-paths `OutDirMap`: `src/index.ts`); else null.
   */
  private file(path: string, mode: ResolutionMode): string | null {
    for (const candidate of fileCandidates(path, mode)) if (this.resolver.hasFile(candidate)) return candidate;
    const source = this.outputs.sourceOf(path);
    if (source !== null) for (const candidate of fileCandidates(source, 'typescript')) if (this.resolver.hasFile(candidate)) return candidate;
    return null;
  }

  private fileOrDirectory(path: string, mode: ResolutionMode): string | null {
    if (path !== '') {
      const file = this.file(path, mode);
      if (file !== null) return file;
    }
    const entry = this.packageEntry(path, '.', mode);
    if (entry !== null) return entry;
    return this.index(path, mode);
  }

  /** `index.*` of a directory, in the same candidate order as a file. */
  private index(dir: string, mode: ResolutionMode): string | null {
    return this.file(join(dir, 'index'), mode);
  }

  private readPackage(dir: string): PackageInfo | null {
    if (this.packages.has(dir)) return this.packages.get(dir)!;
    let info: PackageInfo | null = null;
    const text = this.resolver.readText(join(dir, 'package.json'));
    const unreadable = text === null ? this.resolver.unreadable?.(join(dir, 'package.json')) ?? null : null;
    if (unreadable !== null) this.malformed.set(dir, { code: 'unreadable_package_json', why: unreadable });
    if (text !== null) {
      const parsed = parsePackageJson(text);
      info = parsed.info;
      if (parsed.malformed !== null) this.malformed.set(dir, { code: 'malformed_package_json', why: parsed.malformed });
    }
    this.packages.set(dir, info);
    return info;
  }

  /**
   * Entry of a package directory for a subpath (`.` or `./x`) via `exports` (TypeScript importers
   * try the `types` condition first), then, for `.`, `types`/`typings` (TypeScript importers only),
   * `main` and `index.*`.
   */
  private packageEntry(dir: string, subpath: string, mode: ResolutionMode): string | null {
    const info = this.readPackage(dir);
    if (info === null) return null;
    const targets = exportTargets(info, subpath, mode);
    for (const target of targets) {
      const path = validExportTarget(target) ? normalize(join(dir, target)) : null;
      if (path === null) continue;
      const file = this.file(path, mode);
      if (file !== null) return file;
    }
    // An `exports` entry whose every target Node refuses (outside the package, absolute, bare) resolves nowhere: no fallback to `main`.
    if (targets.length > 0 && !targets.some(validExportTarget)) return null;
    if (subpath !== '.') return null;
    const fields = mode === 'typescript' ? [info.types, info.main] : [info.main];
    for (const field of fields) {
      const path = field === null ? null : normalize(join(dir, field));
      if (path === null) continue;
      const file = this.file(path, mode) ?? this.index(path, mode);
      if (file !== null) return file;
    }
    return this.index(dir, mode);
  }

  /**
   * The packages whose package.json lies in the project (outside node_modules), by `name`, each
   * with its package.json path and the explicit subpaths of its `exports` map (`./sub`; patterns
   * with `*` are left out: they name no one module). The first directory in path order wins a name
   * shared by several.
   */
  packagesWithSubpaths(): { name: string; path: string; subpaths: string[] }[] {
    this.findProjectPackage('');
    const out: { name: string; path: string; subpaths: string[] }[] = [];
    for (const [name, dir] of this.projectPackages ?? []) {
      const exportsField = this.readPackage(dir)?.exports;
      const subpaths = exportsField !== null && typeof exportsField === 'object' && !Array.isArray(exportsField)
        ? Object.keys(exportsField as Record<string, unknown>).filter((key) => key.startsWith('./') && !key.includes('*'))
        : [];
      out.push({ name, path: join(dir, 'package.json'), subpaths });
    }
    return out;
  }

  /**
   * A `malformed_package_json` warning per package.json of the project's package directories
   * (`packageDirectories`: every directory holding a project code file, outside node_modules) that
   * is not a JSON object, an `unreadable_package_json` one per package.json the resolver could not
   * read (`ModuleResolver.unreadable`, e.g. over the size limit): its package is neither resolved nor
   * part of the public API, and says so. In path order; the same for every link of the same files.
   */
  packageIssues(): SourceIssue[] {
    this.findProjectPackage('');
    const issues: SourceIssue[] = [];
    for (const dir of packageDirectories(this.allPaths)) {
      const problem = this.malformed.get(dir);
      if (problem === undefined) continue;
      const path = join(dir, 'package.json');
      const what = problem.code === 'malformed_package_json' ? 'is not a valid package.json' : 'cannot be read';
      issues.push({ severity: 'warning', code: problem.code, message: `${path} ${what} (${problem.why}); its package's entry points and exports are not resolved.`, path, line: null, node_id: null });
    }
    return issues;
  }

  private findProjectPackage(name: string): string | undefined {
    if (this.projectPackages === null) {
      this.projectPackages = new Map();
      for (const dir of packageDirectories(this.allPaths)) {
        const info = this.readPackage(dir);
        if (info?.name && !this.projectPackages.has(info.name)) this.projectPackages.set(info.name, dir);
      }
    }
    return this.projectPackages.get(name);
  }
}

/**
 * A tsconfig/jsconfig text jsonc-parser rejected, read by TypeScript's own more lenient reader
 * (`parseConfigFileTextToJson`): the parsed value, or undefined on a syntax error. The compiler
 * (ts.cts) is loaded only then, primed as prime.ts primes it (a static import of prime.ts would load
 * the compiler with the linker, which must not load it).
 */
export function lenientConfigText(text: string): unknown {
  primeCompiler(Accelerators.from(readDocforgeConfig()));
  const ts = createRequire(import.meta.url)('./ts.cjs') as typeof TS;
  const parsed = ts.parseConfigFileTextToJson('tsconfig.json', text);
  return parsed.error === undefined ? parsed.config : undefined;
}
