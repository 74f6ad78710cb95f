/**
 * `compilerOptions.paths` and `baseUrl` of the tsconfig.json or jsconfig.json nearest to a file
 * (its directory, then each parent up to the project root), with `extends` chains followed (relative
 * paths and packages under a node_modules folder inside the project; at most
 * {@link MAX_EXTENDS_DEPTH} configs). Read through the linker's {@link ModuleResolver}; JSON with
 * comments and trailing commas is parsed by jsonc-parser ({@link parseConfigText}), so linking
 * loads the TypeScript compiler only for a config text jsonc-parser rejects (issue 14: an edit of
 * documentation never loads it).
 */
import { posix } from 'node:path';
import { parse as parseJsonc, type ParseError } from 'jsonc-parser';
import type { ModuleResolver } from '@docforge/core';
import { joinRelative as join, normalizeRelative as normalize } from './rel-path.js';

/** Longest `extends` chain followed from one config. */
export const MAX_EXTENDS_DEPTH = 8;

const CONFIG_NAMES = ['tsconfig.json', 'jsconfig.json'];

/** The module aliases one config declares: `paths` patterns and `baseUrl`, as project-relative directories. */
export interface AliasConfig {
  /** Project-relative path of the config file that applies ('' dir files as `tsconfig.json`). */
  file: string;
  /** Project-relative `baseUrl` directory ('' for the root), or null when none is set. */
  baseUrl: string | null;
  /** Directory `paths` substitutions are relative to (baseUrl, else the config that declares `paths`). */
  pathsBase: string;
  /** `paths` patterns (at most one `*` each) with their substitutions, longest prefix first. */
  paths: { pattern: string; prefix: string; suffix: string; targets: string[] }[];
}

/**
 * The merged options of one config and its `extends` chain that the resolvers use. Directories are
 * project-relative, each resolved against the config that declares it, as TypeScript does.
 */
export interface RawOptions {
  baseUrl: string | null;
  paths: Record<string, string[]> | null;
  pathsDir: string;
  /** `compilerOptions.outDir`, or null when none is set (or it leaves the project). */
  outDir: string | null;
  /** `compilerOptions.rootDir`, or null when none is set (or it leaves the project). */
  rootDir: string | null;
  /** `include` entries as project-relative patterns (empty when one is no string or leaves the project), or null when none is set. */
  include: string[] | null;
}

/** Finds and reads the alias config that applies to each directory (cached). */
export class AliasConfigs {
  private readonly byDir = new Map<string, AliasConfig | null>();
  private readonly byFile = new Map<string, RawOptions | null | undefined>();

  /**
   * @param lenient reads a config text jsonc-parser rejects, as TypeScript's own reader would (see
   *   {@link parseConfigText}); omitted, such a text is unreadable
   */
  constructor(private readonly resolver: ModuleResolver, private readonly lenient?: LenientConfigReader) {}

  /** The alias config for files in a project-relative directory ('' for the root), or null. */
  forDirectory(dir: string): AliasConfig | null {
    const cached = this.byDir.get(dir);
    if (cached !== undefined) return cached;
    let result: AliasConfig | null = null;
    let found = false;
    for (const name of CONFIG_NAMES) {
      const file = dir === '' ? name : `${dir}/${name}`;
      const options = this.read(file, 0);
      if (options === undefined) continue;
      found = true;
      result = options === null ? null : toAliasConfig(file, options);
      break;
    }
    if (!found && dir !== '') {
      const parent = posix.dirname(dir);
      result = this.forDirectory(parent === '.' ? '' : parent);
    }
    this.byDir.set(dir, result);
    return result;
  }

  /**
   * The merged options of the config file at a project-relative path and its `extends` chain
   * (cached): undefined when the file is absent, null when it is present but unreadable as a config.
   */
  options(file: string): RawOptions | null | undefined {
    if (!this.byFile.has(file)) this.byFile.set(file, this.read(file, 0));
    return this.byFile.get(file);
  }

  /**
   * The merged options of a config and its `extends` chain: undefined when the file is absent,
   * null when it is present but unreadable as a config.
   */
  private read(file: string, depth: number): RawOptions | null | undefined {
    const text = this.resolver.readText(file);
    if (text === null) return undefined;
    const parsed = parseConfigText(text, this.lenient);
    if (parsed === null) return null;
    const json = parsed as { extends?: unknown; compilerOptions?: Record<string, unknown> };
    const dir = posix.dirname(file) === '.' ? '' : posix.dirname(file);
    let options: RawOptions = { baseUrl: null, paths: null, pathsDir: dir, outDir: null, rootDir: null, include: null };
    if (depth < MAX_EXTENDS_DEPTH) {
      const bases = typeof json.extends === 'string' ? [json.extends] : Array.isArray(json.extends) ? json.extends : [];
      for (const base of bases) {
        if (typeof base !== 'string') continue;
        const baseFile = this.extendsTarget(dir, base);
        const inherited = baseFile === null ? undefined : this.read(baseFile, depth + 1);
        if (inherited) options = { ...options, ...definedOnly(inherited) };
      }
    }
    const compiler = json.compilerOptions ?? {};
    if (typeof compiler['baseUrl'] === 'string') options.baseUrl = normalize(join(dir, compiler['baseUrl']));
    for (const key of ['outDir', 'rootDir'] as const) {
      const value = compiler[key];
      if (typeof value === 'string') options[key] = normalize(join(dir, value));
    }
    const include = (json as { include?: unknown }).include;
    if (Array.isArray(include)) {
      const entries = include.map((entry) => (typeof entry === 'string' ? normalize(join(dir, entry)) : null));
      options.include = entries.every((entry) => entry !== null) ? entries : [];
    }
    const paths = compiler['paths'];
    if (paths !== null && typeof paths === 'object' && !Array.isArray(paths)) {
      const clean: Record<string, string[]> = {};
      for (const [pattern, targets] of Object.entries(paths as Record<string, unknown>)) {
        if (Array.isArray(targets)) clean[pattern] = targets.filter((t): t is string => typeof t === 'string');
      }
      options.paths = clean;
      options.pathsDir = dir;
    }
    return options;
  }

