// Pins relative module resolution by extension as TypeScript does it: a written .js/.jsx/.mjs/.cjs stands for the TypeScript source or the declaration file (./shapes.js -> shapes.d.ts), the order among several candidates, extensionless paths and directories, and the runtime-first order of JavaScript importers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileCandidates, linkTypeScript, resolutionModeOf, SpecifierResolver, extractTypeScript } from '../src/adapter.js';
import { memoryResolver } from './helpers.js';

/** Resolves `specifier` from `from` over a project holding exactly `files` (texts only matter for package.json). */
function resolveIn(files: readonly string[] | Record<string, string>, from: string, specifier: string): string | null {
  const map = Array.isArray(files) ? Object.fromEntries(files.map((p) => [p, ''])) : files as Record<string, string>;
  const resolution = new SpecifierResolver(memoryResolver(map), Object.keys(map)).resolve(from, specifier);
  return resolution.kind === 'file' ? resolution.path : null;
}

test('the importing file picks the mode: TypeScript sources and declarations, else JavaScript', () => {
  for (const path of ['a.ts', 'a.tsx', 'a.mts', 'a.cts', 'a.d.ts', 'a.d.mts', 'a.d.cts']) assert.equal(resolutionModeOf(path), 'typescript', path);
  for (const path of ['a.js', 'a.jsx', 'a.mjs', 'a.cjs', 'package.json']) assert.equal(resolutionModeOf(path), 'javascript', path);
});

test('TypeScript candidates: a written extension is replaced by source, declaration, JavaScript, in TypeScript 5 order', () => {
  const head = (path: string, n: number): string[] => fileCandidates(path, 'typescript').slice(0, n);
  assert.deepEqual(head('src/x.js', 5), ['src/x.ts', 'src/x.tsx', 'src/x.d.ts', 'src/x.js', 'src/x.jsx']);
  assert.deepEqual(head('src/x.ts', 5), ['src/x.ts', 'src/x.tsx', 'src/x.d.ts', 'src/x.js', 'src/x.jsx']);
  assert.deepEqual(head('src/x.d.ts', 3), ['src/x.ts', 'src/x.tsx', 'src/x.d.ts']);
  assert.deepEqual(head('src/x.jsx', 5), ['src/x.tsx', 'src/x.ts', 'src/x.d.ts', 'src/x.jsx', 'src/x.js']);
  assert.deepEqual(head('src/x.mjs', 3), ['src/x.mts', 'src/x.d.mts', 'src/x.mjs']);
  assert.deepEqual(head('src/x.d.mts', 3), ['src/x.mts', 'src/x.d.mts', 'src/x.mjs']);
  assert.deepEqual(head('src/x.cjs', 3), ['src/x.cts', 'src/x.d.cts', 'src/x.cjs']);
  assert.deepEqual(head('src/x', 5), ['src/x.ts', 'src/x.tsx', 'src/x.d.ts', 'src/x.js', 'src/x.jsx']);
  assert.deepEqual(head('src/styles.css', 1), ['src/styles.d.css.ts'], 'an arbitrary extension: its declaration file');
  // after the replacements, extensions are added to the path as written (x.config.ts for ./x.config)
  assert.deepEqual(head('src/x.config', 2), ['src/x.d.config.ts', 'src/x.config.ts']);
  const all = fileCandidates('src/x.js', 'typescript');
  assert.equal(all[all.length - 1], 'src/x.js.cjs', 'the path itself comes early (as a replacement), never twice');
  assert.equal(new Set(all).size, all.length);
});

test('JavaScript candidates: the file named first, declaration files after every implementation file', () => {
  const list = fileCandidates('lib/x.js', 'javascript');
  assert.deepEqual(list.slice(0, 4), ['lib/x.js', 'lib/x.ts', 'lib/x.tsx', 'lib/x.jsx']);
  assert.ok(list.indexOf('lib/x.d.ts') > list.indexOf('lib/x.js.cjs'), 'x.d.ts only after every implementation candidate');
  const bare = fileCandidates('lib/x', 'javascript');
  assert.ok(bare.indexOf('lib/x.js') < bare.indexOf('lib/x.d.ts'));
  assert.ok(bare.indexOf('lib/x.ts') < bare.indexOf('lib/x.js'), 'extensionless: TypeScript sources before JavaScript, as before');
});

