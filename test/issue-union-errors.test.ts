// Issue 30 item 5: an argument error inside a tagged union (a changeset operation, chosen by `op`)
// reports the errors of the operation that was meant only, at its own path, instead of one error per
// branch of the union (about twenty for one wrong field before). Driven over stdio through the MCP
// SDK client on a copy of examples/; nothing is stored. The published schemas stay standard JSON
// Schema (no OpenAPI `discriminator` keyword in tools/list).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { exampleProjectCopy, sharedExampleProject } from './helpers/projects.js';
import { expectError, useServer, type Json } from './helpers/server.js';

interface DetailedError {
  path: string;
  message: string;
  allowed_properties?: string[];
  allowed_values?: unknown[];
}

const VALID = { op: 'node_update', node_id: 'CMP-LEDGER', set: { status: 'draft' } };

test('one wrong field in one operation yields the errors of that operation only, at its path', async () => {
  const root = exampleProjectCopy();
  const server = await useServer(root, { mode: 'proposal', proposalWriter: 'agent-1' });
  const cases: { tool: 'docforge_register_changes' | 'docforge_create_changeset'; op: Json; expect: { path: string; message: RegExp }[]; allowed?: string[] }[] = [
    {
      tool: 'docforge_register_changes',
      op: { op: 'node_update', node_id: 'CMP-RETRY', body: '# Retry\n', bogus: 1 },
      expect: [{ path: '/operations/1', message: /must NOT have additional properties: bogus/ }],
      allowed: ['op', 'node_id', 'expected_content_hash', 'set', 'body'],
    },
    {
      tool: 'docforge_register_changes',
      op: { op: 'node_create', node: { id: 'REQ-NEW-1', kind: 'requirement' }, path: 'docs/requirements/new-1.md', body: 'x' },
      expect: [{ path: '/operations/1/node', message: /must have required property 'title'/ }],
    },
    {
      tool: 'docforge_create_changeset',
      op: { op: 'node_move', node_id: 'CMP-RETRY', new_path: 7 },
      expect: [{ path: '/operations/1/new_path', message: /must be string/ }],
    },
    {
      tool: 'docforge_register_changes',
      op: { op: 'relationship_update', source_id: 'CMP-RETRY', add: [{ relation: 'relates_to' }] },
      expect: [{ path: '/operations/1/add/0', message: /must have required property 'target_id'/ }],
    },
  ];
  for (const c of cases) {
    const error = await expectError(server.call(c.tool, { operations: [VALID, c.op] }), 'invalid_arguments');
    const errors = error.details.errors as DetailedError[];
    assert.deepEqual(errors.map((e) => e.path), c.expect.map((e) => e.path), `${c.op.op}: ${JSON.stringify(errors)}`);
    c.expect.forEach((e, i) => assert.match(errors[i]!.message, e.message, c.op.op));
    assert.ok(!/constant|oneOf/.test(error.message), `no error of another branch: ${error.message}`);
    if (c.allowed) assert.deepEqual(errors[0]!.allowed_properties, c.allowed, 'the allowed properties are those of the meant operation');
  }
  // An unknown op names the allowed operations, at the tag's path.
  const unknown = await expectError(server.call('docforge_register_changes', { operations: [{ op: 'node_rename', node_id: 'CMP-RETRY' }] }), 'invalid_arguments');
  const errors = unknown.details.errors as DetailedError[];
  assert.ok(errors.length <= 2, JSON.stringify(errors));
  assert.ok(errors.every((e) => e.path === '/operations/0/op'), JSON.stringify(errors));
  assert.deepEqual(errors[0]!.allowed_values, ['node_create', 'node_update', 'node_move', 'relationship_update', 'node_delete', 'link_review']);
  // A missing op is one missing tag, not one error per branch.
  const missing = await expectError(server.call('docforge_register_changes', { operations: [{ node_id: 'CMP-RETRY' }] }), 'invalid_arguments');
  assert.ok((missing.details.errors as DetailedError[]).length <= 2, JSON.stringify(missing.details.errors));
  assert.match(missing.message, /\/operations\/0 must have required property 'op'/);
  const dir = path.join(root, '.docforge', 'changesets');
  assert.deepEqual(existsSync(dir) ? readdirSync(dir).filter((n) => n.endsWith('.json')) : [], [], 'nothing was stored');
});

test('tools/list publishes standard JSON Schema: no discriminator keyword, each operation branch tagged by a const op', async () => {
  const server = await useServer(exampleProjectCopy(), { mode: 'proposal', proposalWriter: 'agent-1' });
  const { tools } = await server.client.listTools();
  const text = JSON.stringify(tools);
  assert.ok(!text.includes('"discriminator"'), 'no OpenAPI keyword is published');
  const register = tools.find((t) => t.name === 'docforge_register_changes')!;
  const defs = (register.inputSchema as unknown as { $defs: Record<string, { oneOf?: { $ref: string }[] }> }).$defs;
  const branches = defs.operation!.oneOf!.map((b) => (defs[b.$ref.replace('#/$defs/', '')] as { properties: { op: { const: string } } }).properties.op.const);
  assert.deepEqual(branches, ['node_create', 'node_update', 'node_move', 'relationship_update', 'node_delete', 'link_review']);
});

test('arguments that exclude each other are named, not "must NOT be valid" (break-it trial 50)', async () => {
  const server = await useServer(sharedExampleProject());
  const error = await expectError(server.call('docforge_visualize', { node_id: 'CMP-LEDGER', query: 'ledger' }), 'invalid_arguments');
  assert.match(error.message, /`node_id` and `query` cannot be given together/);
  assert.doesNotMatch(error.message, /must NOT be valid/);
  assert.deepEqual((error.details.errors as DetailedError[]).map((e) => e.path), ['/']);
});
