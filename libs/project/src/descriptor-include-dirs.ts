/**
 * The checks of `[adapter.c] include_dirs` (issue 30, helper fx30): the C/C++ linker searches
 * these folders for `#include` targets among the indexed files (module-resolution's cpp-resolve.ts).
 * A value that can never name such a folder is `descriptor_invalid` at the item's own line, with a
 * remedy: an empty string, an absolute path, a `..` escape, a path leaving the root through a link,
 * a folder in the state dir or in version-control metadata (never indexed). A folder that is not
 * there (yet), or that no code root holds, is a warning: it may be generated later, or the user
 * may add the code root; until then no include resolves into it.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { SourceIssue } from '@docforge/core';
import type { Checker } from './descriptor-check.js';
import { linkedInto, relativePath, vcsSegment } from './descriptor-paths.js';
import { DESCRIPTOR_FILE } from './descriptor-types.js';

const KEY = 'adapter.c.include_dirs';

/** What to do instead, appended to every refusal. */
const REMEDY = 'list folders inside the project, relative to its root (e.g. "include"); #include searches them among the indexed files';

function warning(code: string, line: number | null, text: string): SourceIssue {
  return { severity: 'warning', code, message: `${DESCRIPTOR_FILE}:${line ?? ''}${line === null ? '' : ':'} ${text}`, path: DESCRIPTOR_FILE, line, node_id: null };
}

/** Whether `dir` is `root` or lies below it (project-relative POSIX paths, `.` = the root). */
function within(dir: string, root: string): boolean {
  return root === '.' || dir === root || dir.startsWith(`${root}/`);
}

/**
 * Checks and normalizes `[adapter.c] include_dirs` (`.` for the root itself, trailing `/` cut).
 * Returns the folders and the `include_dir_missing` / `include_dir_not_indexed` warnings.
 * @throws DocforgeError descriptor_invalid naming `adapter.c.include_dirs` at the item's line
 */
export function checkIncludeDirs(check: Checker, root: string, items: readonly unknown[], stateDir: string, codeRoots: readonly string[]): { dirs: string[]; warnings: SourceIssue[] } {
  const dirs: string[] = [];
  const warnings: SourceIssue[] = [];
  const seen = new Map<string, number>();
  for (const item of items) {
    const nth = (seen.get(String(item)) ?? 0) + 1;
    seen.set(String(item), nth);
    const line = typeof item === 'string' ? check.itemLine(KEY, item, nth) : check.lineOf(KEY);
    const dir = relativePath(check, root, item, KEY, true, false, { line, remedy: REMEDY });
    const shown = JSON.stringify(item);
    if (dir === stateDir || dir.startsWith(`${stateDir}/`)) check.fail(KEY, `${shown} lies in the state dir "${stateDir}", which DocForge never indexes; ${REMEDY}`, line);
    const vcs = vcsSegment(dir);
    if (vcs !== undefined) check.fail(KEY, `${shown} lies in "${vcs}", version-control metadata, which DocForge never indexes; ${REMEDY}`, line);
    const linked = linkedInto(root, dir, stateDir);
    if (linked !== null) check.fail(KEY, `${shown} leads through a symbolic link to "${linked.real}", which lies in ${linked.into === 'state' ? `the state dir "${stateDir}",` : `"${linked.into}", version-control metadata,`} which DocForge never indexes; ${REMEDY}`, line);
    if (!dirs.includes(dir)) dirs.push(dir);
    let folder = false;
    try {
      folder = statSync(join(root, dir)).isDirectory();
    } catch {
      // not there
    }
    if (!folder) warnings.push(warning('include_dir_missing', line, `[adapter.c].include_dirs ${shown} is not a folder of the project (nothing is there, or a file is), so no #include resolves into it; create it, or remove it from the list`));
    else if (!codeRoots.some((codeRoot) => within(dir, codeRoot))) warnings.push(warning('include_dir_not_indexed', line, `[adapter.c].include_dirs ${shown} lies in no code root (${codeRoots.length === 0 ? 'none is declared' : codeRoots.map((r) => JSON.stringify(r)).join(', ')}), so its headers are not indexed and no #include resolves into it; add it to [sources].code_roots`));
  }
  return { dirs, warnings };
}
