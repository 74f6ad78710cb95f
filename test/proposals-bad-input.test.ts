// Pins the write path's answers to bad input over stdio on copies of examples/: text the canonical loader would refuse (NUL, lone UTF-16 surrogates) in any string of any operation is invalid_arguments naming the operation and field before anything is stored; an unknown or already deleted node in an operation is changeset_invalid naming the operation; changeset cursors that decode to non-objects, are not canonical base64url or belong to another tool or changeset are invalid_cursor (cursor_for_other_request), while a changed changeset stays stale_cursor.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { exampleProjectCopy } from './helpers/projects.js';
import { expectError, useServer, type Json, type Server } from './helpers/server.js';
import { treeHashes } from './helpers/hashes.js';

function storedIds(root: string): string[] {
  const dir = path.join(root, '.docforge', 'changesets');
  return existsSync(dir) ? readdirSync(dir).filter((n) => n.endsWith('.json')).sort() : [];
}

/** Every operation kind with one bad string placed in `field` (a dotted path inside the operation). */
function badOperations(bad: string): { op: Json; field: string }[] {
  return [
    { op: { op: 'node_update', node_id: 'CMP-FRAUD-SCORER', body: `# Fraud scorer\n\nsee ${bad} here\n` }, field: 'body' },
    { op: { op: 'node_update', node_id: 'CMP-RETRY', set: { title: `x${bad}` } }, field: 'set.title' },
    { op: { op: 'node_update', node_id: 'CMP-RETRY', set: { tags: ['ok', `t${bad}`] } }, field: 'set.tags[1]' },
    { op: { op: 'node_create', node: { id: 'REQ-NEW-1', kind: 'requirement', title: 'New' }, path: 'docs/requirements/new-1.md', body: `a${bad}b` }, field: 'body' },
    { op: { op: 'node_create', node: { id: 'REQ-NEW-1', kind: 'requirement', title: `x${bad}` }, path: 'docs/requirements/new-1.md', body: 'ok' }, field: 'node.title' },
    { op: { op: 'node_create', node: { id: `REQ-NEW${bad}`, kind: 'requirement', title: 'x' }, path: 'docs/requirements/new-1.md', body: 'ok' }, field: 'node.id' },
    { op: { op: 'node_create', node: { id: 'REQ-NEW-1', kind: 'requirement', title: 'x', relations: { relates_to: [`CMP-RETRY${bad}`] } }, path: 'docs/requirements/new-1.md', body: 'ok' }, field: 'node.relations.relates_to[0]' },
    { op: { op: 'node_create', node: { id: 'REQ-NEW-1', kind: 'requirement', title: 'x' }, path: `docs/requirements/new${bad}.md`, body: 'ok' }, field: 'path' },
    { op: { op: 'node_create', node: { id: 'ADR-NEW-1', kind: 'decision', title: 'x' }, path: 'docs/decisions/records.toml', body: `b${bad}` }, field: 'body' },
    { op: { op: 'node_move', node_id: 'CMP-RETRY', new_path: `docs/components/retry${bad}.md` }, field: 'new_path' },
    { op: { op: 'relationship_update', source_id: 'CMP-RETRY', add: [{ relation: 'relates_to', target_id: `CMP-LEDGER${bad}` }] }, field: 'add[0].target_id' },
    { op: { op: 'relationship_update', source_id: 'CMP-RETRY', remove: [{ relation: 'relates_to', target_id: `X${bad}` }] }, field: 'remove[0].target_id' },
    { op: { op: 'node_delete', node_id: `CMP-RETRY${bad}` }, field: 'node_id' },
  ];
}

async function refusedText(server: Server, root: string, bad: string, label: string): Promise<void> {
  const before = treeHashes(root);
  for (const { op, field } of badOperations(bad)) {
    const what = `${label} in ${op.op} ${field}`;
    const error = await expectError(server.call('docforge_register_changes', { operations: [{ op: 'node_update', node_id: 'CMP-LEDGER', set: { status: 'draft' } }, op] }), 'invalid_arguments');
    assert.equal(error.details.operation_index, 1, what);
    assert.equal(error.details.field, field, what);
    assert.match(error.message, new RegExp(`operation 1 \\(${op.op}\\)`), what);
    assert.ok(error.message.includes(field), `${what}: ${error.message}`);
    // The single-operation tools refuse the same way.
    const { op: name, ...fields } = op;
    const single = await expectError(server.call(`docforge_propose_${name}` as 'docforge_propose_node_update', fields), 'invalid_arguments');
    assert.equal(single.details.field, field, what);
  }
  assert.deepEqual(storedIds(root), [], `${label}: nothing was stored`);
  assert.deepEqual(treeHashes(root), before, `${label}: no canonical file changed`);
}

