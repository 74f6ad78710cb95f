#!/usr/bin/env node
// Bundles the build worker (issue 14) from the compiled libs/index/dist/src/worker.js into one CommonJS
// file, libs/index/dist/bundle/worker.cjs: a build worker thread then loads one module instead of some
// 120 through Node's ESM loader (93 -> 47 ms from thread start to a loaded worker on the 2-core VM),
// which a one-shot `docforge sync` pays on its critical path. Each bundled module keeps its own
// `import.meta.url` (replaced by its original file URL), so relative files (parse-worker.js) and
// createRequire look-ups resolve exactly as in the unbundled worker. better-sqlite3 (native),
// typescript and piscina stay external, resolved from the bundle's folder, whose ancestors hold the
// same node_modules. The TypeScript adapter's compiler-api.js is bundled as a plain `require` of the
// compiler (direct-compiler-default.mjs: no interop copy of its exports, ~10 ms per thread). Beside
// it, worker.inputs.json lists every input (paths relative to the bundle's folder): build-pool.ts
// uses the bundle only while no input is newer than it (a stale bundle after a plain `tsc -b` never
// runs). The thread's entry is a second, small bundle, worker-entry.cjs (from src/worker-entry.cts): it
// loads worker.cjs through the per-user V8 code cache, written after a thread's first build; the
// manifest's inputs are those of both. Code compiled from cached data cannot run import() on Node 20,
// so the bundle's built-in dynamic imports are rewritten and any other fails the build
// (builtin-dynamic-imports.mjs). Run after `tsc -b`; exits non-zero on any bundle error.
// Does nothing while worker.stamp.json says both bundles are current (ops/build-stamp.mjs); --force rebuilds.
// Usage: node libs/index/scripts/build-worker-bundle.mjs
import { existsSync, mkdirSync, readdirSync, realpathSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { dropStamp, esbuildVersion, fileHash, forced, stampIsCurrent, writeStamp } from '../../../ops/build-stamp.mjs';
import { rewriteBuiltinDynamicImports } from './builtin-dynamic-imports.mjs';
import { directCompilerDefault } from './direct-compiler-default.mjs';
import { ownImportMetaUrl } from './own-import-meta-url.mjs';

const lib = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const entry = path.join(lib, 'dist', 'src', 'worker.js');
const loaderEntry = path.join(lib, 'dist', 'src', 'worker-entry.cjs');
const out = path.join(lib, 'dist', 'bundle');
const bundle = path.join(out, 'worker.cjs');
const loader = path.join(out, 'worker-entry.cjs');
const manifest = path.join(out, 'worker.inputs.json');

for (const file of [entry, loaderEntry]) {
  if (!existsSync(file)) {
    console.error(`build-worker-bundle: ${file} is missing; run tsc -b first`);
    process.exit(1);
  }
}


mkdirSync(out, { recursive: true });
// Up to date: same scripts and plugins (every .mjs beside this one), same esbuild, same folder, inputs unchanged.
const stamp = path.join(out, 'worker.stamp.json');
const here = path.dirname(fileURLToPath(import.meta.url));
const key = { esbuild: esbuildVersion(), built_in: realpathSync(out), scripts: readdirSync(here).filter((n) => n.endsWith('.mjs')).sort().map((n) => [n, fileHash(path.join(here, n))]) };
if (!forced() && stampIsCurrent(stamp, key)) process.exit(0);
dropStamp(stamp);
// esbuild loads only when there is something to build (its import is most of a no-op run).
const { build } = await import('esbuild');
// The old manifest goes first (a bundle without its manifest is never used); bundle, then manifest,
// each through a temp file and a rename, so a worker starting meanwhile never loads a partial file.
rmSync(manifest, { force: true });
// Both bundles: one CommonJS file for Node 20, whitespace and syntax minified only (names stay, so
// stack traces still name functions; V8 compiles a third less text on every start, about 5 ms of a
// no-change sync's 30 ms of our own work), returned for the writes below.
const common = { bundle: true, format: 'cjs', platform: 'node', target: 'node20', minifyWhitespace: true, minifySyntax: true, metafile: true, write: false, logLevel: 'warning' };
const result = await build({
  ...common,
  entryPoints: [entry],
  outfile: bundle,
  external: ['better-sqlite3', 'typescript', 'piscina'],
  // directCompilerDefault first: the first plugin that loads a file wins.
  plugins: [directCompilerDefault, ownImportMetaUrl],
  // jsonc-parser's `main` is a UMD file whose factory requires its parts at run time (from the
  // bundle's folder, where they are not): bundle its ES module build instead.
  alias: { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' },
});
// The entry: the code cache's module and itself (worker.cjs is loaded by path at run time, never bundled).
const loaderResult = await build({ ...common, entryPoints: [loaderEntry], outfile: loader });
for (const [name, built] of [['worker.cjs', result], ['worker-entry.cjs', loaderResult]]) {
  if (built.outputFiles.length !== 1) throw new Error(`build-worker-bundle: expected one output file for ${name}, got ${built.outputFiles.length}`);
}
// The bundle runs compiled from a V8 code cache, where import() fails (src/dynamic-import.ts): its
// built-in dynamic imports are rewritten, and any other import() fails this build.
const body = rewriteBuiltinDynamicImports(result.outputFiles[0].text).text;
for (const [file, text] of [[bundle, body], [loader, loaderResult.outputFiles[0].text]]) {
  writeFileSync(`${file}.tmp`, text);
  renameSync(`${file}.tmp`, file);
}
const inputs = [...new Set([...Object.keys(result.metafile.inputs), ...Object.keys(loaderResult.metafile.inputs)])]
  .map((input) => path.relative(out, path.resolve(input))).sort();
// built_in: the bundle embeds its modules' absolute file URLs; a moved checkout must not use it.
writeFileSync(`${manifest}.tmp`, `${JSON.stringify({ bundle: 'worker.cjs', entry: 'worker-entry.cjs', built_in: realpathSync(out), inputs }, null, 2)}\n`);
renameSync(`${manifest}.tmp`, manifest);
writeStamp(stamp, key, inputs.map((input) => path.resolve(out, input)), [bundle, loader, manifest]);
