// Pins calls through local variables whose declaration proves their type (LanguageSpec.typedBinds; issue 33, new-user trial):
// Go `x := T{}`, `x := &T{}`, `var x T`, `x := NewT()` by NewT's declared result; no edge through an interface, a type declared
// in the body, a local bound twice with different proofs, or a result that is no plain type. Then go-spew (Debian's
// golang-github-davecgh-go-spew-dev): fdump's `d := dumpState{...}; d.dump(...)` reaches dumpState.dump, so Dump, Sdump and
// Fdump reach dumpState.dumpPtr, every new edge checked against the source line.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { CodeAdapter, GraphEdge } from '@docforge/core';
import { adapterFor, buildMemory, edgeLines, inputSkip, lineOf, readTree } from './helpers.js';

let go: CodeAdapter;
before(async () => {
  go = await adapterFor('go');
});

const SHOP: Record<string, string> = {
  'go.mod': 'module example.com/shop\n',
  'ledger/ledger.go': [
    'package ledger',
    '',
    'type Ledger struct{ n int }',
    'type Store interface{ Save() }',
    'type Count int',
    '',
    'func New() *Ledger { return &Ledger{} }',
    'func Pair() (*Ledger, error) { return nil, nil }',
    'func Many() []Ledger { return nil }',
    'func (l *Ledger) Add() {}',
    'func (l *Ledger) Save() {}',
    'func (c Count) Inc() {}',
    '',
  ].join('\n'),
  'main.go': [
    'package main',
    '',
    'import "example.com/shop/ledger"',
    '',
    'type local struct{}',
    '',
    'func (local) run() {}',
    '',
    'func literal() {',
    '\ta := ledger.Ledger{}',
    '\ta.Add()',
    '\tb := &ledger.Ledger{n: 1}',
    '\tb.Save()',
    '\tvar c ledger.Ledger',
    '\tc.Add()',
    '\td := ledger.New()',
    '\td.Add()',
    '\te, err := ledger.Pair()',
    '\te.Save()',
    '\t_ = err',
    '\tf := local{}',
    '\tf.run()',
    '\tg := ledger.Count(3)',
    '\tg.Inc()',
    '}',
    '',
    'func unproven() {',
    '\tvar s ledger.Store = &ledger.Ledger{}',
    '\ts.Save()',
    '\tm := ledger.Many()',
    '\tm.Add()',
    '\ttype local struct{}',
    '\tx := local{}',
    '\tx.run()',
    '\ty := ledger.Ledger{}',
    '\tif true {',
    '\t\ty := local{}',
    '\t\ty.run()',
    '\t}',
    '\ty.Add()',
    '}',
    '',
  ].join('\n'),
};

describe('go calls through locals whose declaration proves their type', () => {
  it('resolves T{}, &T{}, var x T, NewT() by its declared result, a conversion, and nothing else', () => {
    const { link } = buildMemory(go, SHOP);
    const calls = edgeLines(link.edges, 'calls');
    assert.deepEqual(calls.filter((e) => e.startsWith('code:main.go#literal ')), [
      'code:main.go#literal calls code:ledger/ledger.go#Ledger.Add @11',
      'code:main.go#literal calls code:ledger/ledger.go#Ledger.Save @13',
      'code:main.go#literal calls code:ledger/ledger.go#Count.Inc @24',
      'code:main.go#literal calls code:ledger/ledger.go#New @16',
      'code:main.go#literal calls code:ledger/ledger.go#Pair @18',
      'code:main.go#literal calls code:main.go#local.run @22',
    ].sort());
    // c.Add() (line 15) and d.Add() (line 17) reach the same method as a.Add(): one edge, smallest line; every typed call
    // resolved; the one unresolved call is the conversion ledger.Count(3) itself, which calls no function.
    assert.equal(link.unresolved_calls?.['code:main.go#literal'], 1);
    // An interface variable dispatches; a slice result, a type declared in the body and a name bound twice with two types prove nothing.
    assert.deepEqual(calls.filter((e) => e.startsWith('code:main.go#unproven ')), ['code:main.go#unproven calls code:ledger/ledger.go#Many @30']);
    assert.equal(link.unresolved_calls?.['code:main.go#unproven'], 5);
  });
});

