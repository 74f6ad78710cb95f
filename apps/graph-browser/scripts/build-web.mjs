#!/usr/bin/env node
// Builds the graph browser page (issue 13): type-checks apps/graph-browser/web strictly (its own
// tsconfig: lib dom, noEmit) and bundles web/src/main.ts with esbuild into dist/web/app.js, next to
// a copy of index.html and styles.css. The worker serves dist/web. Exits non-zero on any type or
// bundle error. Does nothing while dist/web/build.stamp.json says the page is current
// (ops/build-stamp.mjs: the type check's files, the bundle's inputs and every file under web/);
// --force rebuilds. Usage: node apps/graph-browser/scripts/build-web.mjs
import { copyFileSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { dropStamp, esbuildVersion, fileHash, forced, stampIsCurrent, writeStamp } from '../../../ops/build-stamp.mjs';

const app = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const web = path.join(app, 'web');
const out = path.join(app, 'dist', 'web');
const require = createRequire(import.meta.url);

const tsc = require.resolve('typescript/bin/tsc');
const stamp = path.join(out, 'build.stamp.json');
/** Every file under `dir`, recursively (absolute paths, sorted). */
const filesUnder = (dir) => readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? filesUnder(path.join(dir, entry.name)) : [path.join(dir, entry.name)])).sort();
// The list of web/'s files is part of the key: a new file under src/ joins the type check unimported.
const webFiles = filesUnder(web);
const key = { esbuild: esbuildVersion(), script: fileHash(fileURLToPath(import.meta.url)), web: webFiles.map((file) => path.relative(web, file)) };
mkdirSync(out, { recursive: true });
if (!forced() && stampIsCurrent(stamp, key)) process.exit(0);
dropStamp(stamp);
// esbuild loads only when there is something to build (its import is most of a no-op run).
const { build } = await import('esbuild');
// --listFiles: the type check's inputs (protocol's declarations, the DOM lib, cytoscape's types) for the stamp.
const check = spawnSync(process.execPath, [tsc, '-p', path.join(web, 'tsconfig.json'), '--listFiles'], { encoding: 'utf8' });
if (check.status !== 0) {
  process.stdout.write(check.stdout ?? '');
  process.stderr.write(check.stderr ?? '');
  console.error('build-web: type errors in apps/graph-browser/web');
  process.exit(check.status ?? 1);
}
const checked = check.stdout.split('\n').map((line) => line.trim()).filter((line) => line !== '' && path.isAbsolute(line));

// Chunk names carry a content hash: drop the previous build's so none is left behind.
rmSync(path.join(out, 'chunks'), { recursive: true, force: true });
const result = await build({
  entryPoints: [path.join(web, 'src', 'main.ts')],
  // Split: ELK (cytoscape-elk + elkjs, most of the bundle) is a chunk the page imports only for the
  // focus views, so the first screen parses and starts without it (issue 34).
  outdir: out,
  entryNames: 'app',
  chunkNames: 'chunks/[name]-[hash]',
  splitting: true,
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: ['chrome110', 'firefox110', 'safari16'],
  minify: true,
  sourcemap: true,
  legalComments: 'linked',
  logLevel: 'warning',
  metafile: true,
});
const copies = ['index.html', 'styles.css', 'favicon.svg'];
for (const file of copies) copyFileSync(path.join(web, file), path.join(out, file));
const bundled = Object.keys(result.metafile.inputs).map((input) => path.resolve(input));
const outputs = [...Object.keys(result.metafile.outputs).map((output) => path.resolve(output)), ...copies.map((file) => path.join(out, file))];
writeStamp(stamp, key, [...webFiles, ...checked, ...bundled], outputs);
