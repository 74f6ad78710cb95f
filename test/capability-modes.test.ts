// Pins the capability modes over stdio: each mode exposes exactly the contract's tool set in contract order (filtered to implemented tools), and application mode fails closed without a canonical applier.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { computeCapabilities, computeEffectivePolicy, PROPOSAL_TOOLS, READ_TOOLS, toolsForMode, type CapabilityMode } from '@docforge/policy';
import { implementedTools } from '@docforge/mcp-server';
import { loadToolSchemas } from '@docforge/protocol';
import { MCP_ENTRY } from './helpers/paths.js';
import { sharedExampleProject } from './helpers/projects.js';
import { useServer, type ServerOptions } from './helpers/server.js';

function implemented(): Set<string> {
  const schemas = loadToolSchemas();
  return new Set([...implementedTools().keys()].filter((name) => schemas.has(name)));
}

/** Whether `names` appear in the same relative order as in `contract`. */
function inContractOrder(names: readonly string[], contract: readonly string[]): boolean {
  const positions = names.map((name) => contract.indexOf(name));
  return positions.every((p, i) => p >= 0 && (i === 0 || p > positions[i - 1]!));
}

const CONTRACT_ORDER = [...READ_TOOLS, ...PROPOSAL_TOOLS, 'docforge_apply_changeset'];

describe('capability modes', () => {
  // Read only: every server binds the shared prebuilt example.
  const root = sharedExampleProject();

  const cases: { mode: CapabilityMode; options: ServerOptions; applier: string | null; writer: string | null }[] = [
    { mode: 'read', options: { mode: 'read' }, applier: null, writer: null },
    { mode: 'proposal', options: { mode: 'proposal', proposalWriter: 'agent-1' }, applier: null, writer: 'agent-1' },
    { mode: 'application', options: { mode: 'application', canonicalApplier: 'owner-1' }, applier: 'owner-1', writer: null },
    { mode: 'operator', options: { mode: 'operator' }, applier: null, writer: null },
  ];

  for (const c of cases) {
    test(`--capability-mode ${c.mode} lists exactly the contract surface of the mode, in contract order`, async () => {
      const policy = computeEffectivePolicy({
        capabilityMode: c.mode, factory: 'generic', proposalWriter: c.writer, canonicalApplier: c.applier, noAst: false, diagnostics: false,
        adapterStrategy: 'ast', projectAdapterModule: null,
      });
      const expected = toolsForMode(policy).filter((name) => implemented().has(name));
      const s = await useServer(root, c.options);
      const names = (await s.client.listTools()).tools.map((t) => t.name);
      assert.deepEqual(names, expected);
      assert.ok(inContractOrder(names, CONTRACT_ORDER));
      // Every implemented read tool is on every surface; proposal tools never on the read surface.
      for (const name of READ_TOOLS) assert.equal(names.includes(name), implemented().has(name), name);
      if (c.mode === 'read') assert.ok(names.every((n) => !(PROPOSAL_TOOLS as readonly string[]).includes(n)));
      assert.ok(names.includes('docforge_get_logic'), 'the Logic tool is registered');
      const boot = await s.call('docforge_bootstrap');
      assert.equal(boot.result!.effective_policy.capability_mode, c.mode);
      assert.equal(boot.result!.effective_policy.capability_mode_source, 'option');
      assert.deepEqual(boot.result!.capabilities, JSON.parse(JSON.stringify(computeCapabilities(policy, implemented()))));
      assert.deepEqual(boot.result!.capabilities.tools, names);
      assert.equal(boot.result!.effective_policy.application.enabled, c.mode === 'application');
      assert.equal(boot.result!.effective_policy.excluded_operations.includes('canonical_application'), c.mode !== 'application');
      const contract = await s.call('docforge_get_contract');
      assert.deepEqual(contract.result!.tools.map((t: { name: string }) => t.name), names);
      // The application tool exists only behind the applier gate (issue 11); outside the mode's
      // surface it is an unknown tool (JSON-RPC error), not a tool result.
      assert.equal(names.includes('docforge_apply_changeset'), c.mode === 'application');
      if (c.mode !== 'application') await assert.rejects(s.client.callTool({ name: 'docforge_apply_changeset', arguments: {} }), /Unknown tool/);
    });
  }

  test('application mode fails closed at start without --canonical-applier', () => {
    const result = spawnSync(process.execPath, [MCP_ENTRY, '--project-root', root, '--capability-mode', 'application'], { encoding: 'utf8', input: '', timeout: 120_000 });
    assert.notEqual(result.status, 0);
    assert.equal(result.stdout, '', 'nothing on the protocol channel');
    assert.match(result.stderr, /application requires --canonical-applier/);
  });

  test('an unknown capability mode is refused at start', () => {
    const result = spawnSync(process.execPath, [MCP_ENTRY, '--project-root', root, '--capability-mode', 'admin'], { encoding: 'utf8', input: '', timeout: 120_000 });
    assert.notEqual(result.status, 0);
    assert.match(result.stderr, /--capability-mode must be one of read, proposal, application, operator/);
  });

  test('without --capability-mode the generic command follows the ordinary project factory', async () => {
    const s = await useServer(root);
    const boot = await s.call('docforge_bootstrap');
    assert.equal(boot.result!.effective_policy.capability_mode, 'proposal');
    assert.equal(boot.result!.effective_policy.capability_mode_source, 'factory_default');
    assert.equal(boot.result!.effective_policy.factory, 'generic');
    assert.equal(boot.result!.capabilities.proposal_access.enabled, false);
  });
});
