// Pins per-file Python extraction: node ids, kinds, lines, capabilities, signatures, docstrings, intra-file edges, link data and syntax issues.
import { createHash } from 'node:crypto';
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { GraphNode } from '@docforge/core';
import { initPythonAdapter, isPythonTestPath, pythonAdapter, readPythonLinkData } from '../src/whole.js';
import type { PythonLinkData } from '../src/whole.js';
import { edgeLines, extractFile, fixtureDir, readProject } from './helpers.js';
import type { Extracted, SourceFile } from './helpers.js';

/** SHA-256 hex by node:crypto: expectations never use the implementation's own hash. */
function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** RFC 8785 canonical JSON of plain JSON values (undefined members dropped), written independently of @docforge/core. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

before(async () => {
  await initPythonAdapter();
});

const project = (): SourceFile[] => readProject(fixtureDir('shop'));

function extractPath(path: string): Extracted {
  const file = project().find((f) => f.path === path);
  assert.ok(file, `fixture ${path} exists`);
  return extractFile(file);
}

function extractText(content: string, path = 'pkg/mod.py'): Extracted {
  return extractFile({ path, content });
}

/** `id kind start-end [caps]` for compact exact comparisons. */
function nodeLines(nodes: readonly GraphNode[]): string[] {
  return nodes.map((n) => `${n.id} ${n.kind} ${n.start_line}-${n.end_line} [${n.capabilities.join(',')}]`);
}

function linkData(result: Extracted): PythonLinkData {
  const data = readPythonLinkData(result.link_data);
  assert.ok(data, 'link_data is valid');
  return data;
}

describe('pythonAdapter identity', () => {
  it('declares id, version and extensions', () => {
    assert.equal(pythonAdapter.id, 'python');
    assert.equal(pythonAdapter.version, '1.2.0');
    assert.deepEqual([...pythonAdapter.extensions], ['.py']);
  });
});

