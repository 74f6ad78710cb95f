// Pins two C++ rules of tree-sitter adapters 1.2.9 (issue 33) on libstdc++ 12's headers (Debian's libstdc++-12-dev, GPL-3.0
// with the runtime exception), read as they are installed:
// - the macros that, parsed as written, turned the declarations around them into one ERROR are blanked before parsing
//   (@docforge/core source-mask.ts): `namespace std _GLIBCXX_VISIBILITY(default)`, `_GLIBCXX_BEGIN_NAMESPACE_VERSION` alone on
//   its line, a trailing `_GLIBCXX_NOEXCEPT` (and, 1.2.10, `_GLIBCXX_NOEXCEPT_QUAL` after a function type in template
//   arguments), and `#if`/`#else` branches inside a constructor's declaration. cow_string.h
//   gave no `basic_string` class before (its nested structs came out as top-level types);
// - a base class outside the project stops a call from a member as unproven, as in Java and C#: a member of the unknown base
//   could hide the free function of that name (basic_ios's base ios_base is declared in another header, which basic_ios.h
//   does not include).
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { CodeAdapter } from '@docforge/core';
import { blankDeclarationMacros } from '@docforge/core';
import { adapterFor, buildMemory, edgeLines, inputSkip } from './helpers.js';

const BITS = '/usr/include/c++/12/bits';

let cpp: CodeAdapter;
before(async () => {
  cpp = await adapterFor('cpp');
});

describe('C++ declaration macros and external bases', () => {
  it('blanks the macro shapes with the same length and lines, and leaves plain code, a cast\'s operand and an extern "C" guard as written', () => {
    const text = [
      'namespace std _GLIBCXX_VISIBILITY(default)', '{', '_GLIBCXX_BEGIN_NAMESPACE_VERSION', '', '  template<typename T>', '    class box',
      '    {', '      void f() const _GLIBCXX_NOEXCEPT { }', '      box()', '#if A', '      _GLIBCXX_NOEXCEPT', '      : v(1)', '#else',
      '      : v(2)', '#endif', '      { }', '      int v;', '    };', '}', '#ifdef __cplusplus', 'extern "C" {', '#endif', 'enum E {', '  ONLY_ONE', '};',
      'void *init() {', '  BUF[0] = (const void *)LANGUAGE_VERSION;', '}', '',
    ].join('\n');
    const out = blankDeclarationMacros(text);
    assert.equal(out.length, text.length);
    assert.deepEqual(out.split('\n').map((line) => line.trim().replace(/\s+/g, ' ')), [
      'namespace std', '{', '', '', 'template<typename T>', 'class box', '{', 'void f() const { }', 'box()', '', '', ': v(1)', '', '', '', '{ }',
      'int v;', '};', '}', '#ifdef __cplusplus', 'extern "C" {', '#endif', 'enum E {', 'ONLY_ONE', '};', 'void *init() {',
      'BUF[0] = (const void *)LANGUAGE_VERSION;', '}', '',
    ]);
  });

  it('blanks a qualifier macro after a function type\'s parameter list in template arguments, never a cast\'s operand', () => {
    const text = [
      'template<typename R, typename... A> struct W<R(*)(A...) _GLIBCXX_NOEXCEPT_QUAL> { };',
      'template<typename R> struct W<R(int) _GLIBCXX_NOEXCEPT_QUAL, int> { };',
      'bool f(int x) { return (x) _GLIBCXX_LIMIT > 1 || g((long) _GLIBCXX_LIMIT, 2); }',
      '',
    ].join('\n');
    const out = blankDeclarationMacros(text);
    assert.equal(out.length, text.length);
    assert.deepEqual(out.split('\n').map((line) => line.replace(/\s+/g, ' ')), [
      'template<typename R, typename... A> struct W<R(*)(A...) > { };',
      'template<typename R> struct W<R(int) , int> { };',
      'bool f(int x) { return (x) _GLIBCXX_LIMIT > 1 || g((long) _GLIBCXX_LIMIT, 2); }',
      '',
    ]);
  });

  it('parses refwrap.h\'s function-type specializations without syntax errors', { skip: inputSkip(BITS, 'apt-get install -y libstdc++-12-dev') }, () => {
    const { parsed } = buildMemory(cpp, { 'bits/refwrap.h': readFileSync(`${BITS}/refwrap.h`, 'utf8') });
    // `struct _Weak_result_type_impl<_Res(*)(_ArgTypes...) _GLIBCXX_NOEXCEPT_QUAL>` (lines 142-153) and
    // `struct _Reference_wrapper_base<_Res(_T1) _GLIBCXX_NOEXCEPT_QUAL>` (lines 230-278) were syntax errors.
    const lines = (parsed[0]?.issues ?? []).filter((i) => i.code === 'syntax_error').map((i) => i.line);
    for (const line of [137, 142, 147, 230, 251, 272, 278]) assert.ok(!lines.includes(line), `line ${line}: ${lines.join(', ')}`);
  });

  it('reads basic_string in cow_string.h and basic_string.h as classes of std, their nested types in them', { skip: inputSkip(BITS, 'apt-get install -y libstdc++-12-dev') }, () => {
    for (const [file, line] of [['cow_string.h', 114], ['basic_string.h', 85]] as const) {
      const { parsed } = buildMemory(cpp, { [`bits/${file}`]: readFileSync(`${BITS}/${file}`, 'utf8') });
      const nodes = parsed[0]?.nodes ?? [];
      const type = nodes.find((n) => n.id === `code:bits/${file}#std.basic_string`);
      assert.equal(type?.kind, 'class', file);
      assert.equal(type?.start_line, line, file);
      assert.ok(nodes.some((n) => n.id === `code:bits/${file}#std.basic_string.__sv_wrapper`), file);
      assert.ok(!nodes.some((n) => n.id === `code:bits/${file}#__sv_wrapper`), file);
    }
  });

  it('a member of basic_ios (base ios_base outside the input) calls no free function; ios_base\'s own members still reach them', { skip: inputSkip(BITS, 'apt-get install -y libstdc++-12-dev') }, () => {
    const { link } = buildMemory(cpp, { 'bits/basic_ios.h': readFileSync(`${BITS}/basic_ios.h`, 'utf8') });
    const calls = edgeLines(link.edges, 'calls');
    // narrow() and widen() call __check_facet(_M_ctype), a free function of basic_ios.h: ios_base could declare one.
    assert.ok(!calls.some((c) => c.includes('#std.basic_ios.narrow calls code:bits/basic_ios.h#std.__check_facet')), calls.join('\n'));
    assert.ok(!calls.some((c) => c.includes('#std.basic_ios.widen calls code:bits/basic_ios.h#std.__check_facet')), calls.join('\n'));
    assert.ok((link.unresolved_calls?.['code:bits/basic_ios.h#std.basic_ios.narrow'] ?? 0) >= 1);
    assert.ok(link.stats['heritage_unresolved'] !== undefined && link.stats['heritage_unresolved'] >= 1);
  });

  it('in memory: a member under an external base reaches no free function; one under no base does', () => {
    const { link } = buildMemory(cpp, {
      'a.hpp': ['void helper();', 'class A : public ext::Base {', ' public:', '  void m() { helper(); }', '};', 'class B {', ' public:', '  void m() { helper(); }', '};', ''].join('\n'),
      'a.cpp': ['#include "a.hpp"', 'void helper() {}', ''].join('\n'),
    });
    assert.deepEqual(edgeLines(link.edges, 'calls'), ['code:a.hpp#B.m calls code:a.cpp#helper @8']);
    assert.equal(link.unresolved_calls?.['code:a.hpp#A.m'], 1);
  });
});
