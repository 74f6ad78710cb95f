/**
 * The one place DocForge reads its `DOCFORGE_*` environment variables (issue 29, item 4). A process
 * entry (CLI, MCP server, viewer manager, graph-browser worker) calls {@link readDocforgeConfig}
 * once when it starts and passes the typed values down as options; libraries never read the
 * environment themselves. Parsing is lenient on purpose: a malformed value falls back to the
 * default, so a stray variable never stops a process from starting (the MCP server warns about an
 * unknown log level itself).
 *
 * | Variable | Type | Default | Unit | Read by |
 * | --- | --- | --- | --- | --- |
 * | `DOCFORGE_LOG_LEVEL` | pino level name ({@link LOG_LEVELS}) | per process: `warn` (CLI), `info` (MCP server, graph-browser worker, build worker) | - | every process's logger; apps/mcp-server writes it for the worker threads it starts |
 * | `DOCFORGE_VALIDATE_OUTPUT` | `1` or unset | off | - | apps/mcp-server: check every tool result against its output schema (tests) |
 * | `DOCFORGE_VIEWER_RUNTIME_DIR` | absolute path | `$XDG_RUNTIME_DIR/docforge`, else `~/.cache/docforge/run` | - | libs/ipc `viewerRuntimePaths` (viewer manager, viewer client, CLI) |
 * | `DOCFORGE_VIEWER_IDLE_MS` | positive integer | 3,600,000 (one hour) | ms | apps/viewer-manager: idle reclaim timeout |
 * | `DOCFORGE_VIEWER_WORKER_START_MS` | positive integer | 20,000 | ms | apps/viewer-manager: how long a worker may take to report ready |
 * | `DOCFORGE_WORKER_CONFIG` | JSON (protocol/schemas/viewer/v2/worker-config.schema.json) | none (required) | - | apps/graph-browser worker; written by apps/viewer-manager when it forks one |
 * | `DOCFORGE_TEST_FAULT_POINT` | fault point name | unset | - | test only: libs/changesets (store lock, application journal steps), apps/mcp-server (`apply_refresh_fail`) |
 * | `DOCFORGE_TEST_FAULT_MARKER` | file path | unset | - | test only: the marker file a fault point writes before it waits to be killed |
 *
 * Read here and passed down to the build worker and the start-up accelerators (issue 29: the build
 * pool, the watchdog and the TypeScript compiler's loader take them as options; a worker thread
 * inherits the environment and its entry, or the module that loads the compiler in that thread,
 * calls {@link readDocforgeConfig} itself):
 *
 * | Variable | Type | Default | Unit | Read by |
 * | --- | --- | --- | --- | --- |
 * | `DOCFORGE_ACCELERATE` | `off`, or `-name` items separated by commas (libs/accelerate `parseAccelerate`) | every tactic on | - | libs/accelerate `Accelerators.from` (every tactic's gate); the CLI and docforge-mcp refuse an invalid value at start; both launchers (bin/docforge.js, bin/docforge-mcp.js, CommonJS, outside src/) read it themselves before any ES module loads |
 * | `DOCFORGE_CLI_TRACE` | `1` (which no-change path ran) or `2` (also which full CLI ran: bundle or compiled) | unset | - | the CLI launcher (bin/docforge.js, CommonJS, outside src/), on stderr |
 * | `DOCFORGE_MCP_TRACE` | `1` | unset | - | the docforge-mcp launcher (bin/docforge-mcp.js, CommonJS, outside src/): on stderr, whether the bundle ran (`mcp-bundle`) |
 * | `DOCFORGE_MCP_FRAMES_FD` | `3` | unset | - | internal: set by the docforge-mcp launcher (bin/docforge-mcp.js) for the server child it starts, read and removed by that child (MCP frames go to fd 3; break-it trial of stop 45); never set it yourself |
 * | `DOCFORGE_CLI_OUTPUT_FD` | `3` | unset | - | internal: set by the CLI launcher (bin/docforge.js) for the CLI child it starts when docforge.toml names a `module`, read and removed by that child (the CLI's own output goes to fd 3, its fd 1 to the caller's stderr; issue 30, break-it trial of stop 45); never set it yourself |
 * | `DOCFORGE_ADAPTER_TIMEOUT_MS` | positive integer | 30,000 | ms | libs/sync `adapter-timeout.ts`: watchdog of project-owned adapter code |
 * | `DOCFORGE_BUILD_HEAP_MB` | positive integer | half the machine's memory, at least 4,096 | MiB | libs/sync `adapter-timeout.ts`: build worker heap |
 * | `DOCFORGE_WORKER_BUNDLE` | `off` or absolute path | the fresh bundle, else the compiled worker | - | libs/sync `build-pool.ts` |
 * | `DOCFORGE_CODE_CACHE_DIR` | `off` or absolute path | `$XDG_CACHE_HOME/docforge/v8`, else `~/.cache/docforge/v8` | - | libs/accelerate `codeCacheDir` (the TypeScript compiler's V8 code cache; the server bundle's, `bundle-cache`, for which the docforge-mcp launcher, bin/docforge-mcp.js, reads it and `XDG_CACHE_HOME` itself) |
 * | `XDG_CACHE_HOME` | absolute path | unset | - | libs/accelerate `codeCacheDir` (fallback of the above) |
 * | `DOCFORGE_TS_PARSER` | `whole` or unset | the extracted parser module | - | libs/accelerate `Accelerators.from`: `whole` turns `parser-module` off (libs/adapters/typescript `compiler.cts`) |
 *
 * `DOCFORGE_LOG_LEVEL` in build worker threads: libs/stdio `lazy-logger.ts` and `stdout-guard.ts`
 * through `envLogLevel` (cli-options.ts, which reads it with this module's {@link readDocforgeConfig}).
 *
 * Test harness variables (`DOCFORGE_TEST_CONCURRENCY`, `DOCFORGE_CHROMIUM`, `DOCFORGE_TEST_HOLD`)
 * are read by ops/ and test code only, never by the product.
 */
