// Pins effective policy resolution, fail-closed startup errors, excluded operations, immutability, hashing and the legacy adapter_policy bytes.
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DocforgeError } from '@docforge/core';
import { computeEffectivePolicy, legacyAdapterPolicy } from '../src/index.js';
import type { CapabilityMode, EffectivePolicy } from '../src/index.js';
import { policyOptions } from './helpers.js';

/** SHA-256 hex by node:crypto: expectations never use the implementation's own hash. */
function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** RFC 8785 canonical JSON of plain JSON values (undefined members dropped), written independently of @docforge/core. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

const options = policyOptions;

const BASE_EXCLUDED = [
  'arbitrary_file_read', 'arbitrary_file_write', 'arbitrary_renderer_execution', 'cross_project_retrieval', 'deployment',
  'external_http_binding', 'git_mutation', 'global_project_selection', 'project_build', 'publication', 'shell_execution',
];

function assertDeepFrozen(value: unknown, path = 'policy'): void {
  if (value === null || typeof value !== 'object') return;
  assert.ok(Object.isFrozen(value), `${path} is frozen`);
  for (const [key, child] of Object.entries(value)) assertDeepFrozen(child, `${path}.${key}`);
}

function assertInvalid(fn: () => unknown, pattern: RegExp): void {
  assert.throws(fn, (error: unknown) => {
    assert.ok(error instanceof DocforgeError);
    assert.equal(error.code, 'invalid_arguments');
    assert.equal(error.remediation, 'fix_arguments');
    assert.match(error.message, pattern);
    return true;
  });
}

test('application mode without --canonical-applier fails closed with invalid_arguments', () => {
  assertInvalid(() => computeEffectivePolicy(options({ capabilityMode: 'application', proposalWriter: 'agent' })), /application.*requires --canonical-applier/);
  assertInvalid(() => computeEffectivePolicy(options({ capabilityMode: 'application', factory: 'project' })), /--canonical-applier/);
});

test('the read-only factory refuses any wider mode instead of registering proposal tools', () => {
  for (const mode of ['proposal', 'application', 'operator'] as const) {
    assertInvalid(() => computeEffectivePolicy(options({ factory: 'read_only', capabilityMode: mode, canonicalApplier: 'owner' })), /read-only/);
  }
  const policy = computeEffectivePolicy(options({ factory: 'read_only', proposalWriter: 'agent', canonicalApplier: 'owner' }));
  assert.equal(policy.capability_mode, 'read');
  assert.deepEqual(policy.proposal, { enabled: false, writer_id: null });
  assert.deepEqual(policy.application, { enabled: false, applier_id: null, exact_hash_required: true });
});

test('bad option values fail closed', () => {
  assertInvalid(() => computeEffectivePolicy(options({ capabilityMode: 'admin' as CapabilityMode })), /--capability-mode/);
  assertInvalid(() => computeEffectivePolicy(options({ proposalWriter: '' })), /--proposal-writer/);
  assertInvalid(() => computeEffectivePolicy(options({ proposalWriter: '   ' })), /--proposal-writer/);
  assertInvalid(() => computeEffectivePolicy(options({ canonicalApplier: 'own\ner' })), /--canonical-applier/);
  assertInvalid(() => computeEffectivePolicy(options({ canonicalApplier: 'x'.repeat(257) })), /--canonical-applier/);
  assertInvalid(() => computeEffectivePolicy(options({ adapterStrategy: 'treesitter' as 'ast' })), /strategy/);
});

test('excluded operations: contract categories always, canonical_application without the gate, sorted', () => {
  const proposal = computeEffectivePolicy(options({ proposalWriter: 'agent' }));
  assert.deepEqual([...proposal.excluded_operations], [...BASE_EXCLUDED, 'canonical_application'].sort());
  const application = computeEffectivePolicy(options({ capabilityMode: 'application', canonicalApplier: 'owner' }));
  assert.deepEqual([...application.excluded_operations], BASE_EXCLUDED);
  assert.equal(application.application.enabled, true);
  assert.equal(application.application.applier_id, 'owner');
});

test('--no-ast adds adapter_ast_upgrade and function_logic_extraction, forbids Logic, and preserves the strategy', () => {
  const policy = computeEffectivePolicy(options({ noAst: true, capabilityMode: 'application', canonicalApplier: 'owner' }));
  assert.deepEqual([...policy.excluded_operations], [...BASE_EXCLUDED, 'adapter_ast_upgrade', 'function_logic_extraction'].sort());
  assert.deepEqual(policy.ast, { no_ast: true, adapter_strategy: 'ast', logic_allowed: false });
  const sorted = [...policy.excluded_operations].sort();
  assert.deepEqual([...policy.excluded_operations], sorted);
  // --no-ast narrows nothing else: mode, proposal and application are unchanged.
  const withoutNoAst = computeEffectivePolicy(options({ capabilityMode: 'application', canonicalApplier: 'owner' }));
  assert.equal(policy.capability_mode, withoutNoAst.capability_mode);
  assert.deepEqual(policy.application, withoutNoAst.application);
  assert.deepEqual(policy.proposal, withoutNoAst.proposal);
});

