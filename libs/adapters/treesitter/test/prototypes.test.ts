// Pins the join of C/C++ declarations to their one definition (link-proto.ts; new-user trial 2026-12-07: "C/C++ calls go to
// the header prototype, never to the definition"): on the trial's three-file C project, on C++ members declared in a class and
// defined out of line, on the ambiguous cases that must stay as they were (two definitions, static, other parameter count,
// overloads), then on two npm packages' real sources: tree-sitter's C runtime (web-tree-sitter 0.25.10 lib/) and
// better-sqlite3 12.11.1's C++ addon (src/), and nettle 3.8.1's example programs (Debian nettle-dev), where every join is
// checked against the source text.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { CodeAdapter, GraphEdge } from '@docforge/core';
import { adapterFor, buildMemory, edgeLines, inputSkip, lineOf, readTree } from './helpers.js';

const require = createRequire(import.meta.url);

/** The folder of an installed npm package (a dependency of this repository); cpp.test.ts's, not imported so that its tests stay out of this file's run. */
function packageDir(name: string): string {
  let dir = dirname(require.resolve(name));
  while (!existsSync(join(dir, 'package.json')) || !dir.endsWith(name)) dir = dirname(dir);
  return dir;
}

/** The trial's project: util.h declares add, util.c defines it (without including util.h), main.c includes util.h and calls it. */
const TRIAL: Record<string, string> = {
  'src/util.h': '#ifndef UTIL_H\n#define UTIL_H\nint add(int a, int b);\n#endif\n',
  'src/util.c': 'int add(int a,int b){return a+b;}\n',
  'src/main.c': '#include "util.h"\nint main(void) { return add(1,2); }\n',
};

let cpp: CodeAdapter;
before(async () => {
  cpp = await adapterFor('cpp');
});

/** The edges of the trial project with `changes` applied (a null value removes the file). */
function trial(changes: Record<string, string | null> = {}): GraphEdge[] {
  const texts: Record<string, string> = { ...TRIAL };
  for (const [path, text] of Object.entries(changes)) {
    if (text === null) delete texts[path];
    else texts[path] = text;
  }
  return buildMemory(cpp, texts).link.edges;
}

const toHeader = ['code:src/main.c#main calls code:src/util.h#add @2'];

