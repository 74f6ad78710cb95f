// Pins every bullet of the contract's "Preserved no-AST bindings" over stdio and through the programmatic factories (in-process, InMemoryTransport): exact policy reports, instructions, Logic refusal before any read, no Logic published, a Logic index rejected.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { pino } from 'pino';
import { createProjectServer, createReadOnlyServer, implementedTools, type ProjectServer } from '@docforge/mcp-server';
import { computeCapabilities, computeEffectivePolicy, NO_AST_INSTRUCTIONS, PROPOSAL_TOOLS, READ_TOOLS, type PolicyOptions } from '@docforge/policy';
import { loadToolSchemas } from '@docforge/protocol';
import { tempDir } from './helpers/projects.js';
import { expectError, REQUEST_TIMEOUT_MS, useServer, type Envelope } from './helpers/server.js';

const CALC = [
  'export function total(items: number[]): number {',
  '  let sum = 0;',
  '  for (const item of items) {',
  '    if (item < 0) continue;',
  '    sum += item;',
  '  }',
  '  return sum;',
  '}',
  '',
].join('\n');

function codeProject(): string {
  const root = tempDir('docforge-noast-');
  mkdirSync(path.join(root, 'docs'));
  mkdirSync(path.join(root, 'src'));
  writeFileSync(path.join(root, 'docforge.toml'), 'schema_version = 1\n[project]\nid = "calc"\nname = "Calc"\n[sources]\ncontent_roots = ["docs"]\ncode_roots = ["src"]\n[adapter]\ncode = "typescript"\nstrategy = "ast"\n');
  writeFileSync(path.join(root, 'docs', 'index.md'), '# Calc\n\nSee [total](../src/calc.ts).\n');
  writeFileSync(path.join(root, 'src', 'calc.ts'), CALC);
  return root;
}

/** The implemented tool names the server can register (handlers that have protocol schemas). */
function implemented(): Set<string> {
  const schemas = loadToolSchemas();
  return new Set([...implementedTools().keys()].filter((name) => schemas.has(name)));
}

function policyOptions(overrides: Partial<PolicyOptions>): PolicyOptions {
  return {
    capabilityMode: null, factory: 'generic', proposalWriter: null, canonicalApplier: null, noAst: false, diagnostics: false,
    adapterStrategy: 'ast', projectAdapterModule: null, ...overrides,
  };
}

const LEGACY_NO_AST = '"adapter_policy":{"adapter_evolution":"forbidden","ast_analysis":"forbidden","logic_indexing":"forbidden","no_ast":true}';
const LEGACY_DEFAULT = '"adapter_policy":{"adapter_evolution":"allowed","ast_analysis":"allowed","logic_indexing":"allowed","no_ast":false}';

