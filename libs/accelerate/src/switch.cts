/**
 * The start-up accelerators' switch (issue 29 item 2): `DOCFORGE_ACCELERATE` (read by
 * libs/core config.ts) names which of the tactics that shorten a one-shot `docforge sync` or a
 * docforge-mcp start run.
 * Unset or empty: all of them; `off`: none; `-name,-name`: all but those. Every tactic's gate asks
 * an {@link Accelerators} (accelerators.cts) built from the config; the process entries (the CLI,
 * docforge-mcp) check the value once with {@link parseAccelerate} and refuse an unknown name.
 * CommonJS (`.cts`, no imports) because CommonJS code gates tactics too (the CLI launcher, the
 * TypeScript adapter's compiler loader) and Node 20.10 (the engines floor) cannot `require` an ES
 * module. Answers are the same with every tactic off (test/accelerators-off.test.ts); only
 * start-up time differs (docs/benchmarks.md, accelerators).
 */

/** Every tactic's name, in the order docs/benchmarks.md lists them. */
const ACCELERATOR_LIST = ['cli-bundle', 'cli-full-bundle', 'mcp-bundle', 'no-change-check', 'prestart', 'code-cache', 'parser-module', 'bundle-cache', 'worker-bundle'] as const;

/**
 * A tactic's name: `cli-bundle` (the launcher's bundled no-change check, apps/cli/dist/bundle),
 * `cli-full-bundle` (the CLI launcher runs every command the no-change check does not answer from
 * one bundled file, apps/cli/dist/bundle/cli.cjs, instead of some 600 compiled ES modules),
 * `mcp-bundle` (docforge-mcp's launcher runs the whole server from one bundled file,
 * apps/mcp-server/dist/bundle/main.cjs, instead of some 650 compiled ES modules),
 * `no-change-check` (a sync first checks whether the publication is current with light imports,
 * libs/sync no-change.ts, before loading the full sync; without it nothing prestarts either),
 * `prestart` (a build worker started as soon as that check finds a build coming), `code-cache`
 * (the TypeScript compiler's V8 code cache), `parser-module` (the parser part of typescript.js
 * instead of the whole compiler), `worker-bundle` (the bundled build worker instead of the
 * compiled ES modules), `bundle-cache` (docforge-mcp's launcher compiles the server bundle from a V8
 * code cache written when a start exits, on a project whose docforge.toml names no project-owned
 * module: issue 29 item 7). (`worker-cache`, the worker bundle's V8 code cache, was measured below 5%
 * and retired: docs/benchmarks.md.)
 */
export type Accelerator = (typeof ACCELERATOR_LIST)[number];

/** Every tactic's name (see {@link Accelerator}). */
export const ACCELERATORS: readonly Accelerator[] = ACCELERATOR_LIST;

/** The environment variable whose value {@link parseAccelerate} reads (libs/core config.ts `accelerateText`). */
export const ACCELERATE_ENV = 'DOCFORGE_ACCELERATE';

/** A `DOCFORGE_ACCELERATE` value that names no known tactic or is not of the documented form. */
export class AccelerateError extends Error {
  /** @param reason why the value is refused (names the value and the known tactics) */
  constructor(reason: string) {
    super(reason);
    this.name = 'AccelerateError';
  }
}

/**
 * The tactics `value` (a `DOCFORGE_ACCELERATE` value) leaves on: all for undefined or blank,
 * none for `off`, all but the named ones for a comma-separated list of `-name` (spaces around
 * items allowed). Pure.
 * @throws AccelerateError for an unknown name, an item without its `-`, or `off` inside a list
 */
export function parseAccelerate(value: string | undefined): ReadonlySet<Accelerator> {
  const text = (value ?? '').trim();
  if (text === '') return new Set(ACCELERATOR_LIST);
  if (text === 'off') return new Set();
  const enabled = new Set<Accelerator>(ACCELERATOR_LIST);
  for (const raw of text.split(',')) {
    const item = raw.trim();
    const name = item.startsWith('-') ? item.slice(1) : null;
    if (name === null || !(ACCELERATOR_LIST as readonly string[]).includes(name)) {
      throw new AccelerateError(`${ACCELERATE_ENV}=${JSON.stringify(value)}: ${JSON.stringify(item)} is not ${name === null ? 'of the form -name' : 'a known tactic'}; give off, or -name items separated by commas, names among ${ACCELERATOR_LIST.join(', ')}`);
    }
    enabled.delete(name as Accelerator);
  }
  return enabled;
}
