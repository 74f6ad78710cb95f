/**
 * C/C++ `#include` resolution: `#include "a/b.h"` is `a/b.h` beside the including file, else under
 * an include directory; `#include <a/b.h>` only under an include directory. Include directories come
 * from a compile_commands.json at the top of the project or in its `build/` folder (read, never
 * run: `-I`, `-iquote`, `-isystem` of the including file's entry, or of every entry for a file that
 * has none), mapped into the project by the entries' own files; without one, the descriptor's
 * `[adapter.c] include_dirs`. An include binds no name: a file
 * sees what it includes, directly or through the headers those include (its scope).
 */
import { posix } from 'node:path';
import type { LanguageResolver, ResolveContext } from './types.js';
import { fileClosureResolver, type PathTest } from './file-closure.js';

interface CompileEntry {
  directory?: unknown;
  file?: unknown;
  command?: unknown;
  arguments?: unknown;
}

/** The include directories of one compile_commands.json entry, absolute (`-I dir`, `-Idir`, `-iquote`, `-isystem`). */
function entryIncludes(entry: CompileEntry): string[] {
  const directory = typeof entry.directory === 'string' ? entry.directory : '/';
  const args = Array.isArray(entry.arguments) ? entry.arguments.filter((a): a is string => typeof a === 'string')
    : typeof entry.command === 'string' ? entry.command.split(/\s+/).filter((a) => a !== '') : [];
  const out: string[] = [];
  args.forEach((arg, i) => {
    const flag = /^(-I|-iquote|-isystem)(.*)$/.exec(arg);
    if (flag === null) return;
    const dir = flag[2] === '' ? args[i + 1] : flag[2];
    if (dir !== undefined && dir !== '') out.push(posix.resolve(directory, dir));
  });
  return out;
}

/**
 * Include directories by project file (and `*` for files without an entry) from a compile_commands.json text; absolute paths
 * are mapped to the project through an entry whose file is a project path (`/home/u/p/src/a.c` and `src/a.c` give root `/home/u/p`).
 */
export function compileIncludes(text: string, paths: ReadonlySet<string>): Map<string, string[]> {
  let entries: unknown;
  try {
    entries = JSON.parse(text);
  } catch {
    return new Map();
  }
  if (!Array.isArray(entries)) return new Map();
  const resolved = (entries as CompileEntry[]).filter((e) => typeof e === 'object' && e !== null && typeof e.file === 'string')
    .map((e) => ({ file: posix.resolve(typeof e.directory === 'string' ? e.directory : '/', e.file as string), dirs: entryIncludes(e) }));
  let root: string | null = null;
  for (const { file } of resolved) {
    for (let cut = file.indexOf('/', 1); cut > 0 && root === null; cut = file.indexOf('/', cut + 1)) if (paths.has(file.slice(cut + 1))) root = file.slice(0, cut);
    if (root !== null) break;
  }
  const out = new Map<string, string[]>();
  if (root === null) return out;
  const inside = (abs: string): string | null => (abs === root ? '' : abs.startsWith(`${root}/`) ? abs.slice((root as string).length + 1) : null);
  const all: string[] = [];
  for (const { file, dirs } of resolved) {
    const rel = inside(file);
    const mine = dirs.map(inside).filter((d): d is string => d !== null);
    for (const dir of mine) if (!all.includes(dir)) all.push(dir);
    if (rel !== null) out.set(rel, mine);
  }
  out.set('*', all);
  return out;
}

/** `[adapter.c] include_dirs` of the descriptor (project-relative, checked by @docforge/project), `.` as `''`. */
function declaredIncludeDirs(context: ResolveContext): string[] {
  const dirs = context.resolver.options?.['c']?.['include_dirs'];
  return Array.isArray(dirs) ? dirs.filter((d): d is string => typeof d === 'string').map((d) => (d === '.' ? '' : d)) : [];
}

/** The C/C++ include rules over one build (LanguageSpec.resolver). */
export function cppResolver(context: ResolveContext): LanguageResolver {
  const files = new Set(context.paths);
  let includes: Map<string, string[]> | null = null;
  for (const candidate of ['compile_commands.json', 'build/compile_commands.json']) {
    const text = includes === null ? context.resolver.readText(candidate) : null;
    if (text !== null) includes = compileIncludes(text, files);
  }
  if (includes === null) includes = new Map([['*', declaredIncludeDirs(context)]]);
  const target = (file: string, spec: string, has: PathTest): string | null => {
    if (spec === '') return null;
    const system = spec.startsWith('<');
    const name = system ? spec.slice(1, -1) : spec;
    if (!system) {
      const beside = posix.normalize(posix.join(posix.dirname(file), name));
      if (has(beside)) return beside;
    }
    for (const dir of (includes as Map<string, string[]>).get(file) ?? (includes as Map<string, string[]>).get('*') ?? []) {
      const candidate = posix.normalize(dir === '' ? name : `${dir}/${name}`);
      if (has(candidate)) return candidate;
    }
    return null;
  };
  return fileClosureResolver(context, target);
}
