#!/usr/bin/env node
// Bundles the full CLI (the `cli-full-bundle` tactic, issue 29) from the compiled apps/cli/dist/src/cli.js
// and everything it imports (the workspace libs and the pure-JS packages) into one CommonJS file,
// apps/cli/dist/bundle/cli.cjs: a command the no-change fast path (build-bundle.mjs) does not answer
// then compiles one file instead of some 600 ES modules through Node's ESM loader. The same choices as
// docforge-mcp's bundle (apps/mcp-server/scripts/build-bundle.mjs): CommonJS (the launcher is CommonJS and
// nothing in the graph uses top-level await); better-sqlite3 (native), piscina (the build pool) and
// typescript (loaded by path through the code cache) external, resolved from the bundle's folder as from
// the compiled files; each bundled module keeps its own import.meta.url (ownImportMetaUrl), so files
// loaded by path at run time (the build and parse workers, web-tree-sitter's WASM, the viewer and graph
// browser) resolve exactly as from the unbundled files; the TypeScript adapter's compiler-api.js and
// jsonc-parser bundled as the build worker's bundle does. Beside it, cli.inputs.json lists every input
// (paths relative to the bundle's folder) with its size, mtime, ctime and inode (libs/accelerate
// writeBundleManifest): the launcher (bin/docforge.js) uses the bundle only while neither it nor any input
// changed (libs/accelerate bundleState), so a stale bundle after a plain `tsc -b` (or an edit whose mtime
// was put back) never runs.
// Run after `tsc -b`; exits non-zero on any bundle error. Does nothing while cli.stamp.json says the
// bundle is current (ops/build-stamp.mjs); --force rebuilds. Usage: node apps/cli/scripts/build-full-bundle.mjs
import { existsSync, mkdirSync, realpathSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { bundleState, writeBundleManifest } from '@docforge/accelerate';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { dropStamp, esbuildVersion, fileHash, forced, stampIsCurrent, writeStamp } from '../../../ops/build-stamp.mjs';
import { ownImportMetaUrl } from '../../../libs/sync/scripts/own-import-meta-url.mjs';
import { directCompilerDefault } from '../../../libs/sync/scripts/direct-compiler-default.mjs';

const app = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const entry = path.join(app, 'dist', 'src', 'cli.js');
const out = path.join(app, 'dist', 'bundle');
const bundle = path.join(out, 'cli.cjs');
const manifest = path.join(out, 'cli.inputs.json');

if (!existsSync(entry)) {
  console.error(`build-full-bundle: ${entry} is missing; run tsc -b first`);
  process.exit(1);
}
mkdirSync(out, { recursive: true });
// Up to date: same script and plugins, same esbuild, same folder, inputs unchanged and none newer than the bundle.
const stamp = path.join(out, 'cli.stamp.json');
const scripts = [
  fileURLToPath(import.meta.url),
  fileURLToPath(new URL('../../../libs/sync/scripts/own-import-meta-url.mjs', import.meta.url)),
  fileURLToPath(new URL('../../../libs/sync/scripts/direct-compiler-default.mjs', import.meta.url)),
];
const key = { esbuild: esbuildVersion(), built_in: realpathSync(out), scripts: scripts.map(fileHash) };
// The launcher's rule too: a bundle it would not use (an input's size, mtime, ctime or inode moved
// since the manifest was written, though its content is back) is rebuilt, so its manifest is current.
if (!forced() && stampIsCurrent(stamp, key) && bundleState(bundle) === 'fresh') process.exit(0);
dropStamp(stamp);
// esbuild loads only when there is something to build (its import is most of a no-op run).
const { build } = await import('esbuild');
// The old manifest goes first (a bundle without its manifest is never used); the bundle and then its
// manifest are each written to a temp file and renamed, so a launcher starting meanwhile never loads
// a partly written bundle.
rmSync(manifest, { force: true });
const result = await build({
  entryPoints: [entry],
  outfile: bundle,
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  external: ['better-sqlite3', 'piscina', 'typescript'],
  // directCompilerDefault first: the first plugin that loads a file wins.
  plugins: [directCompilerDefault, ownImportMetaUrl],
  // jsonc-parser's `main` is a UMD file whose factory requires its parts at run time (from the
  // bundle's folder, where they are not): bundle its ES module build instead.
  alias: { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' },
  // Whitespace and syntax only (names stay, so stack traces still name functions): V8 compiles
  // less text on every start.
  minifyWhitespace: true,
  minifySyntax: true,
  metafile: true,
  write: false,
  logLevel: 'warning',
});
if (result.outputFiles.length !== 1) throw new Error(`build-full-bundle: expected one output file, got ${result.outputFiles.length}`);
writeFileSync(`${bundle}.tmp`, result.outputFiles[0].contents);
renameSync(`${bundle}.tmp`, bundle);
const inputs = Object.keys(result.metafile.inputs).map((input) => path.resolve(input));
// The manifest records this folder's real path (the bundle embeds its modules' absolute file URLs; a
// moved checkout must not use it) and the bundle's and every input's size, mtime, ctime and inode.
writeBundleManifest(bundle, inputs);
writeStamp(stamp, key, inputs, [bundle, manifest]);
