// Pins strategy `lexical` for Python: no WASM, the AST's module nodes and imports edges, and the scanner on tricky and broken inputs.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { GraphNode } from '@docforge/core';
import {
  extractPython, initPythonAdapter, isPythonAdapterReady, pythonAdapter, readPythonLinkData, scanPythonLines, scanPythonSource,
} from '../src/whole.js';
import type { PythonImport, PythonLinkData } from '../src/whole.js';
import { edgeLines, extractAndLink, fixtureDir, readProject } from './helpers.js';
import type { Extracted, SourceFile } from './helpers.js';

function lexical(file: SourceFile): Extracted {
  return { path: file.path, ...pythonAdapter.extract({ path: file.path, content: file.content, strategy: 'lexical', logic: true }) };
}

function linkData(result: Pick<Extracted, 'link_data'>): PythonLinkData {
  const data = readPythonLinkData(result.link_data);
  assert.ok(data, 'link_data is valid');
  return data;
}

function imports(content: string): PythonImport[] {
  return scanPythonSource(content).imports;
}

/** `scope:level:module[names]` of each import, compact for exact comparisons. */
function brief(content: string): string[] {
  return imports(content).map((imp) => {
    const names = imp.names === null ? '' : `[${imp.wildcard ? '*' : imp.names.map((n) => (n.alias === null ? n.name : `${n.name} as ${n.alias}`)).join(',')}]`;
    return `${imp.line} ${imp.scope || '-'} ${'.'.repeat(imp.level)}${imp.module}${imp.alias === null ? '' : ` as ${imp.alias}`}${names}`;
  });
}

const shop = (): SourceFile[] => readProject(fixtureDir('shop'));

/** Sources whose every import must come out exactly as the AST extractor records it. */
const TRICKY = `"""Docstring mentioning
import not_a_module
from fake import thing
"""
# import commented_out
import os, sys as system, a.b.c as abc, x . y
from . import sibling
from .. import parent_mod as pm
from ...pkg.mod import (
    first,  # import in_comment
    second as two,
    third,
)
from .rel import *
from __future__ import annotations
text = 'import in_single' + "from q import r"
raw = r"\\" import escaped_raw"
cont = "line \\
import in_continued_string"
fmt = f"{ {'k': 1}['k'] } {text!r:>{10}} {\"import nested\"}"
tri = '''
from triple import single_quotes
'''
from cont_module \\
    import continued
try: import fast_json as json
except ImportError: import json; from json import loads
if True:
        import deep.inside
def f(x: int = 1) -> "import nope":
    import inner_f
    class C:
        def m(self):
            from .m_mod import m_name
    return x
class K(object): import in_class_body
async def g():
    import in_async
__all__ = ["f", 'K', r"g", f"no", 3, "a" "b"]
__all__ += ('more',)
`;

describe('lexical: no WASM runtime needed', () => {
  it('extracts under strategy lexical before initPythonAdapter() and never loads the runtime', () => {
    assert.equal(isPythonAdapterReady(), false);
    const result = lexical({ path: 'app/core.py', content: 'import os\nfrom . import util\n' });
    assert.equal(result.nodes.length, 1);
    assert.equal(linkData(result).imports.length, 2);
    assert.equal(isPythonAdapterReady(), false);
    // The AST path still requires initialization, so the lexical result above came without it.
    assert.throws(() => extractPython({ path: 'a.py', content: 'x = 1\n', strategy: 'ast', logic: false }), { code: 'internal_error' });
  });
});

