import { builtinModules } from 'node:module';
import { posix } from 'node:path';
import type { ModuleResolver } from '@docforge/core';
import { joinRelative as join, normalizeRelative as normalize } from './rel-path.js';
import { AliasConfigs, pathCandidates } from './tsconfig.js';

/**
 * Outcome of resolving one specifier: a project file path, an external package, or nothing
 * (`alias` names the tsconfig/jsconfig `paths` pattern that matched but led to no file).
 */
export type Resolution = { kind: 'file'; path: string } | { kind: 'external' } | { kind: 'unresolved'; alias?: string };

const SOURCE_EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs', '.d.ts'];
const EXTENSION_SWAPS: Readonly<Record<string, readonly string[]>> = {
  '.js': ['.ts', '.tsx'],
  '.jsx': ['.tsx'],
  '.mjs': ['.mts'],
  '.cjs': ['.cts'],
};
const BUILTINS = new Set(builtinModules);
const CONDITIONS = ['import', 'require', 'node', 'default'];

interface PackageInfo {
  name: string | null;
  main: string | null;
  exports: unknown;
}

/**
 * Resolves module specifiers the way Node and TypeScript's NodeNext/bundler resolution do, over
 * the project files the resolver knows: relative paths (exact, `.js`→`.ts` swaps, added
 * extensions, `package.json` `main`/`exports` of a directory, `index.*`), and bare specifiers
 * naming a package that lives inside the project (its `package.json` `name`), after the
 * `paths` aliases and `baseUrl` of the nearest tsconfig.json/jsconfig.json (tsconfig.ts). Everything
 * else (builtins, `node_modules` packages, URLs) is `external`. Results are cached per directory.
 */
export class SpecifierResolver {
  private readonly cache = new Map<string, Resolution>();
  private readonly packages = new Map<string, PackageInfo | null>();
  private projectPackages: Map<string, string> | null = null;
  private readonly aliases: AliasConfigs;

  constructor(private readonly resolver: ModuleResolver, private readonly allPaths: readonly string[]) {
    this.aliases = new AliasConfigs(resolver);
  }

  /** Resolves `specifier` as written in the file at `fromPath`. */
  resolve(fromPath: string, specifier: string): Resolution {
    const dir = posix.dirname(fromPath);
    const key = `${dir === '.' ? '' : dir}\u0000${specifier}`;
    let result = this.cache.get(key);
    if (result === undefined) {
      result = this.compute(dir === '.' ? '' : dir, specifier);
      this.cache.set(key, result);
    }
    return result;
  }

