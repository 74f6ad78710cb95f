#!/usr/bin/env node
// Bundles the no-change `docforge sync` entry (issue 14) from the compiled apps/cli/dist/src/fast-sync.js
// into one CommonJS file, apps/cli/dist/bundle/fast-sync.cjs, so a no-change sync loads one module instead
// of some thirty and never starts Node's ESM loader (its resolving dominated that process; the launcher is
// CommonJS too). better-sqlite3 (native) and piscina stay
// external, as do modules loaded through createRequire at run time (each bundled module keeps its own
// import.meta.url, so they resolve as from the unbundled files). Beside it, fast-sync.inputs.json lists every input
// (paths relative to the bundle's folder) with its size, mtime, ctime and inode (libs/accelerate
// writeBundleManifest): the launcher (bin/docforge.js) uses the bundle only while neither it nor any
// input changed, so a stale bundle after a plain `tsc -b` (or an edit whose mtime was put back) never runs.
// Run after `tsc -b`; exits non-zero on any bundle error. Does nothing while fast-sync.stamp.json says
// the bundle is current (ops/build-stamp.mjs); --force rebuilds. Usage: node apps/cli/scripts/build-bundle.mjs
import { existsSync, mkdirSync, realpathSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { bundleState, writeBundleManifest } from '@docforge/accelerate';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { dropStamp, esbuildVersion, fileHash, forced, stampIsCurrent, writeStamp } from '../../../ops/build-stamp.mjs';
import { ownImportMetaUrl } from '../../../libs/sync/scripts/own-import-meta-url.mjs';


const app = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const entry = path.join(app, 'dist', 'src', 'fast-sync.js');
const out = path.join(app, 'dist', 'bundle');
const bundle = path.join(out, 'fast-sync.cjs');
const manifest = path.join(out, 'fast-sync.inputs.json');

if (!existsSync(entry)) {
  console.error(`build-bundle: ${entry} is missing; run tsc -b first`);
  process.exit(1);
}
mkdirSync(out, { recursive: true });
// Up to date: same script and plugin, same esbuild, same folder, inputs unchanged and none newer than the bundle.
const stamp = path.join(out, 'fast-sync.stamp.json');
const scripts = [fileURLToPath(import.meta.url), fileURLToPath(new URL('../../../libs/sync/scripts/own-import-meta-url.mjs', import.meta.url))];
const key = { esbuild: esbuildVersion(), built_in: realpathSync(out), scripts: scripts.map(fileHash) };
// The launcher's rule too: a bundle it would not use (an input's size, mtime, ctime or inode moved
// since the manifest was written, though its content is back) is rebuilt, so its manifest is current.
if (!forced() && stampIsCurrent(stamp, key) && bundleState(bundle) === 'fresh') process.exit(0);
dropStamp(stamp);
// esbuild loads only when there is something to build (its import is most of a no-op run).
const { build } = await import('esbuild');
// The old manifest goes first (a bundle without its manifest is never used); the bundle and then its
// manifest are each written to a temp file and renamed, so a launcher running meanwhile never loads
// a partly written bundle.
rmSync(manifest, { force: true });
rmSync(path.join(out, 'fast-sync.js'), { force: true });
const result = await build({
  entryPoints: [entry],
  outfile: bundle,
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  // piscina: the build pool's prestart (a build is coming) creates the pool the full CLI adopts.
  external: ['better-sqlite3', 'piscina'],
  // The compiled modules resolve createRequire and sibling files (the build worker) from
  // import.meta.url: each keeps its own, its original file's URL.
  plugins: [ownImportMetaUrl],
  // Whitespace and syntax only (names stay, so stack traces still name functions): V8 compiles a
  // third less text on every start (about 5 ms of a no-change sync's 30 ms of our own work).
  minifyWhitespace: true,
  minifySyntax: true,
  metafile: true,
  write: false,
  logLevel: 'warning',
});
if (result.outputFiles.length !== 1) throw new Error(`build-bundle: expected one output file, got ${result.outputFiles.length}`);
writeFileSync(`${bundle}.tmp`, result.outputFiles[0].contents);
renameSync(`${bundle}.tmp`, bundle);
const inputs = Object.keys(result.metafile.inputs).map((input) => path.resolve(input));
// The manifest records this folder's real path (the bundle embeds its modules' absolute file URLs; a
// moved checkout must not use it) and the bundle's and every input's size, mtime, ctime and inode.
writeBundleManifest(bundle, inputs);
writeStamp(stamp, key, inputs, [bundle, manifest]);
