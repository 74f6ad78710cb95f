// Pins every capability mode's tool surface and contract order, and the capabilities record derived from it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  APPLICATION_TOOLS,
  PROPOSAL_TOOLS,
  READ_TOOLS,
  computeCapabilities,
  computeEffectivePolicy,
  toolsForMode,
} from '../src/index.js';
import { policyOptions } from './helpers.js';

// Copied by hand from spec/MCP_CONTRACT.md, in the order the contract lists them.
const CONTRACT_READ = [
  'docforge_bootstrap', 'docforge_sync', 'docforge_project_info', 'docforge_get_contract', 'docforge_get_node',
  'docforge_get_logic', 'docforge_search', 'docforge_filter_nodes', 'docforge_backlinks', 'docforge_dependencies',
  'docforge_impact', 'docforge_get_context', 'docforge_get_task_context', 'docforge_validate_project',
  'docforge_render_status', 'docforge_visualize', 'docforge_stop_visualization', 'docforge_visualization_status',
  'docforge_get_generation_diff',
];
const CONTRACT_PROPOSAL = [
  'docforge_create_changeset', 'docforge_register_changes', 'docforge_list_changesets', 'docforge_get_changeset',
  'docforge_rebase_changeset', 'docforge_abandon_changeset', 'docforge_propose_node_create',
  'docforge_propose_node_update', 'docforge_propose_node_move', 'docforge_propose_relationship_update',
  'docforge_propose_node_delete', 'docforge_validate_changeset', 'docforge_get_changeset_diff',
  'docforge_preview_changeset',
];
const CONTRACT_APPLICATION = ['docforge_apply_changeset'];
const ALL = new Set([...CONTRACT_READ, ...CONTRACT_PROPOSAL, ...CONTRACT_APPLICATION]);

const options = policyOptions;

test('exported tool lists equal the contract lists exactly, in order', () => {
  assert.deepEqual([...READ_TOOLS], CONTRACT_READ);
  assert.deepEqual([...PROPOSAL_TOOLS], CONTRACT_PROPOSAL);
  assert.deepEqual([...APPLICATION_TOOLS], CONTRACT_APPLICATION);
  assert.equal(ALL.size, CONTRACT_READ.length + CONTRACT_PROPOSAL.length + 1, 'no tool name appears twice');
  assert.ok(Object.isFrozen(READ_TOOLS) && Object.isFrozen(PROPOSAL_TOOLS) && Object.isFrozen(APPLICATION_TOOLS));
});

test('read mode: read-only factory default and explicit --capability-mode read expose the read tools only', () => {
  for (const policy of [
    computeEffectivePolicy(options({ factory: 'read_only' })),
    computeEffectivePolicy(options({ capabilityMode: 'read', proposalWriter: 'agent', canonicalApplier: 'owner' })),
  ]) {
    assert.equal(policy.capability_mode, 'read');
    assert.deepEqual([...toolsForMode(policy)], CONTRACT_READ);
    const caps = computeCapabilities(policy, ALL);
    assert.deepEqual([...caps.tools], CONTRACT_READ);
    assert.deepEqual(caps.proposal_access, { enabled: false, writer_id: null });
    assert.deepEqual(caps.application_access, { enabled: false, applier_id: null });
  }
});

test('proposal mode: the generic command and the project factory default to read + proposal tools', () => {
  for (const factory of ['generic', 'project'] as const) {
    const policy = computeEffectivePolicy(options({ factory, proposalWriter: 'agent-1' }));
    assert.equal(policy.capability_mode, 'proposal');
    assert.equal(policy.capability_mode_source, 'factory_default');
    assert.deepEqual([...toolsForMode(policy)], [...CONTRACT_READ, ...CONTRACT_PROPOSAL]);
    const caps = computeCapabilities(policy, ALL);
    assert.deepEqual([...caps.tools], [...CONTRACT_READ, ...CONTRACT_PROPOSAL]);
    assert.deepEqual(caps.proposal_access, { enabled: true, writer_id: 'agent-1' });
    assert.deepEqual(caps.application_access, { enabled: false, applier_id: null });
  }
});

