/**
 * A V8 code cache for large CommonJS modules, used for the TypeScript compiler (issue 14; moved here
 * from the TypeScript adapter with the accelerators' fence, issue 29): loading the 9 MB `typescript.js` costs about 150 ms of compilation in every
 * thread that loads it; with cached data made after a warm-up run (so the functions a parse needs
 * are in it) it costs about 45 ms. Node 20 has no
 * `module.enableCompileCache` (Node 22), hence this module.
 *
 * Where: one file per module, key and runtime in the per-user cache directory
 * (`codeCacheDir`: `DOCFORGE_CODE_CACHE_DIR`, else `$XDG_CACHE_HOME/docforge/v8`, else
 * `~/.cache/docforge/v8`); not the project's state directory, since the cache depends only on the
 * compiler and the runtime, and a project's first build (a cold build) is where it pays.
 * `DOCFORGE_CODE_CACHE_DIR=off` disables it. The file name hashes the module's path and bytes,
 * the caller's key (e.g. the TypeScript version), `process.version`, the architecture and the V8
 * options (`process.execArgv`, `NODE_OPTIONS`). A file is written to a unique temporary
 * name and renamed into place, so threads and processes racing to write it never expose a partial
 * file; its content is checked against a SHA-256 before V8 sees it. A missing, damaged or
 * rejected file is rebuilt; any failure of the cache itself falls back to plain `require`, and the
 * module's exports are the same either way. A reused file's mtime is its last use (renewed once an
 * hour at most); writing a file removes the same module's other cache files unused for 7 days or
 * beyond its 4 most recently used (earlier builds of it), and its writers' temporary files older
 * than an hour. On Node 20, a function compiled from cached data cannot run `import()` ("A dynamic
 * import callback was not specified"): a module loaded here must not use `import()` (the compiler
 * does not).
 */
import { createHash, randomBytes } from 'node:crypto';
import { isAscii } from 'node:buffer';
import { closeSync, constants, existsSync, fstatSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import Module = require('node:module');
import { homedir } from 'node:os';
import path from 'node:path';
import { constants as vmConstants, Script } from 'node:vm';
import { threadId } from 'node:worker_threads';

/**
 * How a load went: `reused` a valid cache; `created` (none yet), `rebuilt` (damaged or rejected) and
 * wrote one; `deferred`: none valid, one is written when the process exits (`writeAtExit`); `off` or
 * `failed` loaded without one.
 */
export type CodeCacheStatus = 'reused' | 'created' | 'rebuilt' | 'deferred' | 'off' | 'failed';

/** The result of `loadWithCodeCache`: the module's exports and what happened to the cache. */
export interface CodeCacheLoad {
  exports: unknown;
  status: CodeCacheStatus;
  /** The cache file used or written; null when disabled or when the load fell back to `require`. */
  cacheFile: string | null;
}

/** Options of `loadWithCodeCache`. */
export interface CodeCacheOptions {
  /** Cache directory; null disables the cache (the module is loaded with plain `require`). */
  cacheDir: string | null;
  /** Extra key of the cached data, e.g. the package version. */
  key: string;
  /** Run once after a fresh compile and before the cached data is made (functions it runs are cached compiled). */
  warm?: (exports: unknown) => void;
  /** Register the module in `require.cache`, so later `require` calls of it return these exports (default true). */
  register?: boolean;
  /**
   * Make and write the cached data when the process exits (Node's `exit` event) instead of right
   * after loading, so it holds every function the run compiled, not only the module's top level
   * (default false). A process killed by a signal writes none; a later start tries again.
   */
  writeAtExit?: boolean;
}

const MAGIC = Buffer.from('DFV8CC1\n', 'latin1');
const DIGEST_BYTES = 32;

/** Where the code cache lives, as libs/core config.ts reads it (`readDocforgeConfig()` satisfies this shape). */
export interface CodeCacheSettings {
  /** `DOCFORGE_CODE_CACHE_DIR` when set and non-empty, else null/undefined. */
  readonly codeCacheDirText?: string | null;
  /** `XDG_CACHE_HOME` when set and non-empty, else null/undefined. */
  readonly xdgCacheHome?: string | null;
}

/**
 * The per-user code cache directory: `DOCFORGE_CODE_CACHE_DIR` when absolute (`off` disables:
 * null), else `$XDG_CACHE_HOME/docforge/v8` when that is absolute, else `~/.cache/docforge/v8`.
 * Pure: creates nothing.
 */
export function codeCacheDir(settings: CodeCacheSettings): string | null {
  const override = settings.codeCacheDirText;
  if (override === 'off') return null;
  if (override && path.isAbsolute(override)) return override;
  const xdg = settings.xdgCacheHome;
  return xdg && path.isAbsolute(xdg) ? path.join(xdg, 'docforge', 'v8') : path.join(homedir(), '.cache', 'docforge', 'v8');
}

/**
 * The cache file of the module `file` whose bytes are `source`: named by the module's path, a
 * SHA-1 of its bytes (V8 itself checks only the source's length, and a rebuilt or reinstalled file
 * may keep its size and mtime: npm unpacks every file with the same mtime), the caller's key and
 * the runtime. SHA-1 only tells versions apart here (~1 ms for 1.5 MB); the cached data itself is
 * checked against a SHA-256.
 */
function cacheFileFor(cacheDir: string, file: string, source: Buffer, key: string): string {
  const content = createHash('sha1').update(source).digest('hex');
  const runtime = [file, content, key, process.version, process.arch, v8Options()].join('\u0000');
  const digest = createHash('sha256').update(runtime).digest('hex').slice(0, 24);
  return path.join(cacheDir, `${path.basename(file, path.extname(file))}-${digest}.v8cache`);
}

/**
 * The bytes of `file` when it is a regular file of at most `maxBytes`: opened without blocking and
 * checked with fstat before any read, so a FIFO, device or directory under that name never stalls
 * or floods the caller. 'absent' when it cannot be opened, 'unreadable' when it is no regular file,
 * too large, or the read fails. Never throws.
 */
export function readRegularFile(file: string, maxBytes = Number.MAX_SAFE_INTEGER): Buffer | 'absent' | 'unreadable' {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    return 'absent';
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile() || st.size > maxBytes) return 'unreadable';
    return readFileSync(fd);
  } catch {
    return 'unreadable';
  } finally {
    closeSync(fd);
  }
}

