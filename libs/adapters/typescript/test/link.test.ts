// Pins linking on a multi-file fixture: module resolution (ESM, CommonJS, re-exports, index files, package.json main/exports), calls, heritage, tested_by and stats.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { linkTypeScript, extractTypeScript, typescriptAdapter } from '../src/adapter.js';
import type { TsLinkInput } from '../src/index.js';
import { memoryResolver } from './helpers.js';

const FILES: Record<string, string> = {
  'package.json': JSON.stringify({ name: 'demo', main: 'lib/index.js' }),
  'lib/index.js': [
    "const { add } = require('./math')",
    "const util = require('./util')",
    "const Shape = require('./shape.js')",
    "const pkg = require('../package.json')",
    'function main () { return util.twice(add(1, 2)) }',
    'module.exports = { main, add, Shape }',
  ].join('\n'),
  'lib/math.js': [
    'function add (a, b) { return a + b }',
    'function sub (a, b) { return add(a, -b) }',
    'function shadowed (add) { return add(1) }',
    'module.exports = { add, sub }',
  ].join('\n'),
  'lib/util/index.js': [
    'exports.twice = function twice (x) { return x * 2 }',
    'exports.unused = (x) => x',
  ].join('\n'),
  'lib/shape.js': [
    'class Shape {',
    '  area () { return 0 }',
    "  describe () { return 'area ' + this.area() }",
    '}',
    'class Square extends Shape {',
    '  constructor (s) { super(); this.s = s }',
    '  area () { return this.s ** 2 }',
    '  describe () { return super.describe() }',
    '}',
    'module.exports = Shape',
    'module.exports.Square = Square',
  ].join('\n'),
  'src/api.ts': [
    "import { helper } from './helpers/index.js'",
    "import * as fmt from './fmt'",
    "import Base, { type Runner } from './base'",
    "export * from './fmt'",
    'export class Impl extends Base implements Runner {',
    '  run(): string { return fmt.format(helper()) }',
    '}',
    'export function unknownCalls() { missing(); add(); console.log(1); }',
  ].join('\n'),
  'src/helpers/index.ts': "export { helper } from './helper'",
  'src/helpers/helper.ts': "export function helper() { return 'h' }",
  'src/fmt.ts': 'export function format(s: string) { return s.trim() }',
  'src/base.ts': [
    'export interface Runner { run(): string }',
    'export default abstract class Base {',
    '  abstract run(): string',
    '  start() { return this.run() }',
    '}',
  ].join('\n'),
  'src/uses-tools.ts': [
    "import { tool } from '@demo/tools'",
    "import { readFile } from 'node:fs'",
    "import lodash from 'lodash'",
    "import './missing.js'",
    'tool(); readFile(); lodash.x();',
  ].join('\n'),
  'src/interop.mjs': "import math from '../lib/math.js'\nexport const go = () => math.sub(2, 1)\n",
  'src/reexport-all.ts': "export * from './fmt'\nexport { default as Base } from './base'\n",
  'src/user.ts': "import { format, Base } from './reexport-all'\nclass Kid extends Base { run() { return format(' ') } }\n",
  'packages/tools/package.json': JSON.stringify({ name: '@demo/tools', exports: { '.': { import: './src/main.ts', require: './dist/main.js' } } }),
  'packages/tools/src/main.ts': 'export function tool() {}',
  'test/math.test.js': [
    "const { test } = require('node:test')",
    "const { sub } = require('../lib/math')",
    "const demo = require('..')",
    "test('sub', () => { sub(3, 1); demo.main() })",
  ].join('\n'),
};

function linkFixture() {
  const paths = Object.keys(FILES).filter((p) => !p.endsWith('.json')).sort();
  const files: TsLinkInput[] = paths.map((path) => ({ path, ...extractTypeScript({ path, content: FILES[path]!, strategy: 'ast', logic: false }) }));
  return linkTypeScript(files, memoryResolver(FILES));
}

function edges(result: ReturnType<typeof linkFixture>, relation: string): string[] {
  return result.edges.filter((e) => e.relation === relation).map((e) => `${e.source_id} -> ${e.target_id}`);
}

