// Pins Java's and C#'s member types as names in scope (LanguageSpec.lexicalNesting 'types', issue 33): inside a class, a
// simple name reaches the member types of the enclosing classes first (JLS 6.3; C# namespace-and-type-names), so `static class B extends A`
// beside `A` has its `inherits` edge and `A.s()` or an `A` local reach A's members; a constructor `A.A` is no type, so a
// nested class naming its enclosing class still reaches that class. And an own method whose arity refuses the call's count is
// not the callee (the callee is a supertype's outside the project), and in C# with no own overload admitting the count, the
// nearest base's overloads that admit it decide. Then openjdk-17's java.util.concurrent and sun.nio.fs, the
// edges read against the source.
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

const lines = (link: ReturnType<typeof buildMemory>['link']): string[] => ['calls', 'inherits', 'implements'].flatMap((r) => edgeLines(link.edges, r));

describe('member types in scope', () => {
  it('java: sibling and enclosing member types as supertypes, static receivers and typed locals; the enclosing class past its constructor', () => {
    const { link } = buildMemory(java, {
      'p/V.java': [
        'package p;',
        'public class V {',
        '  V() {}',
        '  static V current() { return null; }',
        '  interface Shape { void draw(); }',
        '  static class Base implements Shape { static void s() {} void x() {} public void draw() {} }',
        '  static class Sub extends Base { void y() { x(); V.current(); } }', // 7
        '  static class Self extends V { }', // 8: V the class, not its constructor V.V
        '  void z() { Base.s(); Base b = new Base(); b.x(); }', // 9
        '}',
        '',
      ].join('\n'),
    });
    assert.deepEqual(lines(link), [
      'code:p/V.java#V.Sub.y calls code:p/V.java#V.Base.x @7',
      'code:p/V.java#V.Sub.y calls code:p/V.java#V.current @7',
      'code:p/V.java#V.z calls code:p/V.java#V.Base.s @9',
      'code:p/V.java#V.z calls code:p/V.java#V.Base.x @9',
      'code:p/V.java#V.Self inherits code:p/V.java#V @8',
      'code:p/V.java#V.Sub inherits code:p/V.java#V.Base @7',
      'code:p/V.java#V.Base implements code:p/V.java#V.Shape @6',
    ]);
  });

  it('c#: a nested class deriving from its sibling reaches the sibling\'s members', () => {
    const { link } = buildMemory(csharp, {
      'Outer.cs': [
        'namespace N {',
        '  public class Outer {',
        '    public class A { public void X() {} public static void S() {} }',
        '    public class B : A { void M() { X(); A.S(); } }', // 4
        '  }',
        '}',
        '',
      ].join('\n'),
    });
    assert.deepEqual(lines(link), [
      'code:Outer.cs#Outer.B.M calls code:Outer.cs#Outer.A.S @4',
      'code:Outer.cs#Outer.B.M calls code:Outer.cs#Outer.A.X @4',
      'code:Outer.cs#Outer.B inherits code:Outer.cs#Outer.A @4',
    ]);
  });

  it('java, c#: one own method whose arity refuses the count is not the callee under an external supertype', () => {
    const j = buildMemory(java, {
      'p/L.java': [
        'package p;',
        'public class L<E> extends java.util.AbstractList<E> {',
        '  public boolean add(E e) { add(size(), e); return true; }', // 3: AbstractList's add(int, E)
        '  public E get(int i) { return null; }',
        '  public int size() { return 0; }',
        '}',
        '',
      ].join('\n'),
    });
    assert.deepEqual(lines(j.link), ['code:p/L.java#L.add calls code:p/L.java#L.size @3']);
    const c = buildMemory(csharp, {
      'E.cs': 'namespace N { public class E : System.Exception { public string Get(int i) { return ToString(); } void M() { Get(); Get(1); } } }\n',
    });
    assert.deepEqual(lines(c.link), ['code:E.cs#E.M calls code:E.cs#E.Get @1']);
  });
});

