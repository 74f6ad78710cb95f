// Pins the bounds and Node rules of the public API table (issue 31 item 3; break-it trial F1, F5,
// F6) on generated packages: `export *` cycles are walked once per module (every name of a 400-module
// cycle is listed, none lost to a depth cut), a package whose export graph exceeds the work bound
// and a table past its name cap each stop with a `public_api_bounded` finding naming the
// package.json (the names listed before the stop are kept), `exports` targets Node refuses link
// nothing, an alias reached through an `export *` cycle resolves as Node resolves it, and a
// malformed package.json is a `malformed_package_json` finding naming the file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_API_NAMES, type LinkResult } from '@docforge/core';
import { linkTypeScript, extractTypeScript } from '../src/adapter.js';
import { memoryResolver } from './helpers.js';

function link(files: Record<string, string>): LinkResult {
  const extracted = Object.entries(files)
    .filter(([path]) => !path.endsWith('.json'))
    .map(([path, content]) => ({ path, ...extractTypeScript({ path, content, strategy: 'ast', logic: false }) }));
  return linkTypeScript(extracted, memoryResolver(files));
}

/** `count` ESM modules re-exporting each other in cycles (module i re-exports i+1 and 7i+3); each declares `f<i>` when `named`. */
function cycleModules(count: number, named: boolean): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < count; i += 1) {
    const own = named ? `export function f${i} () {}\n` : '';
    files[`lib/m${i}.js`] = `${own}export * from './m${(i + 1) % count}.js'\nexport * from './m${(7 * i + 3) % count}.js'\n`;
  }
  return files;
}

test('F1: every name of a 400-module `export *` cycle is listed under the entry, each once, with no finding', () => {
  const result = link({ 'package.json': JSON.stringify({ name: 'cyc', exports: { '.': './index.js' } }), 'index.js': "export * from './lib/m0.js'\n", ...cycleModules(400, true) });
  const names = Object.keys(result.api ?? {}).filter((name) => name.startsWith('cyc.'));
  assert.equal(names.length, 400);
  assert.deepEqual(result.api!['cyc.f399'], ['code:lib/m399.js#f399']);
  assert.deepEqual(result.issues.filter((issue) => issue.code === 'public_api_bounded'), []);
});

test('F1: a package whose export graph exceeds the work bound stops with a public_api_bounded finding; entries before it keep their names', () => {
  const count = 600;
  const exportsField: Record<string, unknown> = { '.': './index.js' };
  for (let i = 0; i < count; i += 1) exportsField[`./s${i}`] = { import: `./lib/m${i}.js`, default: `./lib/m${i}.js` };
  const result = link({ 'package.json': JSON.stringify({ name: 'walk', exports: exportsField }), 'index.js': 'export function main () {}\n', ...cycleModules(count, false) });
  assert.deepEqual(result.api!['walk.main'], ['code:index.js#main']);
  const findings = result.issues.filter((issue) => issue.code === 'public_api_bounded');
  assert.equal(findings.length, 1, JSON.stringify(findings));
  assert.equal(findings[0]!.path, 'package.json');
  assert.equal(findings[0]!.severity, 'warning');
  assert.match(findings[0]!.message, /package 'walk' linked for \d+ of 601 entry points: its export graph exceeded the work bound/);
});

test('F5: past the name cap the table keeps the first names (the main entry first) and says so', () => {
  const exportsField: Record<string, unknown> = { '.': './index.js' };
  for (let i = 0; i < MAX_API_NAMES + 5; i += 1) exportsField[`./s${i}`] = { import: './lib/a.js', require: './lib/a.js' };
  const result = link({ 'package.json': JSON.stringify({ name: 'wide', exports: exportsField }), 'index.js': 'export function main () {}\n', 'lib/a.js': 'export function fn () {}\n' });
  const api = result.api ?? {};
  assert.equal(Object.keys(api).length, MAX_API_NAMES);
  assert.deepEqual(api['wide.main'], ['code:index.js#main']);
  assert.deepEqual(api['wide/s0.fn'], ['code:lib/a.js#fn']);
  const findings = result.issues.filter((issue) => issue.code === 'public_api_bounded');
  assert.equal(findings.length, 1);
  assert.equal(findings[0]!.path, 'package.json');
  assert.match(findings[0]!.message, new RegExp(`the public API table is full \\(${MAX_API_NAMES} names\\)`));
});

test('F6: `exports` targets Node refuses (outside the package, absolute, bare, node_modules) link nothing and do not fall back to main', () => {
  const result = link({
    'outside/x.js': 'export function escaped () {}\n',
    'pkg/package.json': JSON.stringify({
      name: 'strict', main: './index.js',
      exports: { '.': '../outside/x.js', './bare': 'index.js', './abs': '/pkg/index.js', './nm': './node_modules/dep/x.js', './dots': './lib/../index.js', './ok': './ok.js' },
    }),
    'pkg/index.js': 'export function main () {}\n',
    'pkg/ok.js': 'export function ok () {}\n',
    'pkg/node_modules/dep/x.js': 'export function dep () {}\n',
  });
  const names = Object.keys(result.api ?? {}).filter((name) => name.startsWith('strict'));
  assert.deepEqual(names, ['strict/ok.ok']);
});

test('F6: an alias (`export { x as y } from`) reached through an `export *` cycle resolves to the declaration Node resolves', () => {
  const result = link({
    'package.json': JSON.stringify({ name: 'alias', main: './index.js' }),
    'index.js': "export * from './a.js'\n",
    'a.js': "export * from './b.js'\nexport * from './d.js'\n",
    'b.js': "export { x as y } from './c.js'\nexport * from './a.js'\n",
    'c.js': "export * from './b.js'\n",
    'd.js': 'export function x () {}\n',
  });
  assert.deepEqual(result.api!['alias.x'], ['code:d.js#x']);
  assert.deepEqual(result.api!['alias.y'], ['code:d.js#x']);
});

test('F6: a malformed nested package.json is a malformed_package_json finding naming the file; a valid sibling still links', () => {
  const result = link({
    'packages/broken/package.json': '{ "name": "broken", "main": ',
    'packages/broken/index.js': 'export function lost () {}\n',
    'packages/list/package.json': '["not", "an", "object"]',
    'packages/list/index.js': 'export function listed () {}\n',
    'packages/good/package.json': JSON.stringify({ name: 'good', main: './index.js' }),
    'packages/good/index.js': 'export function kept () {}\n',
  });
  const findings = result.issues.filter((issue) => issue.code === 'malformed_package_json');
  assert.deepEqual(findings.map((issue) => [issue.path, issue.severity]), [['packages/broken/package.json', 'warning'], ['packages/list/package.json', 'warning']]);
  assert.match(findings[0]!.message, /^packages\/broken\/package\.json is not a valid package\.json \(/);
  assert.deepEqual(result.api!['good.kept'], ['code:packages/good/index.js#kept']);
});
