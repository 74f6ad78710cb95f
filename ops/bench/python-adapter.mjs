#!/usr/bin/env node
// Python adapter benchmark: extract + link over N synthetic Python modules (the corpus of
// libs/adapters/python/test/scale.test.ts), first pass (cold WASM parser) and second pass
// (steady state). Prints figures; never asserts timings (the machines are shared and noisy).
// Usage: node ops/bench/python-adapter.mjs [--modules 200] [--runs 3]
import { parseArgs } from 'node:util';
import { loadPythonAdapter } from '@docforge/adapter-python';

const { initPythonAdapter, pythonAdapter } = await loadPythonAdapter();

const { values } = parseArgs({ options: { modules: { type: 'string', default: '200' }, runs: { type: 'string', default: '3' } } });
const MODULES = Number(values.modules);
const RUNS = Number(values.runs);

/** One synthetic module: classes with inheritance across modules, methods, calls, a loop and a branch. */
function syntheticModule(i) {
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

function pass(files) {
  const paths = new Set(files.map((f) => f.path));
  const t0 = performance.now();
  const parsed = files.map((f) => ({ path: f.path, ...pythonAdapter.extract({ path: f.path, content: f.content, strategy: 'ast', logic: true }) }));
  const t1 = performance.now();
  const link = pythonAdapter.link(parsed, { hasFile: (p) => paths.has(p), readText: () => null });
  const t2 = performance.now();
  return { extractMs: t1 - t0, linkMs: t2 - t1, edges: link.edges.length };
}

const t = performance.now();
await initPythonAdapter();
const initMs = performance.now() - t;
const files = [{ path: 'gen/pkg/__init__.py', content: '' }, ...Array.from({ length: MODULES }, (_, i) => syntheticModule(i))];
const lines = files.reduce((sum, f) => sum + f.content.split('\n').length, 0);
console.log(`python adapter: ${files.length} files, ${lines} lines; parser init ${initMs.toFixed(1)} ms`);
for (let run = 1; run <= RUNS; run += 1) {
  const cpu = process.cpuUsage();
  const r = pass(files);
  const used = process.cpuUsage(cpu);
  console.log(`pass ${run}${run === 1 ? ' (cold)' : ''}: extract ${r.extractMs.toFixed(1)} ms, link ${r.linkMs.toFixed(1)} ms, total ${(r.extractMs + r.linkMs).toFixed(1)} ms, ${r.edges} edges (process CPU ${((used.user + used.system) / 1000).toFixed(1)} ms)`);
}
