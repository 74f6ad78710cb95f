// Pins issue 31 item 3 in the TypeScript link step: the public API table (LinkResult `api`) lists
// what a package's entry exports and re-exports prove (CommonJS, ESM, `exports` subpaths,
// property assignments on the exported function), the methods a returned object literal or a
// declared return type proves for `<id>().<method>`, and nothing for test fixture packages or
// members the body may replace.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { linkTypeScript, extractTypeScript } from '../src/adapter.js';
import { memoryResolver } from './helpers.js';

function api(files: Record<string, string>): Record<string, string[]> {
  const extracted = Object.entries(files)
    .filter(([path]) => !path.endsWith('.json'))
    .map(([path, content]) => ({ path, ...extractTypeScript({ path, content, strategy: 'ast', logic: false }) }));
  return linkTypeScript(extracted, memoryResolver(files)).api ?? {};
}

test('CommonJS entry: the whole export, property exports, re-exported modules and a fixture package left out', () => {
  const table = api({
    'package.json': JSON.stringify({ name: 'logs', main: 'main.js' }),
    'main.js': [
      "const { helper } = require('./lib/helper')",
      'function logs () { return {} }',
      'module.exports = logs',
      "module.exports.transport = require('./lib/transport')",
      'module.exports.destination = (dest) => dest',
      'module.exports.helper = helper',
      'logs.version = function version () {}',
      '',
    ].join('\n'),
    'lib/transport.js': 'function transport () {}\nmodule.exports = transport\n',
    'lib/helper.js': 'function helper () {}\nmodule.exports = { helper }\n',
    'test/fixtures/pkg/package.json': JSON.stringify({ name: 'fixture', main: 'index.js' }),
    'test/fixtures/pkg/index.js': 'module.exports = function run () {}\n',
  });
  assert.deepEqual(table['logs'], ['code:main.js#logs']);
  assert.deepEqual(table['logs.transport'], ['code:lib/transport.js#transport']);
  assert.deepEqual(table['logs.destination'], ['code:main.js#destination']);
  assert.deepEqual(table['logs.helper'], ['code:lib/helper.js#helper']);
  assert.deepEqual(table['logs.version'], ['code:main.js#logs.version']);
  assert.equal(Object.keys(table).some((name) => name.startsWith('fixture')), false, JSON.stringify(table));
});

test('ESM entry through `exports` (conditional and subpath), `export *` and `export { x } from`', () => {
  const table = api({
    'package.json': JSON.stringify({ name: '@scope/kit', exports: { '.': { import: './src/index.mjs', require: './src/index.cjs' }, './extra': './src/extra.mjs' } }),
    'src/index.mjs': "export * from './a.mjs'\nexport { b as renamed } from './b.mjs'\nexport default function kit () {}\n",
    'src/a.mjs': 'export function a () {}\nexport class Store { get () {} }\n',
    'src/b.mjs': 'export function b () {}\n',
    'src/extra.mjs': 'export function extra () {}\n',
  });
  assert.deepEqual(table['@scope/kit'], ['code:src/index.mjs#kit']);
  assert.deepEqual(table['@scope/kit.a'], ['code:src/a.mjs#a']);
  assert.deepEqual(table['@scope/kit.Store'], ['code:src/a.mjs#Store']);
  assert.deepEqual(table['@scope/kit.Store.get'], ['code:src/a.mjs#Store.get']);
  assert.deepEqual(table['@scope/kit.renamed'], ['code:src/b.mjs#b']);
  assert.deepEqual(table['@scope/kit/extra.extra'], ['code:src/extra.mjs#extra']);
});