test('imports edges: relative, extension swap, index files, package.json main and exports, one per pair', () => {
  const result = linkFixture();
  assert.deepEqual(edges(result, 'imports'), [
    'code:lib/index.js -> code:lib/math.js',
    'code:lib/index.js -> code:lib/shape.js',
    'code:lib/index.js -> code:lib/util/index.js',
    'code:src/api.ts -> code:src/base.ts',
    'code:src/api.ts -> code:src/fmt.ts',
    'code:src/api.ts -> code:src/helpers/index.ts',
    'code:src/helpers/index.ts -> code:src/helpers/helper.ts',
    'code:src/interop.mjs -> code:lib/math.js',
    'code:src/reexport-all.ts -> code:src/base.ts',
    'code:src/reexport-all.ts -> code:src/fmt.ts',
    'code:src/user.ts -> code:src/reexport-all.ts',
    'code:src/uses-tools.ts -> code:packages/tools/src/main.ts',
    'code:test/math.test.js -> code:lib/index.js',
    'code:test/math.test.js -> code:lib/math.js',
  ]);
  const fmtEdge = result.edges.find((e) => e.source_id === 'code:src/api.ts' && e.target_id === 'code:src/fmt.ts')!;
  assert.equal(fmtEdge.line, 2, 'line of the first import of the pair');
  assert.equal(fmtEdge.source_path, 'src/api.ts');
  assert.deepEqual(result.issues.map((i) => `${i.code} ${i.path}:${i.line}`), ['unresolved_import src/uses-tools.ts:4']);
});

test('calls edges resolve through locals, requires, namespaces, re-exports, this, super and interop only', () => {
  const result = linkFixture();
  assert.deepEqual(edges(result, 'calls'), [
    'code:lib/index.js#main -> code:lib/math.js#add',
    'code:lib/index.js#main -> code:lib/util/index.js#twice',
    'code:lib/math.js#sub -> code:lib/math.js#add',
    'code:lib/shape.js#Shape.describe -> code:lib/shape.js#Shape.area',
    'code:lib/shape.js#Square.describe -> code:lib/shape.js#Shape.describe',
    'code:src/api.ts#Impl.run -> code:src/fmt.ts#format',
    'code:src/api.ts#Impl.run -> code:src/helpers/helper.ts#helper',
    'code:src/base.ts#Base.start -> code:src/base.ts#Base.run',
    'code:src/interop.mjs#go -> code:lib/math.js#sub',
    'code:src/user.ts#Kid.run -> code:src/fmt.ts#format',
    'code:src/uses-tools.ts -> code:packages/tools/src/main.ts#tool',
    'code:test/math.test.js -> code:lib/index.js#main',
    'code:test/math.test.js -> code:lib/math.js#sub',
  ]);
  // `add()` in src/api.ts is never guessed onto lib/math.js#add; a parameter named add shadows the function
  assert.ok(!result.edges.some((e) => e.source_id === 'code:src/api.ts#unknownCalls'));
  assert.ok(!result.edges.some((e) => e.source_id === 'code:lib/math.js#shadowed'));
  const { calls_total: total, calls_resolved: resolved, calls_unresolved: unresolved } = result.stats;
  assert.equal(resolved, 13);
  assert.equal(total, resolved! + unresolved!);
  // unresolved: super() without a base constructor, shadowed add(1), missing(), add(), console.log(),
  // readFile(), lodash.x(), s.trim(), test()
  assert.equal(unresolved, 9);
});

test('inherits and implements edges across modules, including through re-exports', () => {
  const result = linkFixture();
  assert.deepEqual(edges(result, 'inherits'), [
    'code:lib/shape.js#Square -> code:lib/shape.js#Shape',
    'code:src/api.ts#Impl -> code:src/base.ts#Base',
    'code:src/user.ts#Kid -> code:src/base.ts#Base',
  ]);
  assert.deepEqual(edges(result, 'implements'), ['code:src/api.ts#Impl -> code:src/base.ts#Runner']);
});

test('tested_by from the called module and function to the test module', () => {
  const result = linkFixture();
  assert.deepEqual(edges(result, 'tested_by'), [
    'code:lib/index.js -> code:test/math.test.js',
    'code:lib/index.js#main -> code:test/math.test.js',
    'code:lib/math.js -> code:test/math.test.js',
    'code:lib/math.js#sub -> code:test/math.test.js',
  ]);
});

test('import stats count resolved, external and unresolved references', () => {
  const result = linkFixture();
  assert.equal(result.stats['imports_total'], 20);
  assert.equal(result.stats['imports_resolved'], 15);
  // node:test, node:fs, lodash and ../package.json (not code)
  assert.equal(result.stats['imports_external'], 4);
  assert.equal(result.stats['imports_unresolved'], 1);
  assert.equal(result.stats['files'], 15);
});

test('link is deterministic and order-independent, and the adapter object links the same', () => {
  const paths = Object.keys(FILES).filter((p) => !p.endsWith('.json'));
  const extracted = paths.map((path) => ({ path, ...extractTypeScript({ path, content: FILES[path]!, strategy: 'ast', logic: false }) }));
  const forward = linkTypeScript(extracted, memoryResolver(FILES));
  const backward = typescriptAdapter.link([...extracted].reverse(), memoryResolver(FILES));
  assert.deepEqual(forward, backward);
  assert.deepEqual(forward, linkFixture());
});

test('files whose link data is not ours are ignored', () => {
  const result = linkTypeScript([{ path: 'docs/a.md', nodes: [], link_data: null }], memoryResolver({}));
  assert.deepEqual(result.edges, []);
  assert.equal(result.stats['files'], 0);
});