describe('lexical: the shop fixture against the AST extractor', () => {
  before(async () => {
    await initPythonAdapter();
  });

  it('produces exactly the AST module node of every file (content hash included) and nothing else', () => {
    for (const file of shop()) {
      const ast = pythonAdapter.extract({ path: file.path, content: file.content, strategy: 'ast', logic: true });
      const lex = lexical(file);
      const astModule = ast.nodes.find((node) => node.kind === 'module') as GraphNode;
      assert.deepEqual(lex.nodes, [astModule], file.path);
      assert.deepEqual(lex.edges, [], file.path);
      assert.deepEqual(lex.issues, [], file.path);
      assert.deepEqual([lex.logic_steps, lex.logic_flows], [[], []], file.path);
      const data = linkData(lex);
      assert.deepEqual(data.calls, [], file.path);
      assert.deepEqual(data.bases, [], file.path);
      assert.deepEqual(data.imports, linkData(ast).imports, file.path);
      assert.deepEqual(data.all, linkData(ast).all, file.path);
    }
  });

  it('links to the same set of imports edges as the AST, and to no other relation', () => {
    const files = shop();
    const ast = extractAndLink(files).link;
    const parsed = files.map(lexical);
    const paths = new Set(files.map((f) => f.path));
    const link = pythonAdapter.link(parsed, { hasFile: (path) => paths.has(path), readText: () => null });
    assert.deepEqual(edgeLines(link.edges), edgeLines(ast.edges, 'imports'));
    assert.equal(edgeLines(link.edges).length, 9);
    assert.deepEqual(
      [link.stats['imports_total'], link.stats['imports_resolved'], link.stats['calls_total'], link.stats['inherits_total']],
      [ast.stats['imports_total'], ast.stats['imports_resolved'], 0, 0],
    );
  });

  it('keeps the module capabilities the AST gives: entrypoint from a main guard or __main__.py, test from the path', () => {
    const cases: SourceFile[] = [
      { path: 'cli.py', content: '"""Cli.\n\nMore."""\nif (__name__ == \'__main__\'):\n    run()\n' },
      { path: 'pkg/__main__.py', content: 'import pkg\n' },
      { path: 'tests/test_x.py', content: '\n# only a comment\n' },
      { path: 'nested.py', content: 'def f():\n    if __name__ == "__main__":\n        pass\n' },
      { path: 'concat.py', content: '"a" "b"\nx = 1\n' },
      { path: 'fdoc.py', content: 'f"""not a docstring"""\n' },
      { path: 'empty.py', content: '' },
    ];
    for (const file of cases) {
      const astModule = pythonAdapter.extract({ ...file, strategy: 'ast', logic: false }).nodes[0];
      assert.deepEqual(lexical(file).nodes, [astModule], file.path);
    }
    assert.deepEqual(lexical(cases[0] as SourceFile).nodes[0]?.capabilities, ['entrypoint']);
    assert.equal(lexical(cases[0] as SourceFile).nodes[0]?.summary, 'Cli.');
    assert.deepEqual(lexical(cases[3] as SourceFile).nodes[0]?.capabilities, []);
  });

  it('records the tricky sample exactly as the AST does: imports, scopes, lines, __all__ and definitions', () => {
    const file = { path: 'pkg/tricky.py', content: TRICKY };
    const ast = pythonAdapter.extract({ ...file, strategy: 'ast', logic: false });
    assert.deepEqual(ast.issues, [], 'the sample is valid Python');
    const lex = lexical(file);
    assert.deepEqual(linkData(lex).imports, linkData(ast).imports);
    assert.deepEqual(linkData(lex).all, linkData(ast).all);
    assert.deepEqual(lex.nodes, [ast.nodes[0]]);
    const topLevel = ast.nodes.filter((n) => n.id.startsWith('code:pkg/tricky.py#') && !n.id.slice(19).includes('.'));
    assert.deepEqual(linkData(lex).defs, topLevel.map((n) => ({ name: n.title, kind: n.kind })));
  });
});

