// Output pass of libs/sync/scripts/build-worker-bundle.mjs (issue 14): the bundled build worker runs
// compiled from a V8 code cache (src/worker-entry.cts), and on Node 20 a function compiled from cached
// data cannot run `import()` ("A dynamic import callback was not specified"). A dynamic import of a
// built-in module with a literal name (web-tree-sitter's `import("module")` and `import("fs/promises")`,
// which the Python adapter reaches) becomes `Promise.resolve(__docforgeBuiltin(name))`, where
// `__docforgeBuiltin` is the bundle's own module-scope `require`, captured by BANNER at the top of the
// file (after its "use strict" directive, which must stay first): the same functions, as the
// module's exports object instead of a namespace (no `default`; the callers read named members). A plain `require(...)` there (esbuild's `supported: {'dynamic-import':
// false}`) is shadowed by web-tree-sitter's hoisted `var require`, and `process.getBuiltinModule`
// exists only from Node 20.16 (engines allow 20.10): in both the Python adapter failed to load in the
// bundle. Any other `import(` left in the text fails the bundle build, except the importer
// dynamic-import.ts builds with `new Function` (project-owned adapters).
import { builtinModules } from 'node:module';

const BUILTINS = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));

/** The statement this pass puts first in the bundle (after "use strict"): the module-scope `require`, under a name no bundled code declares. */
export const BANNER = 'var __docforgeBuiltin = (name) => require(name);';
/** The one `import(` the bundle may keep: the body of dynamic-import.ts's Function. */
const ALLOWED = 'return import(specifier)';

/**
 * Rewrites the built-in dynamic imports of bundle `text` and, when it rewrote any, puts BANNER first
 * (after a "use strict" directive).
 * @returns the new text and how many imports it rewrote
 * @throws Error naming each other `import(` found (with 60 characters around it)
 */
export function rewriteBuiltinDynamicImports(text) {
  if (/\b__docforgeBuiltin\b/.test(text)) throw new Error('builtin-dynamic-imports: the bundle already names __docforgeBuiltin');
  let rewritten = 0;
  const out = text.replace(/(?<![\w$.])import\((["'])([^"'()\s]+)\1\)/g, (match, quote, name) => {
    if (!BUILTINS.has(name)) return match;
    rewritten += 1;
    return `Promise.resolve(__docforgeBuiltin(${quote}${name}${quote}))`;
  });
  const left = [];
  for (const found of out.matchAll(/(?<![\w$.])import\s*\(/g)) {
    if (out.startsWith(ALLOWED, found.index - 'return '.length)) continue;
    left.push(out.slice(Math.max(0, found.index - 60), found.index + 60));
  }
  if (left.length > 0) {
    throw new Error(`builtin-dynamic-imports: the bundle keeps ${left.length} import() that code compiled from a V8 code cache cannot run (route it through src/dynamic-import.ts): ${left.map((s) => JSON.stringify(s)).join('; ')}`);
  }
  if (rewritten === 0) return { text: out, rewritten };
  const directive = /^(?:#![^\n]*\n)?\s*(["'])use strict\1;?/.exec(out);
  const at = directive === null ? 0 : directive[0].length;
  return { text: `${out.slice(0, at)}${BANNER}${out.slice(at)}`, rewritten };
}