/** The pino level names a `--log-level` option or `DOCFORGE_LOG_LEVEL` may name. */
export const LOG_LEVELS: readonly string[] = Object.freeze(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']);

/**
 * The test-only fault points of a process (`DOCFORGE_TEST_FAULT_POINT`, `DOCFORGE_TEST_FAULT_MARKER`):
 * read once at start and passed down as options, so no write loop consults the environment.
 * Spawned processes inherit the variables with the rest of the environment.
 */
export interface TestFaults {
  /** The armed fault point (`changeset_store_locked`, `apply_kill_<step>`, `apply_half_written`, ...), or null. */
  readonly point: string | null;
  /** Absolute path of the marker file a killing fault point writes (its pid) before it waits, or null. */
  readonly marker: string | null;
}

/** No fault point armed: the value every normal run uses. */
export const NO_TEST_FAULTS: TestFaults = Object.freeze({ point: null, marker: null });

/** Every `DOCFORGE_*` setting of the product, typed (see the table in this module's header). */
export interface DocforgeConfig {
  /** `DOCFORGE_LOG_LEVEL` as written (undefined when unset), for a warning about an unknown name. */
  readonly logLevelText: string | undefined;
  /** `DOCFORGE_LOG_LEVEL` when it names one of {@link LOG_LEVELS}, else null (use the process's default). */
  readonly logLevel: string | null;
  /** `DOCFORGE_VALIDATE_OUTPUT=1`: check every MCP tool result against its output schema. */
  readonly validateOutput: boolean;
  /** `DOCFORGE_VIEWER_RUNTIME_DIR` when set and non-empty (callers keep only an absolute one), else null. */
  readonly viewerRuntimeDir: string | null;
  /** `XDG_RUNTIME_DIR` when set and non-empty, else null (the viewer runtime dir's fallback). */
  readonly xdgRuntimeDir: string | null;
  /** `DOCFORGE_VIEWER_IDLE_MS` when a positive safe integer (milliseconds), else null. */
  readonly viewerIdleMs: number | null;
  /** `DOCFORGE_VIEWER_WORKER_START_MS` when a positive safe integer (milliseconds), else null. */
  readonly viewerWorkerStartMs: number | null;
  /** `DOCFORGE_WORKER_CONFIG`: the JSON text a graph-browser worker is started with, or undefined. */
  readonly workerConfigText: string | undefined;
  /** `DOCFORGE_TEST_FAULT_POINT` / `DOCFORGE_TEST_FAULT_MARKER` (tests only). */
  readonly testFaults: TestFaults;
  /** `DOCFORGE_ACCELERATE` as written (undefined when unset); parsed by libs/accelerate. */
  readonly accelerateText: string | undefined;
  /** `DOCFORGE_ADAPTER_TIMEOUT_MS` when a positive safe integer (milliseconds), else null (30,000). */
  readonly adapterTimeoutMs: number | null;
  /** `DOCFORGE_BUILD_HEAP_MB` when a positive safe integer (MiB), else null (half the machine's memory, at least 4,096). */
  readonly buildHeapMb: number | null;
  /** `DOCFORGE_WORKER_BUNDLE` when set and non-empty (`off`, or an absolute path; anything else is ignored by the pool), else null. */
  readonly workerBundle: string | null;
  /** `DOCFORGE_CODE_CACHE_DIR` when set and non-empty (`off`, or an absolute path), else null. */
  readonly codeCacheDirText: string | null;
  /** `XDG_CACHE_HOME` when set and non-empty, else null (the code cache directory's fallback). */
  readonly xdgCacheHome: string | null;
  /** `DOCFORGE_TS_PARSER` when set and non-empty (`whole` loads the whole TypeScript compiler), else null. */
  readonly tsParser: string | null;
}

/** Name of the variable that carries a graph-browser worker's configuration (JSON). */
export const WORKER_CONFIG_ENV = 'DOCFORGE_WORKER_CONFIG';

/** The environment a config is read from: `process.env` or a test's stand-in. */
export type Environment = Readonly<Record<string, string | undefined>>;

function positiveInt(value: string | undefined): number | null {
  const n = value === undefined ? NaN : Number(value);
  return Number.isSafeInteger(n) && n > 0 ? n : null;
}

function nonEmpty(value: string | undefined): string | null {
  return value === undefined || value === '' ? null : value;
}

/**
 * Reads every `DOCFORGE_*` setting of the product from `env` (see the table above). Called once by
 * each process entry when it starts; pure apart from reading `env`, never throws.
 * @param env the environment; `process.env` by default
 */
export function readDocforgeConfig(env: Environment = process.env): DocforgeConfig {
  const logLevelText = env['DOCFORGE_LOG_LEVEL'];
  const point = nonEmpty(env['DOCFORGE_TEST_FAULT_POINT']);
  const marker = nonEmpty(env['DOCFORGE_TEST_FAULT_MARKER']);
  return {
    logLevelText,
    logLevel: logLevelText !== undefined && LOG_LEVELS.includes(logLevelText) ? logLevelText : null,
    validateOutput: env['DOCFORGE_VALIDATE_OUTPUT'] === '1',
    viewerRuntimeDir: nonEmpty(env['DOCFORGE_VIEWER_RUNTIME_DIR']),
    xdgRuntimeDir: nonEmpty(env['XDG_RUNTIME_DIR']),
    viewerIdleMs: positiveInt(env['DOCFORGE_VIEWER_IDLE_MS']),
    viewerWorkerStartMs: positiveInt(env['DOCFORGE_VIEWER_WORKER_START_MS']),
    workerConfigText: env[WORKER_CONFIG_ENV],
    testFaults: point === null && marker === null ? NO_TEST_FAULTS : Object.freeze({ point, marker }),
    accelerateText: env['DOCFORGE_ACCELERATE'],
    adapterTimeoutMs: positiveInt(env['DOCFORGE_ADAPTER_TIMEOUT_MS']),
    buildHeapMb: positiveInt(env['DOCFORGE_BUILD_HEAP_MB']),
    workerBundle: nonEmpty(env['DOCFORGE_WORKER_BUNDLE']),
    codeCacheDirText: nonEmpty(env['DOCFORGE_CODE_CACHE_DIR']),
    xdgCacheHome: nonEmpty(env['XDG_CACHE_HOME']),
    tsParser: nonEmpty(env['DOCFORGE_TS_PARSER']),
  };
}