describe('extract: app/core.py', () => {
  it('emits the module, classes, methods, nested functions and functions in document order', () => {
    const result = extractPath('app/core.py');
    assert.deepEqual(nodeLines(result.nodes), [
      'code:app/core.py module 1-48 []',
      'code:app/core.py#Engine class 10-39 [exported]',
      'code:app/core.py#Engine.__init__ method 13-15 []',
      'code:app/core.py#Engine.run method 17-21 []',
      'code:app/core.py#Engine._tick method 23-27 []',
      'code:app/core.py#Engine._tick.inner function 24-26 []',
      'code:app/core.py#Engine.fetch method 29-31 [async]',
      'code:app/core.py#Engine.build method 33-35 []',
      'code:app/core.py#Engine.label method 37-39 []',
      'code:app/core.py#stream function 42-44 [exported,generator]',
      'code:app/core.py#_hidden function 47-48 []',
    ]);
  });

  it('uses signatures as summaries, docstrings as bodies and fixed code fields', () => {
    const result = extractPath('app/core.py');
    const byId = new Map(result.nodes.map((n) => [n.id, n]));
    const module = byId.get('code:app/core.py');
    assert.equal(module?.title, 'app/core.py');
    assert.equal(module?.summary, 'Core engine.');
    assert.equal(module?.body, 'Core engine.\n\nSecond paragraph.');
    const engine = byId.get('code:app/core.py#Engine');
    assert.equal(engine?.title, 'Engine');
    assert.equal(engine?.summary, 'class Engine(Base, Mixin) — Runs things.');
    assert.equal(engine?.body, 'Runs things.');
    assert.equal(byId.get('code:app/core.py#Engine.__init__')?.summary, 'def __init__(self, name: str = "e") -> None');
    assert.equal(byId.get('code:app/core.py#Engine.run')?.summary, 'def run(self, *args, **kwargs)');
    assert.equal(byId.get('code:app/core.py#Engine.fetch')?.summary, 'async def fetch(self)');
    assert.equal(byId.get('code:app/core.py#Engine._tick.inner')?.title, 'Engine._tick.inner');
    for (const node of result.nodes) {
      assert.equal(node.language, 'python');
      assert.equal(node.origin, 'code');
      assert.equal(node.source_path, 'app/core.py');
      assert.deepEqual(node.anchors, []);
      assert.deepEqual(node.tags, []);
      assert.equal(node.family, null);
      assert.equal(node.authority, null);
      assert.equal(node.status, null);
      const { content_hash: hash, ...rest } = node;
      assert.equal(hash, sha256Hex(canonical(rest)));
    }
  });

  it('emits contains for direct children and defines for exported top-level declarations', () => {
    const result = extractPath('app/core.py');
    assert.deepEqual(edgeLines(result.edges), [
      'code:app/core.py contains code:app/core.py#Engine @10',
      'code:app/core.py contains code:app/core.py#_hidden @47',
      'code:app/core.py contains code:app/core.py#stream @42',
      'code:app/core.py defines code:app/core.py#Engine @10',
      'code:app/core.py defines code:app/core.py#stream @42',
      'code:app/core.py#Engine contains code:app/core.py#Engine.__init__ @13',
      'code:app/core.py#Engine contains code:app/core.py#Engine._tick @23',
      'code:app/core.py#Engine contains code:app/core.py#Engine.build @33',
      'code:app/core.py#Engine contains code:app/core.py#Engine.fetch @29',
      'code:app/core.py#Engine contains code:app/core.py#Engine.label @37',
      'code:app/core.py#Engine contains code:app/core.py#Engine.run @17',
      'code:app/core.py#Engine._tick contains code:app/core.py#Engine._tick.inner @24',
    ]);
    for (const edge of result.edges) assert.equal(edge.source_path, 'app/core.py');
  });

  it('produces no Logic for Python and no issues for valid source', () => {
    const result = extractPath('app/core.py');
    assert.deepEqual(result.logic_steps, []);
    assert.deepEqual(result.logic_flows, []);
    assert.deepEqual(result.issues, []);
  });

  it('records imports, bases and call sites with receiver, super and local-variable handling', () => {
    const data = linkData(extractPath('app/core.py'));
    assert.deepEqual(data.imports, [
      { line: 5, scope: '', level: 0, module: 'os', alias: null, names: null, wildcard: false },
      { line: 6, scope: '', level: 1, module: 'base', alias: null, names: [{ name: 'Base', alias: null }, { name: 'Mixin', alias: null }], wildcard: false },
      { line: 7, scope: '', level: 1, module: '', alias: null, names: [{ name: 'util', alias: null }], wildcard: false },
    ]);
    assert.deepEqual(data.bases, [
      { cls: 'Engine', line: 10, path: ['Base'] },
      { cls: 'Engine', line: 10, path: ['Mixin'] },
    ]);
    assert.equal(data.all, null);
    assert.deepEqual(data.calls, [
      { owner: 'Engine.__init__', line: 15, path: ['<self>', 'setup'], cls: 'Engine' },
      { owner: 'Engine.run', line: 18, path: ['<self>', 'step'], cls: 'Engine' },
      { owner: 'Engine.run', line: 19, path: ['util', 'helper'], cls: null },
      { owner: 'Engine.run', line: 20, path: ['os', 'getcwd'], cls: null },
      { owner: 'Engine.run', line: 21, path: ['<self>', '_tick'], cls: 'Engine' },
      // `callback` is a parameter: never linked by name.
      { owner: 'Engine._tick.inner', line: 25, path: null, cls: null },
      { owner: 'Engine._tick.inner', line: 26, path: ['util', 'helper'], cls: null },
      { owner: 'Engine._tick', line: 27, path: ['inner'], cls: null },
      { owner: 'Engine.fetch', line: 30, path: ['<self>', 'run'], cls: 'Engine' },
      { owner: 'Engine.fetch', line: 31, path: ['<super>', 'step'], cls: 'Engine' },
      { owner: 'Engine.fetch', line: 31, path: ['super'], cls: null },
      // Bare decorators are calls made in the class body.
      { owner: 'Engine', line: 33, path: ['staticmethod'], cls: null },
      // A static method has no receiver: `Engine` is a global name.
      { owner: 'Engine.build', line: 35, path: ['Engine'], cls: null },
      { owner: 'Engine', line: 37, path: ['property'], cls: null },
      { owner: '_hidden', line: 48, path: ['stream'], cls: null },
    ]);
  });
});

