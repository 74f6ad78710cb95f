// Pins the C/C++ adapter of the tree-sitter family on in-memory sources (namespaces, classes, out-of-class methods, prototypes
// taken over by definitions, includes beside the file and through compile_commands.json, qualified, member and free-function
// calls, function-pointer locals, base classes, tested_by, Logic, lexical, --no-ast), then includes and calls on two npm packages'
// sources: tree-sitter's C runtime (web-tree-sitter 0.25.10 lib/) and better-sqlite3 12.11.1's C++ addon (src/).
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { CodeAdapter } from '@docforge/core';
import { adapterFor, buildMemory, edgeLines, lineOf, mostImported, readTree } from './helpers.js';

const SOURCES: Record<string, string> = {
  'compile_commands.json': JSON.stringify([{ directory: '/home/u/shop/build', file: '/home/u/shop/src/ledger.cpp', command: 'c++ -I../include -Iexternal -c ../src/ledger.cpp' }]),
  'include/util/clamp.h': '#pragma once\nnamespace util {\n/** Clamps n. */\nint clamp(int n);\nclass Log { public: static void write(const char* s); };\n}\n',
  'src/util.cpp': '#include "util/clamp.h"\nnamespace util {\nint clamp(int n) { return n; }\nvoid Log::write(const char* s) {}\n}\n',
  'src/ledger.hpp': [
    '#pragma once',
    '#include "base.hpp"',
    'namespace shop {',
    '/** A ledger of entries. */',
    'class Ledger : public Base {',
    ' public:',
    '  void add(int n);',
    ' private:',
    '  void flush();',
    '};',
    '}',
    '',
  ].join('\n'),
  'src/base.hpp': 'namespace shop { class Base {}; }\n',
  'src/ledger.cpp': [
    '#include "ledger.hpp"',
    '#include <util/clamp.h>',
    '#include <vector>',
    '',
    'namespace shop {',
    'static int twice(int (*f)(int), int n) { return f(f(n)); }',
    '',
    '/** Adds an amount. */',
    'void Ledger::add(int n) {',
    '  if (n < 0) { throw 1; } else if (n == 0) { return; }',
    '  try { flush(); } catch (...) { this->flush(); }',
    '  util::Log::write("x");',
    '  twice(util::clamp, n);',
    '}',
    'void Ledger::flush() {}',
    '}',
    '',
  ].join('\n'),
  'tests/test_ledger.cpp': '#include "../include/util/clamp.h"\nint test_clamp() { return util::clamp(1); }\n',
};

let cpp: CodeAdapter;
before(async () => {
  cpp = await adapterFor('cpp');
});

