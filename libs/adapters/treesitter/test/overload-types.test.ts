// Pins same-arity overloads chosen by argument types (Java, C#; link-overloads.ts, issue 33): `f(x)` where the class declares
// `f(String)` and `f(int)` reaches the overload whose declared parameter types are exactly the arguments' evident types (a
// literal, `new T()`, a cast, a typed local, parameter or field); a widening, boxing, `null`, an untyped local, a type
// parameter, a pattern-bound name or a type two places name differently leaves it unresolved. Also supertypes declared
// outside the project (C# `: Exception`, Java `extends AbstractList`): a `this`/bare call that no project ancestor answers is
// unresolved, not bound to a static import or an enclosing type's method of that name. Then openjdk-17's java.util and
// java.time and edge-js 26.1.0's C# files, where the edges below were read against the source.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { CodeAdapter } from '@docforge/core';
import { adapterFor, buildMemory, edgeLines, inputSkip, readTree } from './helpers.js';

let java: CodeAdapter;
let csharp: CodeAdapter;
before(async () => {
  java = await adapterFor('java');
  csharp = await adapterFor('csharp');
});

const calls = (adapter: CodeAdapter, texts: Record<string, string>): string[] => edgeLines(buildMemory(adapter, texts).link.edges, 'calls');

describe('same-arity overloads by argument type', () => {
  it('java: literals, new, casts, typed locals, parameters and fields pick the exact overload; nothing unproven does', () => {
    const out = calls(java, {
      'p/Box.java': [
        'package p;',
        'public class Box {',
        '  String name; int count; java.util.List<String> items;',
        '  void put(String s) {}',
        '  void put(int n) {}',
        '  void put(Box b) {}',
        '  void put(long n) {}',
        '  void put(String k, Object v) {}',
        '  void put(String k, String v) {}',
        '  <T> void put(T t, int n) {}',
        '  void a(String p, Object o, Integer boxed, short small) {',
        '    put("x");', // 12: String
        '    put(1);', // 13: int
        '    put(1L);', // 14: long
        '    put(new Box());', // 15: Box
        '    put(p);', // 16: parameter String
        '    put(name);', // 17: field String
        '    put(count);', // 18: field int
        '    String local = "y"; put(local);', // 19: local String
        '    put((int) 2.0);', // 20: cast
        '    put(o);', // 21: Object matches no overload exactly
        '    put(boxed);', // 22: Integer (boxing) unresolved
        '    put(small);', // 23: short (widening) unresolved
        '    put(null);', // 24: null unresolved
        '    put("k", "v");', // 25: (String, String)
        '    put("k", o);', // 26: (String, Object)
        '    put("k", 3);', // 27: boxing to Object, unresolved
        '    var v = new Box(); put(v);', // 28: var with new
        '  }',
        '  <T> void b(T t) { put(t, 1); put(t); }', // 30: type parameter: unresolved
        '  void c(Object o) { if (o instanceof String name) put(name); }', // 31: a pattern binds name: unresolved
        '  void d() { Runnable r = () -> { int count = 1; put(count); }; }', // 32: local count shadows the field: int
        '  void e(String s) { String[] s2 = null; int x = 0; { String x2 = ""; } put(s); }', // 33
        '}',
        '',
      ].join('\n'),
    });
    assert.deepEqual(out, [
      'code:p/Box.java#Box.a calls code:p/Box.java#Box.put @12',
      'code:p/Box.java#Box.a calls code:p/Box.java#Box.put~2 @13',
      'code:p/Box.java#Box.a calls code:p/Box.java#Box.put~3 @15',
      'code:p/Box.java#Box.a calls code:p/Box.java#Box.put~4 @14',
      'code:p/Box.java#Box.a calls code:p/Box.java#Box.put~5 @26',
      'code:p/Box.java#Box.a calls code:p/Box.java#Box.put~6 @25',
      'code:p/Box.java#Box.d calls code:p/Box.java#Box.put~2 @32',
      'code:p/Box.java#Box.e calls code:p/Box.java#Box.put @33',
    ]);
  });

  it('java: across files, a project type both places resolve to the same class, and String; a nested type named alike elsewhere does not match', () => {
    const out = calls(java, {
      'p/Sink.java': ['package p;', 'public class Sink {', '  public void take(Item i) {}', '  public void take(String s) {}', '  public void take(Node n) {}', '  public static class Node {}', '}', ''].join('\n'),
      'p/Item.java': ['package p;', 'public class Item {}', ''].join('\n'),
      'p/User.java': [
        'package p;',
        'public class User {',
        '  static class Node {}',
        '  void go(Sink s, Item i, Node n) {',
        '    Sink k = new Sink();',
        '    k.take(i);', // 6: Item, same class both places
        '    k.take("s");', // 7: String
        '    k.take(n);', // 8: User.Node is not Sink.Node
        '  }',
        '}',
        '',
      ].join('\n'),
    });
    assert.deepEqual(out, [
      'code:p/User.java#User.go calls code:p/Sink.java#Sink.take @6',
      'code:p/User.java#User.go calls code:p/Sink.java#Sink.take~2 @7',
    ]);
  });

  it('c#: keyword and .NET names alike, literals, new, typed locals and fields; named, ref and out arguments and var with no evident type do not', () => {
    const out = calls(csharp, {
      'Box.cs': [
        'namespace N {',
        '  public class Box {',
        '    private string name; private int count;',
        '    void Put(String s) {}',
        '    void Put(int n) {}',
        '    void Put(Box b) {}',
        '    void Put(double d) {}',
        '    void Put(ref int n, int m) {}',
        '    void Put(string a, string b) {}',
        '    void A(string p, long big, object o) {',
        '      Put("x");', // 11
        '      Put(1);', // 12
        '      Put(1.5);', // 13: double
        '      Put(new Box());', // 14
        '      Put(p);', // 15
        '      Put(name);', // 16
        '      Put(count);', // 17
        '      var v = "z"; Put(v);', // 18
        '      Put(big);', // 19: long matches none
        '      Put(o);', // 20
        '      Put(s: "x");', // 21: named argument
        '      int r = 0; Put(ref r, 1);', // 22: ref
        '      Put(3000000000);', // 23: not an int
        '      var w = Make(); Put(w);', // 24: var without evident type
        '      Put(p, name);', // 25
        '    }',
        '    Box Make() { return this; }',
        '    void B() { System.Func<int, int> f = count => { Put(count); return count; }; }', // 28: a lambda parameter may be the name
        '  }',
        '}',
        '',
      ].join('\n'),
    });
    assert.deepEqual(out, [
      'code:Box.cs#Box.A calls code:Box.cs#Box.Make @24',
      'code:Box.cs#Box.A calls code:Box.cs#Box.Put @11',
      'code:Box.cs#Box.A calls code:Box.cs#Box.Put~2 @12',
      'code:Box.cs#Box.A calls code:Box.cs#Box.Put~3 @14',
      'code:Box.cs#Box.A calls code:Box.cs#Box.Put~4 @13',
      'code:Box.cs#Box.A calls code:Box.cs#Box.Put~6 @25',
    ]);
  });
});

