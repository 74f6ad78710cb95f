// Pins the project integration factories: the full proposal surface only with a startup-bound writer and a confined proposal policy (validated at construction), narrowing by the descriptor and a project-owned adapter's proposalOperations end to end over MCP, nothing widening, and the read-only form from a ProjectService plus a context provider.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { pino } from 'pino';
import { createProjectServer, createProjectService, createReadOnlyServer, type ProjectServer } from '@docforge/mcp-server';
import { exampleProjectCopy, tempDir } from './helpers/projects.js';
import { expectError, REQUEST_TIMEOUT_MS, useServer, type Envelope } from './helpers/server.js';

const logger = pino({ level: 'silent' });
type Call = (name: string, args?: Record<string, unknown>) => Promise<Envelope>;

async function connect(project: ProjectServer): Promise<{ call: Call; names: string[]; close: () => Promise<void> }> {
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await project.server.connect(serverTransport);
  const client = new Client({ name: 'integration-test', version: '1.0.0' });
  await client.connect(clientTransport);
  const names = (await client.listTools()).tools.map((t) => t.name);
  return {
    names,
    call: async (name, args = {}) => (await client.callTool({ name, arguments: args }, undefined, { timeout: REQUEST_TIMEOUT_MS })).structuredContent as Envelope,
    close: async () => { await client.close(); await project.close(); },
  };
}

function stored(root: string): string[] {
  const dir = path.join(root, '.docforge', 'changesets');
  return existsSync(dir) ? readdirSync(dir).filter((n) => n.endsWith('.json') && !n.startsWith('.')) : [];
}

test('without a confined policy the project factory registers the proposal surface but grants no mutation access', async () => {
  const root = exampleProjectCopy();
  assert.throws(() => createProjectServer({ projectRoot: root, logger, proposalWriter: 'agent' }), { code: 'policy_violation' }, 'a bare writer is refused');
  const s = await connect(createProjectServer({ projectRoot: root, logger, validateOutput: true }));
  try {
    assert.ok(s.names.includes('docforge_register_changes') && s.names.includes('docforge_validate_changeset'));
    await expectError(s.call('docforge_propose_node_delete', { node_id: 'RB-002' }), 'proposal_access_disabled');
    assert.equal((await s.call('docforge_list_changesets')).ok, true, 'reads keep working');
    assert.deepEqual(stored(root), []);
  } finally {
    await s.close();
  }
});

test('a proposal policy that names an unknown operation or a glob outside the content roots refuses construction', () => {
  const root = exampleProjectCopy();
  const build = (operations: string[], paths: string[]) => () => createProjectServer({ projectRoot: root, logger, proposals: { writer: 'agent', policy: { operations: operations as never, paths } } });
  assert.throws(build(['node_update', 'node_rewrite'], ['docs/**']), { code: 'policy_violation' });
  assert.throws(build([], ['docs/**']), { code: 'policy_violation' });
  for (const glob of ['src/**', '**/*.md', '../docs/**', '/abs/docs/**', 'docs/../src/*.ts', '*.md']) {
    assert.throws(build(['node_update'], [glob]), { code: 'policy_violation' }, glob);
  }
  assert.throws(build(['node_update'], []), { code: 'policy_violation' });
  assert.doesNotThrow(() => build(['node_update'], ['docs/**', 'docs/requirements/*.md'])().close());
});

test('the confined policy binds the writer; the descriptor narrows it further and never widens it', async () => {
  const root = exampleProjectCopy();
  appendFileSync(path.join(root, 'docforge.toml'), '\n[proposals.writers.agent]\noperations = ["node_update", "node_delete"]\n');
  const s = await connect(createProjectServer({
    projectRoot: root, logger, validateOutput: true,
    proposals: { writer: 'agent', policy: { operations: ['node_update', 'node_create'], paths: ['docs/requirements/**'] } },
  }));
  try {
    const boot = await s.call('docforge_bootstrap');
    assert.equal(boot.result!.capabilities.proposal_access.writer_id, 'agent');
    const outside = await expectError(s.call('docforge_propose_node_update', { node_id: 'CMP-LEDGER', set: { status: 'draft' } }), 'changeset_not_writable');
    assert.match(outside.message, /docs\/components\/ledger\.md/);
    assert.match(outside.message, /project integration/);
    const widened = await expectError(s.call('docforge_propose_node_delete', { node_id: 'REQ-PAY-001' }), 'changeset_not_writable');
    assert.match(widened.message, /node_delete/, 'the descriptor cannot add an operation the integration left out');
    await expectError(s.call('docforge_propose_node_create', { node: { id: 'REQ-NEW', kind: 'requirement', title: 'New' }, path: 'docs/requirements/new.md', body: 'New.\n' }), 'changeset_not_writable');
    assert.deepEqual(stored(root), [], 'refusals store nothing');
    const allowed = await s.call('docforge_propose_node_update', { node_id: 'REQ-PAY-001', set: { status: 'draft' } });
    assert.equal(allowed.ok, true, JSON.stringify(allowed.error));
    assert.equal(stored(root).length, 1);
  } finally {
    await s.close();
  }
});

