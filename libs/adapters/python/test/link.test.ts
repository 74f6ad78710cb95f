// Pins cross-file Python linking: imports, calls and inherits edges, what stays unresolved, and the stats counters.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { initPythonAdapter, pythonAdapter } from '../src/whole.js';
import { edgeLines, extractAndLink, extractFile, fixtureDir, readProject } from './helpers.js';
import type { SourceFile } from './helpers.js';

before(async () => {
  await initPythonAdapter();
});

function file(path: string, ...lines: string[]): SourceFile {
  return { path, content: `${lines.join('\n')}\n` };
}

describe('link: the shop fixture', () => {
  const run = () => extractAndLink(readProject(fixtureDir('shop')));

  it('resolves imports: relative, parent-relative, absolute, aliased, wildcard; skips external and above-root', () => {
    assert.deepEqual(edgeLines(run().link.edges, 'imports'), [
      'code:app/__init__.py imports code:app/core.py @2',
      'code:app/core.py imports code:app/base.py @6',
      'code:app/core.py imports code:app/util.py @7',
      'code:app/sub/deep.py imports code:app/base.py @4',
      'code:app/sub/deep.py imports code:app/core.py @3',
      'code:app/sub/deep.py imports code:app/util.py @1',
      'code:main.py imports code:app/__init__.py @1',
      'code:main.py imports code:app/core.py @3',
      'code:tests/test_core.py imports code:app/core.py @1',
    ]);
  });

  it('resolves calls through local definitions, imports, re-exports, wildcards, self, super and bases', () => {
    assert.deepEqual(edgeLines(run().link.edges, 'calls'), [
      // `from .core import Engine` then Engine()
      'code:app/__init__.py#_internal calls code:app/__init__.py#make @13',
      'code:app/__init__.py#make calls code:app/core.py#Engine @9',
      'code:app/base.py#Base.setup calls code:app/base.py#Base.reset @8',
      // self.setup() is inherited from Base in another file
      'code:app/core.py#Engine.__init__ calls code:app/base.py#Base.setup @15',
      'code:app/core.py#Engine._tick calls code:app/core.py#Engine._tick.inner @27',
      'code:app/core.py#Engine._tick.inner calls code:app/util.py#helper @26',
      'code:app/core.py#Engine.build calls code:app/core.py#Engine @35',
      // super().step()
      'code:app/core.py#Engine.fetch calls code:app/base.py#Base.step @31',
      'code:app/core.py#Engine.fetch calls code:app/core.py#Engine.run @30',
      'code:app/core.py#Engine.run calls code:app/base.py#Base.step @18',
      'code:app/core.py#Engine.run calls code:app/core.py#Engine._tick @21',
      // `from . import util` then util.helper()
      'code:app/core.py#Engine.run calls code:app/util.py#helper @19',
      'code:app/core.py#_hidden calls code:app/core.py#stream @48',
      // `import app.base as b` then b.Base()
      'code:app/sub/deep.py#go calls code:app/base.py#Base @11',
      // `import app.core` then app.core.Engine()
      'code:app/sub/deep.py#go calls code:app/core.py#Engine @10',
      // `from ..util import helper as h` then h()
      'code:app/sub/deep.py#go calls code:app/util.py#helper @9',
      'code:app/util.py#helper calls code:app/util.py#_fmt @2',
      'code:main.py calls code:main.py#cli @14',
      // `from app import make` and `import app` then app.make(): one edge, first line
      'code:main.py#cli calls code:app/__init__.py#make @7',
      // `from app.core import *` then stream()
      'code:main.py#cli calls code:app/core.py#stream @8',
      'code:tests/test_core.py#TestEngine.test_fetch calls code:tests/test_core.py#TestEngine.check @10',
      'code:tests/test_core.py#test_run calls code:app/core.py#Engine @5',
    ]);
  });

  it('emits inherits edges and only the three edge relations, each with its declaring file', () => {
    const { link } = run();
    assert.deepEqual(edgeLines(link.edges, 'inherits'), [
      'code:app/core.py#Engine inherits code:app/base.py#Base @10',
      'code:app/core.py#Engine inherits code:app/base.py#Mixin @10',
    ]);
    assert.deepEqual([...new Set(link.edges.map((e) => e.relation))].sort(), ['calls', 'imports', 'inherits']);
    for (const edge of link.edges) assert.ok(edge.source_id === `code:${edge.source_path}` || edge.source_id.startsWith(`code:${edge.source_path}#`));
    assert.deepEqual(link.issues, []);
  });

  it('counts every call site, resolved or not', () => {
    assert.deepEqual(run().link.stats, {
      files_linked: 9,
      files_without_link_data: 0,
      imports_total: 13,
      imports_resolved: 10,
      imports_unresolved: 3,
      // unresolved: os.getcwd, callback(), super(), @staticmethod, @property, str(),
      // b.Base().setup(), json.dumps, engine.run() (a local), Engine().run()
      calls_total: 33,
      calls_resolved: 23,
      calls_unresolved: 10,
      inherits_total: 2,
      inherits_resolved: 2,
      inherits_unresolved: 0,
    });
  });

  it('is deterministic and ignores file order', () => {
    const files = readProject(fixtureDir('shop'));
    const forward = extractAndLink(files).link;
    const backward = extractAndLink([...files].reverse()).link;
    assert.deepEqual(backward, forward);
  });
});

