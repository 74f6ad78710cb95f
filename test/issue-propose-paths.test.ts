// Pins issue 30, items 22, 23 and 25 over stdio on copies of examples/: a created or moved path holding a control, bidi or invisible character (line feed, carriage return, U+202E, ...) is invalid_arguments naming the field, like an id; a 303-byte file name is invalid_arguments naming the limit (never internal_error from ENAMETOOLONG); a 1001st operation appended to a full changeset is changeset_not_writable naming the cap; register_changes after the project root was deleted is project_root_invalid; and apply's own path rules run at proposal and at validation, so a created path under a dangling symlinked folder and a node file that is a symlink into the code root are refused before they could become ready. Nothing is stored or written by any refusal.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { exampleProjectCopy } from './helpers/projects.js';
import { expectError, useServer, type Json, type Server } from './helpers/server.js';
import { treeHashes } from './helpers/hashes.js';

function storedIds(root: string): string[] {
  const dir = path.join(root, '.docforge', 'changesets');
  return existsSync(dir) ? readdirSync(dir).filter((n) => n.endsWith('.json')).sort() : [];
}

function create(p: string, id = 'REQ-NEW-1'): Json {
  return { op: 'node_create', node: { id, kind: 'requirement', title: 'New' }, path: p, body: 'ok\n' };
}

/** Every character class refused in ids: C0 (LF, CR, TAB, ESC), DEL, C1 (NEL), bidi controls, invisible format characters. */
const UNSAFE = ['\n', '\r', '\t', '\u001b', '\u007f', '\u0085', '\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069', '\u200e', '\u200f', '\u061c', '\u200b', '\u2028', '\ufeff'];

