// Pins calls proven through object literals (issue 31 item 6): pino's real lib/proto.js prototype literal (`this[asJsonSym]()` in `write`, the accessors, `Object.create(this)` in `child`), one synthetic case per pattern, and the negative cases (reassigned `let`, spread after the key, unknown receiver, run-time writes) that must give no edge.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LinkResult } from '@docforge/core';
import { linkTypeScript, extractTypeScript } from '../src/adapter.js';
import { memoryResolver } from './helpers.js';

function link(files: Record<string, string>): LinkResult {
  const inputs = Object.keys(files).filter((p) => !p.endsWith('.json')).sort()
    .map((path) => ({ path, ...extractTypeScript({ path, content: files[path]!, strategy: 'ast', logic: false }) }));
  return linkTypeScript(inputs, memoryResolver(files));
}

/** `source -> target @line` for every calls edge out of one file. */
function callsIn(result: LinkResult, path: string): string[] {
  return result.edges.filter((e) => e.relation === 'calls' && e.source_path === path).map((e) => `${e.source_id} -> ${e.target_id} @${e.line}`).sort();
}

function lineOf(text: string, needle: string): number {
  const index = text.indexOf(needle);
  assert.ok(index >= 0, `fixture contains ${needle}`);
  return text.slice(0, index).split('\n').length;
}

/** pino 10's lib/ and pino.js, as installed (a package nobody here wrote). */
function pinoFiles(): Record<string, string> {
  const root = join(dirname(fileURLToPath(import.meta.url)), '../../../../../node_modules/pino');
  const files: Record<string, string> = { 'pino.js': readFileSync(join(root, 'pino.js'), 'utf8') };
  for (const name of readdirSync(join(root, 'lib'))) if (name.endsWith('.js')) files[`lib/${name}`] = readFileSync(join(root, 'lib', name), 'utf8');
  return files;
}

test('pino lib/proto.js: calls through the prototype literal resolve to the functions its members name', () => {
  const files = pinoFiles();
  const proto = files['lib/proto.js']!;
  const edges = callsIn(link(files), 'lib/proto.js');
  // `write` is only ever the literal's `[writeSym]` member: its `this[asJsonSym](...)` is the literal's `[asJsonSym]: asJson`.
  assert.ok(edges.includes(`code:lib/proto.js#write -> code:lib/tools.js#asJson @${lineOf(proto, 'this[asJsonSym](obj, msg, num, t)')}`), edges.join('\n'));
  // The literal's own accessors see the literal as `this` (their calls belong to the module: accessors of a literal are no nodes).
  assert.ok(edges.includes(`code:lib/proto.js -> code:lib/levels.js#getLevel @${lineOf(proto, 'get level () { return this[getLevelSym]() }')}`), edges.join('\n'));
  assert.ok(edges.includes(`code:lib/proto.js -> code:lib/levels.js#setLevel @${lineOf(proto, 'set level (lvl) { this[setLevelSym](lvl) }')}`), edges.join('\n'));
  // `const instance = Object.create(this)` in `child` (the literal's `child` member): `instance[setLevelSym](...)`.
  assert.ok(edges.includes(`code:lib/proto.js#child -> code:lib/levels.js#setLevel @${lineOf(proto, 'instance[setLevelSym](childLevel)')}`), edges.join('\n'));
  // pino.js: `const instance = {}`, `Object.assign(instance, { ...keys })`, `Object.setPrototypeOf(instance, proto())`
  // with lib/proto.js's `module.exports = function () { return Object.create(prototype) }`, then
  // `instance[setLevelSym](level)`, `setLevelSym` destructured from the module-level `const symbols = require('./lib/symbols')`.
  const pino = files['pino.js']!;
  const fromPino = callsIn(link(files), 'pino.js');
  assert.ok(fromPino.includes(`code:pino.js#pino -> code:lib/levels.js#setLevel @${lineOf(pino, 'instance[setLevelSym](level)')}`), fromPino.join('\n'));
  // Keys the literal does not have (set on instances elsewhere) prove nothing: `this[timeSym]()` in `write`.
  assert.equal(edges.filter((e) => e.endsWith(`@${lineOf(proto, 'const t = this[timeSym]()')}`)).length, 0, edges.join('\n'));
  // `this.onChild(instance)` in `child`: no such member in the literal.
  assert.equal(edges.filter((e) => e.endsWith(`@${lineOf(proto, 'this.onChild(instance)')}`)).length, 0, edges.join('\n'));
});