test('./shapes.js resolves to shapes.d.ts when no source exists, from TypeScript and JavaScript importers', () => {
  assert.equal(resolveIn(['src/shapes.d.ts', 'src/zero.ts'], 'src/zero.ts', './shapes.js'), 'src/shapes.d.ts');
  assert.equal(resolveIn(['src/shapes.d.ts', 'src/zero.js'], 'src/zero.js', './shapes.js'), 'src/shapes.d.ts');
  assert.equal(resolveIn(['types/request.d.ts', 'test/types/request.tst.ts'], 'test/types/request.tst.ts', '../../types/request.js'), 'types/request.d.ts');
  assert.equal(resolveIn(['src/m.d.mts', 'src/a.mts'], 'src/a.mts', './m.mjs'), 'src/m.d.mts');
  assert.equal(resolveIn(['src/c.d.cts', 'src/a.cts'], 'src/a.cts', './c.cjs'), 'src/c.d.cts');
  assert.equal(resolveIn(['src/v.d.jsx.ts', 'src/a.ts'], 'src/a.ts', './v.jsx'), null, 'not a TypeScript candidate of .jsx');
  assert.equal(resolveIn(['src/styles.d.css.ts', 'src/a.ts'], 'src/a.ts', './styles.css'), 'src/styles.d.css.ts');
  assert.equal(resolveIn(['src/a.ts'], 'src/a.ts', './shapes.js'), null, 'still unresolved without any candidate');
});

test('several candidates: TypeScript prefers .ts over .tsx over .d.ts over .js; JavaScript the file named', () => {
  const all = ['src/x.ts', 'src/x.tsx', 'src/x.d.ts', 'src/x.js', 'src/x.jsx', 'src/a.ts', 'src/b.js'];
  const drop = (...gone: string[]): string[] => all.filter((p) => !gone.includes(p));
  assert.equal(resolveIn(all, 'src/a.ts', './x.js'), 'src/x.ts');
  assert.equal(resolveIn(drop('src/x.ts'), 'src/a.ts', './x.js'), 'src/x.tsx');
  assert.equal(resolveIn(drop('src/x.ts', 'src/x.tsx'), 'src/a.ts', './x.js'), 'src/x.d.ts');
  assert.equal(resolveIn(drop('src/x.ts', 'src/x.tsx', 'src/x.d.ts'), 'src/a.ts', './x.js'), 'src/x.js');
  assert.equal(resolveIn(['src/x.jsx', 'src/a.ts'], 'src/a.ts', './x.js'), 'src/x.jsx');
  assert.equal(resolveIn(all, 'src/a.ts', './x'), 'src/x.ts');
  assert.equal(resolveIn(drop('src/x.ts', 'src/x.tsx'), 'src/a.ts', './x'), 'src/x.d.ts');
  assert.equal(resolveIn(all, 'src/a.ts', './x.jsx'), 'src/x.tsx');
  assert.equal(resolveIn(['src/x.mts', 'src/x.d.mts', 'src/x.mjs', 'src/a.ts'], 'src/a.ts', './x.mjs'), 'src/x.mts');
  assert.equal(resolveIn(['src/x.d.mts', 'src/x.mjs', 'src/a.ts'], 'src/a.ts', './x.mjs'), 'src/x.d.mts');
  assert.equal(resolveIn(['src/x.cts', 'src/x.d.cts', 'src/x.cjs', 'src/a.ts'], 'src/a.ts', './x.cjs'), 'src/x.cts');
  // JavaScript importers keep the runtime file: the one named, else an implementation before a declaration
  assert.equal(resolveIn(all, 'src/b.js', './x.js'), 'src/x.js');
  assert.equal(resolveIn(drop('src/x.ts', 'src/x.tsx'), 'src/b.js', './x'), 'src/x.js');
  assert.equal(resolveIn(['src/x.d.ts', 'src/x.js', 'package.json'], 'package.json', './src/x.js'), 'src/x.js');
});