function codePoint(c: string): string {
  return `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

async function refusedPath(server: Server, operation: Json, field: string, code: string): Promise<Json> {
  const error = await expectError(server.call('docforge_register_changes', { operations: [operation] }), code);
  assert.equal(error.details.operation_index, 0);
  const { op, ...fields } = operation;
  const single = await expectError(server.call(`docforge_propose_${op}` as 'docforge_propose_node_create', fields), code);
  if (code === 'invalid_arguments') {
    assert.equal(error.details.field, field);
    assert.equal(single.details.field, field);
  }
  return error;
}

test('item 25: a created or moved path with a control, bidi or invisible character is invalid_arguments naming the field and character; nothing is stored', async () => {
  const root = exampleProjectCopy();
  const server = await useServer(root, { proposalWriter: 'agent' });
  await server.call('docforge_bootstrap');
  const before = treeHashes(root);
  for (const c of UNSAFE) {
    const created = await refusedPath(server, create(`docs/requirements/new${c}.md`), 'path', 'invalid_arguments');
    assert.equal(created.details.character, codePoint(c), JSON.stringify(created));
    assert.match(created.message, /operation 0 \(node_create\): field path holds a control, bidi or invisible character/);
    const moved = await refusedPath(server, { op: 'node_move', node_id: 'CMP-RETRY', new_path: `docs/${c}components/retry.md` }, 'new_path', 'invalid_arguments');
    assert.equal(moved.details.character, codePoint(c));
  }
  // The issue's own examples.
  await refusedPath(server, create('docs/\u202e.md'), 'path', 'invalid_arguments');
  await refusedPath(server, create('docs/new\n.md'), 'path', 'invalid_arguments');
  assert.deepEqual(storedIds(root), []);
  assert.deepEqual(treeHashes(root), before);
  // Ordinary non-ASCII names stay allowed.
  const fine = (await server.call('docforge_register_changes', { operations: [create('docs/requirements/café-日本.md')] })).result!;
  assert.equal(fine.status, 'ready', JSON.stringify(fine.findings));
});

test('item 22: a 303-byte file name is invalid_arguments naming the 255-byte limit, never internal_error', async () => {
  const root = exampleProjectCopy();
  const server = await useServer(root, { proposalWriter: 'agent' });
  const before = treeHashes(root);
  const long = `docs/requirements/${'a'.repeat(300)}.md`;
  const error = await refusedPath(server, create(long), 'path', 'invalid_arguments');
  assert.equal(error.details.reason_code, 'name_too_long');
  assert.equal(error.details.limit_bytes, 255);
  assert.match(error.message, /303 bytes.*at most 255 bytes/);
  // Multi-byte names count bytes: 86 three-byte characters are 258 bytes.
  await refusedPath(server, { op: 'node_move', node_id: 'CMP-RETRY', new_path: `docs/${'語'.repeat(86)}/retry.md` }, 'new_path', 'invalid_arguments');
  // A name of exactly 255 bytes is fine.
  const edge = (await server.call('docforge_register_changes', { operations: [create(`docs/requirements/${'b'.repeat(252)}.md`)] })).result!;
  assert.equal(edge.status, 'ready', JSON.stringify(edge.findings));
  assert.deepEqual(storedIds(root).length, 1);
  assert.deepEqual(treeHashes(root), before);
});

test('item 22: the 1001st operation of a changeset is changeset_not_writable naming the 1000 cap; the changeset is unchanged', async () => {
  const root = exampleProjectCopy();
  const server = await useServer(root, { proposalWriter: 'agent' });
  const operations = Array.from({ length: 1000 }, (_, i) => ({ op: 'node_update', node_id: 'CMP-RETRY', set: { title: `Retry ${i}` } }));
  const full = (await server.call('docforge_register_changes', { operations })).result!;
  assert.equal(full.status, 'ready', JSON.stringify(full.findings?.slice(0, 3)));
  const error = await expectError(server.call('docforge_propose_node_update', { changeset_id: full.changeset_id, node_id: 'CMP-LEDGER', set: { title: 'One too many' } }), 'changeset_not_writable');
  assert.equal(error.details.reason_code, 'operation_limit');
  assert.equal(error.details.limit, 1000);
  assert.match(error.message, /1000 operations/);
  const stored = (await server.call('docforge_get_changeset', { changeset_id: full.changeset_id, limit: 1 })).result!;
  assert.equal(stored.changeset.changeset_sha256, full.changeset_sha256, 'the changeset did not change');
});

test('item 22: register_changes after the project root was deleted is project_root_invalid, not internal_error', async () => {
  const root = exampleProjectCopy();
  const server = await useServer(root, { proposalWriter: 'agent' });
  await server.call('docforge_bootstrap');
  const stored = (await server.call('docforge_register_changes', { operations: [create('docs/requirements/y.md', 'REQ-Y')] })).result!;
  // Moved away in one step (a recursive delete races the server's own writes in .docforge), then deleted.
  const gone = `${root}-gone`;
  renameSync(root, gone);
  rmSync(gone, { recursive: true, force: true, maxRetries: 5 });
  const error = await expectError(server.call('docforge_register_changes', { operations: [create('docs/requirements/x.md')] }), 'project_root_invalid');
  assert.match(error.message, /no longer exists/);
  assert.equal(error.details.root, root);
  await expectError(server.call('docforge_propose_node_update', { node_id: 'CMP-LEDGER', set: { title: 'x' } }), 'project_root_invalid');
  for (const [tool, args] of [['docforge_validate_changeset', { changeset_id: stored.changeset_id }], ['docforge_get_changeset_diff', { changeset_id: stored.changeset_id }], ['docforge_list_changesets', {}], ['docforge_create_changeset', {}]] as const) {
    const answer = await server.call(tool, args);
    assert.notEqual(answer.error?.code, 'internal_error', `${tool}: ${JSON.stringify(answer.error)}`);
  }
  assert.equal(existsSync(root), false, 'nothing re-created the root');
});

test('item 23: a created path under a dangling symlinked folder is refused at proposal, not at apply', async () => {
  const root = exampleProjectCopy();
  const before = treeHashes(root);
  symlinkSync(path.join(root, 'no-such-folder'), path.join(root, 'docs', 'dangling'));
  const server = await useServer(root, { proposalWriter: 'agent' });
  await server.call('docforge_bootstrap');
  const error = await refusedPath(server, create('docs/dangling/new.md'), 'path', 'path_outside_root');
  assert.match(error.message, /"docs\/dangling" is a symbolic link/);
  await refusedPath(server, { op: 'node_move', node_id: 'CMP-RETRY', new_path: 'docs/dangling/deeper/retry.md' }, 'new_path', 'path_outside_root');
  // A file where a folder is needed, and an existing folder as the file, are refused too.
  await refusedPath(server, create('docs/components/retry.md/new.md'), 'path', 'path_outside_root');
  await refusedPath(server, create('docs/components'), 'path', 'path_outside_root');
  assert.deepEqual(storedIds(root), []);
  assert.equal(existsSync(path.join(root, 'no-such-folder')), false, 'nothing was created through the link');
  rmSync(path.join(root, 'docs', 'dangling'));
  assert.deepEqual(treeHashes(root), before);
});

test('item 23: a node file that is a symlink into the code root is refused at proposal, and a stored changeset it now affects is no longer ready', async () => {
  const root = exampleProjectCopy();
  const server = await useServer(root, { proposalWriter: 'agent', canonicalApplier: 'owner' });
  await server.call('docforge_bootstrap');
  // Registered while the file is plain: ready.
  const earlier = (await server.call('docforge_register_changes', { operations: [{ op: 'node_update', node_id: 'CMP-RETRY', set: { status: 'deprecated' } }] })).result!;
  assert.equal(earlier.status, 'ready');
  const file = path.join(root, 'docs', 'components', 'retry.md');
  renameSync(file, path.join(root, 'src', 'retry.md'));
  symlinkSync(path.join(root, 'src', 'retry.md'), file);
  await server.call('docforge_sync');
  const before = treeHashes(root);
  const operations: Json[] = [
    { op: 'node_update', node_id: 'CMP-LEDGER', set: { status: 'deprecated' } },
    { op: 'node_update', node_id: 'CMP-RETRY', set: { title: 'Retry' } },
  ];
  for (const second of [operations[1]!, { op: 'node_delete', node_id: 'CMP-RETRY' }, { op: 'relationship_update', source_id: 'CMP-RETRY', add: [{ relation: 'relates_to', target_id: 'CMP-LEDGER' }] }, { op: 'node_move', node_id: 'CMP-RETRY', new_path: 'docs/components/retry-moved.md' }]) {
    const error = await expectError(server.call('docforge_register_changes', { operations: [operations[0]!, second] }), 'path_outside_root');
    assert.equal(error.details.operation_index, 1, JSON.stringify(error));
    assert.match(error.message, /operation 1 \(.*\): "docs\/components\/retry\.md" resolves outside the declared content roots/);
  }
  assert.deepEqual(storedIds(root), [`${earlier.changeset_id}.json`]);
  // The changeset registered before the swap: validation reports the same rule as an error finding.
  const validated = (await server.call('docforge_validate_changeset', { changeset_id: earlier.changeset_id })).result!;
  assert.equal(validated.valid, false);
  assert.ok(validated.findings.some((f: Json) => f.code === 'path_outside_root' && f.operation_index === 0 && f.path === 'docs/components/retry.md'), JSON.stringify(validated.findings));
  await expectError(server.call('docforge_apply_changeset', { changeset_id: earlier.changeset_id, changeset_sha256: earlier.changeset_sha256 }), 'application_refused');
  assert.deepEqual(treeHashes(root), before);
});