describe('cpp adapter on in-memory sources', () => {
  it('gives namespaces, classes, methods and functions, resolves includes, calls, bases and tested_by', () => {
    const { parsed, link } = buildMemory(cpp, SOURCES);
    const lines = parsed.flatMap((p) => p.nodes).map((n) => `${n.id} ${n.kind} [${n.capabilities.join(',')}] ${n.start_line}`);
    for (const expected of [
      'code:src/ledger.hpp#shop namespace [exported] 3', 'code:src/ledger.hpp#shop.Ledger class [exported] 5', 'code:src/ledger.hpp#shop.Ledger.flush method [] 9',
      'code:src/ledger.cpp#shop.Ledger.add method [exported] 9', 'code:src/ledger.cpp#shop.twice function [] 6', 'code:include/util/clamp.h#util.clamp function [exported] 4',
      'code:src/util.cpp#util.Log.write method [exported] 4', 'code:include/util/clamp.h#util.Log.write method [exported,static] 5', 'code:tests/test_ledger.cpp#test_clamp function [exported,test] 2',
    ]) assert.ok(lines.includes(expected), `${expected} in\n${lines.join('\n')}`);
    assert.equal(parsed.flatMap((p) => p.nodes).find((n) => n.id === 'code:src/ledger.cpp#shop.Ledger.add')?.summary, 'void Ledger::add(int n) — Adds an amount.');
    const L = 'code:src/ledger.cpp';
    const H = 'code:include/util/clamp.h';
    assert.deepEqual(edgeLines(link.edges, 'imports'), [
      `${H} imports ${H.replace('clamp.h', 'clamp.h')} @0`, `${L} imports ${H} @2`, `${L} imports code:src/ledger.hpp @1`, 'code:src/ledger.hpp imports code:src/base.hpp @2',
      `code:src/util.cpp imports ${H} @1`, `code:tests/test_ledger.cpp imports ${H} @1`,
    ].filter((l) => !l.endsWith('@0')));
    // `f(...)` calls the parameter f (a function pointer): no edge; flush() names the member declared in ledger.hpp. Calls that
    // reach a declaration of clamp.h go on to its one definition in src/util.cpp (link-proto.ts), which implements it.
    const U = 'code:src/util.cpp';
    assert.deepEqual(edgeLines(link.edges, 'calls'), [
      `${L}#shop.Ledger.add calls ${U}#util.Log.write @12`, `${L}#shop.Ledger.add calls ${L}#shop.Ledger.flush @11`, `${L}#shop.Ledger.add calls ${L}#shop.twice @13`,
      `code:tests/test_ledger.cpp#test_clamp calls ${U}#util.clamp @2`,
    ].sort());
    assert.deepEqual(edgeLines(link.edges, 'implements'), [
      `${L}#shop.Ledger.add implements code:src/ledger.hpp#shop.Ledger.add @9`, `${L}#shop.Ledger.flush implements code:src/ledger.hpp#shop.Ledger.flush @15`,
      `${U}#util.Log.write implements ${H}#util.Log.write @4`, `${U}#util.clamp implements ${H}#util.clamp @3`,
    ]);
    assert.deepEqual(edgeLines(link.edges, 'inherits'), ['code:src/ledger.hpp#shop.Ledger inherits code:src/base.hpp#shop.Base @5']);
    assert.ok(edgeLines(link.edges, 'tested_by').includes(`${U}#util.clamp tested_by code:tests/test_ledger.cpp @2`));
  });

  it('builds Logic with else-if, throw, return, try and catch; none under --no-ast; lexical gives modules and imports only', () => {
    const kinds = buildMemory(cpp, SOURCES).parsed.flatMap((p) => p.logic_steps).filter((s) => s.owner_id.endsWith('#shop.Ledger.add')).map((s) => s.kind);
    assert.deepEqual(kinds, ['entry', 'branch', 'throw', 'branch', 'return', 'try', 'statement', 'catch', 'statement', 'statement', 'statement', 'exit']);
    assert.equal(buildMemory(cpp, SOURCES, 'ast', false).parsed.flatMap((p) => p.logic_steps).length, 0);
    const lexical = buildMemory(cpp, SOURCES, 'lexical');
    assert.ok(lexical.parsed.every((p) => p.nodes.length === 1 && p.nodes[0]!.kind === 'module'));
    assert.deepEqual(edgeLines(lexical.link.edges, 'imports'), edgeLines(buildMemory(cpp, SOURCES).link.edges, 'imports'));
  });

  it('reads .c with the C grammar (C++ keywords are names, `...` is varargs) and .h with the C++ grammar', () => {
    const texts: Record<string, string> = {
      'list.h': '#pragma once\nclass Widget { public: void draw(); };\nint log_all(const char *fmt, ...);\n',
      'list.c': [
        '#include "list.h"',
        'struct node { struct node *new; int class; };',
        'static int count(struct node *this) { int n = 0; for (; this; this = this->new) n++; return n; }',
        'int log_all(const char *fmt, ...) { return count(0); }',
        'int main(void) { return log_all("x", 1, 2); }',
        '',
      ].join('\n'),
    };
    const { parsed, link } = buildMemory(cpp, texts);
    const c = parsed.find((p) => p.path === 'list.c')!;
    assert.deepEqual(c.issues, []);
    assert.deepEqual(c.nodes.map((n) => `${n.id} ${n.kind}`), ['code:list.c module', 'code:list.c#node struct', 'code:list.c#count function', 'code:list.c#log_all function', 'code:list.c#main function']);
    assert.ok(parsed.find((p) => p.path === 'list.h')!.nodes.some((n) => n.id === 'code:list.h#Widget' && n.kind === 'class'));
    // `[adapter.c] headers = "c"` (a C-only project): `.h` files are C too, so `template`, `new` and `class` are names there.
    const header = 'int template;\nint count(int new, int class);\n';
    assert.ok(cpp.extract({ path: 'list.h', content: header, strategy: 'ast', logic: true }).issues.length > 0);
    // glibc's `__THROW __nonnull ((1))` after a prototype: an ERROR to the C grammar, still read as the prototype.
    const glibc = cpp.extract({ path: 'aio.h', content: 'extern int aio_read (int *p) __THROW __nonnull ((1));\n', strategy: 'ast', logic: true, options: { c: { headers: 'c' } } });
    assert.equal(glibc.nodes.find((n) => n.id === 'code:aio.h#aio_read')?.summary, 'extern int aio_read (int *p) __THROW __nonnull ((1))');
    const asC = cpp.extract({ path: 'list.h', content: header, strategy: 'ast', logic: true, options: { c: { headers: 'c' } } });
    assert.deepEqual([asC.issues, asC.nodes.map((n) => n.id)], [[], ['code:list.h', 'code:list.h#count']]);
    // Three arguments reach the varargs function `log_all(fmt, ...)`.
    assert.deepEqual(edgeLines(link.edges, 'calls'), ['code:list.c#log_all calls code:list.c#count @4', 'code:list.c#main calls code:list.c#log_all @5']);
  });
});

