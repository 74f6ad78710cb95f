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
