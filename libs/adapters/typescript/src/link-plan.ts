/**
 * Which files an incremental link must link again (issue 14): a file's link output depends only on
 * its own link data and on the modules its specifiers reach, directly or through re-exports and
 * bindings, so a change can affect only the changed, added and removed files and the files that
 * reach them. Package lookups go by directory, so a changed set of directories links everything.
 */
import { posix } from 'node:path';
import type { PartialLinkPlan } from '@docforge/core';
import { isTsLinkData, type TsLinkData } from '@docforge/ts-link-model';

/**
 * What linking another file can read of a file's link data, as a comparable string: the whole link
 * data except `calls`, which only the linking of the file itself reads (`linkCalls` of its own
 * module). Built from the link data object itself, so a field added to {@link TsLinkData} is part of
 * it. Equal strings mean importers link exactly as before; a different key order only makes them
 * unequal (importers are linked again).
 */
export function importerSurface(data: TsLinkData): string {
  const { calls, ...rest } = data;
  return JSON.stringify(rest);
}

/**
 * The changed files (present before and now) whose link data differs from the previous call's only
 * in what the file's own linking reads ({@link importerSurface}): their importers need no linking.
 */
export function quietChanges(plan: PartialLinkPlan, current: (path: string) => TsLinkData | null): Set<string> {
  const quiet = new Set<string>();
  if (plan.previousLinkData === undefined) return quiet;
  for (const path of plan.changed) {
    const before = plan.previousLinkData.get(path);
    const now = current(path);
    if (!plan.previous.has(path) || now === null || !isTsLinkData(before)) continue;
    if (before === now || importerSurface(before) === importerSurface(now)) quiet.add(path);
  }
  return quiet;
}

/**
 * The files to link again: the plan's changed files, added files, removed files (as seeds) and
 * every file reaching one of them over the previous import graph (files still present) or the
 * current one (computed only for changed files when no file was added or removed); null (link
 * all) when the directories holding files changed. A seed in `quiet` (a changed file whose
 * importers read nothing that changed) is linked itself but reaches no importer on its own.
 * Exact for added and removed files: a specifier resolves to the first existing file of a fixed
 * candidate list (candidates.ts; e.g. `x.ts`, `x.tsx`, `x.d.ts`, `x.js` for `./x.js`), so its answer
 * changes only when its previous target is removed (a previous dep) or a file before it in the list
 * is added (a current dep), and either makes the importer a seed's importer.
 * @param paths the current files, sorted
 * @param depsOf the project files a current file's specifiers resolve to
 */
export function affectedFiles(
  plan: PartialLinkPlan, paths: readonly string[], depsOf: (path: string) => readonly string[], quiet: ReadonlySet<string> = new Set(),
): Set<string> | null {
  if (directoriesOf(plan.previous.keys()) !== directoriesOf(paths)) return null;
  const present = new Set(paths);
  const seeds = new Set<string>(plan.changed);
  for (const path of plan.previous.keys()) if (!present.has(path)) seeds.add(path);
  for (const path of paths) if (!plan.previous.has(path)) seeds.add(path);
  const importers = new Map<string, string[]>();
  const add = (dep: string, from: string): void => {
    const list = importers.get(dep);
    if (list === undefined) importers.set(dep, [from]);
    else list.push(from);
  };
  for (const [path, output] of plan.previous) if (present.has(path)) for (const dep of output.deps) add(dep, path);
  // With the same files, an unchanged file's specifiers resolve as before: its previous deps hold.
  const samePaths = !plan.pathsChanged && paths.length === plan.previous.size && paths.every((p) => plan.previous.has(p));
  if (!samePaths) for (const path of paths) for (const dep of depsOf(path)) add(dep, path);
  else for (const path of plan.changed) if (present.has(path)) for (const dep of depsOf(path)) add(dep, path);
  const out = new Set<string>();
  const queue = [...seeds].filter((path) => !quiet.has(path));
  while (queue.length > 0) {
    const path = queue.pop()!;
    if (out.has(path)) continue;
    out.add(path);
    for (const from of importers.get(path) ?? []) if (!out.has(from)) queue.push(from);
  }
  for (const path of quiet) out.add(path);
  return out;
}

/** The sorted directories (with ancestors) holding the given paths, joined. */
function directoriesOf(paths: Iterable<string>): string {
  const dirs = new Set<string>();
  for (const path of paths) {
    let dir = posix.dirname(path);
    while (dir !== '.' && dir !== '' && !dirs.has(dir)) {
      dirs.add(dir);
      dir = posix.dirname(dir);
    }
  }
  return [...dirs].sort().join('\n');
}
