// Pins that two changesets creating the same path spelled in NFC and in NFD overlap (break-it
// trial of issue 30): created paths, like every path, compare under NFC (issue 30 item 3), so the
// later changeset carries a `conflict` finding and is not ready.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { exampleProjectCopy } from './helpers/projects.js';
import { useServer } from './helpers/server.js';

const create = (id: string, p: string): Record<string, unknown> => ({ op: 'node_create', node: { id, kind: 'document', title: id }, path: p, body: `# ${id}\n` });

test('changesets creating one path in NFC and in NFD conflict', async () => {
  const root = exampleProjectCopy();
  const server = await useServer(root, { proposalWriter: 'agent' });
  const nfc = 'docs/guides/caf\u00e9.md';
  const nfd = nfc.normalize('NFD');
  assert.notEqual(nfc, nfd);
  const first = await server.call('docforge_register_changes', { operations: [create('DOC-CAFE-1', nfc)] });
  assert.equal(first.result!.status, 'ready', JSON.stringify(first.result!.findings));
  const second = await server.call('docforge_register_changes', { operations: [create('DOC-CAFE-2', nfd)] });
  assert.equal(second.ok, true, JSON.stringify(second.error));
  assert.equal(second.result!.status, 'draft', 'the later changeset is not ready');
  const conflict = second.result!.findings.find((f: { code: string }) => f.code === 'conflict');
  assert.ok(conflict, JSON.stringify(second.result!.findings));
  assert.equal(conflict.operation_index, 0);
  assert.deepEqual(conflict.changeset_ids, [second.result!.changeset_id, first.result!.changeset_id]);
  // Node ids too: the same id spelled in NFD is the same node.
  const third = await server.call('docforge_register_changes', { operations: [create('DOC-CAF\u00c9', 'docs/guides/x1.md')] });
  assert.equal(third.result!.status, 'ready', JSON.stringify(third.result!.findings));
  const fourth = await server.call('docforge_register_changes', { operations: [create('DOC-CAF\u00c9'.normalize('NFD'), 'docs/guides/x2.md')] });
  assert.ok(fourth.result!.findings.some((f: { code: string }) => f.code === 'conflict'), JSON.stringify(fourth.result!.findings));
});