describe('extract: capabilities', () => {
  it('marks exported by leading underscore or __all__, and module entrypoints', () => {
    const init = extractPath('app/__init__.py');
    assert.deepEqual(nodeLines(init.nodes), [
      'code:app/__init__.py module 1-13 []',
      'code:app/__init__.py#make function 7-9 [exported]',
      'code:app/__init__.py#_internal function 12-13 [exported]',
    ]);
    assert.deepEqual(linkData(init).all, ['Engine', 'make', '_internal']);
    assert.equal(init.nodes[1]?.body, 'Build an engine.');
    const main = extractPath('main.py');
    assert.deepEqual(nodeLines(main.nodes), [
      'code:main.py module 1-14 [entrypoint]',
      'code:main.py#cli function 6-10 [exported]',
    ]);
  });

  it('marks test functions, test methods, Test classes and the module of a test file', () => {
    const result = extractPath('tests/test_core.py');
    assert.deepEqual(nodeLines(result.nodes), [
      'code:tests/test_core.py module 1-17 [test]',
      'code:tests/test_core.py#test_run function 4-5 [exported,test]',
      'code:tests/test_core.py#TestEngine class 8-13 [exported,test]',
      'code:tests/test_core.py#TestEngine.test_fetch method 9-10 [test]',
      'code:tests/test_core.py#TestEngine.check method 12-13 []',
      'code:tests/test_core.py#helper function 16-17 [exported]',
    ]);
  });

  it('does not mark test_* functions outside test files', () => {
    const result = extractText('def test_like():\n    pass\n', 'pkg/tools.py');
    assert.deepEqual(nodeLines(result.nodes), ['code:pkg/tools.py module 1-2 []', 'code:pkg/tools.py#test_like function 1-2 [exported]']);
  });

  it('recognizes test paths', () => {
    assert.equal(isPythonTestPath('test_x.py'), true);
    assert.equal(isPythonTestPath('pkg/x_test.py'), true);
    assert.equal(isPythonTestPath('tests/helpers.py'), true);
    assert.equal(isPythonTestPath('pkg/test/conftest.py'), true);
    assert.equal(isPythonTestPath('pkg/testing.py'), false);
    assert.equal(isPythonTestPath('pkg/contest_test_x.py'), false);
  });

  it('marks __main__.py, both guard spellings, async generators and ignores yield in nested functions', () => {
    assert.deepEqual(nodeLines(extractText('run()\n', 'pkg/__main__.py').nodes), ['code:pkg/__main__.py module 1-1 [entrypoint]']);
    assert.deepEqual(nodeLines(extractText("if '__main__' == __name__:\n    pass\n").nodes), ['code:pkg/mod.py module 1-2 [entrypoint]']);
    assert.deepEqual(nodeLines(extractText('def f():\n    if __name__ == "__main__":\n        pass\n').nodes), [
      'code:pkg/mod.py module 1-3 []',
      'code:pkg/mod.py#f function 1-3 [exported]',
    ]);
    const source = [
      'async def agen():',
      '    yield 1',
      '',
      'def outer():',
      '    def inner():',
      '        yield 2',
      '    return inner',
      '',
      'def lam():',
      '    return lambda: (yield)',
      '',
    ].join('\n');
    assert.deepEqual(nodeLines(extractText(source).nodes), [
      'code:pkg/mod.py module 1-10 []',
      'code:pkg/mod.py#agen function 1-2 [async,exported,generator]',
      'code:pkg/mod.py#outer function 4-7 [exported]',
      'code:pkg/mod.py#outer.inner function 5-6 [generator]',
      'code:pkg/mod.py#lam function 9-10 [exported]',
    ]);
  });

  it('treats definitions inside module-level if/try as top-level and merges redefinitions into the first', () => {
    const source = [
      'try:',
      '    from fast import speedup',
      'except ImportError:',
      '    def speedup(x):',
      '        return x',
      '',
      'class P:',
      '    @property',
      '    def value(self):',
      '        """The value."""',
      '        return 1',
      '',
      '    @value.setter',
      '    def value(self, v):',
      '        self.store(v)',
      '',
    ].join('\n');
    const result = extractText(source);
    assert.deepEqual(nodeLines(result.nodes), [
      'code:pkg/mod.py module 1-15 []',
      'code:pkg/mod.py#speedup function 4-5 [exported]',
      'code:pkg/mod.py#P class 7-15 [exported]',
      'code:pkg/mod.py#P.value method 8-11 []',
    ]);
    assert.equal(result.nodes[3]?.body, 'The value.');
    assert.deepEqual(linkData(result).calls.filter((c) => c.owner === 'P.value'), [
      { owner: 'P.value', line: 15, path: ['<self>', 'store'], cls: 'P' },
    ]);
  });
});