/**
 * The cached data of a well-formed cache file; undefined when absent or damaged. Only a regular
 * file is read: the file is opened without blocking and checked first, so a FIFO or device under
 * the cache's name never stalls a build (it counts as damaged and is replaced by the next write).
 */
function readCacheFile(cacheFile: string): { data: Buffer | undefined; damaged: boolean } {
  const read = readRegularFile(cacheFile);
  if (read === 'absent') return { data: undefined, damaged: false };
  if (read === 'unreadable') return { data: undefined, damaged: true };
  const raw = read;
  const head = MAGIC.length + DIGEST_BYTES;
  if (raw.length <= head || !raw.subarray(0, MAGIC.length).equals(MAGIC)) return { data: undefined, damaged: true };
  const data = raw.subarray(head);
  const ok = createHash('sha256').update(data).digest().equals(raw.subarray(MAGIC.length, head));
  return ok ? { data, damaged: false } : { data: undefined, damaged: true };
}

/**
 * Creates `dir` and its missing ancestors (mode 0700), one level at a time. Node 20's
 * `mkdirSync(dir, { recursive: true })` never returns for some paths (under /proc, where mkdir
 * answers ENOENT below a parent that exists); this throws instead.
 */
function makeDirectory(dir: string): void {
  const missing: string[] = [];
  for (let current = dir; !existsSync(current); current = path.dirname(current)) {
    missing.push(current);
    if (path.dirname(current) === current) break;
  }
  for (const level of missing.reverse()) mkdirSync(level, { mode: 0o700 });
}

/** Writes a cache file atomically (unique temporary name, then rename), then prunes its stale siblings; false when it could not write. */
function writeCacheFile(cacheFile: string, data: Buffer): boolean {
  const tmp = `${cacheFile}.${process.pid}-${threadId}-${randomBytes(4).toString('hex')}.tmp`;
  try {
    makeDirectory(path.dirname(cacheFile));
    writeFileSync(tmp, Buffer.concat([MAGIC, createHash('sha256').update(data).digest(), data]), { mode: 0o600 });
    renameSync(tmp, cacheFile);
  } catch {
    rmSync(tmp, { force: true });
    return false;
  }
  pruneStale(cacheFile);
  return true;
}

