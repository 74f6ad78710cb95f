// Pins the changeset store and policy units: the hash covers id, writer, base and operations only; documents round-trip as canonical JSON; a corrupt or tampered file is reported, never served; the writer policy only narrows; confined proposal paths.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { canonicalJson, sha256 } from '@docforge/core';
import type { Descriptor } from '@docforge/project';
import { ChangesetStore, changesetSha256, confineProposalPath, policyRefusal, writerPolicy, type ChangesetDocument } from '../src/index.js';

function doc(id: string, status: ChangesetDocument['status'] = 'ready'): ChangesetDocument {
  const body = { id, writer: 'agent', base: 'a'.repeat(64), operations: [{ op: 'node_delete' as const, node_id: 'X', expected_content_hash: 'b'.repeat(64) }] };
  const hash = changesetSha256(body);
  const at = '2026-11-30T12:00:00.000Z';
  return { schema_version: 1, ...body, changeset_sha256: hash, status, captured: { sources: { 'docs/x.md': 'c'.repeat(64) } }, findings: [], receipts: [{ event: 'registered', at, writer: 'agent', changeset_sha256: hash }], created_at: at, updated_at: at };
}

function descriptor(root: string, writers: Descriptor['proposals']['writers'] = {}): Descriptor {
  return {
    schema_version: 1, root, path: path.join(root, 'docforge.toml'), project: { id: 't', name: 'T' },
    sources: { content_roots: ['docs'], code_roots: ['src'], exclude: ['**/node_modules/**', '**/.git/**', '.docforge/**'] },
    adapter: { code: [], strategy: 'ast', module: null, canonical_applier: null }, vocabulary: { kinds: null, authorities: null, statuses: null, relations: null },
    limits: { max_results: 200, max_output_chars: 60000 }, state: { dir: '.docforge' }, views: [], proposals: { writers, appliers: {} },
  };
}

test('changeset_sha256 is SHA-256 of the canonical JSON of id, writer, base and operations only', () => {
  const d = doc('cs-1');
  assert.equal(d.changeset_sha256, sha256(canonicalJson({ id: d.id, writer: d.writer, base: d.base, operations: d.operations })));
  assert.equal(changesetSha256({ ...d, status: 'abandoned', receipts: [] } as ChangesetDocument), d.changeset_sha256);
  assert.notEqual(changesetSha256({ ...d, base: 'f'.repeat(64) }), d.changeset_sha256);
});

test('the store writes canonical JSON, lists by id and reports corrupt or tampered files without serving them', async () => {
  const state = mkdtempSync(path.join(tmpdir(), 'docforge-store-'));
  const store = new ChangesetStore(state);
  await store.mutate(() => {
    store.write(doc('cs-2'));
    store.write(doc('cs-1'));
  });
  assert.equal(readFileSync(path.join(store.dir, 'cs-1.json'), 'utf8'), `${canonicalJson(doc('cs-1'))}\n`);
  assert.deepEqual(store.list().documents.map((d) => d.id), ['cs-1', 'cs-2']);
  const tampered = { ...doc('cs-3'), operations: [{ op: 'node_delete', node_id: 'Y' }] };
  writeFileSync(path.join(store.dir, 'cs-3.json'), JSON.stringify(tampered));
  writeFileSync(path.join(store.dir, 'cs-4.json'), '{"schema_version":1,');
  writeFileSync(path.join(store.dir, '.cs-1.json.1.abc.tmp'), 'partial');
  assert.deepEqual(store.list(), { documents: [doc('cs-1'), doc('cs-2')], unreadable: ['cs-3', 'cs-4'] });
  assert.throws(() => store.get('cs-3'), (e: { code?: string }) => e.code === 'changeset_corrupt');
  assert.throws(() => store.get('cs-9'), (e: { code?: string }) => e.code === 'changeset_not_found');
  assert.equal(store.read('../escape'), null, 'an id outside the pattern never becomes a path');
  assert.throws(() => store.write({ ...doc('cs-5'), changeset_sha256: '0'.repeat(64) }), /does not match/);
});

test('the writer policy narrows through the descriptor and the project adapter, never widens', () => {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'docforge-policy-')));
  const generic = writerPolicy('agent', descriptor(root), null);
  // The contract's five operations and issue 32's link_review: a writer without an operations list gets every one.
  assert.equal(generic.operations.length, 6);
  assert.ok(generic.operations.includes('link_review'));
  assert.equal(policyRefusal(generic, 'node_move', ['docs/a.md']), null);
  const narrowed = writerPolicy('agent', descriptor(root, { agent: { operations: ['node_update', 'relationship_update'], paths: ['docs/requirements/**'] } }), ['node_update', 'node_delete']);
  assert.deepEqual(narrowed.operations, ['node_update']);
  assert.match(policyRefusal(narrowed, 'node_delete', ['docs/requirements/a.md'])!, /may not propose node_delete/);
  assert.match(policyRefusal(narrowed, 'node_update', ['docs/components/a.md'])!, /may not propose changes to docs\/components\/a\.md/);
  assert.equal(policyRefusal(narrowed, 'node_update', ['docs/requirements/a.md']), null);
  const other = writerPolicy('someone', descriptor(root, { agent: { operations: [], paths: null } }), null);
  assert.equal(other.operations.length, 6, 'an unlisted writer keeps the generic policy');
  // An existing operations list that does not name link_review keeps it out (issue 32: the policy fails closed).
  assert.match(policyRefusal(narrowed, 'link_review', ['docs/requirements/a.md'])!, /may not propose link_review/);
});

test('proposal paths are plain relative paths inside the content roots', () => {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'docforge-confine-')));
  mkdirSync(path.join(root, 'docs', 'real'), { recursive: true });
  mkdirSync(path.join(root, 'src'));
  symlinkSync(path.join(root, 'docs', 'real'), path.join(root, 'docs', 'alias'));
  const d = descriptor(root);
  assert.equal(confineProposalPath(d, 'docs/real/new.md'), 'docs/real/new.md');
  assert.equal(confineProposalPath(d, 'docs/./real/new.md'), 'docs/real/new.md');
  for (const bad of ['../x.md', '/tmp/x.md', 'docs/alias/x.md', 'src/x.md', 'x.md', '.docforge/x.md', 'docs/node_modules/x.md']) {
    assert.throws(() => confineProposalPath(d, bad), (e: { code?: string }) => e.code === 'path_outside_root', bad);
  }
});
