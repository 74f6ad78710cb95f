// Pins that docforge_get_node's handler never puts a body window longer than the response limit into its result (issue 8 item 1: the size fitting would otherwise serialize a multi-megabyte body whole).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { IndexManager } from '@docforge/sync';
import { computeCapabilities, computeEffectivePolicy } from '@docforge/policy';
import type { ToolContext } from '../src/define-tool.js';
import { implementedTools } from '../src/registry.js';

test('the body window of a 2.5 MB node is at most max_output_chars, and the rest is offered by offset', async () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'docforge-get-node-'));
  mkdirSync(path.join(root, 'docs'));
  writeFileSync(path.join(root, 'docforge.toml'), 'schema_version = 1\n[project]\nid = "big"\n[sources]\ncontent_roots = ["docs"]\n[adapter]\ncode = "none"\n[limits]\nmax_output_chars = 20000\n');
  writeFileSync(path.join(root, 'docs', 'big.md'), `# Big\n\n${'zebra lorem\n'.repeat(220_000)}`);
  const manager = new IndexManager({ root, noAst: false });
  try {
    const policy = computeEffectivePolicy({ capabilityMode: 'read', factory: 'generic', proposalWriter: null, canonicalApplier: null, noAst: false, diagnostics: false, adapterStrategy: 'ast', projectAdapterModule: null });
    const ctx: ToolContext = { manager, policy, capabilities: computeCapabilities(policy, new Set(implementedTools().keys())), boundAt: new Date(0).toISOString(), toolList: [] };
    const sync = await manager.sync();
    const tool = implementedTools().get('docforge_get_node')!;
    const result = (await tool.runSync(ctx, sync, tool.checkArguments({ node_id: 'big' }), null)).result as { node: { body: string }; body_total_chars: number; next_body_offset: number | null; body_truncated: boolean };
    assert.ok(result.body_total_chars > 2_500_000, `${result.body_total_chars}`);
    assert.equal(result.node.body.length, 20_000);
    assert.equal(result.next_body_offset, 20_000);
    assert.equal(result.body_truncated, true);
    // An explicit, larger window is capped the same way; a smaller one is kept.
    const explicit = (await tool.runSync(ctx, sync, tool.checkArguments({ node_id: 'big', max_body_chars: 1_000_000, body_offset: 12 }), null)).result as typeof result;
    assert.equal(explicit.node.body.length, 20_000);
    assert.equal(explicit.next_body_offset, 20_012);
    const small = (await tool.runSync(ctx, sync, tool.checkArguments({ node_id: 'big', max_body_chars: 100 }), null)).result as typeof result;
    assert.equal(small.node.body.length, 100);
  } finally {
    await manager.close();
    rmSync(root, { recursive: true, force: true });
  }
});
