/**
 * Finding a project from a folder inside it (issue 30, new-user trial): the CLI, run without
 * `-C`, uses the nearest folder at or above the current one that holds a `docforge.toml`, as git
 * finds its work tree; and when there is none, the "run docforge init" hint names the folder that
 * looks like the project's root rather than the subfolder the command ran in. Reads the file
 * system only (lstat), never follows a descriptor's contents.
 */
import { lstatSync } from 'node:fs';
import path from 'node:path';

/** The project descriptor's file name (libs/project re-exports it as DESCRIPTOR_FILE). */
export const DESCRIPTOR_FILE_NAME = 'docforge.toml';

/**
 * Names whose presence marks a folder as the root of a project (version control, or a language's
 * package or build manifest). Used only to word a hint, never to choose a root.
 */
const ROOT_MARKERS: readonly string[] = ['.git', '.hg', '.svn', '.jj', 'package.json', 'go.mod', 'pyproject.toml', 'setup.py', 'setup.cfg', 'Cargo.toml', 'pom.xml', 'build.gradle', 'build.gradle.kts', 'Gemfile', 'composer.json', 'CMakeLists.txt'];

/** Whether `dir` has an entry `name` (of any type: a dangling link counts, so the loader can report it). */
function hasEntry(dir: string, name: string): boolean {
  try {
    lstatSync(path.join(dir, name));
    return true;
  } catch {
    return false;
  }
}

/** `dir`, then each folder above it up to the file system root. @param dir absolute path */
function* selfAndAncestors(dir: string): Generator<string> {
  let current = path.resolve(dir);
  for (;;) {
    yield current;
    const parent = path.dirname(current);
    if (parent === current) return;
    current = parent;
  }
}

/**
 * The nearest folder at or above `start` that holds a `docforge.toml` (any entry of that name:
 * a broken one is reported by the descriptor loader, not skipped), or null when no folder up to
 * the file system root holds one. Never throws (an unreadable folder counts as holding none).
 * @param start absolute or relative folder (resolved against the current directory)
 */
export function nearestProjectRoot(start: string): string | null {
  for (const dir of selfAndAncestors(start)) if (hasEntry(dir, DESCRIPTOR_FILE_NAME)) return dir;
  return null;
}

/**
 * The nearest folder at or above `dir` that looks like a project's root (it holds `.git`,
 * `package.json`, `go.mod`, `pyproject.toml`, `Cargo.toml` or another such marker), with the
 * marker found; null when none does. For hints only.
 * @param dir absolute folder
 */
export function projectRootLookalike(dir: string): { dir: string; marker: string } | null {
  for (const candidate of selfAndAncestors(dir)) {
    const marker = ROOT_MARKERS.find((name) => hasEntry(candidate, name));
    if (marker !== undefined) return { dir: candidate, marker };
  }
  return null;
}

/**
 * The "what to do" part of a missing-descriptor message for `root`: when a folder above holds a
 * docforge.toml, that project (give -C it); else `run "docforge init ROOT"` when `root` itself looks
 * like a project root; `init` of the folder above that does (never a nested project inside what
 * looks like one); and when no folder at or above `root` looks like a project (issue 30: `/tmp`,
 * a home folder), that there is no DocForge project here, to run inside one or `docforge init
 * DIR` on the project's folder: never a proposal to make a project of a folder nothing marks as one.
 * @param root absolute folder that holds no docforge.toml
 */
export function initHint(root: string): string {
  const parent = path.dirname(root);
  const project = parent === root ? null : nearestProjectRoot(parent);
  if (project !== null) return `${root} is inside the DocForge project ${project}: name that folder as the project root (-C or --project-root ${project}), or run the CLI anywhere inside it without -C`;
  const found = projectRootLookalike(root);
  if (found === null) return `no DocForge project here: neither ${root} nor a folder above it holds ${DESCRIPTOR_FILE_NAME} or looks like a project (${ROOT_MARKERS.slice(0, 5).join(', ')}, ...); run docforge inside a project, or "docforge init DIR" on the project's folder`;
  if (found.dir === root) return `run "docforge init ${root}" to create one`;
  return `${found.dir} looks like the project's root (it holds ${found.marker}): run "docforge init ${found.dir}" to create one there, then run docforge anywhere inside it`;
}
