// Pins unqualified calls from a nested type to a method of an enclosing type (Java, C#; link-enclosing.ts): proven only
// when the nested type and its ancestors (all resolved to project types) declare no member of that name; never for
// `this.m()`, a call in an anonymous class's body, a name every object has, an external supertype, an enum or record level,
// or (C#) a name bound by a local function. Then the inner iterators of java.util.concurrent on openjdk-17's sources.
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

const OUTER = [
  'package p;',
  'public class Outer {',
  '  int size() { return 0; }',
  '  void helper() {}',
  '  void pair(int a, int b) {}',
  '  public String toString() { return ""; }',
  '  class Inner {',
  '    void x() {',
  '      helper();',
  '      this.helper();',
  '      toString();',
  '      pair(1);',
  '      Runnable r = new Runnable() { public void run() { helper(); } };',
  '      Object o = new Object() { { size(); } };',
  '    }',
  '    class Deeper { void y() { pair(1, 2); } }',
  '  }',
  '  static class Ext extends java.util.AbstractList<Object> { public Object get(int i) { helper(); return size(); } }',
  '  enum E { A; void z() { helper(); } }',
  '}',
  '',
].join('\n');

describe('calls from a nested type to its enclosing type (in memory)', () => {
  it('java: an unqualified call passes the nested types that declare no such member; this.m(), anonymous bodies, toString and external ancestors do not', () => {
    const { link } = buildMemory(java, { 'p/Outer.java': OUTER });
    assert.deepEqual(edgeLines(link.edges, 'calls'), [
      'code:p/Outer.java#Outer.Inner.Deeper.y calls code:p/Outer.java#Outer.pair @16',
      'code:p/Outer.java#Outer.Inner.x calls code:p/Outer.java#Outer.helper @9',
    ]);
  });

  it('c#: a static method of the enclosing class, not when a local function binds the name', () => {
    const { link } = buildMemory(csharp, {
      'Outer.cs': [
        'namespace N {',
        '  public class Outer {',
        '    static int Twice(int n) { return 2 * n; }',
        '    static void Log() {}',
        '    class Inner {',
        '      int Run() { Log(); return Twice(1); }',
        '      void Shadow() { void Log() {} Log(); }',
        '    }',
        '  }',
        '}',
        '',
      ].join('\n'),
    });
    assert.deepEqual(edgeLines(link.edges, 'calls'), [
      'code:Outer.cs#Outer.Inner.Run calls code:Outer.cs#Outer.Log @6',
      'code:Outer.cs#Outer.Inner.Run calls code:Outer.cs#Outer.Twice @6',
    ]);
  });
});

const SRC_ZIP = '/usr/lib/jvm/java-17-openjdk-amd64/lib/src.zip';

describe('calls from inner classes on openjdk-17 (java.util.concurrent)', { skip: inputSkip(SRC_ZIP, 'apt-get install -y openjdk-17-source') }, () => {
  let dir = '';
  after(() => {
    if (dir !== '') rmSync(dir, { recursive: true, force: true });
  });
  it('links the inner iterators and spliterators to their collection\'s lock and traversal methods', () => {
    dir = mkdtempSync(join(tmpdir(), 'docforge-jdk-enclosing-'));
    execFileSync('unzip', ['-q', SRC_ZIP, 'java.base/java/util/*', '-d', dir]);
    const texts = readTree(join(dir, 'java.base'), ['.java']);
    const calls = edgeLines(buildMemory(java, texts, 'ast', false).link.edges, 'calls');
    const Q = 'code:java/util/concurrent/LinkedBlockingQueue.java#LinkedBlockingQueue';
    for (const expected of [
      `${Q}.Itr.next calls ${Q}.fullyUnlock @803`,
      `${Q}.LBQSpliterator.tryAdvance calls ${Q}.fullyLock @918`,
      'code:java/util/ArrayDeque.java#ArrayDeque.DeqIterator.next calls code:java/util/ArrayDeque.java#ArrayDeque.inc @701',
      // Through the enclosing class's superclass: AbstractList declares no size(), AbstractCollection does.
      'code:java/util/AbstractList.java#AbstractList.Itr.hasNext calls code:java/util/AbstractCollection.java#AbstractCollection.size @364',
    ]) assert.ok(calls.includes(expected), expected);
  });
});