describe('docforge-mcp --no-ast over stdio', async () => {
  const root = codeProject();
  const s = await useServer(root, { noAst: true });

  test('docforge_get_logic returns adapter_policy_forbids_logic before anything is read or built', async () => {
    const e = await s.call('docforge_get_logic', { node_id: 'code:src/calc.ts#total' });
    const error = await expectError(e, 'adapter_policy_forbids_logic');
    assert.deepEqual({ code: error.code, remediation: error.remediation, reason: error.details.reason }, {
      code: 'adapter_policy_forbids_logic', remediation: 'use_graph_tools', reason: 'no_ast_policy',
    });
    assert.deepEqual({ revision: e.project!.revision, source_hash: e.project!.source_hash, staleness: e.project!.staleness }, { revision: 0, source_hash: null, staleness: 'unknown' }, 'no synchronization happened: the pre-sync project block');
    assert.equal(existsSync(path.join(root, '.docforge', 'index')), false, 'no index was read or built');
  });

  test('bootstrap and get_contract report exactly the effective policy, capabilities and legacy adapter_policy', async () => {
    const expectedPolicy = computeEffectivePolicy(policyOptions({ noAst: true }));
    const expectedCapabilities = computeCapabilities(expectedPolicy, implemented());
    for (const tool of ['docforge_bootstrap', 'docforge_get_contract'] as const) {
      const raw = await s.raw(tool);
      const e = raw.structuredContent as Envelope;
      assert.equal(e.ok, true, JSON.stringify(e.error));
      assert.deepEqual(e.result!.effective_policy, JSON.parse(JSON.stringify(expectedPolicy)), tool);
      assert.deepEqual(e.result!.capabilities, JSON.parse(JSON.stringify(expectedCapabilities)), tool);
      assert.deepEqual(e.result!.capabilities.logic, { available: false, reason: 'no_ast_policy' });
      assert.equal(e.result!.effective_policy.ast.no_ast, true);
      assert.equal(e.result!.effective_policy.ast.logic_allowed, false);
      assert.equal(e.result!.effective_policy.ast.adapter_strategy, 'ast', 'the adapter extraction strategy is preserved');
      assert.equal(e.result!.effective_policy.factory, 'generic');
      for (const op of ['adapter_ast_upgrade', 'function_logic_extraction']) assert.ok(e.result!.effective_policy.excluded_operations.includes(op), op);
      // The legacy object is byte-compatible: its exact bytes appear in the text block.
      const text = (raw.content as { text: string }[])[0]!.text;
      assert.ok(text.includes(LEGACY_NO_AST), `${tool} carries the legacy adapter_policy bytes`);
    }
  });

  test('the server instructions tell clients not to add AST, Tree-sitter or Logic extraction', () => {
    const instructions = s.client.getInstructions() ?? '';
    assert.ok(instructions.includes(NO_AST_INSTRUCTIONS));
    for (const phrase of ['Python AST', 'Tree-sitter', 'compiler-AST', 'function-Logic extraction', 'adapter_policy_forbids_logic']) {
      assert.ok(instructions.includes(phrase), phrase);
    }
  });

  test('code is still extracted with the AST strategy, but nothing of Logic is published', async () => {
    const boot = await s.call('docforge_bootstrap');
    assert.equal(boot.result!.index.counts.logic_steps, 0);
    const fn = await s.call('docforge_get_node', { node_id: 'code:src/calc.ts#total' });
    assert.equal(fn.result!.node.kind, 'function');
    assert.match(boot.project!.adapter_version, /strategy=ast/);
    const current = JSON.parse(readFileSync(path.join(root, '.docforge', 'index', 'current.json'), 'utf8')) as { logic_present: boolean; logic_allowed: boolean };
    assert.deepEqual({ present: current.logic_present, allowed: current.logic_allowed }, { present: false, allowed: false });
    const refused = await s.call('docforge_get_logic', { node_id: 'code:src/calc.ts#total' });
    await expectError(refused, 'adapter_policy_forbids_logic');
  });
});

describe('an index holding Logic is rejected by a --no-ast process before any read', () => {
  const root = codeProject();

  async function logicIndex(): Promise<{ revision: number; indexFile: string }> {
    const normal = await useServer(root);
    const boot = await normal.call('docforge_bootstrap');
    assert.ok(boot.result!.index.counts.logic_steps > 0, 'the default process indexes Logic');
    const logic = await normal.call('docforge_get_logic', { node_id: 'code:src/calc.ts#total' });
    assert.equal(logic.ok, true);
    assert.ok(((await normal.raw('docforge_get_contract')).content as { text: string }[])[0]!.text.includes(LEGACY_DEFAULT));
    await normal.close();
    return { revision: boot.project!.revision, indexFile: boot.result!.index.index_file };
  }

  test('a publication recorded as holding Logic is rebuilt without Logic', async () => {
    const before = await logicIndex();
    const s = await useServer(root, { noAst: true });
    const boot = await s.call('docforge_bootstrap');
    assert.ok(boot.project!.revision > before.revision);
    assert.notEqual(boot.result!.index.index_file, before.indexFile);
    assert.equal(boot.result!.index.counts.logic_steps, 0);
  });

  test('even when current.json hides the Logic, the index file itself is checked and replaced', async () => {
    const before = await logicIndex();
    const currentFile = path.join(root, '.docforge', 'index', 'current.json');
    const current = JSON.parse(readFileSync(currentFile, 'utf8')) as Record<string, unknown>;
    writeFileSync(currentFile, JSON.stringify({ ...current, logic_present: false, logic_allowed: false }, null, 2));
    const s = await useServer(root, { noAst: true });
    const boot = await s.call('docforge_bootstrap');
    assert.ok(boot.project!.revision > before.revision, 'the disguised Logic index was not served');
    assert.notEqual(boot.result!.index.index_file, before.indexFile);
    assert.equal(boot.result!.index.counts.logic_steps, 0);
    const search = await s.call('docforge_search', { query: 'total', limit: 5 });
    assert.equal(search.project!.revision, boot.project!.revision);
  });
});

