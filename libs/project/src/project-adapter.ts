/**
 * Project-owned adapters (DESIGN.md section 3 `[adapter] module`; contract: "Adapter-backed servers
 * also validate their process-start implementation fingerprint before every tool"): the
 * implementation fingerprint taken once at process start, the cheap per-call guard that detects a
 * change, and the walk of the input globs an adapter declares. Nothing here imports or runs
 * adapter code; the build worker does that.
 */
import { lstatSync, readdirSync, readFileSync, realpathSync, type Dirent } from 'node:fs';
import path from 'node:path';
import picomatch from 'picomatch';
import { errors, hashJson, sha256, staticImportSpecifiers, withoutQuery } from '@docforge/core';
import type { StatIdentity } from './walk.js';

/** At most this many module files enter a fingerprint (the entry module and what it imports). */
export const MAX_ADAPTER_FILES = 100;

/** At most this many files match an adapter's declared input globs. */
export const MAX_ADAPTER_INPUT_FILES = 10_000;

/** Marker hash of a fingerprinted file that did not exist (only the entry module is recorded so). */
export const MISSING_FILE_HASH = 'missing';

/** One file of an adapter implementation: project-relative POSIX path and SHA-256 of its bytes. */
export interface AdapterFileHash {
  path: string;
  sha256: string;
}

/** The implementation fingerprint of a project-owned adapter, taken once at process start. */
export interface ProjectAdapterFingerprint {
  /** Project-relative POSIX path of the entry module (from `[adapter] module`). */
  module: string;
  /** Every fingerprinted file, sorted by path. */
  files: AdapterFileHash[];
  /** SHA-256 of the canonical JSON of `files` (RFC 8785). */
  fingerprint: string;
  /** Whether the import walk stopped at {@link MAX_ADAPTER_FILES}. */
  truncated: boolean;
}

/** Relative specifiers of `import('…')` and `require('…')` in module text (static imports and re-exports: staticImportSpecifiers). */
const SPECIFIER_PATTERNS: readonly RegExp[] = [
  /\bimport\s*\(\s*["'](\.{1,2}\/[^"'\n]*)["']\s*\)/g,
  /\brequire\s*\(\s*["'](\.{1,2}\/[^"'\n]*)["']\s*\)/g,
];

const MODULE_EXTENSIONS = ['', '.mjs', '.js', '.cjs', '/index.mjs', '/index.js'];

function toPosix(rel: string): string {
  return rel.split(path.sep).join('/');
}

/** Realpath of `abs` when it is a regular file inside `root` (after following links), else null. */
function fileInside(root: string, abs: string): string | null {
  try {
    const real = realpathSync(abs);
    if (real !== root && !real.startsWith(root.endsWith(path.sep) ? root : root + path.sep)) return null;
    return lstatSync(real).isFile() ? real : null;
  } catch {
    return null;
  }
}

/**
 * Relative module specifiers referenced by a module's text. Deliberately generous: a specifier in
 * a comment or string is also followed, which can only add files to the fingerprint, never miss one.
 */
export function relativeSpecifiers(text: string): string[] {
  const found = new Set<string>(staticImportSpecifiers(text));
  for (const pattern of SPECIFIER_PATTERNS) {
    for (const match of text.matchAll(pattern)) found.add(match[1]!);
  }
  return [...found];
}

/**
 * Takes the implementation fingerprint of a project-owned adapter: SHA-256 over the sorted
 * `(relative path, sha256)` of the entry module and every relative module it imports, statically
 * or through `import('…')`/`require('…')` with a literal specifier, followed transitively, confined
 * to files inside `root` (after following links) and bounded to {@link MAX_ADAPTER_FILES} files.
 * A missing entry module is recorded with hash {@link MISSING_FILE_HASH}; imported files that do not
 * resolve are skipped (the module will fail to load and report `adapter_failed`).
 * Runs once on the main thread at process start.
 * @param root absolute project root (realpath)
 * @param modulePath project-relative path of the entry module
 */
