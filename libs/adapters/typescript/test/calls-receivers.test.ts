// Pins calls through receivers: edges proven by declared/constructed types, symbol keys and private names, and no edge (an honest unresolved count) where nothing proves the target.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LinkResult } from '@docforge/core';
import { linkTypeScript, extractTypeScript } from '../src/adapter.js';
import { memoryResolver } from './helpers.js';

function link(files: Record<string, string>): LinkResult {
  const inputs = Object.keys(files).filter((p) => !p.endsWith('.json')).sort()
    .map((path) => ({ path, ...extractTypeScript({ path, content: files[path]!, strategy: 'ast', logic: false }) }));
  return linkTypeScript(inputs, memoryResolver(files));
}

function callsFrom(result: LinkResult, owner: string): string[] {
  return result.edges.filter((e) => e.relation === 'calls' && e.source_id === owner).map((e) => e.target_id).sort();
}

function callersOf(result: LinkResult, target: string): string[] {
  return result.edges.filter((e) => e.relation === 'calls' && e.target_id === target).map((e) => e.source_id).sort();
}

/** 1-based line of the first occurrence of `needle` in `text` (expectations come from the fixture text). */
function lineOf(text: string, needle: string): number {
  const index = text.indexOf(needle);
  assert.ok(index >= 0, `fixture contains ${needle}`);
  return text.slice(0, index).split('\n').length;
}

