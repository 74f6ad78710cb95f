// Pins docforge_get_logic's logic_not_found message (new-user trial u2): a Python function has no Logic because the Python
// adapter builds none, and the message says so instead of "Logic exists for functions and methods only"; a class still gets that one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { IndexManager } from '@docforge/sync';
import { computeCapabilities, computeEffectivePolicy } from '@docforge/policy';
import type { ToolContext } from '../src/define-tool.js';
import { implementedTools } from '../src/registry.js';

test('logic_not_found names the language adapter that builds no Logic for a Python function', async () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'docforge-logic-absent-'));
  mkdirSync(path.join(root, 'src'));
  writeFileSync(path.join(root, 'docforge.toml'), 'schema_version = 1\n[project]\nid = "logic-absent"\n[sources]\ncode_roots = ["src"]\n[adapter]\ncode = ["python"]\n');
  writeFileSync(path.join(root, 'src', 'calc.py'), 'def add(a, b):\n    if a:\n        return a + b\n    return b\n\n\nclass Box:\n    def size(self):\n        return 1\n');
  const manager = new IndexManager({ root, noAst: false });
  try {
    const policy = computeEffectivePolicy({ capabilityMode: 'read', factory: 'generic', proposalWriter: null, canonicalApplier: null, noAst: false, diagnostics: false, adapterStrategy: 'ast', projectAdapterModule: null });
    const ctx: ToolContext = { manager, policy, capabilities: computeCapabilities(policy, new Set(implementedTools().keys())), boundAt: new Date(0).toISOString(), toolList: [] };
    const sync = await manager.sync();
    const tool = implementedTools().get('docforge_get_logic')!;
    const failure = async (id: string): Promise<{ code: string; message: string }> => {
      try {
        await tool.runSync(ctx, sync, tool.checkArguments({ node_id: id }), null);
      } catch (error) {
        return error as { code: string; message: string };
      }
      throw new Error(`${id} has Logic`);
    };
    const fn = await failure('code:src/calc.py#add');
    assert.equal(fn.code, 'logic_not_found');
    assert.match(fn.message, /\(kind function\) has no stored Logic; the python language adapter builds no Logic/);
    assert.doesNotMatch(fn.message, /functions and methods only/);
    const method = await failure('code:src/calc.py#Box.size');
    assert.match(method.message, /\(kind method\) has no stored Logic; the python language adapter builds no Logic/);
    const cls = await failure('code:src/calc.py#Box');
    assert.match(cls.message, /\(kind class\) has no stored Logic; Logic exists for functions and methods only\.$/);
  } finally {
    await manager.close();
    rmSync(root, { recursive: true, force: true });
  }
});
