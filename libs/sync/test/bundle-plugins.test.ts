// Pins the worker bundle's direct-compiler-default plugin (scripts/direct-compiler-default.mjs,
// issue 14): the TypeScript adapter's compiler-api.js bundles as a plain `require` of the compiler
// (no `__toESM` copy of its 2,245 exports), its default export is the compiler object itself, and
// a compiler-api.js with any other text fails the bundle build instead of being bundled on a
// stale assumption.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';

const here = path.dirname(fileURLToPath(import.meta.url));
const lib = path.resolve(here, '../..');
const compilerApi = path.resolve(lib, '../adapters/typescript/dist/src/compiler-api.js');

let plugins: Plugin[];
let out: string;
before(async () => {
  const load = async (name: string, key: string): Promise<Plugin> => ((await import(pathToFileURL(path.join(lib, 'scripts', name)).href)) as Record<string, Plugin>)[key]!;
  plugins = [await load('direct-compiler-default.mjs', 'directCompilerDefault'), await load('own-import-meta-url.mjs', 'ownImportMetaUrl')];
  // Inside dist/ (build output) so the bundle's external `typescript` resolves as the real bundle's does.
  out = mkdtempSync(path.join(lib, 'dist', 'bundle-plugins-test-'));
});
after(() => rmSync(out, { recursive: true, force: true }));

test('compiler-api.js bundles as a direct require: its default is the compiler, with no interop copy', async () => {
  const outfile = path.join(out, 'compiler-api.cjs');
  await build({ entryPoints: [compilerApi], outfile, bundle: true, format: 'cjs', platform: 'node', target: 'node20', external: ['typescript'], plugins, logLevel: 'silent' });
  const text = readFileSync(outfile, 'utf8');
  assert.doesNotMatch(text, /__toESM\(require_ts\(\)/);
  const bundled = createRequire(outfile)(outfile) as { default: { createSourceFile: unknown; SyntaxKind: Record<string, unknown> } };
  const compiler = createRequire(outfile)('typescript') as unknown;
  assert.equal(bundled.default, compiler);
  assert.equal(typeof bundled.default.createSourceFile, 'function');
  assert.equal(typeof bundled.default.SyntaxKind.Identifier, 'number');
});

test('a compiler-api.js with other text fails the bundle build, naming the plugin', async () => {
  const dir = path.join(out, 'adapters', 'typescript', 'dist', 'src');
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'ts.cjs'), 'module.exports = { marker: true };\n');
  const changed = path.join(dir, 'compiler-api.js');
  for (const text of [
    "import ts from './ts.cjs';\nexport const extra = 1;\nexport default ts;\n",
    "import * as ts from './ts.cjs';\nexport default ts;\n",
    "import ts from './other.cjs';\nexport default ts;\n",
  ]) {
    writeFileSync(changed, text);
    await assert.rejects(
      build({ entryPoints: [changed], outfile: path.join(out, 'changed.cjs'), bundle: true, format: 'cjs', platform: 'node', plugins, logLevel: 'silent' }),
      (error: Error) => /direct-compiler-default: .*compiler-api\.js is no longer exactly/.test(error.message),
    );
  }
  // The expected text with its comments and source-map line still bundles (the compiled file's shape).
  writeFileSync(changed, "/** doc */\nimport ts from './ts.cjs';\nexport default ts;\n//# sourceMappingURL=compiler-api.js.map\n");
  await build({ entryPoints: [changed], outfile: path.join(out, 'same.cjs'), bundle: true, format: 'cjs', platform: 'node', plugins, logLevel: 'silent' });
  assert.deepEqual((createRequire(import.meta.url)(path.join(out, 'same.cjs')) as { default: unknown }).default, { marker: true });
});

test('builtin-dynamic-imports: literal imports of built-in modules call the bundle\'s module-scope require, any other import() fails, the shipped bundle keeps only the importer', async () => {
  const { rewriteBuiltinDynamicImports, BANNER } = await import(pathToFileURL(path.join(lib, 'scripts', 'builtin-dynamic-imports.mjs')).href) as {
    rewriteBuiltinDynamicImports: (text: string) => { text: string; rewritten: number }; BANNER: string;
  };
  const source = '"use strict";async function f(){const x={import:(s)=>s};let{createRequire:c}=await import("module");var require=c(__filename);'
    + 'return [(await import(\'node:fs/promises\')).readFile,x.import("y")]}const g=new Function("specifier","return import(specifier)");';
  const { text, rewritten } = rewriteBuiltinDynamicImports(source);
  assert.equal(rewritten, 2);
  assert.ok(text.startsWith(`"use strict";${BANNER}`), 'the directive stays first, the banner right after it');
  assert.match(text, /await Promise\.resolve\(__docforgeBuiltin\("module"\)\)/);
  assert.match(text, /await Promise\.resolve\(__docforgeBuiltin\('node:fs\/promises'\)\)/);
  assert.doesNotMatch(text, /getBuiltinModule/, 'nothing Node 20.10-20.15 lacks');
  assert.match(text, /x\.import\("y"\)/, 'a method named import is no dynamic import');
  assert.match(text, /"return import\(specifier\)"/);
  // The rewritten text runs: web-tree-sitter's hoisted `var require` no longer shadows what it calls.
  const run = new Function('require', '__filename', `${text};return f;`)(createRequire(import.meta.url), fileURLToPath(import.meta.url)) as () => Promise<unknown[]>;
  const [readFile, y] = await run();
  assert.equal(typeof readFile, 'function');
  assert.equal(y, 'y');
  for (const bad of ['import("./local.js")', 'import(specifier)', 'import ( "fs" + x )', 'import("left-pad")']) {
    assert.throws(() => rewriteBuiltinDynamicImports(bad), /code compiled from a V8 code cache cannot run/, bad);
  }
  // The bundle on disk went through the pass.
  const bundle = readFileSync(path.join(lib, 'dist', 'bundle', 'worker.cjs'), 'utf8');
  assert.ok(bundle.startsWith(`"use strict";${BANNER}`));
  assert.match(bundle, /__docforgeBuiltin\("module"\)/);
  assert.deepEqual(bundle.match(/(?<![\w$.])import\s*\(specifier\)|(?<![\w$.])import\s*\(/g), ['import(specifier)'], 'the one import() left is the importer\'s');
});
