// Pins the C/C++ adapter's split of parse errors (issue 33, new-user trial 48 F4): errors from unexpanded preprocessor
// constructs are `unexpanded_preprocessor` infos, other parse errors stay `syntax_error` warnings. Inputs: excerpts of
// tree-sitter-json 0.24.8 (MIT, `npm pack tree-sitter-json@0.24.8`): the `extern "C"` guard of src/tree_sitter/alloc.h, the
// `NODE_API_MODULE` line of bindings/node/binding.cc, an `ADVANCE_MAP(..., )` call and the `TS_PUBLIC` language function of
// src/parser.c, the `typedef Array(void) Array;` of src/tree_sitter/array.h; then real syntax errors in plain code.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { CodeAdapter, SourceIssue } from '@docforge/core';
import { adapterFor } from './helpers.js';

const ALLOC_H = [
  '#ifndef TREE_SITTER_ALLOC_H_',
  '#define TREE_SITTER_ALLOC_H_',
  '',
  '#ifdef __cplusplus',
  'extern "C" {',
  '#endif',
  '',
  '#include <stdbool.h>',
  '#include <stdlib.h>',
  '',
  '#ifndef ts_malloc',
  '#define ts_malloc  malloc',
  '#endif',
  '',
  '#ifdef __cplusplus',
  '}',
  '#endif',
  '',
  '#endif // TREE_SITTER_ALLOC_H_',
  '',
].join('\n');

const BINDING_CC = [
  '#include <napi.h>',
  '',
  'typedef struct TSLanguage TSLanguage;',
  '',
  'extern "C" TSLanguage *tree_sitter_json();',
  '',
  'Napi::Object Init(Napi::Env env, Napi::Object exports) {',
  '    exports["name"] = Napi::String::New(env, "json");',
  '    return exports;',
  '}',
  '',
  'NODE_API_MODULE(tree_sitter_json_binding, Init)',
  '',
].join('\n');

const PARSER_C = [
  '#include "tree_sitter/parser.h"',
  '',
  'static bool ts_lex(TSLexer *lexer, TSStateId state) {',
  '  START_LEXER();',
  '  eof = lexer->eof(lexer);',
  '  switch (state) {',
  '    case 0:',
  '      if (eof) ADVANCE(21);',
  '      ADVANCE_MAP(',
  "        '\"', 2,",
  "        ',', 23,",
  "        '}', 24,",
  '      );',
  '      END_STATE();',
  '    default:',
  '      return false;',
  '  }',
  '}',
  '',
  '#ifdef TREE_SITTER_HIDE_SYMBOLS',
  '#define TS_PUBLIC',
  '#else',
  '#define TS_PUBLIC __attribute__((visibility("default")))',
  '#endif',
  '',
  'TS_PUBLIC const TSLanguage *tree_sitter_json(void) {',
  '  static const TSLanguage language = {',
  '    .version = LANGUAGE_VERSION,',
  '  };',
  '  return &language;',
  '}',
  '',
].join('\n');

const ARRAY_H = [
  '#define Array(T)       \\',
  '  struct {             \\',
  '    T *contents;       \\',
  '    uint32_t size;     \\',
  '  }',
  '',
  'typedef Array(void) Array;',
  '',
  'static inline void _array__delete(Array *self) {',
  '  self->size = 0;',
  '}',
  '',
].join('\n');

/** `[severity, code, line]` of each issue. */
function brief(issues: readonly SourceIssue[]): [string, string, number | null][] {
  return issues.map((issue) => [issue.severity, issue.code, issue.line]);
}

describe('C/C++ parse errors from unexpanded preprocessor constructs', () => {
  let adapter: CodeAdapter;
  before(async () => {
    adapter = await adapterFor('cpp');
  });
  const extract = (path: string, content: string) => adapter.extract({ path, content, strategy: 'ast', logic: true });

  it('reads the extern "C" guard as an unexpanded conditional (C++ and C grammar), not a missing #endif', () => {
    for (const path of ['src/tree_sitter/alloc.h', 'src/alloc.c']) {
      const result = extract(path, ALLOC_H);
      assert.deepEqual(brief(result.issues), [['info', 'unexpanded_preprocessor', 15]], path);
      assert.match(result.issues[0]!.message, /preprocessor is not run.*missing "#endif"/);
    }
  });

  it('reads a top-level NODE_API_MODULE call as a macro and still extracts Init', () => {
    const result = extract('bindings/node/binding.cc', BINDING_CC);
    assert.deepEqual(brief(result.issues), [['info', 'unexpanded_preprocessor', 12]]);
    assert.ok(result.nodes.some((n) => n.id === 'code:bindings/node/binding.cc#Init'));
  });

  it('reads ADVANCE_MAP(..., ) and TS_PUBLIC as macros and still extracts both functions', () => {
    const result = extract('src/parser.c', PARSER_C);
    assert.ok(result.issues.length > 0);
    assert.deepEqual(result.issues.filter((i) => i.code !== 'unexpanded_preprocessor'), []);
    assert.ok(result.issues.every((i) => i.severity === 'info'));
    const ids = result.nodes.map((n) => n.id);
    assert.ok(ids.includes('code:src/parser.c#ts_lex'), ids.join(' '));
    assert.ok(ids.includes('code:src/parser.c#tree_sitter_json'), ids.join(' '));
  });

  it('reads typedef Array(void) Array; as a call-shaped type macro', () => {
    const result = extract('src/tree_sitter/array.h', ARRAY_H);
    assert.deepEqual(brief(result.issues), [['info', 'unexpanded_preprocessor', 7]]);
  });

  it('still warns on real syntax errors: a missing brace, an unterminated string, a missing operand', () => {
    const brace = extract('src/f.c', 'int f(int x) {\n  if (x) {\n    return 1;\n  return 0;\n}\n');
    assert.deepEqual(brief(brace.issues), [['warning', 'syntax_error', 5]]);
    const guarded = extract('include/f.h', '#ifndef F_H\n#define F_H\nint f(int x) {\n  if (x) {\n    return 1;\n  return 0;\n}\n#endif\n');
    assert.ok(guarded.issues.length > 0 && guarded.issues.every((i) => i.severity === 'warning' && i.code === 'syntax_error'), JSON.stringify(guarded.issues));
    const string = extract('src/s.c', 'const char *s = "abc;\nint g(void) { return 1; }\n');
    assert.ok(string.issues.length > 0 && string.issues.every((i) => i.severity === 'warning' && i.code === 'syntax_error'), JSON.stringify(string.issues));
    const operand = extract('src/e.cpp', 'int f(int x) {\n  return x +;\n}\n');
    assert.deepEqual(brief(operand.issues), [['warning', 'syntax_error', 2]]);
    const call = extract('src/c.c', 'void g(void) {\n  setup(1)\n  run(2);\n}\nint h(void) { return 1 }\n');
    assert.deepEqual(brief(call.issues), [['warning', 'syntax_error', 2], ['warning', 'syntax_error', 5]]);
    const unclosed = extract('src/u.h', '#ifdef FEATURE\nint a;\n');
    assert.deepEqual(unclosed.issues.map((i) => [i.severity, i.code]), [['warning', 'syntax_error']]);
  });
});
