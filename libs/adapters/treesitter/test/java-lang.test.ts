// Pins two Java rules of tree-sitter adapters 1.2.9 (issue 33):
// - the implicit `import java.lang.*;`: a bare type name no nearer declaration or import answers reaches the project's own
//   java.lang type (openjdk's java.base), and outside the project a java.lang supertype whose members are all known
//   (Comparable, Runnable, Iterable, Cloneable...) passes a call no member of it can answer, where an unknown one (Thread)
//   stops it; `String` shows one type in two files for overload choice;
// - a method name a class and its project ancestors both declare is one overload set (JLS 15.12.2): the overload the argument
//   count and the arguments' evident types pick among all of them, not the subclass's by name; `private` ones and other
//   packages' package-private ones are not inherited, and twins of one signature in enum constants' bodies stay ambiguous.
// Then openjdk-17's java.base (java/lang, java/net, java/nio, java/util), where the edges below were read against the source.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { CodeAdapter } from '@docforge/core';
import { adapterFor, buildMemory, edgeLines, inputSkip, readTree } from './helpers.js';

let java: CodeAdapter;
before(async () => {
  java = await adapterFor('java');
});

describe('java.lang and inherited overloads in memory', () => {
  it('known java.lang supertypes pass a call their members cannot answer; Thread and the members they have stop it', () => {
    const { link } = buildMemory(java, {
      'p/U.java': 'package p;\npublic class U { public static void log() {} }\n',
      'p/R.java': 'package p;\nimport static p.U.log;\nclass R implements Runnable, Cloneable { public void run() {} void a() { log(); run(); hashCode(); } }\n',
      'p/T.java': 'package p;\nimport static p.U.log;\nclass T extends Thread { void a() { log(); } }\n',
      'p/C.java': 'package p;\nimport static p.U.log;\nimport q.Comparable;\nclass C implements Comparable<C> { void a() { log(); } }\n',
    });
    assert.deepEqual(edgeLines(link.edges, 'calls'), ['code:p/R.java#R.a calls code:p/R.java#R.run @3', 'code:p/R.java#R.a calls code:p/U.java#U.log @3']);
    // hashCode is Object's; Thread may declare log; C's Comparable is q's (single-type import), not java.lang's.
    assert.deepEqual([link.unresolved_calls?.['code:p/R.java#R.a'], link.unresolved_calls?.['code:p/T.java#T.a'], link.unresolved_calls?.['code:p/C.java#C.a']], [1, 1, 1]);
  });

  it('one overload set over the class and its project ancestors, by argument count and evident types', () => {
    const { link } = buildMemory(java, {
      'p/Base.java': 'package p;\npublic class Base {\n  public void f(String s) {}\n  private void g(String s) {}\n  void h(String s) {}\n  public void k(int a, int b) {}\n}\n',
      'p/Sub.java': [
        'package p;', 'public class Sub extends Base {', '  public void f(Object o) {}', '  public void g(Object o) {}', '  public void h(Object o) {}', '  public void k(int a) {}',
        '  void a(Object x) { f("s"); f(x); g("s"); h("s"); f(1); k(1, 2); k(1); }', '}', '',
      ].join('\n'),
      'q/Far.java': 'package q;\npublic class Far extends p.Base {\n  public void h(Object o) {}\n  void a() { h("s"); }\n}\n',
    });
    assert.deepEqual(edgeLines(link.edges, 'calls'), [
      'code:p/Sub.java#Sub.a calls code:p/Base.java#Base.f @7', // f("s"): Base's f(String) is more specific than Sub's f(Object)
      'code:p/Sub.java#Sub.a calls code:p/Base.java#Base.h @7', // package-private, same package: inherited
      'code:p/Sub.java#Sub.a calls code:p/Base.java#Base.k @7', // k(1, 2): only Base's two-parameter k admits two arguments
      'code:p/Sub.java#Sub.a calls code:p/Sub.java#Sub.f @7', // f(x), x an Object
      'code:p/Sub.java#Sub.a calls code:p/Sub.java#Sub.g @7', // Base's g is private
      'code:p/Sub.java#Sub.a calls code:p/Sub.java#Sub.k @7',
      'code:q/Far.java#Far.a calls code:q/Far.java#Far.h @4', // Base's h is package-private to p
    ]);
    assert.equal(link.unresolved_calls?.['code:p/Sub.java#Sub.a'], 1); // f(1): boxing, not proven
  });
});

const SRC_ZIP = '/usr/lib/jvm/java-17-openjdk-amd64/lib/src.zip';

describe('java.lang and inherited overloads on openjdk-17 (java.base)', { skip: inputSkip(SRC_ZIP, 'apt-get install -y openjdk-17-source') }, () => {
  let dir = '';
  after(() => {
    if (dir !== '') rmSync(dir, { recursive: true, force: true });
  });
  it('java.lang types resolve by the implicit import, and a subclass\'s same-name method no longer takes its ancestors\' overloads\' calls', () => {
    dir = mkdtempSync(join(tmpdir(), 'docforge-jdk-lang-'));
    // -W: `*` stays inside one folder (java/lang's own files, not its subpackages).
    execFileSync('unzip', ['-q', '-W', SRC_ZIP, 'java.base/java/lang/*.java', 'java.base/java/net/*.java', 'java.base/java/nio/*.java', 'java.base/java/util/concurrent/*.java', '-d', dir]);
    const { link } = buildMemory(java, readTree(join(dir, 'java.base'), ['.java']), 'ast', false);
    const heritage = [...edgeLines(link.edges, 'inherits'), ...edgeLines(link.edges, 'implements')];
    const calls = edgeLines(link.edges, 'calls');
    // `public interface Delayed extends Comparable<Delayed>` and `class FutureTask<V> implements RunnableFuture<V>`, whose
    // RunnableFuture extends Runnable: java.lang's, through the implicit import.
    assert.ok(heritage.includes('code:java/util/concurrent/Delayed.java#Delayed inherits code:java/lang/Comparable.java#Comparable @49'), heritage.join('\n'));
    assert.ok(heritage.includes('code:java/util/concurrent/RunnableFuture.java#RunnableFuture inherits code:java/lang/Runnable.java#Runnable @48'));
    for (const expected of [
      // getHeaderFieldDate(String name, ...) calls getHeaderField(name): URLConnection's getHeaderField(String), not
      // HttpURLConnection's own getHeaderField(int n) (before: that one, by name).
      'code:java/net/HttpURLConnection.java#HttpURLConnection.getHeaderFieldDate calls code:java/net/URLConnection.java#URLConnection.getHeaderField @601',
      // DirectCharBufferRU.slice(): this.position() is Buffer's position(), not CharBuffer's position(int newPosition).
      'code:java/nio/DirectCharBufferRU.java#DirectCharBufferRU.slice calls code:java/nio/Buffer.java#Buffer.position @242',
    ]) assert.ok(calls.includes(expected), expected);
    for (const wrong of [
      'code:java/net/HttpURLConnection.java#HttpURLConnection.getHeaderFieldDate calls code:java/net/HttpURLConnection.java#HttpURLConnection.getHeaderField @601',
      'code:java/nio/DirectCharBufferRU.java#DirectCharBufferRU.slice calls code:java/nio/CharBuffer.java#CharBuffer.position @242',
    ]) assert.ok(!calls.includes(wrong), wrong);
  });
});
