/**
 * How the committed launchers (apps/mcp-server/bin/docforge-mcp.js, apps/cli/bin/docforge.js) load a
 * bundle that {@link bundleState} found fresh: `require` it with standard output diverted, and take
 * its start function only when it exports one (issue 29 break-it trial). A bundle's module bodies
 * run while it loads; what they print must not reach docforge-mcp's stdout, which carries MCP frames
 * only (the server's own stdout guard, libs/stdio, is installed by the bundle's start function, after
 * loading). A bundle that throws while it loads, or exports no function of the expected name (an
 * empty, truncated or foreign file), is reported as such, and the launcher runs the compiled entry.
 * With the `bundle-cache` tactic on, docforge-mcp's launcher passes the code cache directory in force,
 * and the bundle is compiled from its V8 code cache there (code-cache.cts; plain `require` when the
 * cache itself fails), written when the process exits so it holds every function the start compiled
 * (issue 29 item 7). Only for a bundle that never runs `import()`: on Node 20 a function compiled
 * from cached data cannot (the launcher passes no directory when the project names a module).
 */
import { loadWithCodeCache } from './code-cache.cjs';

/** The code cache key of a launcher's bundle: the file's bytes, path and runtime are in the key already. */
const BUNDLE_CACHE_KEY = 'bundle';

/** A loaded bundle's start function (`runMain`, `runFastSync`), or why there is none. */
export type BundleLoad =
  | { ok: true; start: (...args: never[]) => unknown }
  | { ok: false; reason: string };

/**
 * Requires the bundle `file` (an absolute path) while `process.stdout.write` (which `console` uses
 * too) sends each chunk to `divert` instead, and restores it before returning; takes the export
 * `name` when it is a function.
 * @param divert receives each chunk of text the bundle's loading wrote to stdout (launchers write it to stderr)
 * @param cacheDir the V8 code cache directory to compile the bundle through (`Accelerators.bundleCacheDir`
 *   when `bundle-cache` is on), or null (the default) for a plain `require`
 * @returns the start function, or `ok: false` with the load error's message or the missing export's name; never throws
 */
export function loadBundle(file: string, name: string, divert: (text: string) => void, cacheDir: string | null = null): BundleLoad {
  const stdout = process.stdout;
  const own = Object.prototype.hasOwnProperty.call(stdout, 'write');
  const write = stdout.write;
  stdout.write = ((chunk: string | Uint8Array, encoding?: BufferEncoding | ((error?: Error | null) => void), callback?: (error?: Error | null) => void): boolean => {
    const done = typeof encoding === 'function' ? encoding : callback;
    divert(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString(typeof encoding === 'string' ? encoding : 'utf8'));
    if (done) process.nextTick(done);
    return true;
  }) as typeof stdout.write;
  let loaded: unknown;
  try {
    loaded = cacheDir === null ? (require(file) as unknown) : loadWithCodeCache(file, { cacheDir, key: BUNDLE_CACHE_KEY, writeAtExit: true }).exports;
  } catch (error) {
    return { ok: false, reason: `unloadable: ${error instanceof Error ? error.message : String(error)}` };
  } finally {
    // Put back as it was: an own property (another guard's) or the stream's prototype method.
    if (own) stdout.write = write;
    else delete (stdout as { write?: unknown }).write;
  }
  const start = (typeof loaded === 'object' || typeof loaded === 'function') && loaded !== null ? (loaded as Record<string, unknown>)[name] : undefined;
  if (typeof start !== 'function') return { ok: false, reason: `exports no ${name} function` };
  return { ok: true, start: start as (...args: never[]) => unknown };
}

/** True when `value` is a promise or another thenable: what a bundle's `runMain` returns once the run started. */
export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (typeof value === 'object' || typeof value === 'function') && value !== null && typeof (value as { then?: unknown }).then === 'function';
}
