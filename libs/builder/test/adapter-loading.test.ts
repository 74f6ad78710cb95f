// Pins that a build loads a built-in code adapter (and so the TypeScript compiler) only when some source has one of its extensions, with the same adapter_version either way (issue 14).
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { cheapIdentity, loadDescriptor, walkSources } from '@docforge/project';
import { typescriptManifest } from '@docforge/adapter-typescript';
import { loadBuiltinAdapter, loadBuiltinLinker } from '../src/adapter-loader.js';
import { setAdapterLoader } from '@docforge/identity';
import { runBuild } from '../src/build.js';
import { BuildCaches } from '../src/build-caches.js';

/** The caches a build worker would keep between these builds. */
const caches = new BuildCaches();

const root = realpathSync(mkdtempSync(join(tmpdir(), 'docforge-adapter-loading-')));
after(() => rmSync(root, { recursive: true, force: true }));

const loaded: string[] = [];
const linkers: string[] = [];
setAdapterLoader((id) => {
  loaded.push(id);
  return loadBuiltinAdapter(id);
}, (id) => {
  linkers.push(id);
  return loadBuiltinLinker(id);
});

async function build(generation: number): Promise<string> {
  const descriptor = loadDescriptor(root);
  const walk = walkSources(descriptor, [...typescriptManifest.extensions]);
  const outcome = await runBuild({
    root, stateDir: join(root, descriptor.state.dir), entries: walk.entries, walkIssues: walk.issues,
    sourceIdentity: cheapIdentity(walk.entries, []), logicAllowed: true, minGeneration: generation,
  }, caches);
  assert.equal(outcome.ok, true, JSON.stringify(outcome));
  return (outcome as { publication: { adapter_version: string } }).publication.adapter_version;
}

test('no TS/JS source: the typescript adapter is never loaded; the first TS file loads it; adapter_version is the same', async () => {
  mkdirSync(join(root, 'docs'));
  mkdirSync(join(root, 'src'));
  writeFileSync(join(root, 'docforge.toml'), 'schema_version = 1\n[project]\nid = "p"\nname = "P"\n[sources]\ncontent_roots = ["docs"]\ncode_roots = ["src"]\n[adapter]\ncode = "typescript"\n');
  writeFileSync(join(root, 'docs', 'a.md'), '# A\n\nText.\n');
  writeFileSync(join(root, 'src', 'notes.txt'), 'not code\n');
  const docsOnly = await build(1);
  assert.deepEqual(loaded, []);
  assert.deepEqual(linkers, []);
  assert.match(docsOnly, new RegExp(`typescript@${typescriptManifest.version.replace(/\./g, '\\.')}`));
  writeFileSync(join(root, 'src', 'a.ts'), 'export function f(): number {\n  return 1;\n}\n');
  const withCode = await build(2);
  assert.deepEqual(loaded, ['typescript']);
  assert.deepEqual(linkers, ['typescript'], 'the linking half first, the parser when a file needed it');
  assert.equal(withCode, docsOnly);
});

test('the linking half of the typescript adapter: same id, version, extensions and link functions as the adapter, and no compiler', async () => {
  const adapter = (await loadBuiltinAdapter('typescript'))!;
  const linker = (await loadBuiltinLinker('typescript'))!;
  assert.equal('extract' in linker, false);
  for (const key of ['id', 'version', 'extensions', 'link', 'linkFiles', 'isLinkData'] as const) assert.equal(linker[key], adapter[key], key);
  // A fresh process that imports only the linker and resolves an alias through a tsconfig.json
  // with comments and trailing commas never loads typescript.js.
  const linkerUrl = import.meta.resolve('@docforge/adapter-typescript');
  const script = `import { createRequire } from 'node:module';
await (await import(${JSON.stringify(linkerUrl)})).loadTypeScriptLinker();
const { SpecifierResolver } = await import(${JSON.stringify(new URL('./resolve.js', linkerUrl).href)});
const text = (p) => (p === 'tsconfig.json' ? '{ // paths\\n "compilerOptions": { "baseUrl": ".", "paths": { "@lib/*": ["lib/*"], }, }, }' : null);
const resolver = new SpecifierResolver({ hasFile: (p) => p === 'a.ts' || p === 'lib/b.ts', readText: text }, ['a.ts', 'lib/b.ts']);
const resolved = resolver.resolve('a.ts', '@lib/b');
const require = createRequire(import.meta.url);
process.stdout.write(JSON.stringify({ resolved, compiler: Object.keys(require.cache).some((f) => f.endsWith('typescript.js')) }));`;
  assert.deepEqual(JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' })), { resolved: { kind: 'file', path: 'lib/b.ts' }, compiler: false });
});
