/**
 * What a build read or probed outside the walked sources (DESIGN.md section 4: the cheap source
 * identity must cover everything the graph depends on). The walk covers the sources, the descriptor
 * and the adapter module; a build also reads project texts for the code linkers (tsconfig.json and
 * jsconfig.json with their `extends` chains, package.json, wherever they lie) and asks whether the
 * target of an extensionless link exists. Each build records those paths (a
 * {@link DependencyRecorder}); the published index keeps them (meta row
 * {@link DEPENDENCIES_META_KEY}); every identity computation folds in their state now
 * ({@link dependencyIdentities}), reading the list from the publication it compares against, so a
 * change to any of them changes the identity. Light imports only: the no-change fast path loads this.
 *
 * State of one read path: its `lstat` (size, mtime_ns, ctime_ns, inode) when it is a regular file, a constant
 * when it is anything else or absent (the linker's `readProjectText` then reads null whatever the
 * target). State of one probe: the answer of {@link projectPathExists} now (realpath inside the root).
 */
import { lstatSync, realpathSync } from 'node:fs';
import path from 'node:path';
import type { StatIdentity } from '@docforge/project';

/** The paths a build depended on besides its walked sources (project-relative POSIX paths, sorted, unique). */
export interface BuildDependencies {
  /** Project texts the code linkers read (`ModuleResolver.readText`), present or not. */
  reads: readonly string[];
  /** Paths whose existence graph resolution asked (`pathExists`: extensionless link targets). */
  probes: readonly string[];
}

/** The `meta` row of an index file holding its build's {@link BuildDependencies} as JSON. */
export const DEPENDENCIES_META_KEY = 'build_dependencies';

/** A build that depended on nothing outside its walked sources (and the state before any publication). */
export const NO_DEPENDENCIES: BuildDependencies = Object.freeze({ reads: Object.freeze([]), probes: Object.freeze([]) });

/** The identity line standing for a dependency list that could not be read: it matches no published identity. */
const UNREADABLE: StatIdentity = { path: '\u0000deps:unreadable', size: -1, mtime_ns: '0', ctime_ns: '0', ino: '0' };

/** The JSON text of `deps` for the {@link DEPENDENCIES_META_KEY} meta row. */
export function encodeDependencies(deps: BuildDependencies): string {
  return JSON.stringify({ reads: deps.reads, probes: deps.probes });
}

function isPathList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

/**
 * Parses the {@link DEPENDENCIES_META_KEY} meta row of a published index.
 * @returns the list, or null when the row is missing or malformed (the caller must then not trust the identity)
 */
export function decodeDependencies(text: string | undefined): BuildDependencies | null {
  if (text === undefined) return null;
  try {
    const value = JSON.parse(text) as { reads?: unknown; probes?: unknown } | null;
    if (value === null || typeof value !== 'object' || !isPathList(value.reads) || !isPathList(value.probes)) return null;
    return { reads: value.reads, probes: value.probes };
  } catch {
    return null;
  }
}

/**
 * Whether something exists at a project-relative path, following symbolic links, with its real path
 * inside the real root (a link reaching outside counts as missing). Never reads the file. This is the
 * build's `pathExists` (extensionless link targets) and the state of a probe in the identity.
 * @param root the real project root
 */
export function projectPathExists(root: string, rel: string): boolean {
  return existsUnder(realRoot(root), root, rel);
}

function realRoot(root: string): string | null {
  try {
    return realpathSync(root);
  } catch {
    return null;
  }
}

function existsUnder(rootReal: string | null, root: string, rel: string): boolean {
  if (rootReal === null) return false;
  try {
    const real = realpathSync(path.join(root, rel));
    return real === rootReal || real.startsWith(rootReal.endsWith(path.sep) ? rootReal : rootReal + path.sep);
  } catch {
    return false;
  }
}

/** The identity line of a read path now: its lstat when a regular file, else a constant (the read gives null). */
export function readIdentity(root: string, rel: string): StatIdentity {
  const line = `\u0000read:${rel}`;
  try {
    // Most reads are absent (a package.json per directory): no exception for those, it costs more than the lstat.
    const stat = lstatSync(path.join(root, rel), { bigint: true, throwIfNoEntry: false });
    if (stat?.isFile() === true) return { path: line, size: Number(stat.size), mtime_ns: stat.mtimeNs.toString(), ctime_ns: stat.ctimeNs.toString(), ino: stat.ino.toString() };
  } catch {
    // Unreachable (ENOTDIR, EACCES): the linker reads null.
  }
  return { path: line, size: -1, mtime_ns: '0', ctime_ns: '0', ino: '0' };
}

/** The identity line of a probe with answer `exists`. */
export function probeIdentity(rel: string, exists: boolean): StatIdentity {
  return { path: `\u0000probe:${rel}`, size: exists ? 1 : 0, mtime_ns: '0', ctime_ns: '0', ino: '0' };
}