  /** The project-relative file an `extends` value names, or null. */
  private extendsTarget(dir: string, value: string): string | null {
    const withJson = (p: string): string => (p.endsWith('.json') ? p : `${p}.json`);
    if (value.startsWith('./') || value.startsWith('../')) {
      return normalize(join(dir, withJson(value)));
    }
    if (value.startsWith('/')) return null;
    for (let current = dir; ; current = posix.dirname(current) === '.' ? '' : posix.dirname(current)) {
      for (const candidate of [withJson(value), `${value}/tsconfig.json`]) {
        const file = normalize(join(join(current, 'node_modules'), candidate));
        if (file !== null && this.resolver.readText(file) !== null) return file;
      }
      if (current === '') return null;
    }
  }
}

function definedOnly(options: RawOptions): Partial<RawOptions> {
  const out: Partial<RawOptions> = {};
  if (options.baseUrl !== null) out.baseUrl = options.baseUrl;
  if (options.paths !== null) {
    out.paths = options.paths;
    out.pathsDir = options.pathsDir;
  }
  if (options.outDir !== null) out.outDir = options.outDir;
  if (options.rootDir !== null) out.rootDir = options.rootDir;
  if (options.include !== null) out.include = options.include;
  return out;
}

function toAliasConfig(file: string, options: RawOptions): AliasConfig | null {
  if (options.baseUrl === null && options.paths === null) return null;
  const paths: AliasConfig['paths'] = [];
  for (const [pattern, targets] of Object.entries(options.paths ?? {})) {
    const star = pattern.indexOf('*');
    if (star >= 0 && pattern.indexOf('*', star + 1) >= 0) continue;
    paths.push({
      pattern,
      prefix: star < 0 ? pattern : pattern.slice(0, star),
      suffix: star < 0 ? '' : pattern.slice(star + 1),
      targets,
    });
  }
  // TypeScript picks the matching pattern with the longest prefix; exact patterns beat wildcards.
  paths.sort((a, b) => b.prefix.length - a.prefix.length || Number(a.pattern.includes('*')) - Number(b.pattern.includes('*')));
  return { file, baseUrl: options.baseUrl, pathsBase: options.baseUrl ?? options.pathsDir, paths };
}

/**
 * The candidate project-relative paths of a specifier under a config's `paths`, in order, with
 * the pattern that matched; null when no pattern matches.
 */
export function pathCandidates(config: AliasConfig, specifier: string): { pattern: string; candidates: string[] } | null {
  for (const entry of config.paths) {
    const wildcard = entry.pattern.includes('*');
    if (!wildcard && specifier !== entry.pattern) continue;
    if (wildcard && !(specifier.startsWith(entry.prefix) && specifier.endsWith(entry.suffix)
      && specifier.length >= entry.prefix.length + entry.suffix.length)) continue;
    const middle = wildcard ? specifier.slice(entry.prefix.length, specifier.length - entry.suffix.length) : '';
    const candidates: string[] = [];
    for (const target of entry.targets) {
      const path = normalize(join(config.pathsBase, target.split('*').join(middle)));
      if (path !== null) candidates.push(path);
    }
    return { pattern: entry.pattern, candidates };
  }
  return null;
}


/**
 * A tsconfig/jsconfig text as an object, or null when it is not one, as TypeScript's
 * `parseConfigFileTextToJson` reads it (a syntax error, or a top level that is not an object,
 * gives null). jsonc-parser reads what it can (JSON with comments and trailing commas; a leading
 * byte order mark; an empty or blank text is `{}`), so linking does not load the compiler; a text
 * it rejects, which TypeScript's more lenient reader may still accept (`.5`, a raw tab in a
 * string, a no-break space as white space, a `#!` line), is read by the compiler, loaded then.
 */
export function parseConfigText(text: string, lenient?: LenientConfigReader): Record<string, unknown> | null {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (body.trim() === '') return {};
  const problems: ParseError[] = [];
  const value: unknown = parseJsonc(body, problems, { allowTrailingComma: true, disallowComments: false, allowEmptyContent: false });
  if (problems.length === 0) return isObject(value) ? value : null;
  if (lenient === undefined) return null;
  const parsed = lenient(text);
  return isObject(parsed) ? parsed : null;
}

/**
 * Reads a config text as TypeScript's `parseConfigFileTextToJson` does: the parsed value, or
 * undefined on a syntax error. The TypeScript adapter supplies it (it loads the compiler only then).
 */
export type LenientConfigReader = (text: string) => unknown;

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
