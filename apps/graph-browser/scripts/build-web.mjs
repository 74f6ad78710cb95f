#!/usr/bin/env node
// Builds the graph browser page (issue 13): type-checks apps/graph-browser/web strictly (its own
// tsconfig: lib dom, noEmit) and bundles web/src/main.ts with esbuild into dist/web/app.js, next to
// a copy of index.html and styles.css. The worker serves dist/web. Exits non-zero on any type or
// bundle error. Usage: node apps/graph-browser/scripts/build-web.mjs
import { copyFileSync, mkdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const app = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const web = path.join(app, 'web');
const out = path.join(app, 'dist', 'web');
const require = createRequire(import.meta.url);

const tsc = require.resolve('typescript/bin/tsc');
const check = spawnSync(process.execPath, [tsc, '-p', path.join(web, 'tsconfig.json')], { stdio: 'inherit' });
if (check.status !== 0) {
  console.error('build-web: type errors in apps/graph-browser/web');
  process.exit(check.status ?? 1);
}

mkdirSync(out, { recursive: true });
await build({
  entryPoints: [path.join(web, 'src', 'main.ts')],
  outfile: path.join(out, 'app.js'),
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: ['chrome110', 'firefox110', 'safari16'],
  minify: true,
  sourcemap: true,
  legalComments: 'linked',
  logLevel: 'warning',
});
for (const file of ['index.html', 'styles.css', 'favicon.svg']) copyFileSync(path.join(web, file), path.join(out, file));
