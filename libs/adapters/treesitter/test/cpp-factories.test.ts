// Pins two C++ rules of issue 33: a definition inside an anonymous namespace is internal (no `exported` capability, no
// `defines` edge), as a `static` one at namespace scope already is; and a pointer a factory returns (`Foo* p = makeFoo();`,
// makeFoo declared as returning `Foo*`) proves `p->bar()` as `Foo* p = new Foo` does (only `p->` and `delete p` after), when
// the local's declared class is the factory's and no project class derives from it (no override can take the call). Then
// better-sqlite3 12.11.1's C++ addon (an npm dependency here), where `Cursor* cursor = Cursor::Upcast(_cursor)` proves
// `cursor->GetVTab()`.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { CodeAdapter } from '@docforge/core';
import { adapterFor, buildMemory, edgeLines, readTree } from './helpers.js';

let cpp: CodeAdapter;
before(async () => {
  cpp = await adapterFor('cpp');
});

const HEADER = [
  'class Foo { public: void bar(); };',
  'class Base { public: virtual void run(); };',
  'class Sub : public Base { public: void run(); };',
  'Foo* makeFoo();',
  'Base* makeBase();',
  'namespace ns { Foo* make(); }',
  'template <class T> T* build();',
  '',
].join('\n');

const SOURCE = [
  '#include "foo.hpp"',
  'void Foo::bar() {}',
  'void Base::run() {}',
  'void Sub::run() {}',
  'Foo* makeFoo() { return new Foo(); }',
  'Base* makeBase() { return new Sub(); }',
  'Foo* ns::make() { return nullptr; }',
  'namespace {',
  '  void hidden() {}',
  '  class Local { public: void m() {} };',
  '}',
  'static void alone() {}',
  'namespace named { void visible() {} }',
  'void plain() { Foo* p = makeFoo(); p->bar(); }', // 14: proven
  'void scoped() { Foo* q = ns::make(); q->bar(); delete q; }', // 15: proven through ns::make
  'void derived() { Base* b = makeBase(); b->run(); }', // 16: Sub derives from Base
  'void reseated() { Foo* r = makeFoo(); r = nullptr; r->bar(); }', // 17: r is reassigned
  'void other() { Base* s = (Base*) makeFoo(); s->run(); }', // 18: no factory call proof
  'void templ() { Foo* t = build<Foo>(); t->bar(); }', // 19: a template factory
  '',
].join('\n');

describe('C++ internal definitions and factory pointers', () => {
  it('a definition in an anonymous namespace is not exported; one in a named namespace is', () => {
    const { parsed, link } = buildMemory(cpp, { 'foo.hpp': HEADER, 'foo.cpp': SOURCE });
    const caps = new Map(parsed.flatMap((p) => p.nodes.map((n) => [n.id, n.capabilities.includes('exported')] as const)));
    assert.deepEqual(['hidden', 'Local', 'Local.m', 'alone', 'named', 'named.visible', 'plain'].map((q) => caps.get(`code:foo.cpp#${q}`)), [false, false, false, false, true, true, true]);
    const defines = parsed.flatMap((p) => p.edges).filter((e) => e.relation === 'defines' && e.source_id === 'code:foo.cpp').map((e) => e.target_id);
    assert.ok(!defines.includes('code:foo.cpp#hidden') && !defines.includes('code:foo.cpp#Local') && defines.includes('code:foo.cpp#named'), defines.join(' '));
    assert.ok(link.edges.length > 0);
  });

  it('p->bar() on a factory pointer reaches Foo::bar; not through a derived class, a reseated pointer, a cast or a template', () => {
    const { link } = buildMemory(cpp, { 'foo.hpp': HEADER, 'foo.cpp': SOURCE });
    assert.deepEqual(edgeLines(link.edges, 'calls').filter((line) => !/ calls code:foo\.(cpp|hpp)#(makeFoo|makeBase|ns\.make|build) /.test(line)), [
      'code:foo.cpp#plain calls code:foo.cpp#Foo.bar @14',
      'code:foo.cpp#scoped calls code:foo.cpp#Foo.bar @15',
    ]);
    assert.deepEqual(['derived', 'reseated', 'other', 'templ'].map((f) => link.unresolved_calls?.[`code:foo.cpp#${f}`]), [1, 1, 1, 2]);
  });
});

const require = createRequire(import.meta.url);

describe('factory pointers on better-sqlite3 12.11.1 (src/)', () => {
  it('CustomTable::xNext and xColumn reach Cursor::GetVTab through Cursor::Upcast, which returns CustomTable::Cursor*', () => {
    let dir = dirname(require.resolve('better-sqlite3'));
    while (!existsSync(join(dir, 'package.json')) || !dir.endsWith('better-sqlite3')) dir = dirname(dir);
    const calls = edgeLines(buildMemory(cpp, readTree(join(dir, 'src'), ['.cpp', '.hpp']), 'ast', false).link.edges, 'calls');
    const T = 'code:util/custom-table.cpp#CustomTable';
    for (const expected of [`${T}.xNext calls ${T}.Cursor.GetVTab @235`, `${T}.xColumn calls ${T}.Cursor.GetVTab @269`]) assert.ok(calls.includes(expected), expected);
  });
});