  private compute(dir: string, specifier: string): Resolution {
    const clean = specifier.replace(/[?#].*$/, '');
    if (clean === '.' || clean === '..' || clean.startsWith('./') || clean.startsWith('../')) {
      const target = normalize(posix.join(dir === '' ? '.' : dir, clean));
      if (target === null) return { kind: 'unresolved' };
      const path = this.fileOrDirectory(target);
      return path === null ? { kind: 'unresolved' } : { kind: 'file', path };
    }
    const alias = this.aliases.forDirectory(dir);
    if (alias !== null) {
      const matched = pathCandidates(alias, specifier);
      if (matched !== null) {
        for (const candidate of matched.candidates) {
          const path = this.fileOrDirectory(candidate);
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
      const path = this.fileOrDirectory(join(alias.baseUrl, clean));
      if (path !== null) return { kind: 'file', path };
    }
    const packageDir = this.findProjectPackage(packageName);
    if (packageDir === undefined) return { kind: 'external' };
    const subpath = parts.slice(clean.startsWith('@') ? 2 : 1).join('/');
    const path = subpath === ''
      ? this.packageEntry(packageDir, '.')
      : (this.packageEntry(packageDir, `./${subpath}`) ?? this.fileOrDirectory(join(packageDir, subpath)));
    return path === null ? { kind: 'unresolved' } : { kind: 'file', path };
  }

  private file(path: string): string | null {
    if (this.resolver.hasFile(path)) return path;
    const ext = posix.extname(path);
    for (const swap of EXTENSION_SWAPS[ext] ?? []) {
      const candidate = path.slice(0, -ext.length) + swap;
      if (this.resolver.hasFile(candidate)) return candidate;
    }
    for (const extension of SOURCE_EXTENSIONS) {
      if (this.resolver.hasFile(path + extension)) return path + extension;
    }
    return null;
  }

  private fileOrDirectory(path: string): string | null {
    if (path !== '') {
      const file = this.file(path);
      if (file !== null) return file;
    }
    const entry = this.packageEntry(path, '.');
    if (entry !== null) return entry;
    return this.index(path);
  }

  private index(dir: string): string | null {
    for (const extension of SOURCE_EXTENSIONS) {
      const candidate = join(dir, `index${extension}`);
      if (this.resolver.hasFile(candidate)) return candidate;
    }
    return null;
  }

  private readPackage(dir: string): PackageInfo | null {
    if (this.packages.has(dir)) return this.packages.get(dir)!;
    let info: PackageInfo | null = null;
    const text = this.resolver.readText(join(dir, 'package.json'));
    if (text !== null) {
      try {
        const json = JSON.parse(text) as Record<string, unknown>;
        info = {
          name: typeof json['name'] === 'string' ? json['name'] : null,
          main: typeof json['main'] === 'string' ? json['main'] : null,
          exports: json['exports'] ?? null,
        };
      } catch {
        info = null;
      }
    }
    this.packages.set(dir, info);
    return info;
  }

  /** Entry of a package directory for a subpath (`.` or `./x`) via `exports`, then `main` (for `.`). */
  private packageEntry(dir: string, subpath: string): string | null {
    const info = this.readPackage(dir);
    if (info === null) return null;
    for (const target of exportTargets(info.exports, subpath)) {
      const path = normalize(join(dir, target));
      if (path === null) continue;
      const file = this.file(path);
      if (file !== null) return file;
    }
    if (subpath === '.' && info.main !== null) {
      const path = normalize(join(dir, info.main));
      if (path !== null) {
        const file = this.file(path) ?? this.index(path);
        if (file !== null) return file;
      }
    }
    return subpath === '.' ? this.index(dir) : null;
  }

  private findProjectPackage(name: string): string | undefined {
    if (this.projectPackages === null) {
      this.projectPackages = new Map();
      const dirs = new Set<string>(['']);
      for (const path of this.allPaths) {
        if (path.includes('node_modules/')) continue;
        let dir = posix.dirname(path);
        while (dir !== '.' && dir !== '' && !dirs.has(dir)) {
          dirs.add(dir);
          dir = posix.dirname(dir);
        }
      }
      for (const dir of [...dirs].sort()) {
        const info = this.readPackage(dir);
        if (info?.name && !this.projectPackages.has(info.name)) this.projectPackages.set(info.name, dir);
      }
    }
    return this.projectPackages.get(name);
  }
}

/** Candidate targets of a package.json `exports` value for a subpath, in condition order. */
function exportTargets(exportsField: unknown, subpath: string): string[] {
  if (exportsField === null || exportsField === undefined) return [];
  if (typeof exportsField === 'string' || Array.isArray(exportsField)) return subpath === '.' ? leaves(exportsField) : [];
  if (typeof exportsField !== 'object') return [];
  const map = exportsField as Record<string, unknown>;
  const keys = Object.keys(map);
  if (keys.length > 0 && keys.every((k) => !k.startsWith('.'))) return subpath === '.' ? leaves(map) : [];
  if (subpath in map) return leaves(map[subpath]);
  for (const key of keys) {
    const star = key.indexOf('*');
    if (star < 0) continue;
    const prefix = key.slice(0, star);
    const suffix = key.slice(star + 1);
    if (subpath.startsWith(prefix) && subpath.endsWith(suffix) && subpath.length >= prefix.length + suffix.length) {
      const middle = subpath.slice(prefix.length, subpath.length - suffix.length);
      return leaves(map[key]).map((t) => t.split('*').join(middle));
    }
  }
  return [];
}

function leaves(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(leaves);
  if (value === null || typeof value !== 'object') return [];
  const map = value as Record<string, unknown>;
  const out: string[] = [];
  for (const condition of CONDITIONS) if (condition in map) out.push(...leaves(map[condition]));
  for (const [key, inner] of Object.entries(map)) {
    if (!CONDITIONS.includes(key) && key !== 'types') out.push(...leaves(inner));
  }
  return out;
}

