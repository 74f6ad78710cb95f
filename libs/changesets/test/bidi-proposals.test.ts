// Pins issue 30's bidi rule on the write path: the loader now refuses a title, kind, family, authority, status or tag
// holding a control or bidi character (as it refuses such an id), so a proposal carrying one would apply a node that
// then vanishes. Registration refuses it first with invalid_arguments naming the operation, the field and the character,
// and stores nothing; a title with a zero-width joiner (Persian, emoji) is accepted.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DocforgeError } from '@docforge/core';
import { ChangesetStore, registerChangeset, type ProjectView } from '../src/index.js';
import { projectViewOf, writeTree } from './helpers.js';

function project(): { view: ProjectView; store: ChangesetStore } {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'df-bidi-')));
  const files: Record<string, string> = {
    'docforge.toml': 'schema_version = 1\n[project]\nid = "bidi"\nname = "Bidi"\n[sources]\ncontent_roots = ["docs"]\ncode_roots = []\n[adapter]\ncode = "none"\ncanonical_applier = "generic"\n',
    'docs/a.md': '+++\nid = "A-1"\nkind = "document"\ntitle = "A"\n+++\nBody of A.\n',
  };
  writeTree(root, files);
  return projectViewOf(root);
}

test('a bidi control in a proposed title, kind or tag is refused at registration, naming field and character', async () => {
  const { view, store } = project();
  for (const [op, field, character] of [
    [{ op: 'node_update', node_id: 'A-1', set: { title: 'Invoice \u202Efdp.exe' } }, 'set.title', 'U+202E'],
    [{ op: 'node_update', node_id: 'A-1', set: { tags: ['ok', 'x\u2066'] } }, 'set.tags[1]', 'U+2066'],
    [{ op: 'node_create', node: { id: 'B-1', kind: 'doc\u200F', title: 'B' }, path: 'docs/b.md', body: '' }, 'node.kind', 'U+200F'],
  ] as const) {
    await assert.rejects(registerChangeset(store, view, 'agent', [op as never], 'registered'), (error: unknown) => {
      assert.ok(error instanceof DocforgeError, String(error));
      assert.equal(error.code, 'invalid_arguments', error.message);
      assert.equal(error.details['field'], field);
      assert.equal(error.details['character'], character);
      return true;
    });
  }
  assert.deepEqual(store.list().documents, []);
  const joined = await registerChangeset(store, view, 'agent', [{ op: 'node_update', node_id: 'A-1', set: { title: 'می\u200Cخواهم' } }], 'registered');
  assert.equal(joined.doc.status, 'ready', JSON.stringify(joined.doc.findings));
});