describe('cpp adapter joins a declaration to its one definition', () => {
  it('C: the call reaches the definition, which implements the header prototype (with or without including it)', () => {
    const expected = ['code:src/main.c#main calls code:src/util.c#add @2', 'code:src/util.c#add implements code:src/util.h#add @1'];
    assert.deepEqual([...edgeLines(trial(), 'calls'), ...edgeLines(trial(), 'implements')], expected);
    // util.c includes util.h: the include alone proves the pair, even with no caller.
    const including = { 'src/util.c': '#include "util.h"\nint add(int a,int b){return a+b;}\n' };
    assert.deepEqual(edgeLines(trial(including), 'implements'), ['code:src/util.c#add implements code:src/util.h#add @2']);
    assert.deepEqual(edgeLines(trial({ ...including, 'src/main.c': null }), 'implements'), ['code:src/util.c#add implements code:src/util.h#add @2']);
    // Neither an include nor a call: nothing proves util.c's add is util.h's.
    assert.deepEqual(edgeLines(trial({ 'src/main.c': null })), []);
  });

  it('C: two definitions, a static one, another parameter count or a static prototype stay as they were', () => {
    assert.deepEqual(edgeLines(trial({ 'src/other.c': 'int add(int a, int b) { return b + a; }\n' }), 'calls'), toHeader);
    assert.deepEqual(edgeLines(trial({ 'src/other.c': 'static int add(int a, int b) { return b + a; }\n' }), 'calls'), toHeader);
    assert.deepEqual(edgeLines(trial({ 'src/util.c': 'static int add(int a,int b){return a+b;}\n' }), 'calls'), toHeader);
    assert.deepEqual(edgeLines(trial({ 'src/util.c': 'int add(int a,int b,int c){return a+b+c;}\n' }), 'calls'), toHeader);
    assert.deepEqual(edgeLines(trial({ 'src/util.c': 'int add(int a, ...){return a;}\n' }), 'calls'), toHeader);
    const staticProto = trial({ 'src/util.h': 'static int add(int a, int b);\n' });
    assert.deepEqual([...edgeLines(staticProto, 'calls'), ...edgeLines(staticProto, 'implements')], toHeader);
    for (const edges of [trial({ 'src/other.c': 'int add(int a, int b) { return 0; }\n' }), trial({ 'src/util.c': 'int add(int a,int b,int c){return 0;}\n' })]) {
      assert.deepEqual(edgeLines(edges, 'implements'), []);
    }
  });

  it('C++: members declared in the class and defined out of line; overloads and a second definition stay as they were', () => {
    const texts: Record<string, string> = {
      'inc/shop/ledger.hpp': [
        '#pragma once',
        'namespace shop {',
        'class Ledger {',
        ' public:',
        '  static Ledger* open(const char* path, int mode = 0);',
        '  int total() const;',
        '  void put(int n);',
        '  void put(int n, int m);',
        ' private:',
        '  void flush();',
        '};',
        'int version();',
        '}',
        '',
      ].join('\n'),
      'src/ledger.cpp': [
        '#include "../inc/shop/ledger.hpp"',
        'namespace shop {',
        'Ledger* Ledger::open(const char* path, int mode) { return nullptr; }',
        'int Ledger::total() const { flush(); return 0; }',
        'void Ledger::put(int n) {}',
        'void Ledger::put(int n, int m) {}',
        'void Ledger::flush() {}',
        '}',
        'int shop::version() { return 2; }',
        '',
      ].join('\n'),
      'src/app.cpp': '#include "../inc/shop/ledger.hpp"\nint run() { shop::Ledger::open("x"); shop::Ledger::put(1); return shop::version(); }\n',
      'src/twice.cpp': '#include "../inc/shop/ledger.hpp"\nint shop::Ledger::total() const { return 1; }\n',
    };
    const { link } = buildMemory(cpp, texts);
    const H = 'code:inc/shop/ledger.hpp';
    const C = 'code:src/ledger.cpp';
    // open's default argument is no parameter less; version is a namespace function defined by its qualified name; put(1)
    // picks its declaration by argument count, as before, and stays there (put is overloaded).
    assert.deepEqual(edgeLines(link.edges, 'calls'), [
      `code:src/app.cpp#run calls ${H}#shop.Ledger.put @2`, `code:src/app.cpp#run calls ${C}#shop.Ledger.open @2`, `code:src/app.cpp#run calls ${C}#shop.version @2`, `${C}#shop.Ledger.total calls ${C}#shop.Ledger.flush @4`,
    ]);
    // total has two definitions (ledger.cpp and twice.cpp): no join; put is overloaded: no join.
    assert.deepEqual(edgeLines(link.edges, 'implements'), [
      `${C}#shop.Ledger.flush implements ${H}#shop.Ledger.flush @7`, `${C}#shop.Ledger.open implements ${H}#shop.Ledger.open @3`, `${C}#shop.version implements ${H}#shop.version @9`,
    ]);
  });
});

/** Checks each `implements` join of `edges` against the source: one name, a body at the definition, a bodiless declaration. */
function checkJoins(texts: Record<string, string>, edges: readonly GraphEdge[]): number {
  // C and C++ give no other `implements` edges (their bases are `inherits`): every one is a join.
  const joins = edges.filter((e) => e.relation === 'implements');
  for (const edge of joins) {
    const name = edge.source_id.split('#')[1]!;
    assert.equal(edge.target_id.split('#')[1], name, `${edge.source_id} -> ${edge.target_id}`);
    assert.notEqual(edge.source_id.split('#')[0], edge.target_id.split('#')[0]);
    const short = name.split('.').pop()!;
    const head = `${lineOf(texts, edge.source_path, edge.line)} ${lineOf(texts, edge.source_path, edge.line + 1)}`;
    // `short(` as written, or a declaration macro's argument (`INIT(Database::Init) {`, tree-sitter adapters 1.2.9).
    assert.match(head, new RegExp(`\\b${short}\\s*\\(|\\b[A-Z][A-Z0-9_]*\\(\\s*(\\w+::)*${short}\\s*\\)`), `${edge.source_path}:${edge.line} defines ${short}`);
    assert.ok(!/\bstatic\b/.test(lineOf(texts, edge.source_path, edge.line)), `${edge.source_path}:${edge.line} is not static`);
  }
  return joins.length;
}