test('a NUL or a lone surrogate in any string of any operation is invalid_arguments naming the field; nothing is stored', async () => {
  const root = exampleProjectCopy();
  const server = await useServer(root, { proposalWriter: 'someone', canonicalApplier: 'owner' });
  await server.call('docforge_bootstrap');
  await refusedText(server, root, '\u0000', 'NUL');
  await refusedText(server, root, '\uDFFF', 'a lone low surrogate');
  await refusedText(server, root, '\uD800', 'a lone high surrogate');
  // A well-formed surrogate pair (an emoji) is ordinary text and round-trips through apply.
  const fine = (await server.call('docforge_register_changes', { operations: [{ op: 'node_update', node_id: 'CMP-FRAUD-SCORER', set: { title: 'Fraud scorer \uD83D\uDE80' }, body: '# Fraud scorer\n\nsee \uD83D\uDE80 here\n' }] })).result!;
  assert.equal(fine.status, 'ready', JSON.stringify(fine.findings));
  const applied = await server.call('docforge_apply_changeset', { changeset_id: fine.changeset_id, changeset_sha256: fine.changeset_sha256 });
  assert.equal(applied.ok, true, JSON.stringify(applied.error));
  const node = (await server.call('docforge_get_node', { node_id: 'CMP-FRAUD-SCORER' })).result!.node;
  assert.equal(node.title, 'Fraud scorer \uD83D\uDE80');
  assert.match(node.body, /see \uD83D\uDE80 here/);
  const validation = (await server.call('docforge_validate_project')).result!;
  assert.ok(!JSON.stringify(validation).includes('invalid_encoding'), 'the applied file is UTF-8 text');
});

test('an unknown node, or one an earlier operation deleted, is changeset_invalid naming the operation', async () => {
  const root = exampleProjectCopy();
  const server = await useServer(root, { proposalWriter: 'someone' });
  const unknown = await expectError(server.call('docforge_register_changes', { operations: [{ op: 'node_update', node_id: 'NOPE', set: { title: 'x' } }] }), 'changeset_invalid');
  assert.equal(unknown.details.operation_index, 0);
  assert.equal(unknown.details.node_id, 'NOPE');
  assert.match(unknown.message, /operation 0 \(node_update\)/);
  assert.equal(unknown.remediation, 'fix_operations');
  const twice = await expectError(server.call('docforge_register_changes', { operations: [{ op: 'node_delete', node_id: 'CMP-RETRY' }, { op: 'node_delete', node_id: 'CMP-RETRY' }] }), 'changeset_invalid');
  assert.equal(twice.details.operation_index, 1);
  assert.match(twice.message, /operation 1 \(node_delete\)/);
  assert.match(twice.message, /operation 0/, 'the message names the earlier operation that removed the node');
  // A single-operation tool appending to a changeset names the index the operation would take.
  const base = (await server.call('docforge_register_changes', { operations: [{ op: 'node_update', node_id: 'CMP-LEDGER', set: { status: 'draft' } }] })).result!;
  const appended = await expectError(server.call('docforge_propose_node_delete', { changeset_id: base.changeset_id, node_id: 'NOPE' }), 'changeset_invalid');
  assert.equal(appended.details.operation_index, 1);
  assert.deepEqual(storedIds(root), [`${base.changeset_id}.json`], 'nothing else was stored');
  // A path outside the content roots names its operation too.
  const outside = await expectError(server.call('docforge_register_changes', { operations: [{ op: 'node_update', node_id: 'CMP-LEDGER', body: 'x' }, { op: 'node_move', node_id: 'CMP-RETRY', new_path: '../x.md' }] }), 'path_outside_root');
  assert.equal(outside.details.operation_index, 1);
  assert.match(outside.message, /operation 1 \(node_move\)/);
});

