// Pins calls through local variables whose declaration proves their type (LanguageSpec.typedBinds; issue 33, new-user trial):
// Go `x := T{}`, `x := &T{}`, `var x T`, `x := NewT()` by NewT's declared result; no edge through an interface, a type declared
// in the body, a local bound twice with different proofs, or a result that is no plain type. Then go-spew (Debian's
// golang-github-davecgh-go-spew-dev): fdump's `d := dumpState{...}; d.dump(...)` reaches dumpState.dump, so Dump, Sdump and
// Fdump reach dumpState.dumpPtr, every new edge checked against the source line.
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