const SYNTHETIC: Record<string, string> = {
  'lib/keys.js': "const kRun = Symbol('run')\nconst kStop = Symbol('stop')\nmodule.exports = { kRun, kStop }\n",
  'lib/proto.js': [
    "const { kRun, kStop } = require('./keys')",
    'function run () { return 1 }',
    'function stop () { return 2 }',
    'function start () { return this[kRun]() }',
    'function helper () { return 3 }',
    'const proto = {',
    '  start,',
    '  helper,',
    '  [kRun]: run,',
    '  [kStop]: stop,',
    '  viaName () { return this.helper() },',
    '  viaKey () { return this[kStop]() }',
    '}',
    'function direct () { return proto.helper() }',
    'function created () { const o = Object.create(proto); return o[kRun]() }',
    'module.exports = function make () { return Object.create(proto) }',
  ].join('\n'),
};

test('synthetic: shorthand and symbol-keyed members, this in a member function and in literal methods, the literal itself and Object.create(literal)', () => {
  const text = SYNTHETIC['lib/proto.js']!;
  const edges = callsIn(link(SYNTHETIC), 'lib/proto.js');
  const expected = [
    `code:lib/proto.js#start -> code:lib/proto.js#run @${lineOf(text, 'return this[kRun]()')}`,
    `code:lib/proto.js -> code:lib/proto.js#helper @${lineOf(text, 'viaName ()')}`,
    `code:lib/proto.js -> code:lib/proto.js#stop @${lineOf(text, 'viaKey ()')}`,
    `code:lib/proto.js#direct -> code:lib/proto.js#helper @${lineOf(text, 'proto.helper()')}`,
    `code:lib/proto.js#created -> code:lib/proto.js#run @${lineOf(text, 'o[kRun]()')}`,
  ];
  for (const edge of expected) assert.ok(edges.includes(edge), `${edge}\n${edges.join('\n')}`);
  assert.equal(edges.length, expected.length, edges.join('\n'));
});

const FNS = "const kRun = Symbol('run')\nfunction run () { return 1 }\nfunction other () { return 2 }\n";

/** One file per case, so that a run-time write in one case does not hide another case. */
const NEGATIVE: Record<string, string> = {
  'neg/let.js': `${FNS}let mutable = { run }\nmutable = { run: other }\nfunction viaLet () { return mutable.run() }\n`,
  'neg/spread.js': `${FNS}const extra = {}\nconst spread = { run, ...extra }\nfunction viaSpread () { return spread.run() }\n`,
  'neg/written.js': `${FNS}const written = { run }\nwritten.run = other\nfunction viaWritten () { return written.run() }\n`,
  'neg/unknown-key.js': `${FNS}const lit = { [kRun]: run, [\`k\${1}\`]: other }\nfunction viaUnknownKey () { return lit[kRun]() }\n`,
  'neg/receiver.js': `${FNS}const lit = { run }\nfunction unknownReceiver (x) { return x.run() }\n`,
  'neg/shared.js': `${FNS}function shared () { return this.run() }\nconst a = { run, shared }\nconst b = { run: other, shared }\n`,
  'neg/escapes.js': `${FNS}function escapes () { return this.run() }\nconst c = { run, escapes }\nsetTimeout(escapes, 1)\n`,
  'neg/bound.js': `${FNS}function bound () { return this.run() }\nconst c = { run, bound }\nconst f = bound.bind({ run: other })\n`,
  'neg/instance-write.js': `${FNS}const lit = { run }\nfunction instanceWrite () { const o = Object.create(lit); o.run = other; return o.run() }\n`,
  'neg/two-args.js': `${FNS}const lit = { run }\nfunction twoArgs () { const o = Object.create(lit, { run: { value: other } }); return o.run() }\n`,
  'neg/let-create.js': `${FNS}const lit = { run }\nfunction letCreate () { let o = Object.create(lit); o = { run: other }; return o.run() }\n`,
  'neg/assign.js': `${FNS}const lit = { run }\nObject.assign(lit, { run: other })\nfunction viaAssign () { return lit.run() }\n`,
  'neg/not-fn.js': `${FNS}const lit = { run: 42 }\nfunction viaNotFn () { return lit.run() }\n`,
  'neg/exported.js': `${FNS}const lit = { run }\nfunction viaExported () { return lit.run() }\nmodule.exports = { lit }\n`,
  'neg/method-write.js': `${FNS}const lit = { run, reset () { this.run = other } }\nfunction viaMethodWrite () { return lit.run() }\n`,
  'neg/nested.js': `${FNS}const lit = { run, deep: { run } }\nfunction viaNested () { return lit.deep.run() }\n`,
  'neg/copied.js': `${FNS}function uses () { return this.run() }\nconst lit = { run, uses }\nconst copy = { ...lit, run: other }\n`,
  'neg/assigned-copy.js': `${FNS}function uses () { return this.run() }\nconst lit = { run, uses }\nconst copy = Object.assign({}, lit, { run: other })\n`,
  'neg/spread-into.js': `${FNS}const base = { run, uses () { return this.run() } }\nconst lit = { ...base, run: other }\n`,
  'neg/before-prototype.js': `${FNS}const lit = { run }\nfunction early () { const o = {}; o.run(); Object.setPrototypeOf(o, lit) }\n`,
  'neg/assign-own.js': `${FNS}const lit = { run }\nfunction own () { const o = {}; Object.assign(o, { run: other }); Object.setPrototypeOf(o, lit); return o.run() }\n`,
  'neg/own-key.js': `${FNS}const lit = { run }\nfunction ownKey () { const o = { run: other }; Object.setPrototypeOf(o, lit); return o.run() }\n`,
  'neg/twice.js': `${FNS}const lit = { run }\nconst lit2 = { run: other }\nfunction twice () { const o = {}; Object.setPrototypeOf(o, lit); Object.setPrototypeOf(o, lit2); return o.run() }\n`,
  'neg/creator-param.js': `${FNS}const lit = { run }\nfunction make (lit) { return Object.create(lit) }\nfunction viaParam () { const o = {}; Object.setPrototypeOf(o, make()); return o.run() }\n`,
  'neg/let-module.js': `let keys = require('./keys-mod')\nkeys = {}\nconst { kRun } = keys\nconst lit = { [kRun]: function () {} }\nfunction viaLetModule () { const o = Object.create(lit); return o[kRun]() }\n`,
  // A string key written through a computed key that may hold it (break-it trial F2).
  'neg/computed-write.js': `${FNS}const lit = { run }\nconst k = 'run'; lit[k] = other\nfunction viaComputedWrite () { return lit.run() }\n`,
  'keys-mod.js': "module.exports = { kRun: Symbol('run') }\n",
  'pos/set-prototype.js': `${FNS}const lit = { run }\nfunction make () { return Object.create(lit) }\nfunction viaSet () {\n  const o = { other }; Object.setPrototypeOf(o, make())\n  return o.run()\n}\n`,
  // A write through a proven Symbol key cannot reach the string key `run`.
  'pos/symbol-write.js': `${FNS}const kSym = Symbol('s')\nconst lit = { run, [kSym]: other }\nlit[kSym] = other\nfunction viaSymbolWrite () { return lit.run() }\n`,
  'pos/spread-before.js': `${FNS}const extra = {}\nconst before = { ...extra, run }\nfunction viaSpreadBefore () { return before.run() }\n`,
};

