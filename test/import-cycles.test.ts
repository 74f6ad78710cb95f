// Pins "no file-level import cycle" (issue 7): the import graph of every source file under apps/*/src, libs/**/src and protocol/src (generated code excluded), following relative imports and @docforge package imports to their src/index.ts, type-only and dynamic imports included.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { REPO_ROOT } from './helpers/paths.js';
import { allSourceFiles, repoPath, resolveRelative, scanFile, workspaces } from './helpers/source-graph.js';

/** The files each file imports (resolved to source files), keyed and valued by repository-relative path. */
function importGraph(): Map<string, string[]> {
  const entries = new Map(workspaces().map((ws) => [ws.name, path.join(REPO_ROOT, ws.dir, 'src', 'index.ts')]));
  const files = allSourceFiles();
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets = new Set<string>();
    for (const ref of scanFile(file).references) {
      if (ref.kind === 'resolve') continue;
      const target = ref.specifier.startsWith('.') ? resolveRelative(file, ref.specifier) : entries.get(ref.specifier) ?? null;
      if (target !== null && known.has(target)) targets.add(repoPath(target));
    }
    graph.set(repoPath(file), [...targets].sort());
  }
  return graph;
}

/** Strongly connected components with more than one file, or a file importing itself (Tarjan). */
function cyclicComponents(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const connect = (v: string): void => {
    index.set(v, counter);
    low.set(v, counter);
    counter += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (graph.get(v) ?? []).includes(v)) out.push(component.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) connect(v);
  return out;
}

/** One shortest cycle through the first file of a component, as `a → b → a`. */
function cycleThrough(graph: Map<string, string[]>, component: string[]): string {
  const inside = new Set(component);
  const start = component[0]!;
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const v = queue.shift()!;
    for (const w of graph.get(v) ?? []) {
      if (!inside.has(w)) continue;
      if (w === start) {
        const chain = [v];
        while (chain[0] !== start) chain.unshift(previous.get(chain[0]!)!);
        return [...chain, start].join(' → ');
      }
      if (!previous.has(w)) {
        previous.set(w, v);
        queue.push(w);
      }
    }
  }
  return component.join(', ');
}

test('cycle detection finds a two-file cycle and a self-import, and nothing in a chain', () => {
  const graph = new Map([['a', ['b']], ['b', ['a', 'c']], ['c', []], ['d', ['d']]]);
  assert.deepEqual(cyclicComponents(graph), [['a', 'b'], ['d']]);
  assert.equal(cycleThrough(graph, ['a', 'b']), 'a → b → a');
  assert.deepEqual(cyclicComponents(new Map([['a', ['b']], ['b', ['c']], ['c', []]])), []);
});

test('no file-level import cycle in apps, libs and protocol sources', () => {
  const graph = importGraph();
  assert.ok(graph.size > 50, `${graph.size} source files in the graph`);
  const cycles = cyclicComponents(graph).map((component) => `${cycleThrough(graph, component)}${component.length > 2 ? ` (component of ${component.length} files: ${component.join(', ')})` : ''}`);
  assert.deepEqual(cycles, [], `import cycles:\n${cycles.join('\n')}`);
});
