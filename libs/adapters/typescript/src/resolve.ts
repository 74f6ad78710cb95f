import { builtinModules } from 'node:module';
import { posix } from 'node:path';
import type { ModuleResolver, SourceIssue } from '@docforge/core';
import { createRequire } from 'node:module';
import type * as TS from 'typescript';
import { readDocforgeConfig } from '@docforge/core';
import { Accelerators } from '@docforge/accelerate';
import {
  AliasConfigs, fileCandidates, joinRelative as join, normalizeRelative as normalize, packageDirectories, pathCandidates, resolutionModeOf, type ResolutionMode,
} from '@docforge/ts-paths';
import { primeCompiler } from './compiler.cjs';

/**
 * Outcome of resolving one specifier: a project file path, an external package, or nothing
 * (`alias` names the tsconfig/jsconfig `paths` pattern that matched but led to no file).
 */
export type Resolution = { kind: 'file'; path: string } | { kind: 'external' } | { kind: 'unresolved'; alias?: string };

const BUILTINS = new Set(builtinModules);
const CONDITIONS = ['import', 'require', 'node', 'default'];

interface PackageInfo {
  name: string | null;
  main: string | null;
  /** `types`, else `typings` (read by TypeScript importers before `main`). */
  types: string | null;
  exports: unknown;
  /** The `exports` map's shape, read once per package.json (a map of 20,000 subpaths is not scanned per lookup). */
  exportShape: ExportShape;
}

/** What {@link exportTargets} needs to know of an `exports` value beyond looking a subpath up. */
interface ExportShape {
  /** Whether the value stands for `.` alone: a string, an array, or an object of conditions (no key starts with `.`). */
  rootOnly: boolean;
  /** The keys holding a `*`, in map order, split at it. */
  patterns: { key: string; prefix: string; suffix: string }[];
}

/**
 * Resolves module specifiers the way Node and TypeScript's NodeNext/bundler resolution do, over
 * the project files the resolver knows: relative paths (the candidates of candidates.ts: a written
 * `.js`/`.jsx`/`.mjs`/`.cjs` stands for the TypeScript source or declaration file, extensions are
 * added; then `package.json` `types`/`main`/`exports` of a directory and `index.*`), and bare
 * specifiers naming a package that lives inside the project (its `package.json` `name`), after the
 * `paths` aliases and `baseUrl` of the nearest tsconfig.json/jsconfig.json (tsconfig.ts). Everything
 * else (builtins, `node_modules` packages, URLs) is `external`. The importing file's extension
 * picks the {@link ResolutionMode}: a TypeScript file prefers `x.ts`, then `x.d.ts`, then `x.js`;
 * a JavaScript file (or a package.json target) the file named, and a declaration file last.
 * Results are cached per directory and mode.
 */
export class SpecifierResolver {
  private readonly cache = new Map<string, Resolution>();
  private readonly packages = new Map<string, PackageInfo | null>();
  /** Per package directory whose package.json is no JSON object, why (JSON.parse's message). */
  private readonly malformed = new Map<string, string>();
  private projectPackages: Map<string, string> | null = null;
  private readonly aliases: AliasConfigs;

