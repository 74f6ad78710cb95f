// Regression (issue 30 item 3): paths, links, anchors, ids and search terms compare in NFC, and a
// file is read by its real name. A link written in NFC to a file whose name is in NFD (as macOS
// writes names; written here with an NFD name on Linux, where names are bytes) resolves; a node id
// sent in NFD names the NFC id; two files whose names differ only by normal form are an error
// `path_normalization_conflict` naming both, never a crash; a created file lands on the existing
// real name (`path_exists`), never beside it under a second name.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { tempDir } from './helpers/projects.js';
import { useServer, type Json } from './helpers/server.js';

const NFC_NAME = 'caf\u00e9';
const NFD_NAME = 'cafe\u0301';
const DESCRIPTOR = 'schema_version = 1\n[project]\nid = "normal-forms"\nname = "Normal forms"\n[sources]\ncontent_roots = ["docs"]\n[adapter]\ncode = "none"\n';

function project(files: Record<string, string>): string {
  const root = tempDir('docforge-normal-forms-');
  mkdirSync(path.join(root, 'docs'));
  writeFileSync(path.join(root, 'docforge.toml'), DESCRIPTOR);
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(root, 'docs', name), text);
  return root;
}

describe('an NFC link to a file named in NFD', async () => {
  // The page's heading is in NFD too; the links, its anchor and the front matter relation are in NFC.
  const root = project({
    'index.md': `+++\nid = "index"\nkind = "document"\ntitle = "Index"\n[relations]\nrelates_to = ["${NFC_NAME}"]\n+++\nSee [the page](${NFC_NAME}.md), [its section](./${NFC_NAME}.md#r\u00e9sum\u00e9) and [percent-encoded](caf%C3%A9.md).\n`,
    [`${NFD_NAME}.md`]: `# Cafe\u0301\n\n## Re\u0301sume\u0301\n\nText.\n`,
  });
  const s = await useServer(root);

  test('the file really has its NFD name', () => {
    assert.ok(readdirSync(path.join(root, 'docs')).includes(`${NFD_NAME}.md`));
    assert.ok(!readdirSync(path.join(root, 'docs')).includes(`${NFC_NAME}.md`));
  });

  test('no broken_link and no unresolved relation: links, anchor and relation resolve to the file', async () => {
    const v = await s.call('docforge_validate_project', { limit: 200 });
    assert.equal(v.ok, true, JSON.stringify(v.error));
    assert.deepEqual(v.result!.items.filter((i: Json) => i.code !== 'undeclared_kind'), []);
    const back = await s.call('docforge_backlinks', { node_id: NFC_NAME });
    assert.equal(back.ok, true, JSON.stringify(back.error));
    assert.deepEqual([...new Set(back.result!.items.map((i: Json) => i.source_id ?? i.id))], ['index']);
  });

  test('the node id is in NFC, read by the real name; an id or query in NFD names it too', async () => {
    for (const id of [NFC_NAME, NFD_NAME]) {
      const e = await s.call('docforge_get_node', { node_id: id });
      assert.equal(e.ok, true, JSON.stringify(e.error));
      assert.equal(e.result!.node.id, NFC_NAME);
      assert.equal(e.result!.node.source_path, `docs/${NFD_NAME}.md`);
      assert.match(e.result!.node.body, /Text\./);
    }
    const found = await s.call('docforge_search', { query: NFD_NAME });
    assert.equal(found.result!.items[0].id, NFC_NAME);
    assert.equal(found.result!.items[0].match, 'exact_id');
  });
});

describe('two files whose names differ only by normal form', async () => {
  const root = project({ [`${NFC_NAME}.md`]: '# One\n\nFirst.\n', [`${NFD_NAME}.md`]: '# Two\n\nSecond.\n', 'index.md': `# Index\n\n[link](${NFC_NAME}.md)\n` });
  const s = await useServer(root, { proposalWriter: 'writer' });

  test('an error names both paths; the server keeps answering', async () => {
    const v = await s.call('docforge_validate_project', { limit: 200 });
    assert.equal(v.ok, true, JSON.stringify(v.error));
    const conflicts = v.result!.items.filter((i: Json) => i.code === 'path_normalization_conflict');
    assert.equal(conflicts.length, 1);
    assert.equal(conflicts[0].severity, 'error');
    assert.ok(conflicts[0].message.includes(`docs/${NFC_NAME}.md`) && conflicts[0].message.includes(`docs/${NFD_NAME}.md`), conflicts[0].message);
    assert.match(conflicts[0].message, /caf\\u00e9\.md.*cafe\\u0301\.md/);
    const search = await s.call('docforge_search', { query: 'second' });
    assert.equal(search.ok, true);
  });

  test('a node created at the NFC path of an existing NFD file is refused as path_exists, not written beside it', async () => {
    const single = project({ [`${NFD_NAME}.md`]: '# Page\n\nText.\n' });
    const w = await useServer(single, { proposalWriter: 'writer' });
    const e = await w.call('docforge_propose_node_create', { node: { id: 'NEW-1', kind: 'document', title: 'New' }, path: `docs/${NFC_NAME}.md`, body: 'New.\n' });
    assert.equal(e.ok, true, JSON.stringify(e.error));
    assert.deepEqual(e.result!.findings.map((f: Json) => [f.code, f.path]), [['path_exists', `docs/${NFD_NAME}.md`]]);
  });
});