describe('lexical: scanner on tricky inputs', () => {
  it('ignores imports inside docstrings, strings, f-strings, raw strings, continued strings and comments', () => {
    assert.deepEqual(brief(TRICKY), [
      '6 - os',
      '6 - sys as system',
      '6 - a.b.c as abc',
      '6 - x.y',
      '7 - .[sibling]',
      '8 - ..[parent_mod as pm]',
      '9 - ...pkg.mod[first,second as two,third]',
      '14 - .rel[*]',
      '24 - cont_module[continued]',
      '26 - fast_json as json',
      '27 - json',
      '27 - json[loads]',
      '29 - deep.inside',
      '31 f inner_f',
      '34 f.C.m .m_mod[m_name]',
      '36 K in_class_body',
      '38 g in_async',
    ]);
    assert.deepEqual(scanPythonSource(TRICKY).all, ['f', 'K', 'g', 'more']);
  });

  it('reads parenthesised multi-line from-imports with comments, aliases and a trailing comma', () => {
    assert.deepEqual(brief('from pkg import (\n  a,\n  # b,\n  c as d,  # note\n\n  e\n  ,\n)\nimport z\n'), [
      '1 - pkg[a,c as d,e]',
      '9 - z',
    ]);
  });

  it('counts relative levels from single dots and from ellipses', () => {
    assert.deepEqual(brief('from . import a\nfrom .. import b\nfrom ...c import d\nfrom .... import e\nfrom .f.g import h\n'), [
      '1 - .[a]', '2 - ..[b]', '3 - ...c[d]', '4 - ....[e]', '5 - .f.g[h]',
    ]);
  });

  it('splits `import a as b, c` into one record per module, alias only where written', () => {
    assert.deepEqual(imports('import a as b, c\n'), [
      { line: 1, scope: '', level: 0, module: 'a', alias: 'b', names: null, wildcard: false },
      { line: 1, scope: '', level: 0, module: 'c', alias: null, names: null, wildcard: false },
    ]);
  });

  it('tracks scopes by indentation, tabs and one-line bodies included', () => {
    assert.deepEqual(brief('class A:\n\tdef m(self): import x\n\timport y\nimport z\ndef f(): import w; from . import v\n'), [
      '2 A.m x', '3 A y', '4 - z', '5 f w', '5 f .[v]',
    ]);
  });

  it('joins physical lines inside brackets and after backslashes, counting lines from the statement start', () => {
    const lines = scanPythonLines('x = (1,\n  2)\ny = 3 \\\n  + 4\r\nz = """a\nb"""\n');
    assert.deepEqual(lines.map((l) => [l.indent, l.tokens[0]?.line, l.tokens.map((t) => t.value).join(' ')]), [
      [0, 1, 'x = ( 1 , 2 )'],
      [0, 3, 'y = 3 + 4'],
      [0, 5, 'z = """a\nb"""'],
    ]);
  });
});

describe('lexical: broken input never throws', () => {
  const broken = [
    'import',
    'from import x',
    'from . import',
    'from x import (a, b',
    'import a as',
    'import 1abc, os',
    'x = "unterminated\nimport after_string\n',
    "s = '''never closed\nimport hidden\n",
    'f"{unclosed\nimport after_fstring\n',
    'f"{x:{y}"\n',
    'call(\n  1,\nimport recovered\nfrom . import also\n',
    ')))]]]}\nimport after_closers\n',
    'def bad(:\n    import inside_bad\n',
    '\\',
    '\u0000\u0001\ufeff\u2028 import \ud800',
    'from ' + '.'.repeat(5000) + 'x import y',
    'f"' + '{f"'.repeat(2000),
    '(' .repeat(10000) + '\nimport deep_recovered\n',
  ];

  it('returns one module node and valid link data for every broken input', () => {
    for (const content of broken) {
      const result = pythonAdapter.extract({ path: 'bad.py', content, strategy: 'lexical', logic: true });
      assert.equal(result.nodes.length, 1, JSON.stringify(content.slice(0, 40)));
      assert.equal(result.nodes[0]?.id, 'code:bad.py');
      assert.ok(readPythonLinkData(result.link_data), JSON.stringify(content.slice(0, 40)));
    }
  });

  it('recovers the imports a person would see around the error', () => {
    const modules = (content: string): string[] => imports(content).map((imp) => imp.module);
    assert.deepEqual(modules(broken[6] as string), ['after_string']);
    assert.deepEqual(modules(broken[7] as string), []);
    assert.deepEqual(modules(broken[8] as string), ['after_fstring']);
    assert.deepEqual(modules(broken[10] as string), ['recovered', '']);
    assert.deepEqual(modules(broken[11] as string), ['after_closers']);
    assert.deepEqual(modules(broken[12] as string), ['inside_bad']);
    assert.deepEqual(modules(broken[17] as string), ['deep_recovered']);
    assert.deepEqual(brief('import 1abc, os\nimport a as\nfrom x import (a, b\n'), ['3 - x[a,b]']);
  });
});