describe('link: resolution rules', () => {
  it('finds src-layout packages from a tests folder and namespace packages without __init__.py', () => {
    const { link } = extractAndLink([
      file('src/pkg/__init__.py'),
      file('src/pkg/a.py', 'def f():', '    pass'),
      file('tests/test_a.py', 'from pkg.a import f', 'import ns.sub.mod', '', 'def test_f():', '    f()', '    ns.sub.mod.g()'),
      file('ns/sub/mod.py', 'def g():', '    pass'),
    ]);
    assert.deepEqual(edgeLines(link.edges), [
      'code:tests/test_a.py imports code:ns/sub/mod.py @2',
      'code:tests/test_a.py imports code:src/pkg/a.py @1',
      'code:tests/test_a.py#test_f calls code:ns/sub/mod.py#g @6',
      'code:tests/test_a.py#test_f calls code:src/pkg/a.py#f @5',
    ]);
  });

  it('prefers the importing file package root and its top-level folder over the project root', () => {
    const { link } = extractAndLink([
      file('src/util.py', 'def h():', '    pass'),
      file('util.py', 'def h():', '    pass'),
      file('src/main.py', 'import util', 'util.h()'),
      file('main.py', 'import util', 'util.h()'),
    ]);
    assert.deepEqual(edgeLines(link.edges), [
      'code:main.py calls code:util.py#h @2',
      'code:main.py imports code:util.py @1',
      'code:src/main.py calls code:src/util.py#h @2',
      'code:src/main.py imports code:src/util.py @1',
    ]);
  });

  it('never guesses: unimported names, unknown files and relative imports above the root stay unresolved', () => {
    const { link } = extractAndLink([
      file('lib/util.py', 'def helper():', '    pass'),
      file('lib/ghost.py', 'def boo():', '    pass'),
      file('lib/app.py', 'from .ghost import boo', 'from ...up import thing', '', 'def run():', '    helper()', '    boo()', '    thing()'),
    ], ['lib/util.py', 'lib/app.py']);
    assert.deepEqual(edgeLines(link.edges), []);
    assert.equal(link.stats['calls_total'], 3);
    assert.equal(link.stats['calls_unresolved'], 3);
    assert.equal(link.stats['imports_unresolved'], 2);
  });

  it('resolves method calls up a multi-file class hierarchy, class-qualified calls and nested classes', () => {
    const { link } = extractAndLink([
      file('zoo/__init__.py'),
      file('zoo/base.py', 'class Animal:', '    def breathe(self):', '        pass', '', 'class Pet(Animal):', '    def name(self):', '        self.breathe()'),
      file('zoo/dog.py',
        'from zoo import base',
        'import external',
        '',
        'class Dog(base.Pet, external.Thing):',
        '    class Tag:',
        '        @staticmethod',
        '        def make():',
        '            pass',
        '',
        '    def run(self):',
        '        self.breathe()',
        '        self.name()',
        '        self.unknown()',
        '        Dog.Tag.make()',
        '        Dog.Tag()',
        '        base.Animal.breathe(self)',
      ),
    ]);
    assert.deepEqual(edgeLines(link.edges, 'inherits'), [
      'code:zoo/base.py#Pet inherits code:zoo/base.py#Animal @5',
      'code:zoo/dog.py#Dog inherits code:zoo/base.py#Pet @4',
    ]);
    assert.deepEqual(edgeLines(link.edges, 'calls'), [
      'code:zoo/base.py#Pet.name calls code:zoo/base.py#Animal.breathe @7',
      'code:zoo/dog.py#Dog.run calls code:zoo/base.py#Animal.breathe @11',
      'code:zoo/dog.py#Dog.run calls code:zoo/base.py#Pet.name @12',
      'code:zoo/dog.py#Dog.run calls code:zoo/dog.py#Dog.Tag @15',
      'code:zoo/dog.py#Dog.run calls code:zoo/dog.py#Dog.Tag.make @14',
    ]);
    assert.equal(link.stats['inherits_unresolved'], 1);
  });

  it('scopes function-local imports to their function and honours __all__ for wildcard imports', () => {
    const { link } = extractAndLink([
      file('p/__init__.py'),
      file('p/tools.py', '__all__ = ["public"]', '', 'def public():', '    pass', '', 'def other():', '    pass'),
      file('p/use.py',
        'from .tools import *',
        '',
        'def a():',
        '    from .tools import other',
        '    other()',
        '',
        'def b():',
        '    other()',
        '    public()',
      ),
    ]);
    assert.deepEqual(edgeLines(link.edges), [
      'code:p/use.py imports code:p/tools.py @1',
      'code:p/use.py#a calls code:p/tools.py#other @5',
      'code:p/use.py#b calls code:p/tools.py#public @9',
    ]);
  });

  it('follows package re-exports and stops on re-export cycles', () => {
    const { link } = extractAndLink([
      file('q/__init__.py', 'from .impl import work', 'from .loop import spin'),
      file('q/impl.py', 'def work():', '    pass'),
      file('q/loop.py', 'from .loop2 import spin'),
      file('q/loop2.py', 'from .loop import spin'),
      file('client.py', 'import q', 'from q import work as w', '', 'q.work()', 'w()', 'q.spin()', 'q.impl.work()'),
    ]);
    assert.deepEqual(edgeLines(link.edges, 'calls'), [
      'code:client.py calls code:q/impl.py#work @4',
    ]);
    assert.equal(link.stats['calls_total'], 4);
    assert.equal(link.stats['calls_resolved'], 3);
  });

  it('skips files whose link_data is missing or from another version', () => {
    const good = extractFile(file('m.py', 'def f():', '    g()', 'def g():', '    pass'));
    const stale = { ...extractFile(file('n.py', 'import m')), link_data: { version: 0 } };
    const none = { path: 'o.py', nodes: [], link_data: null };
    const link = pythonAdapter.link([good, stale, none], { hasFile: () => true, readText: () => null });
    assert.deepEqual(edgeLines(link.edges), ['code:m.py#f calls code:m.py#g @2']);
    assert.equal(link.stats['files_without_link_data'], 2);
    assert.equal(link.stats['files_linked'], 1);
  });
});
