// Pins proposals on `[[node]]` records files over stdio: create, move and delete of a record inside a `.toml` records file, registered, validated and diffed, with canonical files byte-identical.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { treeHashes } from './helpers/hashes.js';
import { exampleProjectCopy } from './helpers/projects.js';
import { useServer, type Json } from './helpers/server.js';

const RECORDS = 'docs/decisions/records.toml';
const MORE = 'docs/decisions/more-records.toml';

test('create, move and delete [[node]] records in .toml records files: register, validate, diff; canonical files unchanged', async () => {
  const root = exampleProjectCopy();
  const server = await useServer(root, { proposalWriter: 'agent' });
  await server.call('docforge_bootstrap');
  const before = treeHashes(root);
  const operations = [
    { op: 'node_create', node: { id: 'ADR-099', kind: 'decision', title: 'Records are proposable', status: 'proposed', tags: ['adr'], relations: { relates_to: ['ADR-004'] } }, path: RECORDS, body: '## Decision\n\nRecords can be proposed like documents.\n' },
    { op: 'node_move', node_id: 'ADR-007', new_path: MORE },
    { op: 'node_delete', node_id: 'ADR-008' },
  ];
  const registered = await server.call('docforge_register_changes', { operations });
  assert.equal(registered.ok, true, JSON.stringify(registered.error));
  const id = registered.result!.changeset_id as string;

  const validated = await server.call('docforge_validate_changeset', { changeset_id: id });
  assert.equal(validated.ok, true, JSON.stringify(validated.error));
  // The delete really left the records file: the one error is RB-005's relation to the deleted record.
  const errorsFound = (validated.result!.findings as Json[]).filter((f) => f.severity === 'error');
  assert.deepEqual(errorsFound.map((f) => [f.code, f.node_id, /"ADR-008"/.test(f.message)]), [['dangling_relation', 'RB-005', true]], JSON.stringify(errorsFound));
  assert.equal(validated.result!.valid, false);
  assert.equal((validated.result!.findings as Json[]).some((f) => /ADR-099|ADR-007/.test(String(f.message)) && f.severity === 'error'), false, 'the created and moved records validate');

  const diff = await server.call('docforge_get_changeset_diff', { changeset_id: id });
  assert.equal(diff.ok, true, JSON.stringify(diff.error));
  const [created, moved, deleted] = diff.result!.changes as Json[];
  assert.deepEqual([created!.before_path, created!.after_path, created!.node_id], [null, RECORDS, 'ADR-099'], 'the record is appended to the records file');
  assert.equal(created!.after.title, 'Records are proposable');
  assert.match(created!.body_diff, /\+Records can be proposed like documents\./);
  assert.deepEqual([moved!.before_path, moved!.after_path, moved!.node_id], [RECORDS, MORE, 'ADR-007'], 'a record keeps its id across files');
  assert.deepEqual({ ...moved!.before, source_path: null }, { ...moved!.after, source_path: null }, 'the front matter moves unchanged');
  assert.deepEqual([moved!.before.source_path, moved!.after.source_path], [RECORDS, MORE]);
  assert.equal(moved!.body_diff, '', 'the body moves unchanged');
  assert.deepEqual([deleted!.before_path, deleted!.after_path, deleted!.after], [RECORDS, null, null]);
  assert.equal(deleted!.before.title.length > 0, true);

  const stored = (await server.call('docforge_get_changeset', { changeset_id: id })).result!;
  assert.equal(stored.changeset.operation_count, 3);
  assert.deepEqual(treeHashes(root), before, 'canonical files are byte-identical (the state dir aside)');
  assert.equal(existsSync(path.join(root, MORE)), false, 'the move target was not written');
  const records = [...readFileSync(path.join(root, RECORDS), 'utf8').matchAll(/^id = "([^"]+)"$/gm)].map((m) => m[1]);
  assert.deepEqual(records, ['ADR-004', 'ADR-005', 'ADR-006', 'ADR-007', 'ADR-008'], 'the canonical records file is untouched');
});
