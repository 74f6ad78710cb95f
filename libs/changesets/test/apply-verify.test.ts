// Pins the write path's read-back against the loader of the index build: the projection workspace reads canonical files and overlaid texts as the index decodes their bytes (a NUL gives no node and an invalid_encoding issue), a stored changeset carrying a NUL is refused before any write, and the post-application verify compares every written file's complete parse with the approved projection, so a node that vanished (even one the changeset did not touch) rolls every file back.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DocforgeError } from '@docforge/core';
import { applyChangeset, changesetSha256, ChangesetStore, evaluateStored, registerChangeset, Workspace, type CanonicalApplier, type ChangesetDocument, type ProjectView } from '../src/index.js';
import { projectViewOf, writeTree } from './helpers.js';

const RECORDS = '[[node]]\nid = "R-1"\nkind = "decision"\ntitle = "One"\nbody = "First."\n\n[[node]]\nid = "R-2"\nkind = "decision"\ntitle = "Two"\nbody = "Second."\n';

function project(extra: Record<string, string | Buffer> = {}): { root: string; view: ProjectView; store: ChangesetStore } {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'df-verify-')));
  const files: Record<string, string | Buffer> = {
    'docforge.toml': 'schema_version = 1\n[project]\nid = "verify"\nname = "Verify"\n[sources]\ncontent_roots = ["docs"]\ncode_roots = []\n[adapter]\ncode = "none"\ncanonical_applier = "generic"\n',
    'docs/a.md': '+++\nid = "A-1"\nkind = "document"\ntitle = "A"\n+++\nBody of A.\n',
    'docs/records.toml': RECORDS,
    ...extra,
  };
  writeTree(root, files);
  return { root, ...projectViewOf(root) };
}

function applier(stage: CanonicalApplier['stage']): CanonicalApplier {
  return { source: 'project_adapter', module: 'adapter.mjs', stage };
}

async function rejectsWith(promise: Promise<unknown>, code: string, check: (error: DocforgeError) => void = () => {}): Promise<void> {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof DocforgeError, String(error));
    assert.equal(error.code, code, error.message);
    check(error);
    return true;
  });
}

test('the workspace reads files and overlaid texts as the index decodes bytes: a NUL gives no node and an invalid_encoding issue', () => {
  const { view } = project({ 'docs/nul.md': Buffer.from('+++\nid = "N-1"\nkind = "document"\ntitle = "N"\n+++\nsee \u0000 here\n', 'utf8') });
  const ws = new Workspace(view);
  assert.equal(ws.locate('N-1'), null, 'a canonical file with a NUL byte gives no node');
  assert.ok(ws.undecodable('docs/nul.md'));
  assert.ok(ws.resolve().allIssues.some((i) => i.code === 'invalid_encoding' && i.path === 'docs/nul.md'));
  assert.ok(ws.locate('A-1'));
  ws.setText('docs/a.md', '+++\nid = "A-1"\nkind = "document"\ntitle = "A"\n+++\nsee \u0000 here\n');
  assert.equal(ws.locate('A-1'), null, 'an overlaid text is read back as the bytes it would be written as');
  ws.setText('docs/a.md', '+++\nid = "A-1"\nkind = "document"\ntitle = "A"\n+++\nlone \uD800 here\n');
  assert.match(ws.locate('A-1')!.node.body, /lone \uFFFD here/, 'a lone surrogate reads back as the U+FFFD the file would hold');
});