describe('extract: signatures and docstrings', () => {
  it('puts multi-line parameter lists on one line without comments and cleans docstrings', () => {
    const source = [
      'def configure(',
      '    first,  # the first',
      '    second: dict[str, int] = {},',
      '    *,',
      '    flag=False,',
      ') -> "Config":',
      "    r'''Configure it.",
      '',
      '    Details:',
      '        indented item.',
      "    '''",
      '',
      'class K(',
      '    Base, metaclass=Meta',
      '):',
      '    "single line"',
      '',
    ].join('\n');
    const result = extractText(source);
    const configure = result.nodes.find((n) => n.id === 'code:pkg/mod.py#configure');
    assert.equal(configure?.summary, 'def configure(first, second: dict[str, int] = {}, *, flag=False) -> "Config" — Configure it.');
    assert.equal(configure?.body, 'Configure it.\n\nDetails:\n    indented item.');
    const k = result.nodes.find((n) => n.id === 'code:pkg/mod.py#K');
    assert.equal(k?.summary, 'class K(Base, metaclass=Meta) — single line');
    assert.equal(k?.body, 'single line');
    assert.deepEqual(linkData(result).bases, [{ cls: 'K', line: 14, path: ['Base'] }]);
  });

  it('does not take a non-first string or an f-string as a docstring', () => {
    const result = extractText('def a():\n    x = 1\n    "not a docstring"\n\ndef b():\n    f"no {a}"\n');
    assert.deepEqual(result.nodes.map((n) => n.body), ['', '', '']);
  });
});

describe('extract: imports and calls', () => {
  it('records every import form with its scope', () => {
    const source = [
      'import a.b',
      'import a.b as ab, c',
      'from ..x.y import z as w, v',
      'from . import sibling',
      'from pkg import *',
      'from __future__ import annotations',
      'def f():',
      '    import local.mod',
      '',
    ].join('\n');
    assert.deepEqual(linkData(extractText(source)).imports, [
      { line: 1, scope: '', level: 0, module: 'a.b', alias: null, names: null, wildcard: false },
      { line: 2, scope: '', level: 0, module: 'a.b', alias: 'ab', names: null, wildcard: false },
      { line: 2, scope: '', level: 0, module: 'c', alias: null, names: null, wildcard: false },
      { line: 3, scope: '', level: 2, module: 'x.y', alias: null, names: [{ name: 'z', alias: 'w' }, { name: 'v', alias: null }], wildcard: false },
      { line: 4, scope: '', level: 1, module: '', alias: null, names: [{ name: 'sibling', alias: null }], wildcard: false },
      { line: 5, scope: '', level: 0, module: 'pkg', alias: null, names: [], wildcard: true },
      { line: 8, scope: 'f', level: 0, module: 'local.mod', alias: null, names: null, wildcard: false },
    ]);
  });

  it('never links parameters, assigned names, loop, with, except, walrus or lambda names', () => {
    const source = [
      'def f(a, cb: int, *xs: int, **kw):',
      '    with open(a) as fh:',
      '        fh()',
      '    try:',
      '        pass',
      '    except E as err:',
      '        err()',
      '    for g in xs: g()',
      '    (h := cb)',
      '    h()',
      '    k = lambda q: q() + cb()',
      '    global gg',
      '    gg()',
      '    kw()',
      '    helper()',
      '',
    ].join('\n');
    assert.deepEqual(linkData(extractText(source)).calls, [
      { owner: 'f', line: 2, path: ['open'], cls: null },
      { owner: 'f', line: 3, path: null, cls: null },
      { owner: 'f', line: 7, path: null, cls: null },
      { owner: 'f', line: 8, path: null, cls: null },
      { owner: 'f', line: 10, path: null, cls: null },
      { owner: 'f', line: 11, path: null, cls: null },
      { owner: 'f', line: 11, path: null, cls: null },
      { owner: 'f', line: 13, path: ['gg'], cls: null },
      { owner: 'f', line: 14, path: null, cls: null },
      { owner: 'f', line: 15, path: ['helper'], cls: null },
    ]);
  });

  it('never links comprehension variables, even at module level', () => {
    const source = 'def f():\n    pass\n\nresults = [f() for f in handlers] + list(g() for g in {f: 1})\nf()\n';
    assert.deepEqual(linkData(extractText(source)).calls, [
      { owner: '', line: 4, path: null, cls: null },
      { owner: '', line: 4, path: ['list'], cls: null },
      { owner: '', line: 4, path: null, cls: null },
      { owner: '', line: 5, path: ['f'], cls: null },
    ]);
  });

  it('tracks the receiver through classmethods and closures, not through a shadowing parameter', () => {
    const source = [
      'class A:',
      '    @classmethod',
      '    def make(cls):',
      '        return cls.other()',
      '    def other(self):',
      '        def shadow(self):',
      '            self.x()',
      '        def closure():',
      '            self.y()',
      '        self.a.b()',
      '        x()[0]()',
      '',
    ].join('\n');
    assert.deepEqual(linkData(extractText(source)).calls, [
      { owner: 'A', line: 2, path: ['classmethod'], cls: null },
      { owner: 'A.make', line: 4, path: ['<self>', 'other'], cls: 'A' },
      { owner: 'A.other.shadow', line: 7, path: null, cls: null },
      { owner: 'A.other.closure', line: 9, path: ['<self>', 'y'], cls: 'A' },
      { owner: 'A.other', line: 10, path: null, cls: null },
      { owner: 'A.other', line: 11, path: null, cls: null },
      { owner: 'A.other', line: 11, path: ['x'], cls: null },
    ]);
  });
});