describe('java and c# calls through a local created with new', () => {
  it('java: T x = new T(), var x = new T() reach T\'s method (own or inherited); a different declared type, an anonymous class or a rebinding do not', async () => {
    const java = await adapterFor('java');
    const { link } = buildMemory(java, {
      'p/Base.java': 'package p;\npublic class Base { public void up() {} }\n',
      'p/Box.java': 'package p;\npublic class Box extends Base { public void put(int a) {} public void put(int a, int b) {} }\n',
      'p/Shape.java': 'package p;\npublic interface Shape { void draw(); }\n',
      'p/Use.java': [
        'package p;',
        'class Use {',
        '  void run(Shape s) {',
        '    Box b = new Box();',
        '    b.put(1);',
        '    var c = new Box();',
        '    c.up();',
        '    Base d = new Box();',
        '    d.up();',
        '    Box e = new Box() { };',
        '    e.put(1, 2);',
        '    Box f = new Box();',
        '    if (s != null) { Base f2 = null; }',
        '    for (Box g : new Box[0]) { g.up(); }',
        '  }',
        '  void twice(boolean x) {',
        '    if (x) { Box h = new Box(); h.up(); } else { Base h = new Base(); h.up(); }',
        '  }',
        '}',
        '',
      ].join('\n'),
    });
    assert.deepEqual(edgeLines(link.edges, 'calls').filter((e) => e.startsWith('code:p/Use.java#')), [
      'code:p/Use.java#Use.run calls code:p/Base.java#Base.up @7',
      'code:p/Use.java#Use.run calls code:p/Box.java#Box.put @5',
    ]);
    // d (declared Base, created Box), e (anonymous subclass), g (loop variable), both h (two proofs) give none.
    assert.equal(link.unresolved_calls?.['code:p/Use.java#Use.run'], 3);
    assert.equal(link.unresolved_calls?.['code:p/Use.java#Use.twice'], 2);
  });

  it('c#: T x = new T() and var x = new T() reach T\'s method; a declared interface does not', async () => {
    const cs = await adapterFor('csharp');
    const { link } = buildMemory(cs, {
      'Box.cs': 'namespace N { public interface IBox { void Put(); } public class Box : IBox { public void Put() {} public void Take() {} } }\n',
      'Use.cs': 'namespace N { class Use { void Run() { Box b = new Box(); b.Put(); var c = new Box(); c.Take(); IBox i = new Box(); i.Put(); } } }\n',
    });
    assert.deepEqual(edgeLines(link.edges, 'calls').filter((e) => e.startsWith('code:Use.cs#')), [
      'code:Use.cs#Use.Run calls code:Box.cs#Box.Put @1',
      'code:Use.cs#Use.Run calls code:Box.cs#Box.Take @1',
    ]);
    assert.equal(link.unresolved_calls?.['code:Use.cs#Use.Run'], 1);
  });
});

const SPEW = '/usr/share/gocode/src/github.com/davecgh/go-spew';

