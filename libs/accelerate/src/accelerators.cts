/**
 * The accelerators' one interface (issue 29 item 2): an {@link Accelerators} value, built once by a
 * process entry (or a worker thread's entry) from its config (libs/core `readDocforgeConfig()`),
 * answers whether a tactic is on and loads a CommonJS module through the V8 code cache when the
 * `code-cache` tactic is. Nothing here holds state beyond the value itself: callers pass it down.
 */
import { codeCacheDir, loadWithCodeCache, type CodeCacheLoad, type CodeCacheOptions, type CodeCacheSettings } from './code-cache.cjs';
import { AccelerateError, parseAccelerate, type Accelerator } from './switch.cjs';

/**
 * The settings the accelerators read, as libs/core config.ts names them (a `DocforgeConfig`
 * satisfies this shape; tests pass the fields they need).
 */
export interface AcceleratorSettings extends CodeCacheSettings {
  /** `DOCFORGE_ACCELERATE` as written (undefined or blank: every tactic on). */
  readonly accelerateText?: string | undefined;
  /** `DOCFORGE_TS_PARSER`: `whole` turns the `parser-module` tactic off as `-parser-module` does. */
  readonly tsParser?: string | null;
}

/** The options of {@link Accelerators.loadWithCodeCache}: those of the code cache without its directory. */
export type CodeCachedLoadOptions = Omit<CodeCacheOptions, 'cacheDir'>;

/** Which start-up tactics are on, and the code cache they use. Immutable. */
export class Accelerators {
  readonly #on: ReadonlySet<Accelerator>;
  readonly #cacheDir: string | null;

  private constructor(on: ReadonlySet<Accelerator>, cacheDir: string | null) {
    this.#on = on;
    this.#cacheDir = cacheDir;
  }

  /**
   * The accelerators `settings` leave on. An invalid `DOCFORGE_ACCELERATE` turns every tactic off
   * here (each tactic's off path gives the same answers); the process entries report it with
   * `parseAccelerate`. Never throws.
   */
  static from(settings: AcceleratorSettings): Accelerators {
    let on: Set<Accelerator>;
    try {
      on = new Set(parseAccelerate(settings.accelerateText));
    } catch (error) {
      if (!(error instanceof AccelerateError)) throw error;
      on = new Set();
    }
    if (settings.tsParser === 'whole') on.delete('parser-module');
    return new Accelerators(on, on.has('code-cache') || on.has('bundle-cache') ? codeCacheDir(settings) : null);
  }

  /** Whether the tactic `name` is on. */
  on(name: Accelerator): boolean {
    return this.#on.has(name);
  }

  /** The V8 code cache directory in force: null when `code-cache` is off or `DOCFORGE_CODE_CACHE_DIR=off`. */
  get codeCacheDir(): string | null {
    return this.on('code-cache') ? this.#cacheDir : null;
  }

  /**
   * The V8 code cache directory docforge-mcp's launcher compiles the server bundle through (libs/accelerate
   * `loadBundle`): the same directory as {@link codeCacheDir}, null when `bundle-cache` is off or
   * `DOCFORGE_CODE_CACHE_DIR=off`.
   */
  get bundleCacheDir(): string | null {
    return this.on('bundle-cache') ? this.#cacheDir : null;
  }

  /**
   * Loads the CommonJS module `file` (absolute path) through the code cache in force
   * (code-cache.cts `loadWithCodeCache`; plain loading when it is off).
   * @throws only what the module itself throws when it runs
   */
  loadWithCodeCache(file: string, options: CodeCachedLoadOptions): CodeCacheLoad {
    return loadWithCodeCache(file, { ...options, cacheDir: this.#cacheDir });
  }
}
