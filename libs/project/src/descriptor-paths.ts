/**
 * The path checks of `docforge.toml` that need the file system or path semantics, which the
 * descriptor schema cannot express: values relative and inside the project root (also after
 * resolving symbolic links), and the state dir a real directory that overlaps no source root.
 */
import { lstatSync, realpathSync } from 'node:fs';
import { isAbsolute, join, posix, sep } from 'node:path';
import { errors } from '@docforge/core';
import { DESCRIPTOR_FILE } from './descriptor-types.js';
import type { Checker } from './descriptor-check.js';
import { stateDirSources, type HeldSources } from './descriptor-state-sources.js';

/** C0 controls (NUL included) and DEL: no path value of the descriptor may hold one. */
const CONTROL_CHAR = /[\u0000-\u001f\u007f]/;

/**
 * Refuses a path or glob value holding a control character: a NUL can name no file (the file
 * system refuses it), and the others cannot be shown safely.
 * @throws DocforgeError descriptor_invalid naming `key`
 */
export function noControlChars(check: Checker, key: string, value: string): void {
  const control = CONTROL_CHAR.exec(value);
  if (control !== null) check.fail(key, `must not contain control characters (U+${control[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')} at offset ${control.index})`);
}

/** Whether `candidate` is `root` or lies under it (both absolute real paths). */
export function isInside(root: string, candidate: string): boolean {
  return candidate === root || candidate.startsWith(root.endsWith(sep) ? root : root + sep);
}

/**
 * Validates a project-relative path value: relative, no `..` segment, and its real path (of the
 * deepest existing ancestor, the missing rest appended) stays inside the root. Returns the normalized POSIX form (`.` for the root itself).
 * With `lexical` (view outputs) the file system is not consulted: a link at an output is refused by
 * the render, preview and status of that view only, never by the whole descriptor. `at`: the line
 * to name (an item's own, instead of the key's) and a remedy appended to every refusal.
 * @throws DocforgeError descriptor_invalid naming `key`
 */
export function relativePath(check: Checker, root: string, value: unknown, key: string, allowRoot: boolean, lexical = false, at?: { line: number | null; remedy: string }): string {
  const fail = (message: string): never => check.fail(key, at === undefined ? message : `${message}; ${at.remedy}`, at?.line);
  if (typeof value !== 'string' || value.trim() === '') return fail('must be a non-empty string');
  const control = CONTROL_CHAR.exec(value);
  if (control !== null) fail(`must not contain control characters (U+${control[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')} at offset ${control.index})`);
  if (isAbsolute(value) || /^[A-Za-z]:/.test(value) || value.startsWith('\\')) fail(`must be a relative path, got "${value}"`);
  if (value.includes('\\')) fail(`must use forward slashes, got "${value}"`);
  if (value.split('/').includes('..')) fail(`must not escape the project root ("..") in "${value}"`);
  let normalized = posix.normalize(value);
  while (normalized.endsWith('/') && normalized.length > 1) normalized = normalized.slice(0, -1);
  if (normalized === '.' && !allowRoot) fail('must not be the project root itself');
  // The state dir gets the stricter check of checkStateDirReal (no link at all, path_outside_root).
  const real = key === 'state.dir' || lexical ? null : realThroughAncestor(root, normalized);
  if (real !== null && !isInside(root, real)) fail(`resolves outside the project root ("${value}" -> ${real})`);
  return normalized;
}

/**
 * The real absolute path of a root-relative path that need not exist: the deepest existing
 * ancestor is resolved with realpath and the missing rest appended (a missing tail holds no link).
 * @returns null when not even the root can be resolved
 */
function realThroughAncestor(root: string, rel: string): string | null {
  const segments = rel === '.' ? [] : rel.split('/');
  for (let existing = segments.length; existing >= 0; existing -= 1) {
    try {
      return join(realpathSync(join(root, ...segments.slice(0, existing))), ...segments.slice(existing));
    } catch {
      // missing (or not a directory): try the parent
    }
  }
  return null;
}