describe('go-spew (golang-github-davecgh-go-spew-dev): calls through a proven local', { skip: inputSkip(SPEW, 'apt-get install -y golang-github-davecgh-go-spew-dev') }, () => {
  it('Dump, Sdump and Fdump reach dumpState.dumpPtr through fdump; every typed edge names its method on its line', () => {
    const texts: Record<string, string> = { ...readTree(SPEW, ['.go']), 'go.mod': 'module github.com/davecgh/go-spew\n' };
    const { link } = buildMemory(go, texts);
    const calls = link.edges.filter((e) => e.relation === 'calls');
    const has = (from: string, to: string): boolean => calls.some((e) => e.source_id === `code:spew/${from}` && e.target_id === `code:spew/${to}`);
    assert.ok(has('dump.go#fdump', 'dump.go#dumpState.dump'), 'fdump calls d.dump through d := dumpState{w: w, cs: cs}');
    assert.ok(has('dump.go#dumpState.dump', 'dump.go#dumpState.dumpPtr'));
    for (const api of ['Dump', 'Sdump', 'Fdump']) assert.ok(has(`dump.go#${api}`, 'dump.go#fdump'), `${api} calls fdump`);
    // Reachability: each API function reaches dumpPtr over call edges.
    const next = new Map<string, string[]>();
    for (const e of calls) next.set(e.source_id, [...(next.get(e.source_id) ?? []), e.target_id]);
    for (const api of ['Dump', 'Sdump', 'Fdump']) {
      const seen = new Set<string>([`code:spew/dump.go#${api}`]);
      for (const id of seen) for (const to of next.get(id) ?? []) seen.add(to);
      assert.ok(seen.has('code:spew/dump.go#dumpState.dumpPtr'), `${api} reaches dumpState.dumpPtr`);
    }
    // Every edge from a function to a method of another receiver type names that method on the call's line, through a
    // variable the function declares there as that type (read from the text, independently of the adapter).
    const typed: GraphEdge[] = calls.filter((e) => /#[A-Za-z_]+\.[A-Za-z_]+$/.test(e.target_id) && !/#[A-Za-z_]+\./.test(e.source_id));
    assert.ok(typed.length >= 5, `${typed.length} edges into methods from plain functions`);
    let checked = 0;
    for (const e of typed) {
      const [type, method] = e.target_id.split('#')[1]!.split('.') as [string, string];
      const text = lineOf(texts, e.source_path, e.line);
      const receiver = new RegExp(`\\b(\\w+)\\.${method}\\(`).exec(text)?.[1];
      assert.ok(receiver !== undefined, `${e.source_path}:${e.line} calls .${method}(: ${text.trim()}`);
      const body = (texts[e.source_path] ?? '').split('\n').slice(0, e.line).join('\n');
      const literal = new RegExp(`\\b${receiver}\\s*:?=\\s*&?(\\w+\\.)?${type}\\{|\\bvar ${receiver} \\*?(\\w+\\.)?${type}\\b`).test(body);
      // Else assigned from a call whose function declares the result `*T` or `T` (somewhere in the package's text).
      const fn = new RegExp(`\\b${receiver}\\s*:?=\\s*(?:\\w+\\.)?(\\w+)\\(`).exec(body)?.[1];
      const declared = fn !== undefined && Object.values(texts).some((t) => new RegExp(`^func ${fn}\\([^)]*\\) \\*?${type}\\b`, 'm').test(t));
      assert.ok(literal || declared, `${e.source_path}:${e.line}: ${receiver} is declared as ${type}: ${text.trim()}`);
      checked += 1;
    }
    assert.equal(checked, typed.length);
  });
});

const SRC_ZIP = '/usr/lib/jvm/java-17-openjdk-amd64/lib/src.zip';

describe('java.util (openjdk-17-source): calls through locals created with new', { skip: inputSkip(SRC_ZIP, 'apt-get install -y openjdk-17-source') }, () => {
  it('Pattern.split reaches ArrayList.get, size, subList and the one-argument add; Date.UTC reaches the one-argument normalize', async () => {
    const java = await adapterFor('java');
    const dir = mkdtempSync(join(tmpdir(), 'docforge-typed-'));
    try {
      const files = ['ArrayList', 'regex/Pattern', 'Date'].map((f) => `java.base/java/util/${f}.java`);
      execFileSync('unzip', ['-q', SRC_ZIP, ...files, '-d', dir]);
      const texts = readTree(dir, ['.java']);
      const { link } = buildMemory(java, texts);
      const calls = edgeLines(link.edges, 'calls').map((e) => e.replace(/ @\d+$/, ''));
      const split = 'code:java.base/java/util/regex/Pattern.java#Pattern.split calls code:java.base/java/util/ArrayList.java#ArrayList';
      // `ArrayList<String> matchList = new ArrayList<>();` (Pattern.java); ArrayList declares add(E, Object[], int), add(E), add(int, E).
      for (const m of ['get', 'size', 'subList', 'add~2']) assert.ok(calls.includes(`${split}.${m}`), `${split}.${m}`);
      assert.ok(!calls.includes(`${split}.add`) && !calls.includes(`${split}.add~3`), 'only the one-argument add');
      // `Date d = new Date(0); d.normalize(udate);`: normalize() and normalize(BaseCalendar.Date); the second takes one argument.
      assert.ok(calls.includes('code:java.base/java/util/Date.java#Date.UTC calls code:java.base/java/util/Date.java#Date.normalize~2'));
      for (const e of link.edges.filter((x) => x.relation === 'calls' && x.target_id.includes('ArrayList.java#') && !x.source_id.includes('ArrayList.java#'))) {
        assert.match(lineOf(texts, e.source_path, e.line), /\bmatchList\s*\./, `${e.source_path}:${e.line}`);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