  constructor(private readonly resolver: ModuleResolver, private readonly allPaths: readonly string[]) {
    this.aliases = new AliasConfigs(resolver, lenientConfigText);
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
    const clean = specifier.replace(/[?#].*$/, '');
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

  /** The first project file among the candidates of `path` (candidates.ts), or null. */
  private file(path: string, mode: ResolutionMode): string | null {
    for (const candidate of fileCandidates(path, mode)) if (this.resolver.hasFile(candidate)) return candidate;
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
    if (text !== null) {
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch (error) {
        this.malformed.set(dir, error instanceof Error ? error.message : String(error));
      }
      if (json !== null && typeof json === 'object' && !Array.isArray(json)) {
        const fields = json as Record<string, unknown>;
        info = {
          name: typeof fields['name'] === 'string' ? fields['name'] : null,
          main: typeof fields['main'] === 'string' ? fields['main'] : null,
          types: typeof fields['types'] === 'string' ? fields['types'] : typeof fields['typings'] === 'string' ? fields['typings'] : null,
          exports: fields['exports'] ?? null,
          exportShape: exportShape(fields['exports'] ?? null),
        };
      } else if (!this.malformed.has(dir)) {
        this.malformed.set(dir, 'not a JSON object');
      }
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
   * is not a JSON object: its package is neither resolved nor part of the public API, and says so.
   * In path order; the same for every link of the same files.
   */
  packageIssues(): SourceIssue[] {
    this.findProjectPackage('');
    const issues: SourceIssue[] = [];
    for (const dir of packageDirectories(this.allPaths)) {
      const why = this.malformed.get(dir);
      if (why === undefined) continue;
      const path = join(dir, 'package.json');
      issues.push({ severity: 'warning', code: 'malformed_package_json', message: `${path} is not a valid package.json (${why}); its package's entry points and exports are not resolved.`, path, line: null, node_id: null });
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

/** The shape of an `exports` value ({@link ExportShape}). */
function exportShape(exportsField: unknown): ExportShape {
  if (exportsField === null || typeof exportsField !== 'object' || Array.isArray(exportsField)) return { rootOnly: true, patterns: [] };
  const keys = Object.keys(exportsField);
  const patterns: ExportShape['patterns'] = [];
  for (const key of keys) {
    const star = key.indexOf('*');
    if (star >= 0) patterns.push({ key, prefix: key.slice(0, star), suffix: key.slice(star + 1) });
  }
  return { rootOnly: keys.length > 0 && keys.every((k) => !k.startsWith('.')), patterns };
}

/** Candidate targets of a package.json `exports` value for a subpath, in condition order. */
function exportTargets(info: PackageInfo, subpath: string, mode: ResolutionMode): string[] {
  const exportsField = info.exports;
  if (exportsField === null || exportsField === undefined) return [];
  const leaves = (value: unknown): string[] => conditionLeaves(value, mode === 'typescript' ? ['types', ...CONDITIONS] : CONDITIONS);
  if (typeof exportsField === 'string' || Array.isArray(exportsField)) return subpath === '.' ? leaves(exportsField) : [];
  if (typeof exportsField !== 'object') return [];
  const map = exportsField as Record<string, unknown>;
  if (info.exportShape.rootOnly) return subpath === '.' ? leaves(map) : [];
  if (Object.prototype.hasOwnProperty.call(map, subpath)) return leaves(map[subpath]);
  for (const { key, prefix, suffix } of info.exportShape.patterns) {
    if (subpath.startsWith(prefix) && subpath.endsWith(suffix) && subpath.length >= prefix.length + suffix.length) {
      const middle = subpath.slice(prefix.length, subpath.length - suffix.length);
      // Node refuses a pattern match holding a `.`, `..` or `node_modules` segment.
      if (INVALID_SEGMENT.test(middle)) return [];
      return leaves(map[key]).map((t) => t.split('*').join(middle));
    }
  }
  return [];
}

/**
 * A segment Node refuses in an `exports` target after its leading `./` (and in a pattern's match):
 * `.`, `..` or `node_modules`, also percent-encoded (Node's `invalidSegmentRegEx`, less the empty
 * segment Node only deprecates).
 */
const INVALID_SEGMENT = /(^|\\|\/)((\.|%2e)(\.|%2e)?|(n|%6e|%4e)(o|%6f|%4f)(d|%64|%44)(e|%65|%45)_(m|%6d|%4d)(o|%6f|%4f)(d|%64|%44)(u|%75|%55)(l|%6c|%4c)(e|%65|%45)(s|%73|%53))(\\|\/|$)/i;

/**
 * Whether Node accepts a package.json `exports` target: it starts with `./` and no later segment is
 * `.`, `..` or `node_modules` (so it cannot leave the package). Absolute paths, bare names and
 * `../` targets are refused, and the resolver links none of them.
 */
export function validExportTarget(target: string): boolean {
  return target.startsWith('./') && !INVALID_SEGMENT.test(target.slice(2));
}

/** Targets of an `exports` value: the listed conditions in order, then the others (`types` only when listed). */
function conditionLeaves(value: unknown, conditions: readonly string[]): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap((inner) => conditionLeaves(inner, conditions));
  if (value === null || typeof value !== 'object') return [];
  const map = value as Record<string, unknown>;
  const out: string[] = [];
  for (const condition of conditions) if (condition in map) out.push(...conditionLeaves(map[condition], conditions));
  for (const [key, inner] of Object.entries(map)) {
    if (!conditions.includes(key) && key !== 'types') out.push(...conditionLeaves(inner, conditions));
  }
  return out;
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