/** The first existing component of `rel` below `root` that is a link or not a directory (lstat only). */
function firstNonDirectory(root: string, rel: string): { path: string; why: string } | null {
  const segments = rel === '.' ? [] : rel.split('/');
  for (let i = 1; i <= segments.length; i += 1) {
    let st;
    try {
      st = lstatSync(join(root, ...segments.slice(0, i)));
    } catch {
      return null; // the rest does not exist yet and holds no link
    }
    const at = segments.slice(0, i).join('/');
    if (st.isSymbolicLink()) return { path: at, why: 'is a symbolic link' };
    if (!st.isDirectory()) return { path: at, why: 'is not a directory' };
  }
  return null;
}

/**
 * The state dir is created and emptied by DocForge, so it must be a real directory inside the
 * root reached through no symbolic link (checked on the components that exist; nothing is created).
 * @throws DocforgeError `path_outside_root` naming `[state].dir`, its line and the offending component
 */
export function checkStateDirReal(check: Checker, root: string, stateDir: string): void {
  const problem = firstNonDirectory(root, stateDir);
  if (problem === null) return;
  const line = check.lineOf('state.dir');
  const real = realThroughAncestor(root, stateDir);
  const where = real !== null && !isInside(root, real) ? `resolves outside the project root ("${stateDir}" -> ${real})` : `passes through "${problem.path}", which ${problem.why}`;
  throw errors.pathOutsideRoot(
    `${DESCRIPTOR_FILE}:${line ?? ''}${line === null ? '' : ':'} [state].dir "${stateDir}" ${where}; DocForge creates and deletes files in its state dir, so it must be a real directory inside the project root; nothing was written.`,
    { path: problem.path, key: 'state.dir', line },
  );
}

/**
 * The root-relative real path of an existing path (null when it does not exist or leaves the root).
 * A state dir that does not exist yet but passes through a link is refused by checkStateDirReal.
 */
function realRelative(root: string, rel: string): string | null {
  try {
    const rootReal = realpathSync(root);
    const real = realpathSync(rel === '.' ? root : join(root, rel));
    if (real === rootReal) return '.';
    if (!isInside(rootReal, real)) return null;
    return real.slice(rootReal.length + (rootReal.endsWith(sep) ? 0 : 1)).split(sep).join('/');
  } catch {
    return null;
  }
}

/** True when `a` equals `b` or one contains the other (project-relative POSIX paths, `.` = root). */
function overlaps(a: string, b: string): 'equal' | 'inside' | 'contains' | null {
  if (a === b) return 'equal';
  if (b === '.' || a.startsWith(`${b}/`)) return 'inside';
  if (a === '.' || b.startsWith(`${a}/`)) return 'contains';
  return null;
}

/**
 * What a project path reaches through symbolic links that its written form hides: the
 * version-control segment (`.git`, ...) of its real path, or `state` when the real path lies in the
 * state dir (`stateDir`, when given); null when the path does not exist, is no link away from its
 * real path, or reaches neither (break-it trial 50: `include_dirs = ["lngit"]` with `lngit -> .git`).
 */
export function linkedInto(root: string, rel: string, stateDir?: string): { real: string; into: string } | null {
  const real = realRelative(root, rel);
  if (real === null || real === rel) return null;
  const vcs = vcsSegment(real);
  if (vcs !== undefined) return { real, into: vcs };
  if (stateDir !== undefined && (real === stateDir || real.startsWith(`${stateDir}/`))) return { real, into: 'state' };
  return null;
}

/** Folders of version-control systems (lower case), never a state dir, a view output or a part of one. */
const VCS_FOLDERS: ReadonlySet<string> = new Set(['.git', '.hg', '.svn', '.bzr', '_darcs', '.jj', 'cvs']);

