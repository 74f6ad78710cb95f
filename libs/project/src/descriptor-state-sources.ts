/**
 * Whether a state dir inside a root `.` holds project sources (issue 30, third trial 48:
 * `[state] dir = "lib"` on commander, whose code is lib/*.js, was accepted and every lib/*.js
 * dropped out of the index, since the walk never enters the state dir). A bounded, read-only scan.
 */
import { walkFolders } from './bounded-walk.js';
import { compileExcludeGlob, CONTENT_EXTENSIONS, extensionOf, isCodeManifest } from './walk-rules.js';

/**
 * The extensions every built-in code adapter reads (their manifests'; the adapters cannot be
 * imported here, libs/identity imports this lib). Pinned against the manifests by
 * test/issue-descriptor-never-works.test.ts.
 */
export const BUILTIN_CODE_EXTENSIONS: readonly string[] = Object.freeze([
  '.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs', '.py', '.go', '.rs', '.java', '.cs', '.rb', '.php',
  '.c', '.h', '.cc', '.cpp', '.cxx', '.hpp', '.hh', '.hxx',
]);

/** What DocForge itself writes at the top of its state dir (libs/fs-safe layout, renders, the parse cache): never a project source. */
const STATE_OWN: ReadonlySet<string> = new Set(['index', 'locks', 'changesets', 'previews', 'application', 'renders']);

/** Most directory entries one scan reads: past it the scan stops and reports what it found. */
const MAX_SCANNED_ENTRIES = 20_000;

/** What a scan found: up to three example paths and whether more were seen. */
export interface HeldSources {
  examples: string[];
  more: boolean;
}

/**
 * The files under `stateDir` the walk of a `role` root `.` would read as sources (a content
 * extension; a built-in code adapter's extension or a code manifest), leaving out what DocForge
 * writes there and what one of the user's exclude globs matches. Bounded by
 * {@link MAX_SCANNED_ENTRIES}; symbolic links are not followed; an unreadable folder is skipped.
 * @param stateDir project-relative POSIX path; `exclude` the user's own globs (strings only)
 * @returns null when it holds none
 */
export function stateDirSources(root: string, stateDir: string, role: 'content' | 'code', exclude: readonly unknown[]): HeldSources | null {
  const globs = exclude.filter((g): g is string => typeof g === 'string' && g !== '').map((glob) => {
    try {
      return compileExcludeGlob(glob);
    } catch {
      return null;
    }
  }).filter((re): re is RegExp => re !== null);
  const excluded = (rel: string): boolean => globs.some((re) => re.test(rel));
  const extensions = new Set(role === 'content' ? CONTENT_EXTENSIONS : BUILTIN_CODE_EXTENSIONS);
  const found: string[] = [];
  walkFolders(root, [{ rel: stateDir, tag: null }], MAX_SCANNED_ENTRIES, (rel, entry) => {
    const own = rel.slice(0, rel.lastIndexOf('/')) === stateDir && (STATE_OWN.has(entry.name) || entry.name.startsWith('parse-cache.sqlite'));
    if (own || excluded(rel)) return undefined;
    if (entry.isDirectory()) return { descend: null };
    if (entry.isFile() && (extensions.has(extensionOf(entry.name)) || (role === 'code' && isCodeManifest(entry.name)))) found.push(rel);
    return found.length > 3 ? 'stop' : undefined;
  });
  return found.length === 0 ? null : { examples: found.slice(0, 3).sort(), more: found.length > 3 };
}