export function fingerprintProjectAdapter(root: string, modulePath: string): ProjectAdapterFingerprint {
  const realRoot = realpathSync(root);
  const module = toPosix(path.normalize(modulePath));
  const hashes = new Map<string, string>();
  const queue: string[] = [];
  let truncated = false;
  const entry = fileInside(realRoot, path.join(realRoot, module));
  if (entry === null) hashes.set(module, MISSING_FILE_HASH);
  else queue.push(entry);
  const seen = new Set<string>(queue);
  while (queue.length > 0) {
    const abs = queue.shift()!;
    const rel = toPosix(path.relative(realRoot, abs));
    let bytes: Buffer;
    try {
      bytes = readFileSync(abs);
    } catch {
      hashes.set(rel, MISSING_FILE_HASH);
      continue;
    }
    hashes.set(rel, sha256(bytes));
    for (const specifier of relativeSpecifiers(bytes.toString('utf8'))) {
      const base = path.resolve(path.dirname(abs), withoutQuery(specifier));
      for (const extension of MODULE_EXTENSIONS) {
        const target = fileInside(realRoot, base + extension);
        if (target === null) continue;
        if (!seen.has(target)) {
          if (seen.size >= MAX_ADAPTER_FILES) truncated = true;
          else {
            seen.add(target);
            queue.push(target);
          }
        }
        break;
      }
    }
  }
  const files = [...hashes].map(([p, h]) => ({ path: p, sha256: h })).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { module, files, fingerprint: hashJson(files), truncated };
}

/**
 * Checks, before every tool call, that a project-owned adapter is still the implementation that
 * was fingerprinted at process start (contract: `adapter_restart_required`). Each call costs one
 * `lstat` per fingerprinted file; a file is re-hashed only when its stat changed. A detected
 * change is permanent for the process: the adapter is never reloaded.
 */
export class ProjectAdapterGuard {
  /** The process-start fingerprint, or null when no project-owned adapter was bound. */
  readonly fingerprint: ProjectAdapterFingerprint | null;
  private readonly root: string;
  private readonly statKeys = new Map<string, string>();
  private changed: { path: string; reason: string } | null = null;

  /**
   * @param root absolute project root
   * @param modulePath `[adapter] module` at process start, or null when none is bound
   */
  constructor(root: string, modulePath: string | null) {
    this.root = root;
    this.fingerprint = modulePath === null ? null : fingerprintProjectAdapter(root, modulePath);
    for (const file of this.fingerprint?.files ?? []) {
      const key = this.statKey(file.path);
      if (key !== null && file.sha256 !== MISSING_FILE_HASH) this.statKeys.set(file.path, key);
    }
  }

  private statKey(rel: string): string | null {
    try {
      const st = lstatSync(path.join(this.root, rel), { bigint: true });
      return `${st.size}:${st.mtimeNs}:${st.ctimeNs}:${st.ino}:${st.mode}`;
    } catch {
      return null;
    }
  }

  /**
   * Throws when the adapter bound at start changed: a fingerprinted file's content differs (or it
   * appeared or disappeared), or the descriptor now names another module (or none, or one when none
   * was bound at start).
   * @param currentModule `[adapter] module` of the descriptor as it is now; pass `undefined` when
   *   the descriptor cannot be read (the module binding is then not compared)
   * @throws DocforgeError `adapter_restart_required` (remediation `restart_project_server`)
   */
  check(currentModule?: string | null): void {
    if (this.changed === null) this.changed = this.detect(currentModule);
    if (this.changed !== null) {
      throw errors.adapterRestartRequired('The project-owned adapter changed after process start; restart the MCP server to load it.', {
        path: this.changed.path,
        reason: this.changed.reason,
        fingerprint: this.fingerprint?.fingerprint ?? null,
      });
    }
  }

  /** Whether a change was detected (without checking again). */
  get restartRequired(): boolean {
    return this.changed !== null;
  }