describe('extract: bad source', () => {
  it('reports a missing token as a syntax_error warning and keeps the recovered nodes', () => {
    const result = extractPath('broken.py');
    assert.deepEqual(nodeLines(result.nodes), [
      'code:broken.py module 1-10 []',
      'code:broken.py#ok function 1-2 [exported]',
      'code:broken.py#bad function 5-6 [exported]',
      'code:broken.py#Fine class 9-10 [exported]',
    ]);
    assert.deepEqual(result.issues, [{
      severity: 'warning',
      code: 'syntax_error',
      message: 'Python syntax error: missing ")"',
      path: 'broken.py',
      line: 5,
      node_id: 'code:broken.py',
    }]);
  });

  it('reports an ERROR region with its line', () => {
    const result = extractText('class A:\n    pass\n\n$$$ garbage ((\n\nclass B:\n    pass\n');
    assert.deepEqual(result.issues.map((i) => [i.severity, i.code, i.line]), [['warning', 'syntax_error', 4]]);
    assert.deepEqual(result.nodes.map((n) => n.id), ['code:pkg/mod.py', 'code:pkg/mod.py#A', 'code:pkg/mod.py#B']);
  });

  it('caps syntax issues per file at 20 plus one summary issue', () => {
    const source = Array.from({ length: 30 }, (_, i) => `def f${i}(:\n    pass\n`).join('\n');
    const issues = extractText(source).issues;
    assert.equal(issues.length, 21);
    assert.match(issues[20]?.message ?? '', /10 more syntax errors/);
  });

  it('never throws on empty, binary, CRLF or deeply nested input and is deterministic', () => {
    const inputs = [
      '',
      '\u0000\u0001\u0002\uFFFD\u00ff',
      'def f():\r\n    """Doc\r\n    line"""\r\n    return 1\r\n',
      `x = ${'('.repeat(3000)}1${')'.repeat(3000)}\n`,
      `y = ${Array.from({ length: 5000 }, () => 'a').join(' + ')}\n`,
      'def ünïcode(ä):\n    """Ünïcode."""\n    return ä\n',
    ];
    for (const content of inputs) {
      const first = extractText(content);
      assert.deepEqual(extractText(content), first);
      assert.equal(first.nodes[0]?.id, 'code:pkg/mod.py');
    }
    const crlf = extractText(inputs[2] as string);
    assert.equal(crlf.nodes[1]?.body, 'Doc\nline');
    assert.deepEqual(nodeLines(crlf.nodes), ['code:pkg/mod.py module 1-4 []', 'code:pkg/mod.py#f function 1-4 [exported]']);
    const unicode = extractText(inputs[5] as string);
    assert.equal(unicode.nodes[1]?.id, 'code:pkg/mod.py#ünïcode');
    assert.equal(unicode.nodes[1]?.summary, 'def ünïcode(ä) — Ünïcode.');
  });

  it('returns null from readPythonLinkData for foreign or malformed data', () => {
    assert.equal(readPythonLinkData(null), null);
    assert.equal(readPythonLinkData({ version: 2, imports: [], calls: [], bases: [], all: null }), null);
    assert.equal(readPythonLinkData({ version: 1, imports: [{}], calls: [], bases: [], all: null }), null);
    assert.deepEqual(readPythonLinkData({ version: 1, imports: [], calls: [], bases: [], all: null }), { version: 1, imports: [], calls: [], bases: [], all: null });
  });
});