/**
 * The first segment of a project-relative POSIX path that names version-control metadata (`.git`,
 * `.hg`, `.svn`, `.bzr`, `_darcs`, `.jj`, `CVS`), compared case-insensitively (`.GIT` is `.git` on
 * a case-insensitive file system), or undefined.
 */
export function vcsSegment(rel: string): string | undefined {
  return rel.split('/').find((segment) => VCS_FOLDERS.has(segment.toLowerCase()));
}

/**
 * The state dir (whose files DocForge deletes) must not overlap canonical sources, nor lie in
 * version-control metadata (`.git`, `.hg`, ...): it may not
 * equal, contain, or lie inside any content or code root, compared both lexically and after
 * realpath. A root of `.` (the whole project) is the one exception for "inside": the state dir is
 * then always excluded from the walk, and no other placement would be possible; but a state dir
 * there that already holds files the walk of that root would read (issue 30: `[state] dir = "lib"`
 * on a package whose code is lib/*.js), outside DocForge's own folders and the user's `exclude`
 * globs, is refused too, naming up to three of them.
 * @throws DocforgeError descriptor_invalid naming `state.dir` (line of `[state].dir`, or of the
 *   offending root list when the state dir is the default `.docforge`)
 */
export function checkStateDirPlacement(check: Checker, root: string, stateDir: string, declared: boolean, contentRoots: readonly string[], codeRoots: readonly string[], exclude: readonly unknown[]): void {
  const held = new Map<string, HeldSources | null>();
  if (stateDir === '.') check.fail('state.dir', 'must not be the project root itself');
  // Version-control metadata is never a state dir: DocForge writes and deletes files there.
  const vcs = vcsSegment(stateDir);
  if (vcs !== undefined) check.fail('state.dir', `"${stateDir}" lies in "${vcs}", version-control metadata; DocForge deletes files in its state dir, so it must not be there`);
  const stateReal = realRelative(root, stateDir);
  const lists: [string, readonly string[]][] = [['sources.content_roots', contentRoots], ['sources.code_roots', codeRoots]];
  for (const [listKey, roots] of lists) {
    for (const rootRel of roots) {
      const rootReal = realRelative(root, rootRel);
      const pairs: [string, string][] = [[stateDir, rootRel]];
      if (stateReal !== null && rootReal !== null) pairs.push([stateReal, rootReal]);
      for (const [stateForm, rootForm] of pairs) {
        const relation = overlaps(stateForm, rootForm);
        const kind = listKey === 'sources.content_roots' ? 'content root' : 'code root';
        // A state dir through a link is refused next (checkStateDirReal), never scanned: the scan would list what lies beyond the link.
        if (relation === 'inside' && rootForm === '.' && firstNonDirectory(root, stateDir) === null) {
          held.set(kind, held.get(kind) ?? stateDirSources(root, stateDir, kind === 'content root' ? 'content' : 'code', exclude));
          const sources = held.get(kind);
          if (sources === null || sources === undefined) continue;
          const shown = `${sources.examples.map((p) => `"${p}"`).join(', ')}${sources.more ? ', ...' : ''}`;
          check.fail('state.dir', `"${stateDir}" lies inside the ${kind} "." and holds project sources the walk would read (${shown}); the walk never enters the state dir, so they would drop out of the index, and DocForge deletes files there: choose a folder that holds no sources (the default is ".docforge")`, declared ? undefined : (check.lineOf(listKey) ?? null));
        }
        if (relation === null || (relation === 'inside' && rootForm === '.')) continue;
        const how = relation === 'equal' ? 'is the same directory as' : relation === 'inside' ? 'lies inside' : 'contains';
        const via = stateForm === stateDir && rootForm === rootRel ? '' : ` (after resolving symbolic links: "${stateForm}" vs "${rootForm}")`;
        const line = declared ? undefined : (check.lineOf(listKey) ?? null);
        check.fail('state.dir', `"${stateDir}" ${how} the ${kind} "${rootRel}"${via}; DocForge deletes files in its state dir, so it must not overlap canonical sources`, line);
      }
    }
  }
}
