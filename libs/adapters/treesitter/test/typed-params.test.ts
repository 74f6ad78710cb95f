// Pins calls through a Go parameter whose declared type is a project type (`func f(s *Server) { s.Start() }`) and through a
// C++ local declared by value of a class type (`Foo x; x.bar();`) or a pointer to what `new` made (`Foo* p = new Foo();
// p->bar();`), issue 33: in memory with the negatives (a type parameter of the function or of the receiver, an interface, a
// rebinding, a variadic; a C++ pointer from elsewhere or reseated or escaping, a reference, `auto`, a template parameter, a
// type declared in the body, a rebinding), then on real code: better-sqlite3's addon (no edge into an external base's
// method), yaml.v3 (golang-gopkg-yaml.v3-dev) and testify (golang-github-stretchr-testify-dev), every new edge of which
// was read against the source.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { CodeAdapter } from '@docforge/core';
import { adapterFor, buildMemory, edgeLines, inputSkip, readTree } from './helpers.js';

let go: CodeAdapter;
let cpp: CodeAdapter;
before(async () => {
  go = await adapterFor('go');
  cpp = await adapterFor('cpp');
});

describe('go calls through a parameter whose declared type proves the receiver', () => {
  it('resolves *T, T and pkg.T parameters; not a type parameter, an interface, a rebinding or a variadic', () => {
    const { link } = buildMemory(go, {
      'go.mod': 'module example.com/m\n',
      'srv/srv.go': 'package srv\n\ntype Server struct{}\n\nfunc (s *Server) Start() {}\n\ntype Runner interface{ Start() }\n',
      'main.go': [
        'package main',
        '',
        'import "example.com/m/srv"',
        '',
        'type T struct{}',
        '',
        'func (t T) Run() {}',
        '',
        'type Stack[T any] struct{}',
        '',
        'func (s *Stack[T]) Push(v T) { v.Run() }',
        '',
        'func plain(s *srv.Server, t T, u *T) { s.Start(); t.Run(); u.Run() }',
        '',
        'func generic[T any](x T) { x.Run() }',
        '',
        'func iface(r srv.Runner, many ...T) { r.Start(); many.Run() }',
        '',
        'func rebound(t T) {',
        '\tif true {',
        '\t\tt := srv.Server{}',
        '\t\tt.Start()',
        '\t}',
        '\tt.Run()',
        '}',
        '',
      ].join('\n'),
    });
    assert.deepEqual(edgeLines(link.edges, 'calls').filter((e) => e.startsWith('code:main.go#')), [
      'code:main.go#plain calls code:main.go#T.Run @13',
      'code:main.go#plain calls code:srv/srv.go#Server.Start @13',
    ]);
    // T in Push and generic is the type parameter, not main.T; r is an interface; many is a slice; t is bound twice.
    for (const [fn, n] of [['Stack.Push', 1], ['generic', 1], ['iface', 2], ['rebound', 2]] as const) assert.equal(link.unresolved_calls?.[`code:main.go#${fn}`], n, fn);
  });
});

describe('c++ calls through a local declared by value', () => {
  it('Foo x; ns::Foo y(1); D d{} reach the method (own or inherited); a pointer not made by new, references, auto, template parameters, local types and rebindings do not', () => {
    const { link } = buildMemory(cpp, {
      'a.cpp': [
        'namespace ns { class Foo { public: void bar(); }; }',
        'class Foo { public: void bar() {} void baz() {} };',
        'struct Base { void inh() {} };',
        'struct D : Base { };',
        'void ns::Foo::bar() {}',
        'void f() { Foo x; x.bar(); ns::Foo y(1); y.bar(); D d{}; d.inh(); }',
        // Four unresolved in g: p->bar(), r.baz(), the temporary Foo() itself, q.bar().
        'void g(Foo& r) { Foo* p = &r; p->bar(); r.baz(); auto q = Foo(); q.bar(); }',
        'template <class Foo> void t() { Foo z; z.bar(); }',
        'void l() { struct Foo { void bar() {} }; Foo w; w.bar(); }',
        'void m() { Foo a; { Base a; a.inh(); } a.bar(); }',
        '',
      ].join('\n'),
    });
    assert.deepEqual(edgeLines(link.edges, 'calls').filter((e) => e.startsWith('code:a.cpp#')), [
      'code:a.cpp#f calls code:a.cpp#Base.inh @6',
      'code:a.cpp#f calls code:a.cpp#Foo.bar @6',
      'code:a.cpp#f calls code:a.cpp#ns.Foo.bar @6',
    ]);
    for (const [fn, n] of [['g', 4], ['t', 1], ['l', 1], ['m', 2]] as const) assert.equal(link.unresolved_calls?.[`code:a.cpp#${fn}`], n, fn);
  });
});