test('Logic is allowed only for the ast strategy without --no-ast', () => {
  assert.equal(computeEffectivePolicy(options()).ast.logic_allowed, true);
  assert.equal(computeEffectivePolicy(options({ adapterStrategy: 'lexical' })).ast.logic_allowed, false);
  assert.equal(computeEffectivePolicy(options({ adapterStrategy: 'lexical' })).excluded_operations.includes('function_logic_extraction'), false);
});

test('the policy is deep-frozen and cannot be altered after startup', () => {
  const policy = computeEffectivePolicy(options({ noAst: true, proposalWriter: 'agent', diagnostics: true }));
  assertDeepFrozen(policy);
  assert.throws(() => {
    (policy as { capability_mode: string }).capability_mode = 'operator';
  }, TypeError);
  assert.throws(() => (policy.excluded_operations as string[]).pop(), TypeError);
  assert.throws(() => {
    (policy.ast as { no_ast: boolean }).no_ast = false;
  }, TypeError);
  assert.equal(policy.ast.no_ast, true);
});

test('policy_hash is the hash of the canonical JSON of every other field and changes with every input', () => {
  const policy = computeEffectivePolicy(options({ proposalWriter: 'agent', diagnostics: true }));
  const { policy_hash, ...rest } = policy;
  assert.equal(policy_hash, sha256Hex(canonical(rest)));
  assert.match(policy_hash, /^[0-9a-f]{64}$/);
  const variants: EffectivePolicy[] = [
    policy,
    computeEffectivePolicy(options({ proposalWriter: 'agent' })),
    computeEffectivePolicy(options({ proposalWriter: 'other' })),
    computeEffectivePolicy(options({ proposalWriter: 'agent', diagnostics: true, noAst: true })),
    computeEffectivePolicy(options({ proposalWriter: 'agent', diagnostics: true, capabilityMode: 'proposal' })),
    computeEffectivePolicy(options({ proposalWriter: 'agent', diagnostics: true, projectAdapterModule: './adapter.js' })),
  ];
  assert.equal(new Set(variants.map((p) => p.policy_hash)).size, variants.length);
  assert.equal(computeEffectivePolicy(options({ proposalWriter: 'agent', diagnostics: true })).policy_hash, policy_hash, 'deterministic');
});

test('the project adapter module specifier never enters the policy', () => {
  const policy = computeEffectivePolicy(options({ projectAdapterModule: '/home/owner/secret/adapter.mjs' }));
  assert.deepEqual(policy.adapter, { project_owned: true });
  assert.ok(!JSON.stringify(policy).includes('secret'));
});

test('legacy adapter_policy is byte-compatible for the default and --no-ast bindings', () => {
  assert.equal(
    JSON.stringify(legacyAdapterPolicy(computeEffectivePolicy(options()))),
    '{"adapter_evolution":"allowed","ast_analysis":"allowed","logic_indexing":"allowed","no_ast":false}',
  );
  assert.equal(
    JSON.stringify(legacyAdapterPolicy(computeEffectivePolicy(options({ noAst: true })))),
    '{"adapter_evolution":"forbidden","ast_analysis":"forbidden","logic_indexing":"forbidden","no_ast":true}',
  );
  // The projection depends on --no-ast alone: mode, access gates and strategy never widen or change it.
  const noAstApplication = computeEffectivePolicy(options({ noAst: true, capabilityMode: 'application', canonicalApplier: 'o', adapterStrategy: 'lexical' }));
  assert.equal(
    JSON.stringify(legacyAdapterPolicy(noAstApplication)),
    '{"adapter_evolution":"forbidden","ast_analysis":"forbidden","logic_indexing":"forbidden","no_ast":true}',
  );
  assert.equal(
    JSON.stringify(legacyAdapterPolicy(computeEffectivePolicy(options({ factory: 'read_only', adapterStrategy: 'lexical' })))),
    '{"adapter_evolution":"allowed","ast_analysis":"allowed","logic_indexing":"allowed","no_ast":false}',
  );
  assert.ok(Object.isFrozen(legacyAdapterPolicy(noAstApplication)));
});