describe('the programmatic factories take noAst (in-process, InMemoryTransport)', () => {
  const root = codeProject();
  const logger = pino({ level: 'silent' });

  async function connect(project: ProjectServer): Promise<Client> {
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    await project.server.connect(serverTransport);
    const client = new Client({ name: 'factory-test', version: '1.0.0' });
    await client.connect(clientTransport);
    return client;
  }

  async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<Envelope> {
    return (await client.callTool({ name, arguments: args }, undefined, { timeout: REQUEST_TIMEOUT_MS })).structuredContent as Envelope;
  }

  for (const [name, factory, mode, factoryName] of [
    ['createProjectServer', createProjectServer, 'proposal', 'project'],
    ['createReadOnlyServer', createReadOnlyServer, 'read', 'read_only'],
  ] as const) {
    test(`${name}({ noAst: true }) binds the same immutable no-AST policy`, async () => {
      const project = factory({ projectRoot: root, noAst: true, logger });
      const client = await connect(project);
      try {
        assert.equal(project.policy.ast.no_ast, true);
        assert.ok(Object.isFrozen(project.policy) && Object.isFrozen(project.policy.ast));
        const boot = await call(client, 'docforge_bootstrap');
        assert.deepEqual(boot.result!.effective_policy, JSON.parse(JSON.stringify(computeEffectivePolicy(policyOptions({ noAst: true, factory: factoryName })))));
        assert.equal(boot.result!.effective_policy.capability_mode, mode);
        assert.deepEqual(boot.result!.adapter_policy, { adapter_evolution: 'forbidden', ast_analysis: 'forbidden', logic_indexing: 'forbidden', no_ast: true });
        const logic = await call(client, 'docforge_get_logic', { node_id: 'code:src/calc.ts#total' });
        await expectError(logic, 'adapter_policy_forbids_logic');
        assert.ok((client.getInstructions() ?? '').includes(NO_AST_INSTRUCTIONS));
        const names = (await client.listTools()).tools.map((t) => t.name);
        const surface = mode === 'read' ? [...READ_TOOLS] : [...READ_TOOLS, ...PROPOSAL_TOOLS];
        assert.deepEqual(names, surface.filter((t) => implemented().has(t)), 'the read-only factory never registers proposal tools; the project factory registers the implemented ones');
      } finally {
        await client.close();
        await project.close();
      }
    });
  }

  test('without noAst the factories serve Logic; the read-only factory cannot widen its mode', async () => {
    const project = createProjectServer({ projectRoot: root, logger });
    const client = await connect(project);
    try {
      const logic = await call(client, 'docforge_get_logic', { node_id: 'code:src/calc.ts#total' });
      assert.equal(logic.ok, true, JSON.stringify(logic.error));
      assert.deepEqual(logic.result!.steps.map((step: { kind: string; start_line: number }) => `${step.kind}@${step.start_line}`), [
        'entry@1', 'statement@2', 'loop@3', 'branch@4', 'continue@4', 'statement@5', 'return@7', 'exit@8',
      ]);
      assert.equal(project.policy.ast.no_ast, false);
      assert.equal((client.getInstructions() ?? '').includes(NO_AST_INSTRUCTIONS), false);
    } finally {
      await client.close();
      await project.close();
    }
    assert.throws(() => createReadOnlyServer({ projectRoot: root, logger, capabilityMode: 'proposal' }), { code: 'invalid_arguments' });
  });
});
