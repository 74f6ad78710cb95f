// Pins extraction: node ids, kinds, spans, signatures, JSDoc bodies, capabilities, intra-file edges, link data and syntax issues.
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { GraphNode } from '@docforge/core';
import { isTsLinkData, extractTypeScript, isTestPath, typescriptAdapter } from '../src/adapter.js';

/** SHA-256 hex by node:crypto: expectations never use the implementation's own hash. */
function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** RFC 8785 canonical JSON of plain JSON values (undefined members dropped), written independently of @docforge/core. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

function extract(path: string, content: string, logic = false) {
  return extractTypeScript({ path, content, strategy: 'ast', logic });
}

function byId(nodes: readonly GraphNode[]): Map<string, GraphNode> {
  return new Map(nodes.map((n) => [n.id, n]));
}

function edgeList(result: ReturnType<typeof extract>, relation: string): string[] {
  return result.edges.filter((e) => e.relation === relation).map((e) => `${e.source_id} -> ${e.target_id} @${e.line}`);
}

test('the adapter object declares id, version and extensions', () => {
  assert.equal(typescriptAdapter.id, 'typescript');
  assert.match(typescriptAdapter.version, /^\d+\.\d+\.\d+$/);
  assert.deepEqual([...typescriptAdapter.extensions], ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs']);
  assert.equal(typescriptAdapter.extract, extractTypeScript);
});

test('a header comment followed by a blank line or an import is the module summary; one glued to a declaration is not', () => {
  const header = extract('src/a.ts', '/**\n * Payments: the ledger.\n *\n * More.\n */\nimport { x } from "./x";\nexport const y = x;\n');
  assert.equal(header.nodes[0]!.summary, 'module src/a.ts — Payments: the ledger.');
  assert.equal(header.nodes[0]!.body, 'Payments: the ledger.\n\nMore.');
  const lines = extract('lib/b.js', "// Builds the thing.\n// Second line.\n\n'use strict'\nfunction f () {}\n");
  assert.equal(lines.nodes[0]!.summary, 'module lib/b.js — Builds the thing. Second line.');
  const glued = extract('src/c.ts', '/** Does f. */\nexport function f(): void {}\n');
  assert.equal(glued.nodes[0]!.summary, 'module src/c.ts');
  assert.equal(glued.nodes[1]!.summary, 'function f(): void — Does f.');
});

test('TypeScript module: classes, interfaces, functions, methods with ids, spans, signatures and JSDoc', () => {
  const source = [
    '/** Adds things. */',
    'export interface Adder extends Base {',
    '  add(x: number): number;',
    '}',
    '',
    '/**',
    ' * A counter.',
    ' * Counts up.',
    ' */',
    'export class Counter implements Adder {',
    '  constructor(private n = 0) {}',
    '  /** Increments. */',
    '  add(x: number): number {',
    '    return (this.n += x);',
    '  }',
    '  static *ids() { yield 1; }',
    '}',
    '',
    'function helper(a: string, b = 2): void {',
    '  function inner() {}',
    '}',
    'export default async function (): Promise<void> {}',
  ].join('\n');
  const r = extract('src/counter.ts', source);
  const nodes = byId(r.nodes);
  assert.deepEqual(r.nodes.map((n) => `${n.id} ${n.kind} ${n.start_line}-${n.end_line}`), [
    'code:src/counter.ts module 1-22',
    'code:src/counter.ts#Adder interface 2-4',
    'code:src/counter.ts#Adder.add method 3-3',
    'code:src/counter.ts#Counter class 10-17',
    'code:src/counter.ts#Counter.constructor method 11-11',
    'code:src/counter.ts#Counter.add method 13-15',
    'code:src/counter.ts#Counter.ids method 16-16',
    'code:src/counter.ts#helper function 19-21',
    'code:src/counter.ts#helper.inner function 20-20',
    'code:src/counter.ts#default function 22-22',
  ]);
  const mod = nodes.get('code:src/counter.ts')!;
  assert.equal(mod.title, 'src/counter.ts');
  assert.equal(mod.language, 'typescript');
  assert.equal(mod.origin, 'code');
  // Doc comments join the signature in the summary (issue 9 item 4); the file's first comment documents Adder, not the module.
  assert.equal(mod.summary, 'module src/counter.ts');
  assert.equal(nodes.get('code:src/counter.ts#Counter')!.summary, 'class Counter implements Adder — A counter. Counts up.');
  assert.equal(nodes.get('code:src/counter.ts#Counter')!.body, 'A counter.\nCounts up.');
  assert.equal(nodes.get('code:src/counter.ts#Adder')!.summary, 'interface Adder extends Base — Adds things.');
  assert.equal(nodes.get('code:src/counter.ts#Adder')!.body, 'Adds things.');
  assert.equal(nodes.get('code:src/counter.ts#Counter.add')!.summary, 'Counter.add(x: number): number — Increments.');
  assert.equal(nodes.get('code:src/counter.ts#Counter.add')!.body, 'Increments.');
  assert.equal(nodes.get('code:src/counter.ts#Counter.add')!.title, 'add');
  assert.equal(nodes.get('code:src/counter.ts#Counter.ids')!.summary, 'static *Counter.ids()');
  assert.deepEqual(nodes.get('code:src/counter.ts#Counter.ids')!.capabilities, ['generator']);
  assert.equal(nodes.get('code:src/counter.ts#helper')!.summary, 'function helper(a: string, b = 2): void');
  assert.equal(nodes.get('code:src/counter.ts#helper')!.body, '');
  assert.deepEqual(nodes.get('code:src/counter.ts#default')!.capabilities, ['async', 'exported']);
  assert.deepEqual(nodes.get('code:src/counter.ts#Counter')!.capabilities, ['exported']);
  assert.deepEqual(nodes.get('code:src/counter.ts#helper')!.capabilities, []);
  for (const node of r.nodes) {
    const { content_hash: hash, ...rest } = node;
    assert.equal(hash, sha256Hex(canonical(rest)));
    assert.deepEqual(node.anchors, []);
    assert.equal(node.source_path, 'src/counter.ts');
  }
  assert.deepEqual(edgeList(r, 'contains'), [
    'code:src/counter.ts -> code:src/counter.ts#Adder @2',
    'code:src/counter.ts#Adder -> code:src/counter.ts#Adder.add @3',
    'code:src/counter.ts -> code:src/counter.ts#Counter @10',
    'code:src/counter.ts#Counter -> code:src/counter.ts#Counter.constructor @11',
    'code:src/counter.ts#Counter -> code:src/counter.ts#Counter.add @13',
    'code:src/counter.ts#Counter -> code:src/counter.ts#Counter.ids @16',
    'code:src/counter.ts -> code:src/counter.ts#helper @19',
    'code:src/counter.ts#helper -> code:src/counter.ts#helper.inner @20',
    'code:src/counter.ts -> code:src/counter.ts#default @22',
  ]);
  assert.deepEqual(edgeList(r, 'defines').sort(), [
    'code:src/counter.ts -> code:src/counter.ts#Adder @2',
    'code:src/counter.ts -> code:src/counter.ts#Counter @10',
    'code:src/counter.ts -> code:src/counter.ts#default @22',
  ]);
  assert.deepEqual(r.issues, []);
});

test('CommonJS: module.exports object, exports.x, prototype methods, const functions and export lists', () => {
  const source = [
    "'use strict'",
    "const { join } = require('node:path')",
    "const helpers = require('./helpers')",
    'function Reply (res) { this.res = res }',
    'Reply.prototype.send = function (payload) { return this.serialize(payload) }',
    'Reply.prototype.serialize = function (payload) { return JSON.stringify(payload) }',
    'const build = (opts) => new Reply(opts)',
    'exports.direct = function direct () {}',
    'module.exports = {',
    '  Reply,',
    '  build,',
    '  make: build,',
    '  inline () { return 1 },',
    "  other: require('./other'),",
    '}',
  ].join('\n');
  const r = extract('lib/reply.js', source);
  const nodes = byId(r.nodes);
  assert.deepEqual(r.nodes.map((n) => `${n.id} ${n.kind} [${n.capabilities.join(',')}]`), [
    'code:lib/reply.js module []',
    'code:lib/reply.js#Reply function [exported]',
    'code:lib/reply.js#Reply.send method []',
    'code:lib/reply.js#Reply.serialize method []',
    'code:lib/reply.js#build function [exported]',
    'code:lib/reply.js#direct function [exported]',
    'code:lib/reply.js#inline function [exported]',
  ]);
  assert.equal(nodes.get('code:lib/reply.js')!.language, 'javascript');
  assert.equal(nodes.get('code:lib/reply.js#Reply.send')!.summary, 'Reply.send(payload)');
  assert.equal(nodes.get('code:lib/reply.js#build')!.summary, 'function build(opts)');
  assert.deepEqual(edgeList(r, 'contains'), [
    'code:lib/reply.js -> code:lib/reply.js#Reply @4',
    'code:lib/reply.js#Reply -> code:lib/reply.js#Reply.send @5',
    'code:lib/reply.js#Reply -> code:lib/reply.js#Reply.serialize @6',
    'code:lib/reply.js -> code:lib/reply.js#build @7',
    'code:lib/reply.js -> code:lib/reply.js#direct @8',
    'code:lib/reply.js -> code:lib/reply.js#inline @13',
  ]);
  assert.ok(isTsLinkData(r.link_data));
  const data = r.link_data;
  assert.deepEqual(data.imports.map((i) => `${i.kind} ${i.specifier} @${i.line}`), [
    'require node:path @2', 'require ./helpers @3', 'require ./other @14',
  ]);
  assert.deepEqual(data.bindings, [
    { local: 'join', specifier: 'node:path', imported: 'join' },
    { local: 'helpers', specifier: './helpers', imported: '=' },
  ]);
  assert.deepEqual(data.exports.map((e) => `${e.name}=${e.local ?? `${e.specifier}:${e.imported}`}`), [
    'direct=direct', 'Reply=Reply', 'build=build', 'make=build', 'inline=inline', 'other=./other:=',
  ]);
  assert.deepEqual(data.calls.map((c) => `${c.owner.split('#')[1] ?? 'module'} ${c.shape} ${c.object ?? ''}.${c.name}`), [
    'Reply.send this .serialize',
    'Reply.serialize member JSON.stringify',
    'build new .Reply',
  ]);
  // link data survives a JSON round trip unchanged
  assert.deepEqual(JSON.parse(JSON.stringify(data)), data);
});

test('ES imports, re-exports, dynamic import and call shapes are recorded for linking', () => {
  const source = [
    "import def, { a as b, c } from './x.js'",
    "import * as ns from '../y'",
    "import type { T } from './types'",
    "export { c as d } from './x.js'",
    "export * from './z'",
    'export { b }',
    'export const run = async () => {',
    '  b(); ns.go(); def.call(null); c.apply(null, []);',
    "  const m = await import('./lazy');",
    '  m.f();',
    '}',
  ].join('\n');
  const r = extract('src/main.ts', source);
  assert.ok(isTsLinkData(r.link_data));
  const data = r.link_data;
  assert.deepEqual(data.imports.map((i) => `${i.kind} ${i.specifier} @${i.line}`), [
    'import ./x.js @1', 'import ../y @2', 'import ./types @3', 'export ./x.js @4', 'export ./z @5', 'dynamic ./lazy @9',
  ]);
  assert.deepEqual(data.bindings.map((b) => `${b.local}<-${b.specifier}:${b.imported}`), [
    'def<-./x.js:default', 'b<-./x.js:a', 'c<-./x.js:c', 'ns<-../y:*', 'T<-./types:T', 'm<-./lazy:*',
  ]);
  assert.deepEqual(data.exports.map((e) => `${e.name}=${e.local ?? `${e.specifier}:${e.imported}`}`), [
    'd=./x.js:c', '*=./z:*', 'b=b', 'run=run',
  ]);
  assert.deepEqual(data.calls.map((c) => `${c.shape} ${c.object ?? ''}.${c.name}`), [
    'id .b', 'member ns.go', 'id .def', 'id .c', 'member m.f',
  ]);
  const run = r.nodes.find((n) => n.id === 'code:src/main.ts#run')!;
  assert.deepEqual(run.capabilities, ['async', 'exported']);
  assert.equal(run.start_line, 7);
  assert.equal(run.end_line, 11);
  // main.* is an entrypoint by the extraction-time heuristic
  assert.deepEqual(r.nodes[0]!.capabilities, ['entrypoint']);
});

test('test and entrypoint capabilities', () => {
  assert.equal(isTestPath('test/a.js'), true);
  assert.equal(isTestPath('pkg/tests/deep/a.ts'), true);
  assert.equal(isTestPath('src/a.spec.ts'), true);
  assert.equal(isTestPath('src/a.test.mjs'), true);
  assert.equal(isTestPath('src/testing.ts'), false);
  assert.equal(isTestPath('src/contest/a.ts'), false);
  const t = extract('test/route.test.js', "const { test } = require('node:test')\nfunction check () {}\ntest('x', () => { check() })\n");
  assert.deepEqual(t.nodes.map((n) => n.capabilities), [['test'], ['test']]);
  const helper = extract('src/suite.js', "function caseOne () {}\nfunction other () {}\nit('runs', caseOne)\n");
  assert.deepEqual(helper.nodes.map((n) => `${n.title}:${n.capabilities.join(',')}`), ['src/suite.js:', 'caseOne:test', 'other:']);
  assert.deepEqual(extract('tools/run.js', '#!/usr/bin/env node\nmain()\n').nodes[0]!.capabilities, ['entrypoint']);
  assert.deepEqual(extract('tools/run.js', 'if (require.main === module) main()\n').nodes[0]!.capabilities, ['entrypoint']);
  assert.deepEqual(extract('tools/run.js', 'main()\n').nodes[0]!.capabilities, []);
  assert.deepEqual(extract('bin/tool.js', 'main()\n').nodes[0]!.capabilities, ['entrypoint']);
});

test('a syntax error is a warning with its line and the parsed part is still extracted', () => {
  const source = ['function ok() { return 1 }', 'const x = ;', 'function later() {}'].join('\n');
  const r = extract('src/bad.js', source, true);
  assert.ok(r.issues.length >= 1);
  assert.equal(r.issues[0]!.code, 'syntax_error');
  assert.equal(r.issues[0]!.severity, 'warning');
  assert.equal(r.issues[0]!.path, 'src/bad.js');
  assert.equal(r.issues[0]!.line, 2);
  assert.ok(r.nodes.some((n) => n.id === 'code:src/bad.js#ok'));
  assert.ok(r.nodes.some((n) => n.id === 'code:src/bad.js#later'));
  assert.ok(r.logic_steps.some((s) => s.owner_id === 'code:src/bad.js#ok'));
});

test('overloads merge into one node; duplicate names get a stable suffix; empty files still yield a module', () => {
  const source = [
    'export function pick(x: string): string;',
    'export function pick(x: number): number;',
    'export function pick(x: any) { return x; }',
    "describe('a', () => { function handler() {} });",
    "describe('b', () => { function handler() {} });",
  ].join('\n');
  const r = extract('src/pick.ts', source, true);
  assert.deepEqual(r.nodes.map((n) => `${n.id} ${n.start_line}-${n.end_line}`), [
    'code:src/pick.ts 1-5',
    'code:src/pick.ts#pick 1-3',
    'code:src/pick.ts#handler 4-4',
    'code:src/pick.ts#handler~2 5-5',
  ]);
  assert.equal(r.nodes[1]!.summary, 'function pick(x: any)');
  assert.equal(new Set(r.logic_steps.filter((s) => s.owner_id === 'code:src/pick.ts#pick').map((s) => s.step)).size, 3);
  const empty = extract('src/empty.ts', '');
  assert.deepEqual(empty.nodes.map((n) => `${n.id} ${n.start_line}-${n.end_line}`), ['code:src/empty.ts 1-1']);
});

test('extraction is deterministic', () => {
  const source = "import { a } from './a'\nexport function f(x) { if (x) { return a(x) } for (;;) { break } }\n";
  const one = extract('src/f.ts', source, true);
  const two = extract('src/f.ts', source, true);
  assert.deepEqual(one, two);
});

test('truncated and garbage sources never throw and always yield the module node', () => {
  const source = [
    'export class A extends B { m(x) { try { if (x) { return 1 } } finally { switch (x) { case 1: break } } } }',
    "const f = async function* () { for await (const y of z) { yield y } }",
    "module.exports = { f, g () { label: while (1) { continue label } } }",
  ].join('\n');
  for (let cut = 0; cut <= source.length; cut += 7) {
    const r = extractTypeScript({ path: 'src/cut.ts', content: source.slice(0, cut), strategy: 'ast', logic: true });
    assert.equal(r.nodes[0]!.id, 'code:src/cut.ts');
    for (const flow of r.logic_flows) {
      assert.ok(r.logic_steps.some((s) => s.owner_id === flow.owner_id && s.step === flow.to_step));
    }
  }
  const garbage = extractTypeScript({ path: 'src/x.js', content: '\u0000\u0001}}{{ ))) => => class function (', strategy: 'ast', logic: true });
  assert.equal(garbage.nodes[0]!.id, 'code:src/x.js');
  assert.ok(garbage.issues.every((i) => i.code === 'syntax_error' && i.severity === 'warning'));
});