test('no edge where the binding is not proven: reassigned let, spread after the key, run-time writes, unknown keys and receivers, shared, escaping or bound member functions, exported literals', () => {
  const result = link(NEGATIVE);
  // (Direct calls such as `make()` are edges of their own; no call through a literal may reach `run` or `other`.)
  for (const path of Object.keys(NEGATIVE).filter((p) => p.startsWith('neg/'))) {
    assert.deepEqual(callsIn(result, path).filter((e) => /#(run|other) @/.test(e)), [], path);
  }
  // The controls: a spread before the key cannot override it; a prototype set on a line before the call by a
  // module-level function that only returns `Object.create(lit)`, the local's own keys not naming the key.
  assert.deepEqual(callsIn(result, 'pos/symbol-write.js').filter((e) => e.includes('#run')), ['code:pos/symbol-write.js#viaSymbolWrite -> code:pos/symbol-write.js#run @7']);
  assert.deepEqual(callsIn(result, 'pos/spread-before.js'), ['code:pos/spread-before.js#viaSpreadBefore -> code:pos/spread-before.js#run @6']);
  assert.deepEqual(callsIn(result, 'pos/set-prototype.js').filter((e) => e.includes('#run')), ['code:pos/set-prototype.js#viaSet -> code:pos/set-prototype.js#run @8']);
});

test('computed member ids keep the key source text; a dot inside the brackets is written %2E and titles keep the text', () => {
  const content = "const Symbols = require('./symbols')\nclass MockPool {\n  get [Symbols.kConnected] () { return 1 }\n  [kRun] () { return 2 }\n}\nmodule.exports = MockPool\n";
  const result = extractTypeScript({ path: 'lib/mock-pool.js', content, strategy: 'ast', logic: false });
  const ids = result.nodes.map((n) => n.id);
  assert.ok(ids.includes('code:lib/mock-pool.js#MockPool.[Symbols%2EkConnected]'), ids.join('\n'));
  assert.ok(ids.includes('code:lib/mock-pool.js#MockPool.[kRun]'), ids.join('\n'));
  const getter = result.nodes.find((n) => n.id.endsWith('[Symbols%2EkConnected]'))!;
  assert.equal(getter.title, '[Symbols.kConnected]');
  assert.match(getter.summary, /MockPool\.\[Symbols\.kConnected\]/);
});
