/**
 * Build output back to source (issue 30): a path inside the `outDir` of a tsconfig.json is mapped
 * to the path under its `rootDir` that the compiler emits there (`dist/index.js` ↔ `src/index.ts`
 * for `outDir: "dist"`, `rootDir: "src"`). The rule is the compiler's own, so the mapping is proven
 * by the project's config, never guessed from folder names: the tsconfig.json must lie in a folder
 * that holds the output path, declare (itself or through its `extends` chain) an `outDir` holding
 * the path, and name the root either as `rootDir` or, without one, as its single `include` entry
 * when that entry is a plain folder (`"src"`, `"src/**"`, `"src/**\/*"`: TypeScript's default root
 * is the common folder of the inputs, which such an `include` holds). Without all of that the path
 * maps to nothing and its import stays unresolved (and counted).
 */
import { posix } from 'node:path';
import type { AliasConfigs } from './tsconfig.js';
import { joinRelative as join } from './rel-path.js';

/** One proven output-to-source mapping: project-relative folders. */
interface OutputRoot {
  outDir: string;
  rootDir: string;
}

/** Maps project paths inside a tsconfig's `outDir` back to their source paths (cached per folder). */
export class OutDirMap {
  private readonly byDir = new Map<string, OutputRoot | null>();

  /** @param configs the config reader of the resolver (its `options` are cached per file) */
  constructor(private readonly configs: AliasConfigs) {}

  /**
   * The source path the compiler emits as `path` (extension unchanged: the caller tries the source
   * extensions a written `.js` or `.d.ts` stands for), or null when no tsconfig.json above `path`
   * proves an `outDir`/root pair holding it.
   */
  sourceOf(path: string): string | null {
    for (let dir = parentOf(path); dir !== null; dir = dir === '' ? null : parentOf(dir)) {
      const root = this.rootFor(dir);
      if (root === null || !(path.startsWith(`${root.outDir}/`))) continue;
      return join(root.rootDir, path.slice(root.outDir.length + 1));
    }
    return null;
  }

  /** The mapping the tsconfig.json of exactly this folder proves, or null. */
  private rootFor(dir: string): OutputRoot | null {
    const cached = this.byDir.get(dir);
    if (cached !== undefined) return cached;
    const options = this.configs.options(join(dir, 'tsconfig.json'));
    let result: OutputRoot | null = null;
    if (options && options.outDir !== null && options.outDir !== '') {
      const rootDir = options.rootDir ?? singleIncludeFolder(options.include);
      // A root inside the output folder (or the same folder) emits over its own sources: nothing to map.
      if (rootDir !== null && rootDir !== options.outDir && !rootDir.startsWith(`${options.outDir}/`)) result = { outDir: options.outDir, rootDir };
    }
    this.byDir.set(dir, result);
    return result;
  }
}

/** The folder of a single plain `include` entry (`src`, `src/**`, `src/**\/*`), or null. */
function singleIncludeFolder(include: string[] | null): string | null {
  if (include === null || include.length !== 1) return null;
  const folder = include[0]!.replace(/\/\*\*(\/\*)?$/, '');
  return /[*?[\]{}]/.test(folder) || /\.[a-z]+$/i.test(folder) ? null : folder;
}

function parentOf(path: string): string | null {
  if (path === '') return null;
  const parent = posix.dirname(path);
  return parent === '.' ? '' : parent;
}
