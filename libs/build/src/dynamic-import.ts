/**
 * `import()` of a module that is never bundled, a project-owned adapter's file URL (issue 14). The
 * bundled build worker runs compiled from a V8 code cache (worker-entry.cts), and in code compiled
 * from cached data Node 20 loses the dynamic-import callback: a syntactic `import()` there throws
 * "A dynamic import callback was not specified". So the entry, loaded by `require` as usual, puts
 * an importer of its own under {@link DYNAMIC_IMPORT_HOOK}, and every other way this code runs (the
 * compiled ESM worker, the bundle loaded without its entry) imports through a `Function` made here,
 * which esbuild leaves alone (the worker bundle's literal `import()` of built-in modules call its
 * module-scope `require`, and any other fails its build: scripts/builtin-dynamic-imports.mjs).
 */

/** The global slot of the importer worker-entry.cts installs (a function of a specifier to a module namespace promise). */
export const DYNAMIC_IMPORT_HOOK = Symbol.for('docforge.index.dynamicImport');

// A Function's `import()` loads with Node's default loader from the code that made it.
const plainImport = new Function('specifier', 'return import(specifier)') as (specifier: string) => Promise<unknown>;

/**
 * Imports the ES module `specifier` (an absolute file URL or a built-in module name) through the
 * worker entry's importer when one is installed, else directly.
 * @returns the module namespace
 * @throws whatever loading or evaluating the module throws (as `import()` does)
 */
export function importModule(specifier: string): Promise<unknown> {
  const hook = (globalThis as { [DYNAMIC_IMPORT_HOOK]?: unknown })[DYNAMIC_IMPORT_HOOK];
  return typeof hook === 'function' ? (hook as (specifier: string) => Promise<unknown>)(specifier) : plainImport(specifier);
}