/**
 * The identity lines of a publication's dependencies as they are now (one lstat per read, one
 * realpath per probe), to join the cheap identity's extras.
 * @param deps the publication's list; null when it could not be read (one line that matches no published identity)
 */
export function dependencyIdentities(root: string, deps: BuildDependencies | null): StatIdentity[] {
  if (deps === null) return [UNREADABLE];
  const lines: StatIdentity[] = [];
  for (const rel of deps.reads) lines.push(readIdentity(root, rel));
  const rootReal = deps.probes.length > 0 ? realRoot(root) : null;
  for (const rel of deps.probes) lines.push(probeIdentity(rel, existsUnder(rootReal, root, rel)));
  return lines;
}

/**
 * Records, during one build, each dependency with its state when first used: a read path is
 * lstat'ed before the linker reads it (a change after the lstat then changes the identity, so it is
 * never missed), a probe keeps its first answer. {@link identities} gives the same lines
 * {@link dependencyIdentities} computes later from {@link dependencies}.
 */
export class DependencyRecorder {
  readonly #root: string;
  #rootReal: string | null | undefined;
  readonly #reads = new Map<string, StatIdentity>();
  readonly #probes = new Map<string, boolean>();

  /** @param root the real project root */
  constructor(root: string) {
    this.#root = root;
  }

  /** Call right before reading the project text at `rel`. */
  read(rel: string): void {
    if (!this.#reads.has(rel)) this.#reads.set(rel, readIdentity(this.#root, rel));
  }

  /** Asks {@link projectPathExists} for `rel` and records the answer (the first one counts). */
  exists(rel: string): boolean {
    if (this.#rootReal === undefined) this.#rootReal = realRoot(this.#root);
    const exists = existsUnder(this.#rootReal, this.#root, rel);
    if (!this.#probes.has(rel)) this.#probes.set(rel, exists);
    return exists;
  }

  /** The recorded paths, sorted. */
  dependencies(): BuildDependencies {
    return { reads: [...this.#reads.keys()].sort(compare), probes: [...this.#probes.keys()].sort(compare) };
  }

  /** The identity lines of the recorded dependencies in their recorded state. */
  identities(): StatIdentity[] {
    const lines: StatIdentity[] = [];
    for (const rel of [...this.#reads.keys()].sort(compare)) lines.push(this.#reads.get(rel)!);
    for (const rel of [...this.#probes.keys()].sort(compare)) lines.push(probeIdentity(rel, this.#probes.get(rel)!));
    return lines;
  }
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The directories a source watcher must watch so that no dependency of `deps` can change unseen:
 * for each path, every directory from the root down to its parent that exists (creating a missing
 * one is an event in the last existing one; moving or deleting one is an event in its parent).
 * `outside` when that cannot hold: a path outside the root, a component on the way that is a
 * symbolic link or cannot be lstat'ed, or a probe that is a symbolic link (its target may change
 * anywhere); the watcher then trusts no walk. (A read path that is a link needs nothing more: the
 * linker reads nothing through it, whatever its target.)
 * @param root the real project root
 * @returns project-relative directories (`''` is the root), sorted
 */
export function dependencyWatch(root: string, deps: BuildDependencies): { directories: string[]; outside: boolean } {
  const directories = new Set<string>();
  /** Per directory checked: what it is. */
  const checked = new Map<string, 'dir' | 'stop' | 'unsure'>();
  /** `stop`: absent or not a directory (replacing it is an event in its parent); `unsure`: a link or an lstat error. */
  const kind = (rel: string): 'dir' | 'stop' | 'unsure' => {
    try {
      const stat = lstatSync(path.join(root, rel));
      return stat.isDirectory() ? 'dir' : stat.isSymbolicLink() ? 'unsure' : 'stop';
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      return code === 'ENOENT' || code === 'ENOTDIR' ? 'stop' : 'unsure';
    }
  };
  const watchChain = (rel: string): boolean => {
    const normal = path.posix.normalize(rel);
    if (normal === '..' || normal.startsWith('../') || path.posix.isAbsolute(normal) || normal === '.' || normal.includes('\u0000')) return false;
    const parts = normal.split('/');
    directories.add('');
    let dir = '';
    for (let index = 0; index < parts.length - 1; index += 1) {
      dir = dir === '' ? parts[index]! : `${dir}/${parts[index]}`;
      let found = checked.get(dir);
      if (found === undefined) {
        found = kind(dir);
        checked.set(dir, found);
      }
      if (found === 'unsure') return false;
      if (found === 'stop') return true; // creating it is an event in the last existing directory
      directories.add(dir);
    }
    return true;
  };
  let outside = false;
  for (const rel of deps.reads) if (!watchChain(rel)) outside = true;
  for (const rel of deps.probes) {
    if (!watchChain(rel) || kind(rel) === 'unsure') outside = true;
  }
  return { directories: [...directories].sort(compare), outside };
}
