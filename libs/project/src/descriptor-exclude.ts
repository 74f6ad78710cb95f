/**
 * The checks of `[sources].exclude` globs that the schema cannot express (break-it trial 48 and the
 * third trial, issue 30): a glob that is malformed or can never match, a glob that matches a whole
 * declared root, and globs that remove every code file of a code root without matching the root.
 * Globs are compiled as the walk compiles them (walk-rules.ts `skipRules`: picomatch, `dot: true`).
 */
import type { SourceIssue } from '@docforge/core';
import { walkFolders } from './bounded-walk.js';
import type { Checker } from './descriptor-check.js';
import { BUILTIN_CODE_EXTENSIONS } from './descriptor-state-sources.js';
import { DESCRIPTOR_FILE } from './descriptor-types.js';
import { compileExcludeGlob, extensionOf } from './walk-rules.js';

/** Most directory entries the code-removal scan reads per code root; past it no warning is given. */
const MAX_SCANNED_ENTRIES = 5_000;

/** A probe name no real glob names: a glob matching it, as a file and below a folder, matches every path of the root `.`. */
const PROBES = ['docforge-probe-q7z', 'docforge-probe-q7z/x', '.docforge-probe-q7z', 'docforge-probe-q7z.js'];

/** A user glob and its compiled form (picomatch, `dot: true`, as the walk compiles it). */
export interface CompiledGlob {
  glob: string;
  re: RegExp;
}

function warning(code: string, line: number | null, text: string): SourceIssue {
  return { severity: 'warning', code, message: `${DESCRIPTOR_FILE}:${line ?? ''}${line === null ? '' : ':'} ${text}`, path: DESCRIPTOR_FILE, line, node_id: null };
}

/**
 * An unescaped `[` with no `]` after it (picomatch then reads the `[` as a literal character), or a
 * `(` or `{` left open (picomatch then lets a `|` or `,` inside escape to the whole pattern:
 * `archive/(old|src` matched the code root `src`).
 */
function unclosedGroup(glob: string): boolean {
  let bracket = -1;
  let depth = 0;
  for (let i = 0; i < glob.length; i += 1) {
    const c = glob[i];
    if (c === '\\') i += 1;
    else if (bracket >= 0) {
      if (c === ']') bracket = -1;
    } else if (c === '[') bracket = i;
    else if (c === '(' || c === '{') depth += 1;
    else if ((c === ')' || c === '}') && depth > 0) depth -= 1;
  }
  return bracket >= 0 || depth > 0;
}

/**
 * Refuses an empty or malformed glob (an unclosed `[`, `{` or `(`: picomatch reads the first as a
 * literal character and compiles the others to a pattern that matches nothing), and warns
 * (`exclude_never_matches`) about a well-formed glob no project-relative path can match: a leading
 * `/`, a `..` or empty segment. Each at the item's own line.
 * @throws DocforgeError descriptor_invalid naming `sources.exclude` and the item's line
 */
export function checkExcludeGlobs(check: Checker, globs: readonly string[]): { warnings: SourceIssue[]; compiled: CompiledGlob[] } {
  const out: SourceIssue[] = [];
  const compiled: CompiledGlob[] = [];
  for (const glob of globs) {
    const line = check.itemLine('sources.exclude', glob);
    if (glob.trim() === '') check.fail('sources.exclude', `must not hold an empty glob, got ${JSON.stringify(glob)}`, line);
    const re = compileExcludeGlob(glob);
    compiled.push({ glob, re });
    if (unclosedGroup(glob) || re.source === '$^') {
      check.fail('sources.exclude', `glob ${JSON.stringify(glob)} is malformed (an unclosed "[", "{" or "("), so it matches nothing or only a literal name; close it, or escape the character as "\\\\["`, line);
    }
    const segments = glob.replace(/^!/, '').split('/');
    const why = glob.startsWith('/') ? 'starts with "/", but globs match project-relative paths'
      : segments.includes('..') ? 'has a ".." segment, but globs match paths inside the project'
      : glob === '.' || segments.slice(1).includes('.') ? 'has a "." segment, which the paths it is matched against never have (write "**" to mean everything)'
      : segments.slice(0, -1).includes('') ? 'has an empty segment ("//"), which no path has' : null;
    if (why !== null) out.push(warning('exclude_never_matches', line, `[sources].exclude glob ${JSON.stringify(glob)} can never match: it ${why}; it excludes nothing`));
  }
  return { warnings: out, compiled };
}

/** Whether a compiled glob matches the whole root `root` (for `.`: every probe path). */
function coversRoot(pattern: RegExp, root: string): boolean {
  return root === '.' ? PROBES.every((probe) => pattern.test(probe)) : pattern.test(root);
}