describe('c++ calls through a pointer to what new made', () => {
  it('Foo* p = new Foo(); p->m() reaches Foo::m while p is only dereferenced or deleted; a reseat, an escape, another type or a global do not', () => {
    const { link } = buildMemory(cpp, {
      'a.cpp': [
        'class Foo { public: virtual void bar() {} void baz() {} };',
        'class Sub : public Foo { public: void bar() override {} };',
        'class Ptr { public: Foo* operator->(); void bar() {} };',
        'void f() { Foo* p = new Foo(); p->bar(); p->baz(); delete p; }',
        'void g() { Foo* p = new Foo(); p->bar(); p = new Sub(); p->bar(); }',
        'void h() { Foo* p = new Foo(); use(p); p->bar(); }',
        'void i() { Foo* p = new Sub(); p->bar(); }',
        'void j() { Ptr x; x->bar(); x.bar(); }',
        'void k() { Foo* p = new Foo(); auto l = [&]() { p = nullptr; }; p->bar(); }',
        'void m() { Foo* p = new Foo(); reseat(&p); p->bar(); }',
        'Foo* gp = new Foo();',
        'void o() { gp->bar(); }',
        '',
      ].join('\n'),
    });
    assert.deepEqual(edgeLines(link.edges, 'calls').filter((e) => e.startsWith('code:a.cpp#')), [
      'code:a.cpp#f calls code:a.cpp#Foo.bar @4',
      'code:a.cpp#f calls code:a.cpp#Foo.baz @4',
      // x is a Ptr object: x.bar() is Ptr::bar, x->bar() goes through Ptr::operator-> and stays unresolved.
      'code:a.cpp#j calls code:a.cpp#Ptr.bar @8',
    ]);
    for (const [fn, n] of [['g', 2], ['h', 2], ['i', 1], ['j', 1], ['k', 1], ['m', 2], ['o', 1]] as const) assert.equal(link.unresolved_calls?.[`code:a.cpp#${fn}`], n, fn);
  });
});

const BSQ = new URL('../../../../../node_modules/better-sqlite3/src', import.meta.url).pathname;

describe('better-sqlite3 src/ (an npm dependency here): no edge through a pointer whose method an external base declares', { skip: inputSkip(BSQ, 'npm ci') }, () => {
  it('`Statement* stmt = new Statement(...); stmt->Wrap(...)`: Wrap is node::ObjectWrap\'s, outside the project, so no edge', () => {
    const texts = readTree(BSQ, ['.cpp', '.hpp']);
    assert.match(texts['objects/statement.cpp'] ?? '', /Statement\* stmt = new Statement\(db, handle, addon->NextId\(\), returns_data\);\n\tstmt->Wrap\(info\.This\(\)\);/);
    const { link } = buildMemory(cpp, texts);
    assert.deepEqual(link.edges.filter((e) => e.relation === 'calls' && /#(Statement|Database|Backup|Addon)\.Wrap$/.test(e.target_id)), []);
    assert.ok(link.edges.some((e) => e.relation === 'calls'), 'the addon still has its call edges');
  });
});

const GOCODE = '/usr/share/gocode/src';

describe('yaml.v3 and testify: calls through typed parameters', { skip: inputSkip(`${GOCODE}/gopkg.in/yaml.v3`, 'apt-get install -y golang-gopkg-yaml.v3-dev golang-github-stretchr-testify-dev') }, () => {
  it('yaml.v3: the decoder and emitter reach *Node and *yaml_event_t methods through their parameters', () => {
    const { link } = buildMemory(go, readTree(`${GOCODE}/gopkg.in/yaml.v3`, ['.go'], ['go.mod']));
    const calls = edgeLines(link.edges, 'calls');
    for (const edge of [
      'code:decode.go#decoder.prepare calls code:yaml.go#Node.ShortTag @407', // func (d *decoder) prepare(n *Node, ...): if n.ShortTag() == nullTag
      'code:decode.go#decoder.unmarshal calls code:yaml.go#Node.IsZero @514', // func (d *decoder) unmarshal(n *Node, ...): if n.IsZero()
      'code:decode.go#decoder.scalar calls code:yaml.go#Node.indicatedString @568',
      'code:emitterc.go#yaml_emitter_select_scalar_style calls code:yamlh.go#yaml_event_t.scalar_style @1011', // event *yaml_event_t
      'code:decode_test.go#proxyTypeError.UnmarshalYAML calls code:yaml.go#Node.Decode @1183', // node *yaml.Node, package yaml_test
    ]) assert.ok(calls.includes(edge), edge);
  });

  it('testify: mock reaches Arguments.String and Mock.Called through parameters', () => {
    const { link } = buildMemory(go, readTree(`${GOCODE}/github.com/stretchr/testify`, ['.go'], ['go.mod']));
    const calls = edgeLines(link.edges, 'calls');
    for (const edge of [
      'code:mock/mock.go#callString calls code:mock/mock.go#Arguments.String @426', // callString(method string, arguments Arguments, ...)
      'code:mock/mock_test.go#asyncCall calls code:mock/mock.go#Mock.Called @1105', // asyncCall(m *Mock, ch chan Arguments)
      'code:mock/mock_test.go#ConcurrencyTestMethod calls code:mock/mock.go#Mock.Called @1972',
    ]) assert.ok(calls.includes(edge), edge);
  });
});