describe('supertypes declared outside the project', () => {
  it('c#: a call on this or a bare call that the project ancestry does not answer is unresolved under an external base', () => {
    const { link } = buildMemory(csharp, {
      'Errors.cs': [
        'using static N.Util;',
        'namespace N {',
        '  public static class Util { public static void Log() {} public static void Dispose() {} }',
        '  public class Base { public void Own() {} }',
        '  public class Failure : System.Exception {',
        '    void A() { Log(); this.ToString(); GetBaseException(); }', // 6: Log may be inherited from Exception
        '  }',
        '  public class Handle : Base, System.IDisposable {',
        '    public void Dispose() {}',
        '    void B() { Own(); Log(); }', // 10: Own through Base; Log: IDisposable is external
        '  }',
        '  public class Plain : Base {',
        '    void C() { Own(); }', // 13
        '  }',
        '}',
        '',
      ].join('\n'),
    });
    assert.deepEqual(edgeLines(link.edges, 'calls'), [
      'code:Errors.cs#Handle.B calls code:Errors.cs#Base.Own @10',
      'code:Errors.cs#Plain.C calls code:Errors.cs#Base.Own @13',
    ]);
    // The external bases are counted, with no edge: System.Exception and System.IDisposable.
    assert.deepEqual([link.stats['heritage_total'], link.stats['heritage_resolved'], link.stats['heritage_unresolved']], [4, 2, 2]);
    assert.equal(link.unresolved_calls?.['code:Errors.cs#Handle.B'], 1);
    assert.equal(link.unresolved_calls?.['code:Errors.cs#Failure.A'], 3, JSON.stringify(link.unresolved_calls));
    assert.deepEqual(edgeLines(link.edges, 'inherits').concat(edgeLines(link.edges, 'implements')), [
      'code:Errors.cs#Handle inherits code:Errors.cs#Base @8',
      'code:Errors.cs#Plain inherits code:Errors.cs#Base @12',
    ]);
  });

  it('java: a static import does not answer a call under an external superclass or interface', () => {
    const { link } = buildMemory(java, {
      'p/Util.java': ['package p;', 'public class Util { public static void log() {} }', ''].join('\n'),
      'p/A.java': [
        'package p;',
        'import static p.Util.log;',
        'public class A extends java.util.AbstractList<Object> {',
        '  public Object get(int i) { log(); this.log(); return null; }', // 4: AbstractList may declare log (this.log() must be a member)
        '  public int size() { return 0; }',
        '}',
        'class B implements java.util.RandomAccess { void m() { log(); } }', // 7
        'class C { void m() { log(); } }', // 8: static import
        '',
      ].join('\n'),
    });
    assert.deepEqual(edgeLines(link.edges, 'calls'), ['code:p/A.java#C.m calls code:p/Util.java#Util.log @8']);
  });

  it('java: an external superinterface ranks with the resolved ones: their one default method answers, and none leaves the call unproven', () => {
    const { link } = buildMemory(java, {
      'p/Reader.java': ['package p;', 'public interface Reader { default int get(int f) { return 0; } long getLong(int f); }', ''].join('\n'),
      'p/Date.java': [
        'package p;',
        'public interface Date extends Reader, Comparable<Date> {',
        '  default int era() { return get(1) + (int) getLong(2); }', // 3: Reader's, as java.time's ChronoLocalDate reaches TemporalAccessor
        '  default void other() { compareTo(null); missing(); }', // 4: Comparable may declare either
        '}',
        '',
      ].join('\n'),
    });
    assert.deepEqual(edgeLines(link.edges, 'calls'), ['code:p/Date.java#Date.era calls code:p/Reader.java#Reader.get @3', 'code:p/Date.java#Date.era calls code:p/Reader.java#Reader.getLong @3']);
    assert.equal(link.unresolved_calls?.['code:p/Date.java#Date.other'], 2);
  });
});