test('one resolver answers TypeScript and JavaScript importers of one directory apart (the cache is per mode)', () => {
  const map = Object.fromEntries(['src/x.d.ts', 'src/x.js', 'src/a.ts', 'src/b.js'].map((p) => [p, '']));
  const resolver = new SpecifierResolver(memoryResolver(map), Object.keys(map));
  const at = (from: string): string | null => {
    const r = resolver.resolve(from, './x.js');
    return r.kind === 'file' ? r.path : null;
  };
  assert.deepEqual([at('src/a.ts'), at('src/b.js'), at('src/a.ts')], ['src/x.d.ts', 'src/x.js', 'src/x.d.ts']);
});

test('directories: index.d.ts, and package.json types before main for TypeScript importers only', () => {
  assert.equal(resolveIn(['src/lib/index.d.ts', 'src/a.ts'], 'src/a.ts', './lib'), 'src/lib/index.d.ts');
  assert.equal(resolveIn(['src/lib/index.d.ts', 'src/lib/index.js', 'src/a.ts'], 'src/a.ts', './lib'), 'src/lib/index.d.ts');
  assert.equal(resolveIn(['src/lib/index.d.ts', 'src/lib/index.js', 'src/a.js'], 'src/a.js', './lib'), 'src/lib/index.js');
  const pkg = {
    'package.json': JSON.stringify({ name: 'p', main: 'main.js', types: 'types/main.d.ts' }),
    'main.js': '', 'types/main.d.ts': '', 'test/a.ts': '', 'test/b.js': '',
  };
  assert.equal(resolveIn(pkg, 'test/a.ts', '..'), 'types/main.d.ts');
  assert.equal(resolveIn(pkg, 'test/b.js', '..'), 'main.js');
  // `main` with TypeScript's substitution when no `types` field: main.js stands for main.d.ts
  const main = { 'package.json': JSON.stringify({ main: 'main.js' }), 'main.js': '', 'main.d.ts': '', 'test/a.ts': '', 'test/b.js': '' };
  assert.equal(resolveIn(main, 'test/a.ts', '..'), 'main.d.ts');
  assert.equal(resolveIn(main, 'test/b.js', '..'), 'main.js');
});

test('a type and a function imported from a .d.ts through ./shapes.js bind like ones from a .ts', () => {
  const link = (declarations: string): ReturnType<typeof linkTypeScript> => {
    const files: Record<string, string> = {
      [declarations]: declarations.endsWith('.d.ts')
        ? 'export interface Money { amount: number }\nexport declare function makeMoney(n: number): Money;\n'
        : 'export interface Money { amount: number }\nexport function makeMoney(n: number): Money { return { amount: n } }\n',
      'src/zero.ts': [
        "import type { Money } from './shapes.js'",
        "import { makeMoney } from './shapes.js'",
        'export interface Cash extends Money { coins: number }',
        'export function zero(): Money { return makeMoney(0) }',
      ].join('\n'),
    };
    const inputs = Object.keys(files).sort().map((path) => ({ path, ...extractTypeScript({ path, content: files[path]!, strategy: 'ast', logic: false }) }));
    return linkTypeScript(inputs, memoryResolver(files));
  };
  const render = (result: ReturnType<typeof linkTypeScript>, target: string): string[] =>
    result.edges.map((e) => `${e.source_id} ${e.relation} ${e.target_id.replace(target, 'T')}`).sort();
  const dts = link('src/shapes.d.ts');
  const ts = link('src/shapes.ts');
  assert.deepEqual(dts.issues, [], 'no unresolved_import');
  assert.deepEqual(render(dts, 'code:src/shapes.d.ts'), render(ts, 'code:src/shapes.ts'));
  assert.deepEqual(render(dts, 'code:src/shapes.d.ts'), [
    'code:src/zero.ts imports T',
    'code:src/zero.ts#Cash inherits T#Money',
    'code:src/zero.ts#zero calls T#makeMoney',
  ]);
});