describe('cpp adapter joins declarations on tree-sitter\'s C runtime and better-sqlite3', () => {
  it('C: calls into the API reach the definitions in the .c files, each join one name with a body', () => {
    const texts = readTree(join(packageDir('web-tree-sitter'), 'lib'), ['.c', '.h']);
    const { link } = buildMemory(cpp, texts);
    assert.ok(checkJoins(texts, link.edges) >= 20);
    // ts_subtree_retain is declared in subtree.h (line 219) and defined once, in subtree.c (line 558), which includes it.
    assert.ok(edgeLines(link.edges, 'implements').includes('code:subtree.c#ts_subtree_retain implements code:subtree.h#ts_subtree_retain @558'));
    // No call reaches a declaration that has a proven definition.
    const declared = new Set(link.edges.filter((e) => e.relation === 'implements').map((e) => e.target_id));
    assert.deepEqual(link.edges.filter((e) => e.relation === 'calls' && declared.has(e.target_id)), []);
  });

  it('C++: members declared in the .hpp files are joined to their out-of-line definitions', () => {
    const texts = readTree(join(packageDir('better-sqlite3'), 'src'), ['.cpp', '.hpp']);
    const { link } = buildMemory(cpp, texts);
    // The four INIT(X::Init) bodies join `static INIT(Init);` in their headers.
    assert.ok(checkJoins(texts, link.edges) >= 4);
  });

  const NETTLE = '/usr/share/doc/nettle-dev/examples';
  it('C: nettle\'s example programs call io.c, timing.c and read_rsa_key.c through io.h and timing.h', { skip: inputSkip(NETTLE, 'apt-get install nettle-dev') }, () => {
    const texts = readTree(NETTLE, ['.c', '.h']);
    const { link } = buildMemory(cpp, texts);
    assert.equal(checkJoins(texts, link.edges), 10);
    // werror is varargs in both (`werror(const char *format, ...) PRINTF_STYLE(1, 2);` in io.h); rsa-session.h's two setters
    // are defined by rsa-decrypt.c and rsa-encrypt.c, one each.
    for (const edge of [
      'code:io.c#werror implements code:io.h#werror @65', 'code:read_rsa_key.c#read_rsa_key implements code:io.h#read_rsa_key @44',
      'code:rsa-decrypt.c#rsa_session_set_decrypt_key implements code:rsa-session.h#rsa_session_set_decrypt_key @59', 'code:timing.c#time_init implements code:timing.h#time_init @103',
    ]) assert.ok(edgeLines(link.edges, 'implements').includes(edge), edge);
    const calls = edgeLines(link.edges, 'calls');
    for (const edge of ['code:rsa-sign.c#main calls code:io.c#hash_file @67', 'code:rsa-verify.c#main calls code:read_rsa_key.c#read_rsa_key @76', 'code:nettle-benchmark.c#main calls code:timing.c#time_init @982']) {
      assert.ok(calls.includes(edge), edge);
    }
    // xalloc has four bodies (io.c and three benchmarks, each its own program): ambiguous, so its calls stay on io.h.
    assert.deepEqual(calls.filter((l) => / calls code:(io|timing|rsa-session)\.h#/.test(l)).map((l) => l.replace(/^.* calls /, '')), [61, 61, 97, 96, 140].map((line) => `code:io.h#xalloc @${line}`));
  });
});