  private detect(currentModule: string | null | undefined): { path: string; reason: string } | null {
    const start = this.fingerprint?.module ?? null;
    if (currentModule !== undefined) {
      const now = currentModule === null ? null : toPosix(path.normalize(currentModule));
      if (now !== start) return { path: 'docforge.toml', reason: 'adapter_module_changed' };
    }
    for (const file of this.fingerprint?.files ?? []) {
      const key = this.statKey(file.path);
      if (file.sha256 === MISSING_FILE_HASH) {
        if (key !== null) return { path: file.path, reason: 'file_appeared' };
        continue;
      }
      if (key === null) return { path: file.path, reason: 'file_removed' };
      if (this.statKeys.get(file.path) === key) continue;
      let hash: string;
      try {
        hash = sha256(readFileSync(path.join(this.root, file.path)));
      } catch {
        return { path: file.path, reason: 'file_unreadable' };
      }
      if (hash !== file.sha256) return { path: file.path, reason: 'content_changed' };
      this.statKeys.set(file.path, key);
    }
    return null;
  }
}

/** Files matched by an adapter's declared input globs. */
export interface AdapterInputWalk {
  /** Stat identities of the matching regular files, sorted by path. */
  files: StatIdentity[];
  /** Globs that were rejected (absolute, `..` segments, empty or not strings). */
  invalid: string[];
  /** Whether the walk stopped at {@link MAX_ADAPTER_INPUT_FILES}. */
  truncated: boolean;
}

/** Whether a declared input glob is a usable project-relative pattern. */
export function validInputGlob(glob: unknown): glob is string {
  if (typeof glob !== 'string' || glob.trim() === '' || glob.length > 1024) return false;
  if (glob.startsWith('/') || glob.startsWith('!') || /^[a-zA-Z]:/.test(glob) || glob.includes('\\')) return false;
  return !glob.split('/').includes('..');
}

/**
 * Finds the regular files matching a project-owned adapter's declared input globs (picomatch,
 * `dot: true`, on project-relative POSIX paths) with `lstat` only: each glob is walked from its
 * static base directory; symbolic links, `node_modules`, `.git` and the state dir are not entered
 * (unless the base itself lies inside them). Deterministic and bounded. Never throws.
 * @param root absolute project root
 * @param globs the adapter's `inputs`
 * @param stateDir project-relative state dir (`[state] dir`)
 */
export function walkAdapterInputs(root: string, globs: readonly unknown[], stateDir: string): AdapterInputWalk {
  const found = new Map<string, StatIdentity>();
  const invalid: string[] = [];
  let truncated = false;
  const add = (rel: string): void => {
    if (found.has(rel)) return;
    if (found.size >= MAX_ADAPTER_INPUT_FILES) {
      truncated = true;
      return;
    }
    try {
      const st = lstatSync(path.join(root, rel), { bigint: true });
      if (st.isFile()) found.set(rel, { path: rel, size: Number(st.size), mtime_ns: st.mtimeNs.toString(), ctime_ns: st.ctimeNs.toString(), ino: st.ino.toString() });
    } catch {
      // Absent files are simply not inputs.
    }
  };
  for (const glob of globs) {
    if (!validInputGlob(glob)) {
      invalid.push(String(glob));
      continue;
    }
    const normalized = glob.replace(/^\.\//, '');
    const scan = picomatch.scan(normalized);
    if (!scan.isGlob) {
      add(toPosix(path.posix.normalize(normalized)));
      continue;
    }
    const matcher = picomatch.makeRe(normalized, { dot: true });
    const base = scan.base === '.' ? '' : scan.base.replace(/\/$/, '');
    const stack = [base];
    while (stack.length > 0 && !truncated) {
      const dirRel = stack.pop()!;
      let names: Dirent[];
      try {
        names = sortedDirents(path.join(root, dirRel));
      } catch {
        continue;
      }
      for (const dirent of names) {
        const rel = dirRel === '' ? dirent.name : `${dirRel}/${dirent.name}`;
        if (dirent.isDirectory()) {
          if (dirent.name === 'node_modules' || dirent.name === '.git' || rel === stateDir) continue;
          stack.push(rel);
        } else if (dirent.isFile() && matcher.test(rel)) {
          add(rel);
        }
      }
    }
  }
  const files = [...found.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { files, invalid, truncated };
}

function sortedDirents(dir: string): Dirent[] {
  return readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
