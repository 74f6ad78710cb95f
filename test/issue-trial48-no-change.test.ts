// Break-it trial 48 (issue 30), the kind of item 23 "apply never refuses a ready changeset for a
// reason that already held when it became ready": operations that change no canonical file (a node
// created then deleted in the same changeset; only a relation the node does not declare removed)
// were stored `ready`, and apply then refused them ("the changeset changes no canonical file").
// They now carry the changeset-wide error finding `no_change` and stay draft; nothing is written.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { treeHashes } from './helpers/hashes.js';
import { exampleProjectCopy } from './helpers/projects.js';
import { useServer } from './helpers/server.js';

test('a changeset that changes no canonical file stays draft with no_change; one that changes a file is still ready', async () => {
  const root = exampleProjectCopy();
  const server = await useServer(root, { proposalWriter: 'agent' });
  const before = treeHashes(root);
  const cancelling = [
    [
      { op: 'node_create', node: { id: 'MEMO-GONE', kind: 'document', title: 'Gone' }, path: 'docs/guides/gone.md', body: 'Text.\n' },
      { op: 'node_delete', node_id: 'MEMO-GONE' },
    ],
    [{ op: 'relationship_update', source_id: 'CMP-LEDGER', remove: [{ relation: 'depends_on', target_id: 'CMP-RETRY' }] }],
  ];
  for (const operations of cancelling) {
    const reg = await server.call('docforge_register_changes', { operations });
    assert.equal(reg.ok, true, JSON.stringify(reg.error));
    const shown = JSON.stringify(operations);
    assert.equal(reg.result!.status, 'draft', shown);
    const validated = await server.call('docforge_validate_changeset', { changeset_id: reg.result!.changeset_id });
    const finding = (validated.result!.findings as { code: string; severity: string; operation_index: number | null }[]).find((f) => f.code === 'no_change');
    assert.ok(finding, `${shown}: ${JSON.stringify(validated.result!.findings)}`);
    assert.equal(finding.severity, 'error');
    assert.equal(finding.operation_index, null);
    assert.equal(validated.result!.changeset.status, 'draft');
    await server.call('docforge_abandon_changeset', { changeset_id: reg.result!.changeset_id });
  }
  assert.deepEqual(treeHashes(root), before, 'nothing was written');
  const real = await server.call('docforge_register_changes', { operations: [{ op: 'node_create', node: { id: 'MEMO-KEPT', kind: 'document', title: 'Kept' }, path: 'docs/guides/kept.md', body: 'Text.\n' }] });
  assert.equal(real.result!.status, 'ready', JSON.stringify(real.result!.findings));
});