const SRC_ZIP = '/usr/lib/jvm/java-17-openjdk-amd64/lib/src.zip';

describe('overloads by argument type on openjdk-17 (java.util, java.time)', { skip: inputSkip(SRC_ZIP, 'apt-get install -y openjdk-17-source') }, () => {
  let dir = '';
  after(() => {
    if (dir !== '') rmSync(dir, { recursive: true, force: true });
  });
  it('reaches the overload the arguments\' declared types pick, and a default method past an external superinterface', () => {
    dir = mkdtempSync(join(tmpdir(), 'docforge-jdk-overloads-'));
    execFileSync('unzip', ['-q', SRC_ZIP, 'java.base/java/util/*', 'java.base/java/time/*', '-d', dir]);
    const calls = edgeLines(buildMemory(java, readTree(join(dir, 'java.base'), ['.java']), 'ast', false).link.edges, 'calls');
    const C = 'code:java/util/concurrent/CopyOnWriteArrayList.java#CopyOnWriteArrayList.COWSubList';
    for (const expected of [
      // remove(Object) calls remove(index) with `int index = indexOf(o)`: remove(int), not itself.
      `${C}.remove~2 calls ${C}.remove @1435`,
      // dosToJavaTime's six int locals: LocalDateTime.of(int, int, int, int, int, int), not the Month one.
      'code:java/util/zip/ZipUtils.java#ZipUtils.dosToJavaTime calls code:java/time/LocalDateTime.java#LocalDateTime.of~5 @99',
      // toHexDigits(char value) calls toHexDigits((short) value): the cast picks toHexDigits(short).
      'code:java/util/HexFormat.java#HexFormat.toHexDigits~3 calls code:java/util/HexFormat.java#HexFormat.toHexDigits~4 @705',
      // ChronoLocalDate extends Temporal, TemporalAdjuster and java.lang's Comparable (not in the input): get is Temporal's
      // superinterface TemporalAccessor's default method.
      'code:java/time/chrono/ChronoLocalDate.java#ChronoLocalDate.getEra calls code:java/time/temporal/TemporalAccessor.java#TemporalAccessor.get @326',
    ]) assert.ok(calls.includes(expected), expected);
    // remove(Object) never calls itself through remove(index).
    assert.ok(!calls.includes(`${C}.remove~2 calls ${C}.remove~2 @1435`));
  });
});

describe('overloads by argument type on edge-js 26.1.0 (npm pack)', () => {
  let dir = '';
  after(() => {
    if (dir !== '') rmSync(dir, { recursive: true, force: true });
  });
  it('an IntPtr local and a double parameter pick WriteDouble(IntPtr, double); a cast picks CompareTo(SemVersion)', () => {
    dir = mkdtempSync(join(tmpdir(), 'docforge-edge-js-overloads-'));
    execFileSync('npm', ['pack', 'edge-js@26.1.0', '--silent'], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
    execFileSync('tar', ['xzf', 'edge-js-26.1.0.tgz'], { cwd: dir });
    const calls = edgeLines(buildMemory(csharp, readTree(join(dir, 'package'), ['.cs']), 'ast', false).link.edges, 'calls');
    const E = 'code:src/double/Edge.js/dotnetcore/coreclrembedding.cs#CoreCLREmbedding';
    const S = 'code:src/double/Edge.js/dotnetcore/semversion.cs#SemVersion';
    for (const expected of [`${E}.WriteDouble calls ${E}.WriteDouble~2 @1371`, `${S}.CompareTo calls ${S}.CompareTo~2 @218`]) assert.ok(calls.includes(expected), expected);
  });
});