/**
 * One `exclude_covers_root` warning per declared root (content or code) that one of the
 * descriptor's own globs matches as a whole (break-it trial 48: `*`, `**` + `/*`, `!(x)`, the
 * negation `!docs/**`, which matches every path outside docs): the walk skips that root, so nothing
 * in it is indexed. The root `.` counts as covered when the glob matches every path at its top
 * (`**`, `*`). At the glob's line. Returns the warnings and the covered roots.
 */
export function excludedRootWarnings(check: Checker, globs: readonly CompiledGlob[], roots: readonly (readonly ['content' | 'code', readonly string[]])[]): { warnings: SourceIssue[]; covered: Set<string> } {
  const warnings: SourceIssue[] = [];
  const covered = new Set<string>();
  for (const { glob, re: pattern } of globs) {
    for (const [role, list] of roots) {
      for (const root of list) {
        if (!coversRoot(pattern, root)) continue;
        covered.add(`${role}:${root}`);
        warnings.push(warning('exclude_covers_root', check.itemLine('sources.exclude', glob), `[sources].exclude glob ${JSON.stringify(glob)} matches the whole ${role} root ${JSON.stringify(root)}: nothing in it is indexed (exclude globs skip what they match; a leading "!" matches every path that is not the rest)`));
      }
    }
  }
  return { warnings, covered };
}

/** The code files of one code root and which user globs remove them, by a bounded breadth-first scan. */
interface CodeScan {
  /** A code file no glob removes was seen (the scan stops there). */
  kept: boolean;
  /** Removed code files by the glob removing them (the file's or a folder's on the way). */
  removed: Map<string, string[]>;
  /** The scan stopped at its bound. */
  bounded: boolean;
}

function scanCodeRoot(root: string, codeRoot: string, patterns: readonly CompiledGlob[], skipped: (rel: string) => boolean): CodeScan {
  const removed = new Map<string, string[]>();
  const extensions = new Set(BUILTIN_CODE_EXTENSIONS);
  // Each folder carries the glob that removed it (null: none), which removes all below it.
  const end = walkFolders<string | null>(root, [{ rel: codeRoot, tag: null }], MAX_SCANNED_ENTRIES, (rel, entry, by) => {
    if (skipped(rel)) return undefined;
    const glob = by ?? patterns.find((p) => p.re.test(rel))?.glob ?? null;
    if (entry.isDirectory()) return { descend: glob };
    if (!entry.isFile() || !extensions.has(extensionOf(entry.name))) return undefined;
    if (glob === null) return 'stop';
    removed.set(glob, [...(removed.get(glob) ?? []), rel]);
    return undefined;
  });
  return { kept: end === 'stopped', removed, bounded: end === 'bounded' };
}

/**
 * One `exclude_removes_code` warning per code root (a folder; not one a glob covers as a whole)
 * whose every code file (an extension of a built-in code adapter) the descriptor's own globs
 * remove, though the root holds some (third trial 48: `lib/**` when all code is in lib, `*.js` on
 * a JS-only package): nothing of its code is indexed. At the line of the glob removing the most.
 * The scan skips the state dir, `.git` and `node_modules`, stops at the first kept code file and
 * gives up (no warning) past {@link MAX_SCANNED_ENTRIES} entries.
 */
export function removedCodeWarnings(check: Checker, root: string, patterns: readonly CompiledGlob[], codeRoots: readonly string[], stateDir: string, covered: ReadonlySet<string>): SourceIssue[] {
  if (patterns.length === 0) return [];
  const skipped = (rel: string): boolean => rel === stateDir || rel.startsWith(`${stateDir}/`) || /(?:^|\/)(?:\.git|node_modules)$/.test(rel);
  const out: SourceIssue[] = [];
  for (const codeRoot of codeRoots) {
    if (covered.has(`code:${codeRoot}`)) continue;
    const scan = scanCodeRoot(root, codeRoot, patterns, skipped);
    if (scan.kept || scan.bounded || scan.removed.size === 0) continue;
    const byGlob = [...scan.removed].sort((a, b) => b[1].length - a[1].length);
    const total = byGlob.reduce((sum, [, files]) => sum + files.length, 0);
    const named = byGlob.map(([glob]) => JSON.stringify(glob)).join(', ');
    const example = byGlob[0]![1][0]!;
    out.push(warning('exclude_removes_code', check.itemLine('sources.exclude', byGlob[0]![0]), `[sources].exclude ${byGlob.length === 1 ? `glob ${named} removes` : `globs ${named} remove`} every code file of the code root ${JSON.stringify(codeRoot)} (${total} ${total === 1 ? 'file' : 'files'}, such as ${JSON.stringify(example)}): none of its code is indexed; narrow the ${byGlob.length === 1 ? 'glob' : 'globs'} or drop the code root`));
  }
  return out;
}