/** A cache file of the same module unused this long (by mtime) is removed when another one is written, in ms (7 days). */
export const STALE_CACHE_MS = 7 * 24 * 3600 * 1000;
/** How many cache files of one module name are kept, the most recently used first (other checkouts or builds of it). */
export const CACHE_FILES_PER_MODULE = 4;
/** A reused cache file's mtime is renewed when older than this, in ms (one hour): its mtime tells when it was last used. */
const USE_MARK_MS = 3600 * 1000;
/** A temporary file left by a writer that died is removed after this long, in ms (one hour). */
const STALE_TEMP_MS = 3600 * 1000;

/**
 * Removes, beside the just-written `cacheFile` (`<name>-<24 hex>.v8cache`), the other cache files
 * of the same module name unused for {@link STALE_CACHE_MS} or beyond the
 * {@link CACHE_FILES_PER_MODULE} most recently used (made for an earlier build of the module,
 * another runtime or other options), and temporary files of that name older than an hour, so a
 * module rebuilt often (the parser module, with each compiler) does not fill the directory. Cache files of other
 * names are never touched. Never throws.
 */
function pruneStale(cacheFile: string): void {
  const dir = path.dirname(cacheFile);
  const name = /^(.*)-[0-9a-f]{24}\.v8cache$/.exec(path.basename(cacheFile))?.[1];
  if (name === undefined) return;
  const now = Date.now();
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return;
  }
  const kept: { file: string; used: number }[] = [];
  for (const entry of entries) {
    const kind = entry.startsWith(`${name}-`) ? /^-[0-9a-f]{24}\.v8cache(\.[0-9]+-[0-9]+-[0-9a-f]{8}\.tmp)?$/.exec(entry.slice(name.length)) : null;
    if (kind === null || path.join(dir, entry) === cacheFile) continue;
    try {
      const st = lstatSync(path.join(dir, entry));
      if (!st.isFile()) continue;
      if (now - st.mtimeMs > (kind[1] === undefined ? STALE_CACHE_MS : STALE_TEMP_MS)) rmSync(path.join(dir, entry), { force: true });
      else if (kind[1] === undefined) kept.push({ file: path.join(dir, entry), used: st.mtimeMs });
    } catch {
      // Gone meanwhile, or not ours to remove: leave it.
    }
  }
  // The just-written file is one of the kept; the least recently used others go.
  kept.sort((a, b) => b.used - a.used);
  for (const { file } of kept.slice(CACHE_FILES_PER_MODULE - 1)) {
    try {
      rmSync(file, { force: true });
    } catch {
      // Not ours to remove: leave it.
    }
  }
}

/** Renews the mtime of a reused cache file when older than {@link USE_MARK_MS} (its last use). Never throws. */
function markUsed(cacheFile: string): void {
  try {
    const now = Date.now();
    if (now - lstatSync(cacheFile).mtimeMs > USE_MARK_MS) utimesSync(cacheFile, now / 1000, now / 1000);
  } catch {
    // A read-only cache directory: the file may be pruned as unused by a later writer, which only costs a rebuild.
  }
}

/**
 * Loads the CommonJS module `file` (an absolute path) as `require` would, compiling it with V8
 * cached data from `options.cacheDir` when there is a valid one, and writing one after
 * `options.warm` when there is not. Throws only what the module itself throws when it runs; a
 * failure of the cache (unreadable directory, rejected or damaged data) is never an error.
 */