const require = createRequire(import.meta.url);

/** The folder of an installed npm package (a dependency of this repository, so always present after `npm ci`). */
export function packageDir(name: string): string {
  let dir = dirname(require.resolve(name));
  while (!existsSync(join(dir, 'package.json')) || !dir.endsWith(name)) dir = dirname(dir);
  return dir;
}

/** Checks the importers and callers of the three most-included files against the `#include` lines and call lines of the source. */
function checkTop(texts: Record<string, string>, edges: ReturnType<typeof buildMemory>['link']['edges']): void {
  const top = mostImported(edges);
  assert.equal(top.length, 3);
  for (const [target, importers] of top) {
    const file = target.slice('code:'.length);
    for (const importer of importers) {
      const path = importer.slice('code:'.length);
      const dir = path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '';
      const included = [...(texts[path] ?? '').matchAll(/^\s*#\s*include\s*"([^"]+)"/gm)].map((m) => join(dir, m[1]!));
      assert.ok(included.includes(file), `${path} includes ${file}`);
    }
    for (const call of edges.filter((e) => e.relation === 'calls' && e.target_id.startsWith(`${target}#`))) {
      const name = call.target_id.split('#')[1]!.split('.').pop()!;
      assert.match(lineOf(texts, call.source_path, call.line), new RegExp(`\\b${name}\\s*\\(`), `${call.source_path}:${call.line} calls ${name}`);
    }
  }
}

describe('cpp adapter on tree-sitter\'s C runtime (web-tree-sitter 0.25.10 lib/) and better-sqlite3 12.11.1 (src/)', () => {
  it('C: finds the includers and callers of the three most-included headers as the source says', () => {
    const texts = readTree(join(packageDir('web-tree-sitter'), 'lib'), ['.c', '.h']);
    assert.ok(Object.keys(texts).length >= 30);
    const { parsed, link } = buildMemory(cpp, texts);
    checkTop(texts, link.edges);
    assert.ok(link.edges.filter((e) => e.relation === 'calls').length > 500);
    // The C grammar reads `Array(StackNode *) stack = ...` (a macro type) and the amalgamation without recovery.
    for (const path of ['subtree.c', 'tree-sitter.c']) assert.deepEqual(parsed.find((p) => p.path === path)!.issues, [], path);
  });

  it('C++: finds the includers and callers of the three most-included files as the source says', () => {
    const texts = readTree(join(packageDir('better-sqlite3'), 'src'), ['.cpp', '.hpp']);
    const { link } = buildMemory(cpp, texts);
    checkTop(texts, link.edges);
    assert.ok(link.edges.filter((e) => e.relation === 'calls').length > 30);
  });
});