const ADAPTER = [
  "export const version = '1.0.0';",
  "export const proposalOperations = ['node_update'];",
  'export function extract() { return { nodes: [], edges: [] }; }',
  '',
].join('\n');

function adapterProject(): string {
  const root = tempDir('docforge-adapter-proposals-');
  for (const dir of ['docs', '.docforge']) mkdirSync(path.join(root, dir), { recursive: true });
  writeFileSync(path.join(root, 'docforge.toml'), 'schema_version = 1\n[project]\nid = "narrow"\nname = "Narrow"\n[sources]\ncontent_roots = ["docs"]\n[adapter]\ncode = "none"\nmodule = ".docforge/adapter.mjs"\n');
  writeFileSync(path.join(root, 'docs', 'guide.md'), '+++\nid = "DOC-GUIDE"\nkind = "document"\ntitle = "Guide"\n+++\n# Guide\n\nHow to.\n');
  writeFileSync(path.join(root, '.docforge', 'adapter.mjs'), ADAPTER);
  return root;
}

test('a project-owned adapter proposal validator narrows the integration policy end to end', async () => {
  const root = adapterProject();
  const s = await connect(createProjectServer({
    projectRoot: root, logger, validateOutput: true,
    proposals: { writer: 'agent', policy: { operations: ['node_update', 'node_delete', 'node_create'], paths: ['docs/**'] } },
  }));
  try {
    const refused = await expectError(s.call('docforge_propose_node_delete', { node_id: 'DOC-GUIDE' }), 'changeset_not_writable');
    assert.match(refused.message, /node_delete/);
    assert.match(refused.message, /project_adapter/);
    await expectError(s.call('docforge_register_changes', { operations: [{ op: 'node_create', node: { id: 'DOC-NEW', kind: 'document', title: 'New' }, path: 'docs/new.md', body: 'New.\n' }] }), 'changeset_not_writable');
    assert.deepEqual(stored(root), []);
    const allowed = await s.call('docforge_propose_node_update', { node_id: 'DOC-GUIDE', set: { title: 'Guide 2' } });
    assert.equal(allowed.ok, true, JSON.stringify(allowed.error));
  } finally {
    await s.close();
  }
});

test('an adapter validator cannot widen the integration policy', async () => {
  const root = adapterProject();
  const s = await connect(createProjectServer({ projectRoot: root, logger, validateOutput: true, proposals: { writer: 'agent', policy: { operations: ['node_delete'], paths: ['docs/**'] } } }));
  try {
    // The adapter allows node_update only, the integration node_delete only: nothing is left.
    const refused = await expectError(s.call('docforge_propose_node_update', { node_id: 'DOC-GUIDE', set: { title: 'Guide 2' } }), 'changeset_not_writable');
    assert.match(refused.message, /allowed: none/);
    await expectError(s.call('docforge_propose_node_delete', { node_id: 'DOC-GUIDE' }), 'changeset_not_writable');
    assert.deepEqual(stored(root), []);
  } finally {
    await s.close();
  }
});

test('the generic command: --proposal-writer plus the adapter validator narrows over stdio', async () => {
  const root = adapterProject();
  const server = await useServer(root, { proposalWriter: 'agent' });
  const refused = await expectError(server.call('docforge_propose_node_delete', { node_id: 'DOC-GUIDE' }), 'changeset_not_writable');
  assert.match(refused.message, /allowed: node_update/);
  assert.equal((await server.call('docforge_propose_node_update', { node_id: 'DOC-GUIDE', set: { title: 'Guide 2' } })).ok, true);
});

test('the read-only integration form from a ProjectService and a project-owned context provider', async () => {
  const root = exampleProjectCopy({ state: false });
  const service = createProjectService({ projectRoot: root, logger });
  assert.equal(service.descriptor.root, service.root);
  const calls: unknown[] = [];
  const s = await connect(createReadOnlyServer(service, (reader, request) => {
    calls.push(request);
    const node = reader.getNode('ADR-001')!;
    return [{ id: node.id, kind: node.kind, title: node.title, source_path: node.source_path, selected_by: 'team-policy', excerpt: node.summary }];
  }, { logger, validateOutput: true }));
  try {
    assert.equal(s.names.some((n) => /changeset|propose|register_changes/.test(n)), false, 'this form cannot register proposal tools');
    const context = await s.call('docforge_get_context', { query: 'ledger decisions', budget: 5000 });
    assert.equal(context.ok, true, JSON.stringify(context.error));
    assert.equal(calls.length, 1, 'the project-owned provider answered');
    assert.ok(JSON.stringify(context.result).includes('ADR-001'));
  } finally {
    await s.close();
  }
  const other = createProjectService({ projectRoot: exampleProjectCopy({ state: false }), logger });
  assert.throws(() => createReadOnlyServer({ ...service, manager: other.manager }, null, { logger }), { code: 'invalid_arguments' }, 'a service whose index is bound elsewhere is refused');
  await other.manager.close();
});
