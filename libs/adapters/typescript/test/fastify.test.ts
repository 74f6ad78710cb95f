// Pins extraction and linking on the real fastify package (lib/, test/, fastify.js) read from node_modules.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, posix, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ModuleResolver } from '@docforge/core';
import { linkTypeScript, SpecifierResolver, extractTypeScript } from '../src/adapter.js';
import type { TsExtractResult, TsLinkData } from '../src/index.js';

const here = dirname(fileURLToPath(import.meta.url));
const ROOT = join(here, '../../../../../node_modules/fastify');

function walk(dir: string, out: string[]): string[] {
  for (const entry of readdirSync(dir).sort()) {
    const full = join(dir, entry);
    if (statSync(full).isDirectory()) {
      if (entry !== 'node_modules') walk(full, out);
    } else if (entry.endsWith('.js')) {
      out.push(relative(ROOT, full).split('\\').join('/'));
    }
  }
  return out;
}

const paths = [...walk(join(ROOT, 'lib'), []), ...walk(join(ROOT, 'test'), []), 'fastify.js'].sort();
const texts = new Map(paths.map((p) => [p, readFileSync(join(ROOT, p), 'utf8')]));
const known = new Set(paths);
const resolver: ModuleResolver = {
  hasFile: (p) => known.has(p),
  readText: (p) => {
    try {
      return readFileSync(join(ROOT, p), 'utf8');
    } catch {
      return null;
    }
  },
};
const extracted = new Map<string, TsExtractResult>(
  paths.map((path) => [path, extractTypeScript({ path, content: texts.get(path)!, strategy: 'ast', logic: true })]),
);
const linked = linkTypeScript(paths.map((path) => ({ path, ...extracted.get(path)! })), resolver);
const nodeIndex = new Map([...extracted.values()].flatMap((r) => r.nodes).map((n) => [n.id, n]));

test('lib/route.js is a module whose imports edges are exactly its relative require() targets', () => {
  assert.ok(nodeIndex.has('code:lib/route.js'));
  assert.ok(nodeIndex.has('code:lib/route.js#buildRouting'));
  const text = texts.get('lib/route.js')!;
  const expected = new Set<string>();
  for (const match of text.matchAll(/require\('(\.[^']+)'\)/g)) {
    const target = posix.join('lib', match[1]!);
    expected.add(`code:${target.endsWith('.js') ? target : `${target}.js`}`);
  }
  assert.ok(expected.size >= 10, 'route.js requires many sibling modules');
  const actual = new Set(linked.edges.filter((e) => e.source_id === 'code:lib/route.js' && e.relation === 'imports').map((e) => e.target_id));
  assert.deepEqual([...actual].sort(), [...expected].sort());
});

test('lib functions have real callers at lines that call them', () => {
  const callers = linked.edges.filter((e) => e.relation === 'calls' && e.target_id === 'code:lib/route.js#buildRouting');
  assert.deepEqual(callers.map((e) => `${e.source_id}@${e.source_path}`), ['code:fastify.js#fastify@fastify.js']);
  const line = texts.get('fastify.js')!.split('\n')[callers[0]!.line - 1]!;
  assert.match(line, /buildRouting\(/);
  // every calls edge points at a line that mentions the callee (a name, its class for constructors, or super)
  const calls = linked.edges.filter((e) => e.relation === 'calls');
  const specifiers = new SpecifierResolver(resolver, paths);
  assert.ok(calls.length > 300);
  for (const edge of calls) {
    const lines = texts.get(edge.source_path)!.split('\n').slice(edge.line - 1, edge.line + 2).join('\n');
    const qualified = edge.target_id.split('#')[1]!.replace(/~\d+$/, '');
    const parts = qualified.split('.');
    const name = parts[parts.length - 1]!;
    const owner = parts[parts.length - 2] ?? '';
    const calleeModule = edge.target_id.slice('code:'.length).split('#')[0]!;
    const data = extracted.get(edge.source_path)!.link_data as TsLinkData;
    // a local alias bound to the callee's module, e.g. const getSecuredInitialConfig = require('./lib/initial-config-validation.js')
    const aliased = data.bindings.some((b) => {
      const resolution = specifiers.resolve(edge.source_path, b.specifier);
      return lines.includes(b.local) && resolution.kind === 'file' && resolution.path === calleeModule;
    });
    const mentioned = aliased || lines.includes(name) || (name === 'constructor' && (lines.includes(owner) || lines.includes('super')));
    assert.ok(mentioned, `${edge.source_id} -> ${edge.target_id} at ${edge.source_path}:${edge.line}`);
  }
  // prototype methods call each other through this.*
  assert.ok(calls.some((e) => e.source_id.startsWith('code:lib/reply.js#Reply.') && e.target_id.startsWith('code:lib/reply.js#Reply.')));
});

test('tests are linked as tested_by and the counters add up', () => {
  const testedBy = linked.edges.filter((e) => e.relation === 'tested_by');
  assert.ok(testedBy.some((e) => e.source_id === 'code:fastify.js' && e.target_id.startsWith('code:test/')));
  assert.ok(testedBy.some((e) => e.source_id === 'code:fastify.js#fastify'));
  assert.ok(testedBy.every((e) => nodeIndex.get(e.target_id)?.capabilities.includes('test')));
  assert.ok(testedBy.every((e) => !nodeIndex.get(e.source_id)?.capabilities.includes('test')));
  const { calls_total: total, calls_resolved: resolved, calls_unresolved: unresolved } = linked.stats;
  assert.equal(total, resolved! + unresolved!);
  assert.ok(resolved! > 1000);
  for (const edge of linked.edges) {
    assert.ok(nodeIndex.has(edge.source_id), edge.source_id);
    assert.ok(nodeIndex.has(edge.target_id), edge.target_id);
  }
});

test('every lib file parses cleanly and its Logic is well formed', () => {
  for (const [path, result] of extracted) {
    if (path.startsWith('lib/') || path === 'fastify.js') assert.deepEqual(result.issues, [], path);
    const owners = new Map<string, { start: number; end: number; steps: number }>();
    for (const node of result.nodes) owners.set(node.id, { start: node.start_line, end: node.end_line, steps: 0 });
    for (const step of result.logic_steps) {
      const owner = owners.get(step.owner_id);
      assert.ok(owner, step.owner_id);
      assert.equal(step.step, owner.steps, `${step.owner_id} numbering`);
      owner.steps += 1;
      assert.ok(step.start_line >= owner.start && step.end_line <= owner.end && step.start_line <= step.end_line, `${step.owner_id} step ${step.step}`);
      assert.ok(step.label.length <= 120 && !step.label.includes('\n'));
    }
    for (const flow of result.logic_flows) {
      const owner = owners.get(flow.owner_id)!;
      assert.ok(flow.from_step < owner.steps && flow.to_step < owner.steps, `${flow.owner_id} flow`);
    }
  }
  const route = extracted.get('lib/route.js')!;
  const steps = route.logic_steps.filter((s) => s.owner_id === 'code:lib/route.js#buildRouting');
  assert.equal(steps[0]!.kind, 'entry');
  assert.equal(steps[steps.length - 1]!.kind, 'exit');
  assert.ok(steps.some((s) => s.kind === 'return'));
});
