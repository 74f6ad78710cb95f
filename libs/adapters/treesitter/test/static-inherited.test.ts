// Pins two Java call kinds of issue 33's leftovers. A static method named through a subclass (`Sub.staticOfBase()`): when the
// named class declares no member of that name, the call reaches the nearest superclass declaring it, only if that declaration
// is `static` and a class's (an interface's static methods are not inherited; an instance method through a class name is no
// call). `I.super.m()`: the default method m as interface I has it (its own, or its superinterfaces' one), never a static one.
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

describe('java static call through a subclass name (in memory)', () => {
  it('reaches the superclass static, and neither an instance method nor an interface static', () => {
    const { link } = buildMemory(java, {
      'p/A.java': 'package p;\npublic class A {\n  public static int f() { return 1; }\n  public int g() { return 2; }\n}\n',
      'p/I.java': 'package p;\npublic interface I {\n  static int s() { return 3; }\n}\n',
      'p/B.java': 'package p;\npublic class B extends A implements I {\n}\n',
      'p/C.java': 'package p;\nclass C {\n  int h() { return B.f() + B.g() + B.s(); }\n}\n',
    });
    assert.deepEqual(edgeLines(link.edges, 'calls'), ['code:p/C.java#C.h calls code:p/A.java#A.f @3']);
    assert.equal(link.stats.calls_unresolved, 2);
  });
});

const SRC_ZIP = '/usr/lib/jvm/java-17-openjdk-amd64/lib/src.zip';

describe('java static call through a subclass name on openjdk-17 (sun.util.calendar)', { skip: inputSkip(SRC_ZIP, 'apt-get install -y openjdk-17-source') }, () => {
  let dir = '';
  after(() => {
    if (dir !== '') rmSync(dir, { recursive: true, force: true });
  });
  it('links BaseCalendar., Gregorian. and LocalGregorianCalendar.getDayOfWeekDateOnOrBefore to AbstractCalendar\'s static', () => {
    dir = mkdtempSync(join(tmpdir(), 'docforge-jdk-static-'));
    execFileSync('unzip', ['-q', SRC_ZIP, 'java.base/sun/util/calendar/*', 'java.base/java/util/GregorianCalendar.java', 'java.base/java/util/JapaneseImperialCalendar.java', '-d', dir]);
    const texts = readTree(join(dir, 'java.base'), ['.java']);
    const { link } = buildMemory(java, texts);
    const target = 'code:sun/util/calendar/AbstractCalendar.java#AbstractCalendar.getDayOfWeekDateOnOrBefore';
    const calls = link.edges.filter((e) => e.relation === 'calls' && e.target_id === target && e.source_path.startsWith('java/util/'));
    // GregorianCalendar: BaseCalendar. (roll, computeFields, getFixedDate) and Gregorian. (getWeekNumber); JapaneseImperialCalendar:
    // LocalGregorianCalendar. (roll, computeFields, getActualMaximum, getFixedDate, getWeekNumber). Each of the three classes
    // extends AbstractCalendar through BaseCalendar, which declares no such method.
    assert.equal(calls.length, 9);
    for (const call of calls) {
      const text = (texts[call.source_path] ?? '').split('\n')[call.line - 1] ?? '';
      assert.match(text, /\b(BaseCalendar|Gregorian|LocalGregorianCalendar)\s*\.\s*getDayOfWeekDateOnOrBefore\s*\(/, `${call.source_path}:${call.line}`);
    }
    assert.match(texts['sun/util/calendar/AbstractCalendar.java'] ?? '', /public static long getDayOfWeekDateOnOrBefore\(long fixedDate, int dayOfWeek\)/);
    assert.doesNotMatch(texts['sun/util/calendar/BaseCalendar.java'] ?? '', /\bgetDayOfWeekDateOnOrBefore\s*\(long/);
  });
});

describe('java I.super.m() (in memory)', () => {
  it('reaches the interface\'s own or inherited default method, not a static one', () => {
    const { link } = buildMemory(java, {
      'p/J.java': 'package p;\npublic interface J {\n  default int a() { return 1; }\n}\n',
      'p/I.java': 'package p;\npublic interface I extends J {\n  default int b() { return 2; }\n  static int s() { return 3; }\n}\n',
      'p/C.java': 'package p;\nclass C implements I {\n  public int a() { return I.super.a() + I.super.b() + I.super.s(); }\n}\n',
    });
    assert.deepEqual(edgeLines(link.edges, 'calls'), ['code:p/C.java#C.a calls code:p/I.java#I.b @3', 'code:p/C.java#C.a calls code:p/J.java#J.a @3']);
  });
});

describe('java I.super.m() on openjdk-17 (java.time)', { skip: inputSkip(SRC_ZIP, 'apt-get install -y openjdk-17-source') }, () => {
  let dir = '';
  after(() => {
    if (dir !== '') rmSync(dir, { recursive: true, force: true });
  });
  it('links Temporal.super.get/range/query to TemporalAccessor\'s default methods, each at a line that says so', () => {
    dir = mkdtempSync(join(tmpdir(), 'docforge-jdk-qsuper-'));
    execFileSync('unzip', ['-q', SRC_ZIP, 'java.base/java/time/*', '-d', dir]);
    const texts = readTree(join(dir, 'java.base'), ['.java']);
    const { link } = buildMemory(java, texts);
    const accessor = texts['java/time/temporal/TemporalAccessor.java'] ?? '';
    const lines = Object.entries(texts).flatMap(([path, text]) => text.split('\n').map((line, i) => ({ path, line: i + 1, text: line })));
    const written = lines.filter((l) => /^\s*return Temporal\.super\.(get|range|query)\(/.test(l.text));
    assert.ok(written.length >= 9, `${written.length} Temporal.super calls`);
    for (const w of written) {
      const name = /Temporal\.super\.(\w+)\(/.exec(w.text)?.[1] as string;
      const edge = link.edges.find((e) => e.relation === 'calls' && e.source_path === w.path && e.line === w.line);
      assert.equal(edge?.target_id, `code:java/time/temporal/TemporalAccessor.java#TemporalAccessor.${name}`, `${w.path}:${w.line}`);
      assert.match(accessor, new RegExp(`\\bdefault\\b[^;{]*\\b${name}\\(`));
    }
  });
});
