// Pins the CommonJS export forms that declare a module's API through a chain or an accessor (issue 31 item 2's misses on koa): `var f = module.exports = function () {}` in real packages (json-schema-traverse, deep-extend), `exports = module.exports = {}` with `const re = exports.re = []` (semver), and the methods and accessors of `const proto = module.exports = { ... }`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { extractTypeScript } from '../src/adapter.js';
import type { TsExtractResult } from '../src/index.js';

const modules = join(dirname(fileURLToPath(import.meta.url)), '../../../../../node_modules');

function extract(path: string, content: string): TsExtractResult {
  return extractTypeScript({ path, content, strategy: 'ast', logic: false });
}

function installed(relative: string): string {
  return readFileSync(join(modules, relative), 'utf8');
}

function lineOf(text: string, needle: string): number {
  const index = text.indexOf(needle);
  assert.ok(index >= 0, `source contains ${needle}`);
  return text.slice(0, index).split('\n').length;
}

function node(result: TsExtractResult, id: string): TsExtractResult['nodes'][number] {
  const found = result.nodes.find((n) => n.id === id);
  assert.ok(found, `${id} among ${result.nodes.map((n) => n.id).join(', ')}`);
  return found;
}

function defines(result: TsExtractResult, moduleId: string): string[] {
  return result.edges.filter((e) => e.relation === 'defines' && e.source_id === moduleId).map((e) => e.target_id).sort();
}

test('json-schema-traverse and deep-extend: `var f = module.exports = function () {}` declares f, exported and defined by the module', () => {
  for (const [pkg, file, name, needle] of [
    ['json-schema-traverse', 'index.js', 'traverse', 'var traverse = module.exports = function'],
    ['deep-extend', 'lib/deep-extend.js', 'deepExtend', 'var deepExtend = module.exports = function'],
  ] as const) {
    const text = installed(`${pkg}/${file}`);
    const result = extract(file, text);
    const fn = node(result, `code:${file}#${name}`);
    assert.equal(fn.kind, 'function');
    assert.equal(fn.start_line, lineOf(text, needle));
    assert.ok(fn.capabilities.includes('exported'), `${pkg}: ${fn.capabilities.join(',')}`);
    assert.ok(defines(result, `code:${file}`).includes(`code:${file}#${name}`), pkg);
  }
});

test('semver internal/re.js: `exports = module.exports = {}` and `const re = exports.re = []` keep the file whole', () => {
  const text = installed('semver/internal/re.js');
  const result = extract('internal/re.js', text);
  // The module's own arrow functions are declared as before; the chains export values, which declare no function.
  const arrows = [...text.matchAll(/^const (\w+) = \(/gm)].map((m) => `code:internal/re.js#${m[1]}`).sort();
  assert.ok(arrows.length >= 2, arrows.join(', '));
  assert.deepEqual(result.nodes.filter((n) => n.kind === 'function').map((n) => n.id).sort(), arrows);
});

const PROTO = [
  "'use strict'",
  '',
  'const proto = module.exports = {',
  '  /** Throw an error with `status` and `msg`. */',
  '  throw (...args) {',
  '    throw createError(...args)',
  '  },',
  '',
  '  /** Parse the X-Forwarded-For ip address list. */',
  '  get ips () {',
  '    return this.get(this.app.proxyIpHeader).split(/\\s*,\\s*/)',
  '  },',
  '',
  '  /** Get response body. */',
  '  get body () {',
  '    return this._body',
  '  },',
  '',
  '  /** Set response body: a stream becomes binary. */',
  '  set body (val) {',
  "    if (val instanceof Stream) this.type = 'bin'",
  '    this._body = val',
  '  }',
  '}',
  '',
  'function createError () { return new Error() }',
  'proto.inspect = function () { return this.toJSON() }',
  '',
].join('\n');

test('`const proto = module.exports = { ... }`: methods and accessors are exported function nodes; a setter after its getter is `~2`', () => {
  const result = extract('lib/context.js', PROTO);
  const thrower = node(result, 'code:lib/context.js#throw');
  assert.equal(thrower.start_line, lineOf(PROTO, 'throw (...args) {'));
  assert.ok(thrower.capabilities.includes('exported'));
  const ips = node(result, 'code:lib/context.js#ips');
  assert.equal(ips.summary, 'get ips() — Parse the X-Forwarded-For ip address list.');
  const getter = node(result, 'code:lib/context.js#body');
  const setter = node(result, 'code:lib/context.js#body~2');
  assert.equal(getter.start_line, lineOf(PROTO, 'get body () {'));
  assert.equal(setter.start_line, lineOf(PROTO, 'set body (val) {'));
  assert.ok(setter.capabilities.includes('exported'));
  // `proto.inspect = function` on the alias of the exports is an exported member too.
  assert.deepEqual(defines(result, 'code:lib/context.js'), [
    'code:lib/context.js#body', 'code:lib/context.js#body~2', 'code:lib/context.js#ips', 'code:lib/context.js#proto.inspect', 'code:lib/context.js#throw',
  ]);
  // A helper declared beside the literal stays a module function, not exported.
  assert.equal(node(result, 'code:lib/context.js#createError').capabilities.includes('exported'), false);
});

test('express 5 (as installed): `app.m = function` on `var app = exports = module.exports = {}` and `res.m = function` on `var res = Object.create(...)` declare exported `app.m` / `res.m`', () => {
  for (const [file, owner] of [['lib/application.js', 'app'], ['lib/response.js', 'res'], ['lib/request.js', 'req']] as const) {
    const text = installed(`express/${file}`);
    const result = extract(file, text);
    // Each `owner.name = function` statement at the start of a line, with its line, read from the source.
    const expected = [...text.matchAll(new RegExp(`^${owner}\\.(\\w+) =(?: \\w+\\.\\w+ =)* (?:async )?function`, 'gm'))]
      .map((m) => ({ id: `code:${file}#${owner}.${m[1]}`, line: text.slice(0, m.index).split('\n').length }));
    assert.ok(expected.length >= 5, `${file}: ${expected.length} member functions`);
    for (const { id, line } of expected) {
      const fn = result.nodes.find((n) => n.id === id);
      if (fn === undefined) {
        // The first link of a chain (`req.get = req.header = function header`) names the alias; the function is the last link's.
        assert.match(text.split('\n')[line - 1]!, new RegExp(`^${owner}\\.\\w+ = ${owner}\\.\\w+ =`), `${id} missing`);
        continue;
      }
      assert.equal(fn.kind, 'function', id);
      // A chain written over two lines (`res.contentType =` above `res.type = function`) starts at its first link.
      const chained = line > 1 && new RegExp(`^${owner}\\.\\w+ =\\s*$`).test(text.split('\n')[line - 2]!);
      assert.equal(fn.start_line, chained ? line - 1 : line, id);
      assert.ok(fn.capabilities.includes('exported'), `${id}: ${fn.capabilities.join(',')}`);
      assert.ok(defines(result, `code:${file}`).includes(id), id);
    }
  }
});

test('a member function of an object that is not exported is declared but not exported', () => {
  const text = "const helpers = {}\nhelpers.trim = function trim (s) { return s.trim() }\nmodule.exports = function main () { return helpers.trim('x') }\n";
  const result = extract('lib/main.js', text);
  assert.equal(node(result, 'code:lib/main.js#helpers.trim').capabilities.includes('exported'), false);
  assert.ok(node(result, 'code:lib/main.js#main').capabilities.includes('exported'));
});