test('examples/: RefundService.requestRefund calls Ledger.refund and AuthGateway.authorize calls the scorer and the idempotency store through fields', () => {
  const root = join(dirname(fileURLToPath(import.meta.url)), '../../../../../examples');
  const files: Record<string, string> = {};
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir)) {
      const full = join(dir, entry);
      if (statSync(full).isDirectory()) walk(full);
      else if (entry.endsWith('.ts')) files[relative(root, full).split('\\').join('/')] = readFileSync(full, 'utf8');
    }
  };
  walk(join(root, 'src'));
  const result = link(files);
  const refund = 'code:src/refunds/refund-service.ts#RefundService.requestRefund';
  const authorize = 'code:src/gateway/auth-gateway.ts#AuthGateway.authorize';
  assert.ok(callsFrom(result, refund).includes('code:src/ledger/ledger.ts#Ledger.refund'));
  for (const target of ['code:src/fraud/scorer.ts#FraudScorer.score', 'code:src/gateway/idempotency-store.ts#IdempotencyStore.get',
    'code:src/gateway/idempotency-store.ts#IdempotencyStore.put']) {
    assert.ok(callsFrom(result, authorize).includes(target), `authorize -> ${target}`);
  }
  // Each edge sits at a line whose text makes that call through the field.
  const edge = (source: string, target: string) => result.edges.find((e) => e.relation === 'calls' && e.source_id === source && e.target_id === target)!;
  const refundText = files['src/refunds/refund-service.ts']!.split('\n');
  assert.match(refundText[edge(refund, 'code:src/ledger/ledger.ts#Ledger.refund').line - 1]!, /this\.ledger\.refund\(/);
  const gatewayText = files['src/gateway/auth-gateway.ts']!.split('\n');
  assert.match(gatewayText[edge(authorize, 'code:src/fraud/scorer.ts#FraudScorer.score').line - 1]!, /this\.scorer\.score\(/);
  assert.match(gatewayText[edge(authorize, 'code:src/gateway/idempotency-store.ts#IdempotencyStore.get').line - 1]!, /this\.idempotency\.get\(/);
  // A receiver typed by an interface resolves to the interface's method declaration.
  assert.ok(callsFrom(result, 'code:src/ledger/ledger.ts#Ledger.post').includes('code:src/ledger/types.ts#LedgerStore.append'));
});

const SYMBOLS_FIXTURE: Record<string, string> = {
  'src/symbols.ts': "export const kRun = Symbol('run')\nexport const kStop = Symbol('stop')\n",
  'src/worker.ts': [
    "import { kRun, kStop } from './symbols'",
    "import * as symbols from './symbols'",
    "const kLocal = Symbol('local')",
    'class Helper { assist(): void {} }',
    'export class Worker {',
    '  #helper = new Helper();',
    '  [kRun](): number { return 1 }',
    '  [kLocal](): number { return 2 }',
    '  #tick(): number { return 3 }',
    '  start(): void {',
    '    this[kRun]()',
    '    this[kLocal]()',
    '    this.#tick()',
    '    this.#helper.assist()',
    '  }',
    '  viaNamespace(): void { this[symbols.kRun]() }',
    '  notDeclared(): void { this[kStop]() }',
    '  shadowed(): void { const kRun = Symbol("other"); this[kRun]() }',
    '}',
  ].join('\n'),
  'lib/symbols.js': "'use strict'\nconst keys = {\n  kRun: Symbol('run'),\n  kSerializer: Symbol('serializer')\n}\nmodule.exports = keys\n",
  'lib/reply.js': [
    "const { kRun, kSerializer } = require('./symbols')",
    'class Reply {',
    '  [kRun] () { return 1 }',
    '  send (payload) {',
    '    this[kRun]()',
    '    return this[kSerializer](payload)',
    '  }',
    '  serializer (fn) { this[kSerializer] = fn }',
    '}',
    'function Legacy () { this[kSerializer] = null }',
    'Legacy.prototype.send = function (payload) { return this[kSerializer](payload) }',
    'module.exports = { Reply, Legacy }',
  ].join('\n'),
};

test('this[kRun]() resolves to the member declared as [kRun]() when both name the same symbol binding, also across modules and CommonJS', () => {
  const result = link(SYMBOLS_FIXTURE);
  assert.deepEqual(callsFrom(result, 'code:src/worker.ts#Worker.start'), [
    'code:src/worker.ts#Helper.assist', 'code:src/worker.ts#Worker.#tick', 'code:src/worker.ts#Worker.[kLocal]', 'code:src/worker.ts#Worker.[kRun]',
  ]);
  assert.deepEqual(callsFrom(result, 'code:src/worker.ts#Worker.viaNamespace'), ['code:src/worker.ts#Worker.[kRun]']);
  // A key the class never declares, and a function-local binding of the same name, prove nothing.
  assert.deepEqual(callsFrom(result, 'code:src/worker.ts#Worker.notDeclared'), []);
  assert.deepEqual(callsFrom(result, 'code:src/worker.ts#Worker.shadowed'), []);
  assert.deepEqual(callsFrom(result, 'code:lib/reply.js#Reply.send'), ['code:lib/reply.js#Reply.[kRun]']);
});

test('a symbol-keyed property assigned a function at run time gets no edge and is counted as unresolved for its function', () => {
  const result = link(SYMBOLS_FIXTURE);
  const text = SYMBOLS_FIXTURE['lib/reply.js']!;
  assert.ok(lineOf(text, 'this[kSerializer](payload)') > 0);
  assert.equal(result.edges.filter((e) => e.relation === 'calls' && e.line === lineOf(text, 'return this[kSerializer](payload)')).length, 0);
  assert.equal(result.unresolved_calls?.['code:lib/reply.js#Reply.send'], 1, 'this[kSerializer](payload) in Reply.send');
  assert.equal(result.unresolved_calls?.['code:lib/reply.js#Legacy.send'], 1, 'this[kSerializer](payload) in Legacy.send');
  assert.equal(result.unresolved_calls?.['code:src/worker.ts#Worker.notDeclared'], 1);
  assert.equal(result.unresolved_calls?.['code:src/worker.ts#Worker.shadowed'], 2, 'Symbol("other") and this[kRun]()');
  assert.equal(result.unresolved_calls?.['code:src/worker.ts#Worker.start'], undefined, 'every call in start is proven');
});

test('a method declared [kRun]() and also assigned through this[kRun] = fn is not proven', () => {
  const result = link({
    'src/a.ts': [
      "const kRun = Symbol('run')",
      'export class A {',
      '  [kRun](): void {}',
      '  swap(fn: () => void): void { (this as any)[kRun] = fn }',
      '  go(): void { this[kRun]() }',
      '}',
    ].join('\n'),
  });
  assert.deepEqual(callsFrom(result, 'code:src/a.ts#A.go'), []);
  assert.equal(result.unresolved_calls?.['code:src/a.ts#A.go'], 1);
  // Binding a method to its instance keeps it.
  const bound = link({ 'lib/b.js': 'class B {\n  constructor () { this.run = this.run.bind(this) }\n  run () {}\n  go () { this.run() }\n}\nmodule.exports = B\n' });
  assert.deepEqual(callsFrom(bound, 'code:lib/b.js#B.go'), ['code:lib/b.js#B.run']);
});

const PROVEN_FIXTURE: Record<string, string> = {
  'src/ledger.ts': [
    'export class Ledger { refund(): void {} capture(): void {} }',
    'export class Unrelated { refund(): void {} }',
    'export interface Handler { handle(): void }',
    'export class Impl implements Handler { handle(): void {} }',
    'export class Store<T> { get(): T | undefined { return undefined } }',
  ].join('\n'),
  'src/util.ts': 'export function helper(): void {}\n',
  'src/service.ts': [
    "import { Ledger, Store, type Handler } from './ledger'",
    "import * as util from './util'",
    'export class Service {',
    '  private readonly assigned: Ledger',
    '  private inferred = new Ledger();',
    '  constructor(private readonly ledger: Ledger, private readonly store: Store<string>) {',
    '    this.assigned = new Ledger()',
    '  }',
    '  run(handler: Handler): void {',
    '    this.ledger.refund()',
    '    this.assigned.capture()',
    '    this.inferred.capture()',
    '    this.store.get()',
    '    handler.handle()',
    '    util.helper()',
    '    const local = new Ledger()',
    '    local.refund()',
    '    const typed: Store<number> = new Store<number>()',
    '    typed.get()',
    '    setTimeout(() => this.ledger.capture(), 1)',
    '  }',
    '}',
  ].join('\n'),
  'lib/cjs.js': [
    "const util = require('./cjs-util')",
    "const { Counter } = require('./cjs-util')",
    'class Box {',
    '  constructor () { this.counter = new Counter() }',
    '  go () { util.twice(1); this.counter.add() }',
    '}',
    'class Mutable {',
    '  constructor () { this.counter = new Counter() }',
    '  reset () { this.counter = null }',
    '  go () { this.counter.add() }',
    '}',
    'module.exports = { Box, Mutable }',
  ].join('\n'),
  'lib/cjs-util.js': 'class Counter { add () {} }\nfunction twice (x) { return x * 2 }\nmodule.exports = { Counter, twice }\n',
};

test('fields, parameter properties, constructor assignments, typed and constructed locals, generics, interfaces, namespaces and nested arrows resolve', () => {
  const result = link(PROVEN_FIXTURE);
  assert.deepEqual(callsFrom(result, 'code:src/service.ts#Service.run'), [
    'code:src/ledger.ts#Handler.handle',
    'code:src/ledger.ts#Ledger.capture',
    'code:src/ledger.ts#Ledger.refund',
    'code:src/ledger.ts#Store.get',
    'code:src/util.ts#helper',
  ]);
  // `new Ledger()` and `new Store<number>()`: classes without a declared constructor.
  assert.equal(result.unresolved_calls?.['code:src/service.ts#Service.run'], 3);
  // The interface method leads on to its implementations through `implements`.
  assert.ok(result.edges.some((e) => e.relation === 'implements' && e.source_id === 'code:src/ledger.ts#Impl' && e.target_id === 'code:src/ledger.ts#Handler'));
  assert.deepEqual(callsFrom(result, 'code:lib/cjs.js#Box.go'), ['code:lib/cjs-util.js#Counter.add', 'code:lib/cjs-util.js#twice']);
  // A JavaScript field reassigned elsewhere in the class has no proven type.
  assert.deepEqual(callsFrom(result, 'code:lib/cjs.js#Mutable.go'), []);
});

test('no calls edge without proof: same-named method on an unrelated class, unknown, any, unknown-cast and type-parameter receivers, shadowed locals, rebound this', () => {
  const files: Record<string, string> = {
    ...PROVEN_FIXTURE,
    'src/negative.ts': [
      "import { Ledger, Unrelated } from './ledger'",
      'class T { refund(): void {} }',
      'export class Negative {',
      '  private ledger: Ledger = new Ledger();',
      '  stop(): void {}',
      '  untyped(x) { x.refund() }',
      '  anyTyped(x: any) { x.refund() }',
      '  unknownTyped(x: unknown) { (x as any).refund() }',
      '  unionTyped(x: Ledger | Unrelated) { x.refund() }',
      '  generic<T>(x: T) { (x as any).refund(); const y: T = x; (y as unknown as { refund(): void }).refund() }',
      '  typeParam<T>(x: T & object, t: T) { t.refund() }',
      '  shadowed(l: Ledger) { [new Unrelated()].forEach((l) => l.refund()) }',
      '  rebound(): void { [1].forEach(function (this: unknown) { (this as Negative).stop() }); [1].forEach(function () { this.stop() }) }',
      '  fieldOfUnknown(): void { (this as any).other.refund() }',
      '}',
    ].join('\n'),
  };
  const result = link(files);
  const owners = ['untyped', 'anyTyped', 'unknownTyped', 'unionTyped', 'generic', 'typeParam', 'shadowed', 'rebound', 'fieldOfUnknown']
    .map((name) => `code:src/negative.ts#Negative.${name}`);
  for (const owner of owners) {
    const targets = callsFrom(result, owner).filter((id) => !id.endsWith('.constructor'));
    assert.deepEqual(targets, [], `${owner} proves no method target`);
    assert.ok((result.unresolved_calls?.[owner] ?? 0) >= 1, `${owner} counts its unresolved call sites`);
  }
  assert.deepEqual(callersOf(result, 'code:src/ledger.ts#Unrelated.refund'), [], 'the same-named method of an unrelated class is never a target');
  assert.deepEqual(callersOf(result, 'code:src/negative.ts#T.refund'), [], 'a type parameter T never resolves to a class named T');
  // Every edge into Ledger.refund comes from a function that calls it through a proven receiver.
  assert.deepEqual(callersOf(result, 'code:src/ledger.ts#Ledger.refund'), ['code:src/service.ts#Service.run']);
  // Stats stay honest: every call site is either resolved or unresolved.
  assert.equal(result.stats['calls_total'], result.stats['calls_resolved']! + result.stats['calls_unresolved']!);
  const perFunction = Object.values(result.unresolved_calls ?? {}).reduce((a, b) => a + b, 0);
  assert.equal(perFunction, result.stats['calls_unresolved']);
});

test('property descriptors defined on X.prototype see `this` as an X; other object-literal functions rebind `this`', () => {
  const text = [
    'function Reply () {}',
    'Reply.prototype.code = function (c) { return c }',
    'Object.defineProperties(Reply.prototype, {',
    '  statusCode: {',
    '    get () { return this.code() },',
    '    set (value) { this.code(value) }',
    '  }',
    '})',
    'const plain = { run () { return this.code() } }',
    'module.exports = { Reply, plain }',
  ].join('\n');
  const result = link({ 'lib/reply.js': text });
  const edges = result.edges.filter((e) => e.relation === 'calls' && e.target_id === 'code:lib/reply.js#Reply.code');
  assert.deepEqual(edges.map((e) => `${e.source_id}@${e.line}`), [`code:lib/reply.js@${lineOf(text, 'get () { return this.code() }')}`]);
  assert.equal(result.unresolved_calls?.['code:lib/reply.js'], 2, 'Object.defineProperties(...) and this.code() in plain.run');
});

test('a local holding a call result is typed by the callee\'s declared return type (awaited for Promise<X>), never by a type parameter', () => {
  const result = link({
    'src/ledger.ts': 'export class Ledger { refund(): void {} capture(): void {} }\n',
    'src/factory.ts': [
      "import { Ledger } from './ledger'",
      'export function makeLedger(): Ledger { return new Ledger() }',
      'export async function loadLedger(): Promise<Ledger> { return new Ledger() }',
      'export function same<T>(x: T): T { return x }',
      'export function untyped() { return new Ledger() }',
    ].join('\n'),
    'src/use.ts': [
      "import { makeLedger, loadLedger, same, untyped } from './factory'",
      "import * as factory from './factory'",
      'export async function use(): Promise<void> {',
      '  const made = makeLedger()',
      '  made.capture()',
      '  const loaded = await factory.loadLedger()',
      '  loaded.refund()',
      '}',
      'export function unproven(): void {',
      '  const pending = loadLedger()',
      '  ;(pending as any).refund()',
      '  const generic = same(makeLedger())',
      '  generic.refund()',
      '  const inferred = untyped()',
      '  inferred.refund()',
      '}',
    ].join('\n'),
  });
  assert.deepEqual(callsFrom(result, 'code:src/use.ts#use'), [
    'code:src/factory.ts#loadLedger', 'code:src/factory.ts#makeLedger', 'code:src/ledger.ts#Ledger.capture', 'code:src/ledger.ts#Ledger.refund',
  ]);
  assert.deepEqual(callsFrom(result, 'code:src/use.ts#unproven').filter((id) => id.startsWith('code:src/ledger.ts')), []);
  assert.equal(result.unresolved_calls?.['code:src/use.ts#unproven'], 3, 'pending.refund, generic.refund, inferred.refund');
});

test('a receiver named like an Object.prototype member (this.constructor, a local toString) links without error and proves nothing through it', () => {
  // Shaped as npm 10.9.9's lib/npm.js: `#logFile = new LogFile()` gives Npm typed fields, then `this.constructor.cmd(cmd)`.
  const result = link({
    'lib/npm.js': [
      'class LogFile { on () {} }',
      'class Npm {',
      '  static cmd (c) { return c }',
      '  #logFile = new LogFile()',
      '  run (c) {',
      '    this.#logFile.on()',
      '    return this.constructor.cmd(c)',
      '  }',
      '}',
      'function show (x) {',
      '  const file = new LogFile()',
      '  file.on()',
      '  return toString.call(x) + constructor.name',
      '}',
      'module.exports = { Npm, show }',
    ].join('\n'),
  });
  assert.deepEqual(callsFrom(result, 'code:lib/npm.js#Npm.run'), ['code:lib/npm.js#LogFile.on']);
  assert.deepEqual(callsFrom(result, 'code:lib/npm.js#show'), ['code:lib/npm.js#LogFile.on']);
});
