// Pins issue 30's type-alias nodes on piscina 5.3.2's real sources (node_modules/piscina/src): every
// `type X = ...` declaration, exported or not, is a node of kind `type` (the kind the Go and Rust
// adapters give a type declaration) beside the interfaces, with its export marked; a declaration
// of the same name that is a value keeps the name's one node.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { extractTypeScript } from '../src/adapter.js';

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../../node_modules/piscina/src');

function extract(file: string, content = readFileSync(path.join(SRC, file), 'utf8'), at = `src/${file}`) {
  return extractTypeScript({ path: at, content, strategy: 'ast', logic: false });
}

/** `id kind [capabilities]` of each declaration node. */
const decls = (result: ReturnType<typeof extract>) => result.nodes.filter((n) => n.id.includes('#')).map((n) => `${n.id} ${n.kind} [${n.capabilities.join(',')}]`);

test("piscina's histogram.ts: its two exported type aliases are nodes beside the class, defined by the module", () => {
  const result = extract('histogram.ts');
  const list = decls(result);
  assert.ok(list.includes('code:src/histogram.ts#PiscinaHistogramSummary type [exported]'), JSON.stringify(list));
  assert.ok(list.includes('code:src/histogram.ts#PiscinaHistogram type [exported]'), JSON.stringify(list));
  assert.ok(list.some((d) => d.startsWith('code:src/histogram.ts#PiscinaHistogramHandler class')), JSON.stringify(list));
  const summary = result.nodes.find((n) => n.id === 'code:src/histogram.ts#PiscinaHistogramSummary')!;
  assert.equal(summary.start_line, 3);
  assert.match(summary.summary, /^type PiscinaHistogramSummary = \{ /);
  const defines = result.edges.filter((e) => e.relation === 'defines').map((e) => e.target_id);
  assert.ok(defines.includes('code:src/histogram.ts#PiscinaHistogram') && defines.includes('code:src/histogram.ts#PiscinaHistogramSummary'));
});

test('a function type alias (PiscinaLoadBalancer) and an unexported alias (TaskInfoParameters) are nodes too', () => {
  const balancer = decls(extract('worker_pool/balancer/index.ts'));
  assert.ok(balancer.includes('code:src/worker_pool/balancer/index.ts#PiscinaLoadBalancer type [exported]'), JSON.stringify(balancer));
  assert.ok(balancer.includes('code:src/worker_pool/balancer/index.ts#LeastBusyBalancerOptions type [exported]'), JSON.stringify(balancer));
  const queue = decls(extract('task_queue/index.ts'));
  assert.ok(queue.includes('code:src/task_queue/index.ts#TaskInfoParameters type []'), JSON.stringify(queue));
  assert.ok(queue.includes('code:src/task_queue/index.ts#TransferListItem type [exported]'), JSON.stringify(queue));
});

test('a value of the same name keeps the one node and its id; a namespace qualifies an alias', () => {
  const content = [
    'export type later = { a: number }',
    'export function later (): later { return { a: 1 } }',
    'export namespace Shapes { export type Point = { x: number } }',
  ].join('\n');
  const list = decls(extract('x.ts', content, 'src/x.ts'));
  assert.deepEqual(list.filter((d) => d.includes('#later')), ['code:src/x.ts#later function [exported]']);
  assert.ok(list.some((d) => d.startsWith('code:src/x.ts#Shapes.Point type')), JSON.stringify(list));
});
