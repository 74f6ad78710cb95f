#!/usr/bin/env node
// Bundles the build worker (issue 14) from the compiled libs/sync/dist/src/worker.js into one CommonJS
// file, libs/sync/dist/bundle/worker.cjs: a build worker thread then loads one module instead of some
// 120 through Node's ESM loader (93 -> 47 ms from thread start to a loaded worker on the 2-core VM),
// which a one-shot `docforge sync` pays on its critical path. Each bundled module keeps its own
// `import.meta.url` (replaced by its original file URL), so relative files (parse-worker.js) and
// createRequire look-ups resolve exactly as in the unbundled worker. better-sqlite3 (native),
// typescript and piscina stay external, resolved from the bundle's folder, whose ancestors hold the
// same node_modules. The TypeScript adapter's compiler-api.js is bundled as a plain `require` of the
// compiler (direct-compiler-default.mjs: no interop copy of its exports, ~10 ms per thread). Beside
// it, worker.inputs.json lists every input (paths relative to the bundle's folder): build-pool.ts
// uses the bundle only while no input is newer than it (a stale bundle after a plain `tsc -b` never
// runs). Run after `tsc -b`; exits non-zero on any bundle error.
// Does nothing while worker.stamp.json says the bundle is current (ops/build-stamp.mjs); --force rebuilds.
// Usage: node libs/sync/scripts/build-worker-bundle.mjs
import { existsSync, mkdirSync, readdirSync, realpathSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { dropStamp, esbuildVersion, fileHash, forced, stampIsCurrent, writeStamp } from '../../../ops/build-stamp.mjs';
import { directCompilerDefault } from './direct-compiler-default.mjs';
import { ownImportMetaUrl } from './own-import-meta-url.mjs';

const lib = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const entry = path.join(lib, 'dist', 'src', 'worker.js');
const out = path.join(lib, 'dist', 'bundle');
const bundle = path.join(out, 'worker.cjs');
const manifest = path.join(out, 'worker.inputs.json');

if (!existsSync(entry)) {
  console.error(`build-worker-bundle: ${entry} is missing; run tsc -b first`);
  process.exit(1);
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
// The code-cached entry of earlier builds (retired, issue 29) must not linger beside the bundle.
rmSync(path.join(out, 'worker-entry.cjs'), { force: true });
// One CommonJS file for Node 20, whitespace and syntax minified only (names stay, so
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
if (result.outputFiles.length !== 1) throw new Error(`build-worker-bundle: expected one output file, got ${result.outputFiles.length}`);
writeFileSync(`${bundle}.tmp`, result.outputFiles[0].contents);
renameSync(`${bundle}.tmp`, bundle);
const inputs = Object.keys(result.metafile.inputs).map((input) => path.relative(out, path.resolve(input))).sort();
// built_in: the bundle embeds its modules' absolute file URLs; a moved checkout must not use it.
writeFileSync(`${manifest}.tmp`, `${JSON.stringify({ bundle: 'worker.cjs', built_in: realpathSync(out), inputs }, null, 2)}\n`);
renameSync(`${manifest}.tmp`, manifest);
writeStamp(stamp, key, inputs.map((input) => path.resolve(out, input)), [bundle, manifest]);