test('proposal mode without a writer keeps the proposal tools registered but proposal access disabled', () => {
  const policy = computeEffectivePolicy(options({ capabilityMode: 'proposal' }));
  const caps = computeCapabilities(policy, ALL);
  assert.deepEqual([...caps.tools], [...CONTRACT_READ, ...CONTRACT_PROPOSAL]);
  assert.deepEqual(caps.proposal_access, { enabled: false, writer_id: null });
});

test('explicit proposal mode with an applier still omits the application tool', () => {
  const policy = computeEffectivePolicy(options({ capabilityMode: 'proposal', canonicalApplier: 'owner' }));
  assert.equal(policy.application.enabled, false);
  assert.ok(!toolsForMode(policy).includes('docforge_apply_changeset'));
});

test('application mode adds exactly docforge_apply_changeset at the end; an applier selects it by default', () => {
  const expected = [...CONTRACT_READ, ...CONTRACT_PROPOSAL, 'docforge_apply_changeset'];
  const explicit = computeEffectivePolicy(options({ capabilityMode: 'application', canonicalApplier: 'owner', proposalWriter: 'agent' }));
  const implicit = computeEffectivePolicy(options({ canonicalApplier: 'owner', proposalWriter: 'agent' }));
  assert.equal(implicit.capability_mode, 'application');
  for (const policy of [explicit, implicit]) {
    assert.deepEqual([...toolsForMode(policy)], expected);
    const caps = computeCapabilities(policy, ALL);
    assert.deepEqual([...caps.tools], expected);
    assert.deepEqual(caps.application_access, { enabled: true, applier_id: 'owner' });
  }
});

test('operator mode adds no tools of its own; the application tool still needs the applier gate', () => {
  const without = computeEffectivePolicy(options({ capabilityMode: 'operator' }));
  assert.deepEqual([...toolsForMode(without)], [...CONTRACT_READ, ...CONTRACT_PROPOSAL]);
  const withApplier = computeEffectivePolicy(options({ capabilityMode: 'operator', canonicalApplier: 'owner' }));
  assert.deepEqual([...toolsForMode(withApplier)], [...CONTRACT_READ, ...CONTRACT_PROPOSAL, 'docforge_apply_changeset']);
});

test('capabilities keep contract order, drop unimplemented tools and ignore foreign names', () => {
  const policy = computeEffectivePolicy(options({ canonicalApplier: 'owner', proposalWriter: 'agent' }));
  const implemented = new Set(['docforge_search', 'docforge_shell', 'docforge_bootstrap', 'docforge_get_node', 'docforge_apply_changeset']);
  const caps = computeCapabilities(policy, implemented);
  assert.deepEqual([...caps.tools], ['docforge_bootstrap', 'docforge_get_node', 'docforge_search', 'docforge_apply_changeset']);
  assert.deepEqual(caps.proposal_access, { enabled: false, writer_id: null }, 'no proposal tool registered');
  assert.deepEqual(caps.application_access, { enabled: true, applier_id: 'owner' });
  assert.deepEqual(caps.logic, { available: false, reason: 'tool_not_registered' });
});

test('capabilities report why Logic is unavailable and are deep-frozen', () => {
  const ast = computeCapabilities(computeEffectivePolicy(options()), ALL);
  assert.deepEqual(ast.logic, { available: true, reason: null });
  const lexical = computeCapabilities(computeEffectivePolicy(options({ adapterStrategy: 'lexical' })), ALL);
  assert.deepEqual(lexical.logic, { available: false, reason: 'lexical_adapter_strategy' });
  const noAst = computeCapabilities(computeEffectivePolicy(options({ noAst: true, adapterStrategy: 'lexical' })), ALL);
  assert.deepEqual(noAst.logic, { available: false, reason: 'no_ast_policy' });
  assert.ok(noAst.tools.includes('docforge_get_logic'), 'the tool stays registered and answers adapter_policy_forbids_logic');
  assert.equal(noAst.policy_hash, computeEffectivePolicy(options({ noAst: true, adapterStrategy: 'lexical' })).policy_hash);
  assert.ok(Object.isFrozen(ast) && Object.isFrozen(ast.tools) && Object.isFrozen(ast.logic) && Object.isFrozen(ast.proposal_access));
  assert.throws(() => (ast.tools as string[]).push('docforge_shell'), TypeError);
});
