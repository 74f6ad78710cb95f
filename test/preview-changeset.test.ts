// Pins docforge_preview_changeset: a declared view (never a renderer name) rendered with a changeset in memory, one atomic HTML file below <state>/previews/ and nothing else, graph marks, no --proposal-writer needed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { exampleProjectCopy } from './helpers/projects.js';
import { useServer, expectError, type Json } from './helpers/server.js';
import { treeHashes } from './helpers/hashes.js';
import { attr, byTag, classes, parseHtml } from './helpers/html.js';

function changed(before: Map<string, string>, after: Map<string, string>): string[] {
  const keys = new Set([...before.keys(), ...after.keys()]);
  return [...keys].filter((k) => before.get(k) !== after.get(k)).sort();
}

test('a graph view previewed with a changeset marks added, changed and removed nodes and relations; only the preview file is written', async () => {
  const root = exampleProjectCopy();
  const writer = await useServer(root, { proposalWriter: 'agent' });
  const registered = await writer.call('docforge_register_changes', {
    operations: [
      { op: 'node_create', node: { id: 'CMP-RATE-LIMITER', kind: 'component', title: 'Rate limiter', status: 'draft' }, path: 'docs/components/rate-limiter.md', body: '# Rate limiter\n\nLimits authorization bursts.\n' },
      { op: 'node_update', node_id: 'CMP-AUTH-GATEWAY', set: { title: 'Authorization gateway v2' } },
      { op: 'relationship_update', source_id: 'CMP-AUTH-GATEWAY', add: [{ relation: 'depends_on', target_id: 'CMP-RATE-LIMITER' }], remove: [{ relation: 'depends_on', target_id: 'CMP-RETRY' }] },
    ],
  });
  assert.equal(registered.ok, true, JSON.stringify(registered.error));
  const id = registered.result!.changeset_id as string;
  await writer.close();

  // Without --proposal-writer: preview stays available for an existing changeset.
  const server = await useServer(root);
  assert.equal((await server.call('docforge_sync')).ok, true);
  const before = treeHashes(root, '');
  const canonicalBefore = treeHashes(root);

  await expectError(server.call('docforge_preview_changeset', { changeset_id: id, view: 'graph' }), 'view_not_found');
  await expectError(server.call('docforge_preview_changeset', { changeset_id: 'cs-missing', view: 'gateway-graph' }), 'changeset_not_found');
  assert.deepEqual(changed(before, treeHashes(root, '')), [], 'a refused preview writes nothing');

  const preview = await server.call('docforge_preview_changeset', { changeset_id: id, view: 'gateway-graph' });
  assert.equal(preview.ok, true, JSON.stringify(preview.error));
  const result = preview.result!;
  assert.equal(result.changeset_id, id);
  assert.equal(result.renderer, 'graph');
  assert.equal(result.preview.path, `.docforge/previews/${id}/gateway-graph.html`);
  assert.deepEqual(changed(before, treeHashes(root, '')), [result.preview.path], 'exactly one file is written, below the preview root');
  assert.deepEqual(changed(canonicalBefore, treeHashes(root)), [], 'canonical files and declared outputs are untouched');

  const html = readFileSync(path.join(root, result.preview.path), 'utf8');
  assert.equal(Buffer.byteLength(html), result.preview.bytes);
  const svg = byTag(parseHtml(html), 'svg', 'graph')[0]!;
  const markOf = (nodeId: string) => {
    const g = byTag(svg, 'g', 'node').find((x) => attr(x, 'data-node-id') === nodeId);
    return g ? classes(g).filter((c) => ['added', 'changed', 'removed'].includes(c)) : null;
  };
  assert.deepEqual(markOf('CMP-RATE-LIMITER'), ['added']);
  assert.deepEqual(markOf('CMP-AUTH-GATEWAY'), ['changed']);
  assert.deepEqual(markOf('CMP-LEDGER'), [], 'an untouched neighbour carries no mark');
  const edgeMark = (target: string) => {
    const p = byTag(svg, 'path', 'edge').find((x) => attr(x, 'data-source') === 'CMP-AUTH-GATEWAY' && attr(x, 'data-relation') === 'depends_on' && attr(x, 'data-target') === target);
    return p ? classes(p).filter((c) => c !== 'edge') : null;
  };
  assert.deepEqual(edgeMark('CMP-RATE-LIMITER'), ['added']);
  assert.deepEqual(edgeMark('CMP-RETRY'), ['removed'], 'the removed relation is still drawn, marked removed');
  assert.deepEqual(edgeMark('CMP-LEDGER'), []);
  assert.ok(result.marks.nodes_added >= 1 && result.marks.nodes_changed >= 1 && result.marks.relations_added >= 1 && result.marks.relations_removed >= 1, JSON.stringify(result.marks));

  // A catalog preview shows the proposed node too, and previews of other views land beside it.
  const catalog = await server.call('docforge_preview_changeset', { changeset_id: id, view: 'components' });
  const items = byTag(parseHtml(readFileSync(path.join(root, catalog.result!.preview.path), 'utf8')), 'li', 'node');
  assert.ok(items.some((li) => attr(li, 'data-node-id') === 'CMP-RATE-LIMITER' && classes(li).includes('added')));
  assert.equal(path.dirname(catalog.result!.preview.path), `.docforge/previews/${id}`);
  await server.close();
});

test('a preview works with a writer too and carries the exact changeset hash and validity', async () => {
  const root = exampleProjectCopy();
  const writer = await useServer(root, { proposalWriter: 'agent' });
  const registered = await writer.call('docforge_register_changes', { operations: [{ op: 'node_update', node_id: 'CMP-LEDGER', set: { status: 'draft' } }] });
  const got = await writer.call('docforge_get_changeset', { changeset_id: registered.result!.changeset_id });
  const preview = await writer.call('docforge_preview_changeset', { changeset_id: registered.result!.changeset_id, view: 'requirements' });
  assert.equal(preview.result!.changeset_sha256, (got.result as Json).changeset_sha256 ?? registered.result!.changeset_sha256);
  assert.equal(preview.result!.valid, true);
  await writer.close();
});
