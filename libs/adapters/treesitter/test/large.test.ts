// Break-it B3 (issue 33): a 4 MiB Go file of one-line functions took 57 s and 905 MB. Repeated names (Go's many `init`s) got
// their `~n` suffix by trying every n from 2 (quadratic), and every one of 280,000 definitions became a node. Pins behaviour,
// not time: suffixes count on per name, and a file gives at most MAX_DEFINITIONS_PER_FILE definition nodes, the rest staying
// part of the module (their calls the module's).
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { CodeAdapter } from '@docforge/core';
import { MAX_DEFINITIONS_PER_FILE } from '../src/extract.js';
import { adapterFor } from './helpers.js';

let go: CodeAdapter;
before(async () => {
  go = await adapterFor('go');
});

describe('go adapter on a generated file of repeated definitions', () => {
  it('numbers repeats init, init~2, ... and stops making nodes at the per-file bound', () => {
    const count = MAX_DEFINITIONS_PER_FILE + 5_000;
    const content = `package big\n\nfunc helper() {}\n\n${'func init() { helper() }\n'.repeat(count)}`;
    assert.ok(content.length > 600_000);
    const result = go.extract({ path: 'big.go', content, strategy: 'ast', logic: true });
    const ids = result.nodes.map((n) => n.id);
    assert.equal(ids.length, 1 + MAX_DEFINITIONS_PER_FILE);
    assert.equal(new Set(ids).size, ids.length);
    assert.deepEqual(ids.slice(0, 5), ['code:big.go', 'code:big.go#helper', 'code:big.go#init', 'code:big.go#init~2', 'code:big.go#init~3']);
    assert.equal(ids.at(-1), `code:big.go#init~${MAX_DEFINITIONS_PER_FILE - 1}`);
    // One warning at the first definition left out: line 5 + the bound (the package clause, a blank, helper, a blank).
    assert.deepEqual(result.issues.map((i) => `${i.severity} ${i.code} @${i.line}`), [`warning code_definitions_bounded @${4 + MAX_DEFINITIONS_PER_FILE}`]);
    // Calls inside the definitions past the bound belong to the module; the module's calls resolve like any other.
    const link = go.link([{ path: 'big.go', ...result }], { hasFile: (p) => p === 'big.go', readText: () => null });
    const calls = link.edges.filter((e) => e.relation === 'calls');
    assert.ok(calls.some((e) => e.source_id === 'code:big.go' && e.target_id === 'code:big.go#helper'));
    assert.equal(calls.filter((e) => e.source_id.startsWith('code:big.go#init')).length, MAX_DEFINITIONS_PER_FILE - 1);
  });
});

// Issue 33 leftover 4: a 6,000-long Ruby `include` chain cost O(N²) in the linker's method resolution order (18.9 s CPU,
// ops/bench/mixin-chain.mjs) and overflowed the main thread's stack when a call's walk started at the far end of the chain.
// Pins behaviour, not time: the walk keeps its own stack and answers every call, whichever end the file starts at.
describe('ruby adapter on a generated 6,000-long include chain', () => {
  it('resolves every receiver call through the chain to the one module declaring it', async () => {
    const ruby = await adapterFor('ruby');
    const n = 6_000;
    const lines: string[] = [];
    for (let i = n - 1; i >= 1; i -= 1) lines.push(`module M${i}`, `  include M${i - 1}`, `  def f${i}`, '    base()', '  end', 'end');
    lines.push('module M0', '  def base', '  end', 'end');
    const result = ruby.extract({ path: 'lib/chain.rb', content: `${lines.join('\n')}\n`, strategy: 'ast', logic: false });
    const link = ruby.link([{ path: 'lib/chain.rb', ...result }], { hasFile: (p) => p === 'lib/chain.rb', readText: () => null });
    const calls = link.edges.filter((e) => e.relation === 'calls');
    assert.equal(calls.length, n - 1);
    assert.ok(calls.every((e) => e.target_id === 'code:lib/chain.rb#M0.base'));
  });
});