const b64 = (text: string): string => Buffer.from(text, 'utf8').toString('base64url');

/** A cursor with the same bytes but a different (non-canonical) base64url spelling. */
function respelled(cursor: string): string {
  if (cursor.length % 4 === 0) return `${cursor}A`;
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  const last = alphabet.indexOf(cursor.at(-1)!);
  return cursor.slice(0, -1) + alphabet[last ^ 1];
}

test('changeset cursors: non-objects, non-canonical spellings and cursors of another tool or changeset are invalid_cursor; a changed changeset is stale_cursor', async () => {
  const root = exampleProjectCopy();
  const server = await useServer(root, { proposalWriter: 'someone' });
  const ops = [
    { op: 'node_update', node_id: 'CMP-LEDGER', set: { status: 'draft' } },
    { op: 'node_update', node_id: 'CMP-RETRY', set: { status: 'draft' } },
  ];
  const a = (await server.call('docforge_register_changes', { operations: ops })).result!;
  const b = (await server.call('docforge_register_changes', { operations: [{ op: 'node_update', node_id: 'CMP-FRAUD-SCORER', set: { status: 'draft' } }] })).result!;
  const page = (await server.call('docforge_get_changeset', { changeset_id: a.changeset_id, limit: 1 })).result!;
  const cursor = page.next_cursor as string;
  assert.equal(typeof cursor, 'string');
  assert.equal(Buffer.from(cursor, 'base64url').toString('base64url'), cursor, 'cursors are minted canonical');

  const reads: [string, Json][] = [
    ['docforge_list_changesets', {}],
    ['docforge_get_changeset', { changeset_id: a.changeset_id }],
    ['docforge_validate_changeset', { changeset_id: a.changeset_id }],
    ['docforge_get_changeset_diff', { changeset_id: a.changeset_id }],
  ];
  const junk = ['null', '1', '-1', '"x"', '[]', '[null]', 'true', '{}', '{"v":null}', '{"v":1,"op":null,"binding":null,"position":null,"sum":null}', '{"position":0,"sum":null,"v":1}', 'nul'];
  for (const [tool, args] of reads) {
    for (const text of junk) {
      const error = await expectError(server.call(tool as 'docforge_get_changeset', { ...args, cursor: b64(text) }), 'invalid_cursor');
      assert.equal(error.remediation, 'restart_pagination', `${tool} ${text}`);
      assert.equal(typeof error.details.reason, 'string');
    }
    for (const text of ['!!!', 'a=b', `${cursor}==`]) await expectError(server.call(tool as 'docforge_get_changeset', { ...args, cursor: text }), 'invalid_cursor');
    const spelled = await expectError(server.call(tool as 'docforge_get_changeset', { ...args, cursor: respelled(cursor) }), 'invalid_cursor');
    assert.equal(spelled.details.reason, 'not_base64url', `${tool}: the read tools' decoder rejects non-canonical base64url too`);
  }
  // Minted for docforge_get_changeset: given to every other tool, it belongs to another request.
  for (const [tool, args] of reads.filter(([t]) => t !== 'docforge_get_changeset')) {
    const other = await expectError(server.call(tool as 'docforge_get_changeset', { ...args, cursor }), 'invalid_cursor');
    assert.equal(other.details.reason, 'cursor_for_other_request', tool);
  }
  // The same tool for another changeset: another request too.
  const foreign = await expectError(server.call('docforge_get_changeset', { changeset_id: b.changeset_id, cursor }), 'invalid_cursor');
  assert.equal(foreign.details.reason, 'cursor_for_other_request');
  // The cursor still works for its own request ...
  const second = (await server.call('docforge_get_changeset', { changeset_id: a.changeset_id, limit: 1, cursor })).result!;
  assert.equal(second.operations[0].index, 1);
  // ... and is stale once the changeset's exact hash changed.
  await server.call('docforge_propose_node_update', { changeset_id: a.changeset_id, node_id: 'CMP-AUTH-GATEWAY', set: { status: 'draft' } });
  const stale = await expectError(server.call('docforge_get_changeset', { changeset_id: a.changeset_id, cursor }), 'stale_cursor');
  assert.equal(stale.remediation, 'restart_pagination');
});