export function loadWithCodeCache(file: string, options: CodeCacheOptions): CodeCacheLoad {
  const register = options.register ?? true;
  const settled = (exports: unknown, status: CodeCacheStatus, cacheFile: string | null): CodeCacheLoad => ({ exports, status, cacheFile });
  if (register && require.cache[file]) return settled(require.cache[file]!.exports, 'off', null);
  let cacheFile: string | null = null;
  let script: Script;
  let cached: { data: Buffer | undefined; damaged: boolean } = { data: undefined, damaged: false };
  try {
    if (options.cacheDir === null) throw new Error('code cache off');
    const source = readFileSync(file);
    cacheFile = cacheFileFor(options.cacheDir, file, source, options.key);
    cached = readCacheFile(cacheFile);
    script = new Script(Module.wrap(decodeSource(source)), { filename: file, cachedData: cached.data, importModuleDynamically: dynamicImport });
  } catch {
    const status = options.cacheDir === null ? 'off' : 'failed';
    return settled(register ? require(file) as unknown : plainLoad(file), status, null);
  }
  // What Node's CommonJS loader does for a file: a Module in require.cache while it runs, removed if it throws.
  const mod = newModule(file);
  if (register) require.cache[file] = mod;
  try {
    const wrapper = script.runInThisContext() as (exports: unknown, require: NodeJS.Require, module: Module, filename: string, dirname: string) => void;
    wrapper.call(mod.exports, mod.exports, Module.createRequire(file), mod, file, path.dirname(file));
    mod.loaded = true;
  } catch (error) {
    if (register) delete require.cache[file];
    throw error;
  }
  if (cached.data !== undefined && !script.cachedDataRejected) {
    markUsed(cacheFile);
    return settled(mod.exports, 'reused', cacheFile);
  }
  const target = cacheFile;
  const replaced = cached.data !== undefined || cached.damaged;
  const write = (): CodeCacheStatus => {
    let written = false;
    try {
      written = writeCacheFile(target, script.createCachedData());
    } catch {
      written = false;
    }
    return !written ? 'failed' : replaced ? 'rebuilt' : 'created';
  };
  if (options.writeAtExit === true) {
    process.once('exit', () => write());
    return settled(mod.exports, 'deferred', cacheFile);
  }
  try {
    options.warm?.(mod.exports);
  } catch {
    // A warm-up failure only means a colder cache.
  }
  return settled(mod.exports, write(), cacheFile);
}

/**
 * The text of a source file, decoded as UTF-8. A file of ASCII bytes only (typescript.js is one)
 * is decoded as latin1, which gives the same string: ~2 ms instead of ~15 ms for 9 MB (issue 14).
 */
function readSource(file: string): string {
  return decodeSource(readFileSync(file));
}

/** {@link readSource} of bytes already read. */
function decodeSource(bytes: Buffer): string {
  return isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
}

/**
 * How `import()` in a module compiled here loads: with Node's default ESM loader, as in a module
 * `require` loads (a `vm.Script` without this option throws ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING
 * at every `import()`: the build worker imports project-owned adapters by file URL). Specifiers are
 * resolved as from the main context, so absolute URLs and built-in modules load alike.
 */
const dynamicImport = vmConstants.USE_MAIN_CONTEXT_DEFAULT_LOADER;

/** Loads `file` outside `require.cache` without a code cache (tests compare against it). */
function plainLoad(file: string): unknown {
  const mod = newModule(file);
  const wrapper = new Script(Module.wrap(readSource(file)), { filename: file, importModuleDynamically: dynamicImport }).runInThisContext() as (...args: unknown[]) => void;
  wrapper.call(mod.exports, mod.exports, Module.createRequire(file), mod, file, path.dirname(file));
  return mod.exports;
}

/**
 * Puts `exports` into `require.cache` as the loaded module `file` (an absolute path), so later
 * `require` calls of that file in this thread return them. Replaces nothing already there.
 */
export function registerModule(file: string, exports: unknown): void {
  if (require.cache[file]) return;
  const mod = newModule(file);
  mod.exports = exports;
  mod.loaded = true;
  require.cache[file] = mod;
}

/** A Module for `file` as Node's loader makes one (id, filename, node_modules lookup paths). */
function newModule(file: string): Module {
  const mod = new Module(file, module);
  mod.filename = file;
  const lookup = (Module as unknown as { _nodeModulePaths?: (dir: string) => string[] })._nodeModulePaths;
  mod.paths = typeof lookup === 'function' ? lookup(path.dirname(file)) : [];
  return mod;
}

/** The runtime options that may change V8's flags (`process.execArgv` without script text, and `NODE_OPTIONS`). */
function v8Options(): string {
  const options = process.execArgv.filter((arg) => arg.startsWith('--') && !/^--(eval|print|cpu-prof|heap-prof|inspect|require|import|loader)/.test(arg));
  return [...options, process.env['NODE_OPTIONS'] ?? ''].join(' ');
}
