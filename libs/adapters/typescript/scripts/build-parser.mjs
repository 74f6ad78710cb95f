#!/usr/bin/env node
// Writes the adapter's parser module (issue 14; tools/parser-build.cts): dist/parser/typescript-parser.cjs
// and its manifest typescript-parser.json, made from the `typescript` package that resolves from this
// adapter, for the names of src/parser-api.cts. Run after `tsc -b` (root scripts build, prepare, test).
// compiler.cts loads the module only while the manifest matches that package; otherwise the whole compiler.
// Does nothing when the module is up to date (same compiler, same names, generator unchanged); --force rebuilds.
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const dist = path.join(here, '..', 'dist');
const require = createRequire(import.meta.url);
const { PARSER_API } = require(path.join(dist, 'src', 'parser-api.cjs'));
const typescriptFile = require.resolve('typescript');
const { version } = JSON.parse(readFileSync(path.join(path.dirname(typescriptFile), '..', 'package.json'), 'utf8'));
const out = path.join(dist, 'parser');
const manifestFile = path.join(out, 'typescript-parser.json');
// Up to date: made from this compiler (version, size, mtime), for these names, after the generator
// was last compiled, and the module on disk is the one the manifest describes (size and SHA-256).
// Either file that is not a regular file (a FIFO, a directory) is not read, and is replaced below.
const moduleFile = path.join(out, 'typescript-parser.cjs');
const regular = (file) => { try { return lstatSync(file).isFile(); } catch { return false; } };
try {
  const manifest = regular(manifestFile) && regular(moduleFile) ? JSON.parse(readFileSync(manifestFile, 'utf8')) : null;
  const source = statSync(typescriptFile);
  const moduleText = manifest ? readFileSync(moduleFile) : null;
  const fresh = manifest !== null && manifest.typescript === version && manifest.source_size === source.size && manifest.source_mtime_ms === source.mtimeMs
    && JSON.stringify(manifest.roots) === JSON.stringify(PARSER_API)
    && manifest.module_size === moduleText.length && manifest.module_sha256 === createHash('sha256').update(moduleText).digest('hex')
    && statSync(manifestFile).mtimeMs >= statSync(path.join(dist, 'tools', 'parser-build.cjs')).mtimeMs;
  if (fresh && !process.argv.includes('--force')) process.exit(0);
} catch {
  // Not built yet, or unreadable: build it.
}
const started = Date.now();
// Loads the whole compiler (it parses typescript.js): only when there is something to build.
const { buildParserModule } = require(path.join(dist, 'tools', 'parser-build.cjs'));
const { code, manifest } = buildParserModule(typescriptFile, version, PARSER_API);
// A file where the folder should be, or a directory or FIFO where a file should be, goes first.
if (existsSync(out) && !lstatSync(out).isDirectory()) rmSync(out, { force: true });
mkdirSync(out, { recursive: true });
for (const file of [moduleFile, manifestFile]) if (existsSync(file) && !lstatSync(file).isFile()) rmSync(file, { recursive: true, force: true });
// The module first, then its manifest, each renamed into place: a reader never sees a manifest for a module not yet written.
for (const [name, text] of [['typescript-parser.cjs', code], ['typescript-parser.json', `${JSON.stringify(manifest, null, 2)}\n`]]) {
  writeFileSync(path.join(out, `${name}.tmp`), text);
  renameSync(path.join(out, `${name}.tmp`), path.join(out, name));
}
console.error(`typescript-parser.cjs: ${(Buffer.byteLength(code) / 1e6).toFixed(2)} MB from typescript@${version} (${manifest.kept} of ${manifest.total} statements) in ${Date.now() - started} ms`);
