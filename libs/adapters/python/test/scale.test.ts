// Pins extract + link over 200 synthetic Python modules: exact graph counts, and a second pass equal to the first. Timings live in ops/bench/python-adapter.mjs.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { initPythonAdapter, pythonAdapter } from '../src/whole.js';
import type { SourceFile } from './helpers.js';

const MODULES = 200;

before(async () => {
  await initPythonAdapter();
});

function syntheticModule(i: number): SourceFile {
  const prev = i - 1;
  const lines = [
    `"""Synthetic module ${i}."""`,
    ...(i > 0 ? [`from . import mod_${prev}`, `from .mod_${prev} import Base${prev}`] : []),
    '',
    '',
    `class Base${i}${i > 0 ? `(Base${prev})` : ''}:`,
    `    """Base number ${i}."""`,
    '',
    '    def alpha(self, x):',
    '        return self.beta(x)',
    '',
    '    def beta(self, x):',
    `        return helper${i}(x)`,
    '',
    '    def gamma(self):',
    '        yield from range(3)',
    '',
    '',
    `class Worker${i}(Base${i}):`,
    '    async def run(self):',
    '        self.alpha(1)',
    ...(i > 0 ? [`        mod_${prev}.helper${prev}(2)`] : []),
    `        return _private${i}()`,
    '',
    '',
    `def helper${i}(x):`,
    '    total = 0',
    '    for value in [x, x + 1, x + 2]:',
    '        if value % 2:',
    '            total += value',
    '        else:',
    '            total -= value',
    '    return total',
    '',
    '',
    `def _private${i}():`,
    '    def inner():',
    `        return helper${i}(0)`,
    '    return inner()',
    '',
  ];
  return { path: `gen/pkg/mod_${i}.py`, content: lines.join('\n') };
}

describe('extract + link at scale', () => {
  it(`links ${MODULES} modules with exact counts, and a second pass equals the first`, () => {
    const files = [{ path: 'gen/pkg/__init__.py', content: '' }, ...Array.from({ length: MODULES }, (_, i) => syntheticModule(i))];
    const parsed = files.map((f) => ({ path: f.path, ...pythonAdapter.extract({ path: f.path, content: f.content, strategy: 'ast', logic: true }) }));
    const paths = new Set(files.map((f) => f.path));
    const link = pythonAdapter.link(parsed, { hasFile: (p) => paths.has(p), readText: () => null });
    const again = files.map((f) => ({ path: f.path, ...pythonAdapter.extract({ path: f.path, content: f.content, strategy: 'ast', logic: true }) }));
    assert.deepEqual(again, parsed);

    assert.equal(parsed.reduce((sum, p) => sum + p.nodes.length, 0), 1 + MODULES * 10);
    assert.equal(parsed.reduce((sum, p) => sum + p.issues.length, 0), 0);
    const count = (relation: string): number => link.edges.filter((e) => e.relation === relation).length;
    assert.equal(count('imports'), MODULES - 1);
    assert.equal(count('inherits'), 2 * MODULES - 1);
    assert.equal(count('calls'), 7 * MODULES - 1);
    assert.equal(link.stats['calls_total'], 8 * MODULES - 1);
    assert.equal(link.stats['calls_resolved'], 7 * MODULES - 1);
    // Only range() stays unresolved in each module.
    assert.equal(link.stats['calls_unresolved'], MODULES);
    assert.equal(link.stats['imports_resolved'], 2 * (MODULES - 1));
  });
});