describe('c# overloads declared only in a base class', () => {
  it('with no own overload admitting the count, the nearest base\'s admitting overloads decide, by count then by exact types', () => {
    const { link } = buildMemory(csharp, {
      'W.cs': [
        'namespace N {',
        '  public class Base { public void W(int a) {} public void W(string s) {} public void W(int a, int b) {} }',
        '  public class E : Base { public void W(long x) {} void M() { W(1, 2); W("s"); } }', // 3: W(int, int); W("s") unproven
        '  public class F : E { void M() { W(1, 2); W(true); } }', // 4: W(int, int) through E; W(true) unproven
        '  public class G : Base { public void W(int a, int b, int c) {} void M() { W("t"); W(7); W(x()); } string x() { return ""; } }', // 5
        '}',
        '',
      ].join('\n'),
    });
    assert.deepEqual(edgeLines(link.edges, 'calls'), [
      'code:W.cs#E.M calls code:W.cs#Base.W~3 @3',
      'code:W.cs#F.M calls code:W.cs#Base.W~3 @4',
      'code:W.cs#G.M calls code:W.cs#Base.W @5',
      'code:W.cs#G.M calls code:W.cs#Base.W~2 @5',
      'code:W.cs#G.M calls code:W.cs#G.x @5',
    ]);
    assert.deepEqual([link.unresolved_calls?.['code:W.cs#E.M'], link.unresolved_calls?.['code:W.cs#F.M'], link.unresolved_calls?.['code:W.cs#G.M']], [1, 1, 1]);
  });
});

const SRC_ZIP = '/usr/lib/jvm/java-17-openjdk-amd64/lib/src.zip';

describe('member types on openjdk-17 (java.util.concurrent, sun.nio.fs)', { skip: inputSkip(SRC_ZIP, 'apt-get install -y openjdk-17-source') }, () => {
  let dir = '';
  after(() => {
    if (dir !== '') rmSync(dir, { recursive: true, force: true });
  });
  it('links nested classes to their nested supertypes and members, and no longer a call to itself by name', () => {
    dir = mkdtempSync(join(tmpdir(), 'docforge-jdk-member-types-'));
    execFileSync('unzip', ['-q', SRC_ZIP, 'java.base/java/util/concurrent/*', 'java.base/sun/nio/fs/*', '-d', dir]);
    const edges = lines(buildMemory(java, readTree(join(dir, 'java.base'), ['.java']), 'ast', false).link);
    const M = 'code:java/util/concurrent/ConcurrentHashMap.java#ConcurrentHashMap';
    const F = 'code:java/util/concurrent/ForkJoinTask.java#ForkJoinTask';
    for (const expected of [
      // static class BaseIterator<K,V> extends Traverser<K,V> { BaseIterator(...) { super(tab, size, index, limit); ...; advance(); } }
      `${M}.BaseIterator inherits ${M}.Traverser @3428`,
      `${M}.BaseIterator.BaseIterator calls ${M}.Traverser.Traverser @3433`,
      `${M}.BaseIterator.BaseIterator calls ${M}.Traverser.advance @3435`,
      // EntryIterator extends BaseIterator; next() calls advance(), two levels up.
      `${M}.EntryIterator.next calls ${M}.Traverser.advance @3504`,
      // static final class AdaptedCallable<T> extends ForkJoinTask<T>: the enclosing class, not its constructor.
      `${F}.AdaptedCallable inherits ${F} @1414`,
    ]) assert.ok(edges.includes(expected), expected);
    // Unix.readAttributes(String[]) calls readAttributes(), Posix's (0 parameters), never itself (1 parameter).
    const U = 'code:sun/nio/fs/UnixFileAttributeViews.java#UnixFileAttributeViews';
    assert.ok(!edges.includes(`${U}.Unix.readAttributes calls ${U}.Unix.readAttributes @384`));
    assert.ok(edges.includes(`${U}.Unix.readAttributes calls ${U}.Posix.readAttributes~2 @384`));
    assert.ok(edges.includes(`${U}.Unix inherits ${U}.Posix @334`));
  });
});