test('a stored changeset carrying a NUL (made before the proposal check) reports findings and is never applied', async () => {
  const { root, view, store } = project();
  const base = { id: 'cs-old-1', writer: 'agent', base: view.sourceHash, operations: [{ op: 'node_update' as const, node_id: 'A-1', expected_content_hash: view.node('A-1')!.content_hash, body: 'see \u0000 here\n' }] };
  const at = '2026-11-30T12:00:00.000Z';
  const hash = changesetSha256(base);
  const doc: ChangesetDocument = { schema_version: 1, ...base, changeset_sha256: hash, status: 'ready', captured: { sources: { 'docs/a.md': new Workspace(view).baseHash('docs/a.md') } }, findings: [], receipts: [{ event: 'registered', at, writer: 'agent', changeset_sha256: hash }], created_at: at, updated_at: at };
  await store.mutate(() => store.write(doc));
  const findings = evaluateStored(view, store, doc).findings;
  assert.ok(findings.some((f) => f.code === 'invalid_text' && f.operation_index === 0 && f.severity === 'error' && /field body/.test(f.message)), JSON.stringify(findings));
  const before = readFileSync(path.join(root, 'docs/a.md'), 'utf8');
  await rejectsWith(applyChangeset(store, view, doc.id, hash, { applierId: 'owner', applier: applier(({ after }) => after) }), 'application_refused', (e) => assert.equal(e.details['reason_code'], 'invalid'));
  assert.equal(readFileSync(path.join(root, 'docs/a.md'), 'utf8'), before);
});

test('registration refuses a NUL or lone surrogate with invalid_arguments naming operation and field; nothing is stored', async () => {
  const { view, store } = project();
  for (const [op, field] of [
    [{ op: 'node_update', node_id: 'A-1', body: 'a\u0000b' }, 'body'],
    [{ op: 'node_update', node_id: 'A-1', set: { title: 'x\uDFFF' } }, 'set.title'],
    [{ op: 'node_create', node: { id: 'B-1', kind: 'document', title: 'x\uD800' }, path: 'docs/b.md', body: '' }, 'node.title'],
    [{ op: 'relationship_update', source_id: 'A-1', add: [{ relation: 'relates_to', target_id: 'R-1\u0000' }] }, 'add[0].target_id'],
  ] as const) {
    await rejectsWith(registerChangeset(store, view, 'agent', [op as never], 'registered'), 'invalid_arguments', (e) => {
      assert.equal(e.details['field'], field);
      assert.equal(e.details['operation_index'], 0);
      assert.match(e.message, new RegExp(`operation 0 \\(${op.op}\\): field ${field.replace(/[[\]]/g, '\\$&')}`));
    });
  }
  assert.deepEqual(store.list().documents, []);
});

test('verify rolls back when a written file does not reproduce the projection, also for a node the changeset did not touch', async () => {
  const { root, view, store } = project();
  const registered = await registerChangeset(store, view, 'agent', [{ op: 'node_update', node_id: 'R-1', set: { title: 'One, renamed' } }], 'registered');
  assert.equal(registered.doc.status, 'ready', JSON.stringify(registered.doc.findings));
  // A project-owned stage hook that drops the untouched record R-2 from the same file.
  const dropSibling = applier(({ path: rel, after }) => (rel === 'docs/records.toml' && after !== null ? after.slice(0, after.indexOf('[[node]]', 1)) : after));
  await rejectsWith(applyChangeset(store, view, registered.doc.id, registered.doc.changeset_sha256, { applierId: 'owner', applier: dropSibling }), 'application_failed', (e) => {
    assert.equal(e.details['stage'], 'verify');
    assert.match(e.message, /docs\/records\.toml .*R-2 missing/);
  });
  assert.equal(readFileSync(path.join(root, 'docs/records.toml'), 'utf8'), RECORDS, 'every file was restored');
  assert.equal(store.get(registered.doc.id).status, 'ready', 'the changeset stays ready');

  // A hook writing a NUL into the touched file: the loader refuses the whole file, so the node vanishes.
  const nul = applier(({ after }) => (after === null ? after : after.replace('title = "One, renamed"', 'title = "One, renamed"\n# \u0000')));
  await rejectsWith(applyChangeset(store, view, registered.doc.id, registered.doc.changeset_sha256, { applierId: 'owner', applier: nul }), 'application_failed', (e) => assert.equal(e.details['stage'], 'verify'));
  assert.equal(readFileSync(path.join(root, 'docs/records.toml'), 'utf8'), RECORDS);

  // The generic serializer's own bytes verify and apply.
  const applied = await applyChangeset(store, view, registered.doc.id, registered.doc.changeset_sha256, { applierId: 'owner', applier: applier(({ after }) => after) });
  assert.equal(applied.doc.status, 'applied');
  assert.equal(new Workspace(view).locate('R-1')!.node.title, 'One, renamed');
  assert.ok(new Workspace(view).locate('R-2'));
});
