/**
 * The source walk's rules (walk.ts), shared by the walk, the code path matcher and the single-path
 * classifier: size limits, source extensions and manifests, the skip rules (exclude globs, state
 * dir, `.git`) and nested roots.
 */
import picomatch from 'picomatch';
import type { SourceIssue } from '@docforge/core';
import type { Descriptor } from './descriptor-types.js';

/** Largest content source (Markdown/TOML) returned as an entry, in bytes (16 MiB); larger files yield `source_too_large`. */
export const MAX_CONTENT_SOURCE_BYTES = 16 * 1024 * 1024;

/** Largest code source returned as an entry, in bytes (4 MiB); larger files yield `source_too_large`. */
export const MAX_CODE_SOURCE_BYTES = 4 * 1024 * 1024;

/** File extensions that content roots contribute. */
export const CONTENT_EXTENSIONS: readonly string[] = Object.freeze(['.md', '.markdown', '.toml']);

/** A file name's extension, lowercased with its dot (`.md`), or '' (none, or a dot file such as `.env`). */
export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? '' : name.slice(dot).toLowerCase();
}

/**
 * Whether a file name is a manifest code resolution reads (package.json `main`/`exports`/`bin`,
 * tsconfig.json/jsconfig.json `paths`/`baseUrl` and the `tsconfig.*.json` they extend): such files
 * join the walk of code roots, and those at the project root join it too, so an edit to one
 * changes the cheap identity and triggers a rebuild.
 */
export function isCodeManifest(name: string): boolean {
  return name === 'package.json' || /^(?:tsconfig|jsconfig)(?:\.[^/]*)?\.json$/.test(name);
}

/** A walk finding about a path (no line, no node). */
export function issue(severity: SourceIssue['severity'], code: string, path: string, message: string): SourceIssue {
  return { severity, code, message, path, line: null, node_id: null };
}

/** The walk's skip rules over project-relative POSIX paths. */
export interface SkipRules {
  /** Whether an exclude glob matches the path. */
  excluded: (rel: string) => boolean;
  /** Whether the walk skips this directory (the state dir or below it, or excluded). */
  skipDir: (rel: string) => boolean;
  /** Whether the path, or a directory above it, would be skipped (also `.git`): what a link may not reach. */
  skippedPath: (rel: string) => boolean;
}

/**
 * An `[sources].exclude` glob compiled as the walk matches it (picomatch, `dot: true`, on
 * project-relative POSIX paths). A glob ending in `/` (`node_modules/`, `src/ledger/`,
 * the .gitignore way to name a folder) names that folder and everything below it: picomatch alone
 * matches it only against a path ending in `/`, which the walk never tests, so it excluded nothing
 * (break-it trial of stop 49).
 * @throws whatever picomatch throws on a glob it cannot compile
 */
export function compileExcludeGlob(glob: string): RegExp {
  if (!glob.endsWith('/') || glob === '/') return picomatch.makeRe(glob, { dot: true });
  const folder = picomatch.makeRe(glob.slice(0, -1), { dot: true });
  const below = picomatch.makeRe(`${glob}**`, { dot: true });
  return new RegExp(`(?:${folder.source})|(?:${below.source})`);
}

/**
 * The first `[sources].exclude` glob of the descriptor that matches a project-relative POSIX path
 * (`build/**` for `build/lib/x.js`), or of a folder above it (`vendor` for `vendor/x.rb`: the walk
 * skips that folder), or null. A path in the state dir, which the walk never enters
 * whatever the globs say, is named `[state].dir "DIR"` instead (issue 30: the state dir's own
 * implicit glob `DIR/**` is not one the user wrote). Pure; compiles each glob once per call of this factory.
 */
export function excludeGlobOf(desc: Descriptor): (rel: string) => string | null {
  const patterns = desc.sources.exclude.map((glob) => ({ glob, re: compileExcludeGlob(glob) }));
  const state = desc.state.dir;
  const matching = (rel: string): string | null => patterns.find((pattern) => pattern.re.test(rel))?.glob ?? null;
  return (rel) => {
    if (rel === state || rel.startsWith(`${state}/`)) return `[state].dir ${JSON.stringify(state)}`;
    // The walk skips a folder a glob matches and all below it (`vendor` leaves out vendor/x.rb): its folders first, as the walk meets them.
    for (let slash = rel.indexOf('/'); slash > 0; slash = rel.indexOf('/', slash + 1)) {
      const glob = matching(rel.slice(0, slash));
      if (glob !== null) return glob;
    }
    return matching(rel);
  };
}

/** The walk's skip rules: exclude globs, the state dir, and `.git` (for links and `codeSourcePathMatcher`). */
export function skipRules(desc: Descriptor): SkipRules {
  // One compiled regex per glob; testing them directly is ~3x faster than picomatch's matcher wrapper.
  const patterns = desc.sources.exclude.map(compileExcludeGlob);
  const excluded = (rel: string): boolean => {
    for (const pattern of patterns) if (pattern.test(rel)) return true;
    return false;
  };
  const stateDir = desc.state.dir;
  const stateDirSlash = `${stateDir}/`;
  const skipDir = (rel: string): boolean =>
    rel === stateDir || rel.startsWith(stateDirSlash) || (rel !== '' && excluded(rel));
  /** True when a project-relative path, or any directory above it, would be skipped by the walk. */
  const skippedPath = (rel: string): boolean => {
    if (rel === '') return false;
    if (skipDir(rel) || rel === '.git' || rel.startsWith('.git/') || rel.includes('/.git/') || rel.endsWith('/.git')) return true;
    for (let slash = rel.indexOf('/'); slash > 0; slash = rel.indexOf('/', slash + 1)) if (skipDir(rel.slice(0, slash))) return true;
    return false;
  };
  return { excluded, skipDir, skippedPath };
}

/** Drops roots nested inside another root of the same list (walked once through the outer root). */
export function nonNested(roots: readonly string[]): string[] {
  if (roots.includes('.')) return ['.'];
  return roots.filter((candidate) => !roots.some((other) => other !== candidate && candidate.startsWith(`${other}/`)));
}