test('returned object literals and declared return types prove instance methods; replaceable members do not', () => {
  const table = api({
    'package.json': JSON.stringify({ name: 'app', main: 'index.ts' }),
    'index.ts': [
      "import { route } from './route'",
      'export class Server { listen (): void {} }',
      'export function serve (): Server { return new Server() }',
      'export function create () {',
      '  const app = { start, route, stop, swap, gone: null, keyed }',
      '  function start () {}',
      '  function stop () {}',
      '  function swap () {}',
      '  function keyed () {}',
      '  app.swap = () => {}',
      '  return app',
      '}',
      'export function opaque () {',
      '  const app = { start }',
      '  function start () {}',
      '  app[someKey] = 1',
      '  return app',
      '}',
      '',
    ].join('\n'),
    'route.ts': 'export function route (): void {}\n',
  });
  assert.deepEqual(table['code:index.ts#serve().listen'], ['code:index.ts#Server.listen']);
  assert.deepEqual(table['code:index.ts#create().start'], ['code:index.ts#create.start']);
  assert.deepEqual(table['code:index.ts#create().route'], ['code:route.ts#route']);
  assert.deepEqual(table['code:index.ts#create().stop'], ['code:index.ts#create.stop']);
  assert.equal(table['code:index.ts#create().swap'], undefined, 'assigned again in the body');
  assert.equal(table['code:index.ts#create().gone'], undefined, 'not a function');
  assert.equal(table['code:index.ts#opaque().start'], undefined, 'a computed key may replace any member');
});

test('computed keys proven to be symbols keep the returned members; a string const key does not', () => {
  const table = api({
    'package.json': JSON.stringify({ name: 'srv', main: 'index.js' }),
    'symbols.js': "const keys = { kState: Symbol('state') }\nconst kOther = Symbol.for('other')\nmodule.exports = { ...keys, kOther }\n",
    'keys.js': "const keys = { kState: Symbol('state') }\nmodule.exports = keys\n",
    'index.js': [
      "const { kState } = require('./keys')",
      "const kName = 'listen'",
      'function create () {',
      '  const app = { listen }',
      '  function listen () {}',
      '  app[kState] = {}',
      '  return app',
      '}',
      'function named () {',
      '  const app = { listen }',
      '  function listen () {}',
      '  app[kName] = null',
      '  return app',
      '}',
      'module.exports = { create, named }',
      '',
    ].join('\n'),
  });
  assert.deepEqual(table['code:index.js#create().listen'], ['code:index.js#create.listen']);
  assert.equal(table['code:index.js#named().listen'], undefined, 'a string key may be `listen`');
});

test('every `exports` condition is an entry: an ESM wrapper of a CommonJS entry (commander) keeps the CommonJS names; a dual build names each declaration once', () => {
  const wrapped = api({
    'package.json': JSON.stringify({ name: 'mini', main: './index.js', exports: { '.': { require: './index.js', import: './esm.mjs' } } }),
    'esm.mjs': "import mini from './index.js'\nexport const { makeWidget, helper } = mini\n",
    'index.js': "const { helper } = require('./lib/helper.js')\nfunction makeWidget (n) { return helper(n) }\nmodule.exports = { makeWidget, helper }\n",
    'lib/helper.js': 'function helper (n) { return n * 2 }\nmodule.exports = { helper }\n',
  });
  assert.deepEqual(wrapped['mini.makeWidget'], ['code:index.js#makeWidget']);
  assert.deepEqual(wrapped['mini.helper'], ['code:lib/helper.js#helper']);
  const dual = api({
    'package.json': JSON.stringify({ name: 'dual', exports: { '.': { import: './esm/index.mjs', require: './cjs/index.cjs' } } }),
    'esm/index.mjs': 'export function parse () {}\nexport function only () {}\n',
    'cjs/index.cjs': 'function parse () {}\nfunction legacy () {}\nmodule.exports = { parse, legacy }\n',
  });
  assert.deepEqual(dual['dual.parse'], ['code:esm/index.mjs#parse'], 'the first condition names it; the second copy adds no second id');
  assert.deepEqual(dual['dual.only'], ['code:esm/index.mjs#only']);
  assert.deepEqual(dual['dual.legacy'], ['code:cjs/index.cjs#legacy'], 'a name only the later entry proves is added');
});
