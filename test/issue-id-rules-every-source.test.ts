// Pins that every source of authored node ids obeys the same id rules (break-it trial of issue 30):
// an id longer than the tools' node_id limit (1,024 characters) in front matter or a `[[node]]`
// record is malformed and gives no node (it could never be named); a project-owned adapter's node
// whose id holds whitespace, a bidi control, a NUL or a lone surrogate, or whose lines are out of
// range, is dropped with `adapter_invalid_node`. A front-matter relation name that no proposal
// could name is indexed with a warning.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { exampleProjectCopy, tempDir } from './helpers/projects.js';
import { useServer, type Server } from './helpers/server.js';

type Issue = { severity: string; code: string; message: string; path: string | null };

/** Every validation finding, page after page. */
async function allIssues(server: Server): Promise<Issue[]> {
  const out: Issue[] = [];
  let cursor: string | undefined;
  do {
    const page = await server.call('docforge_validate_project', cursor === undefined ? { limit: 200 } : { limit: 200, cursor });
    assert.equal(page.ok, true, JSON.stringify(page.error));
    out.push(...(page.result!.items as Issue[]));
    cursor = page.result!.next_cursor ?? undefined;
  } while (cursor !== undefined);
  return out;
}

test('ids over 1,024 characters give no node and a malformed finding, from front matter and records', async () => {
  const root = exampleProjectCopy();
  const long = `LONG-${'x'.repeat(1100)}`;
  writeFileSync(path.join(root, 'docs/guides/long-id.md'), `+++\nid = "${long}"\nkind = "document"\ntitle = "Long id page"\n+++\n# Long\n`);
  appendFileSync(path.join(root, 'docs/decisions/records.toml'), `\n[[node]]\nid = "${long}-R"\nkind = "decision"\ntitle = "Long id record"\n`);
  writeFileSync(path.join(root, 'docs/guides/bad-rel.md'), '+++\nid = "DOC-BAD-REL"\nkind = "document"\ntitle = "Bad relation"\n[relations]\n"Bad Relation!" = ["CMP-LEDGER"]\n+++\n# Bad relation\n');
  const server = await useServer(root);
  const items = await allIssues(server);
  const at = (p: string, code: string): Issue[] => items.filter((i) => i.path === p && i.code === code);
  assert.equal(at('docs/guides/long-id.md', 'malformed_front_matter').length, 1, JSON.stringify(items.filter((i) => i.path?.includes('long'))));
  assert.match(at('docs/guides/long-id.md', 'malformed_front_matter')[0]!.message, /1024/);
  assert.equal(at('docs/decisions/records.toml', 'malformed_record').length, 1);
  const rel = at('docs/guides/bad-rel.md', 'malformed_front_matter');
  assert.equal(rel.length, 1, 'the unproposable relation name has a finding');
  assert.equal(rel[0]!.severity, 'warning');
  const search = await server.call('docforge_search', { query: 'Long id page record' });
  assert.equal(JSON.stringify(search.result).includes(long), false, 'no node carries the long id');
  const badRel = await server.call('docforge_get_node', { node_id: 'DOC-BAD-REL', include_body: false });
  assert.equal(badRel.ok, true, 'the node with the unproposable relation is still indexed');
});

const BAD_NODES: [string, Record<string, unknown>][] = [
  ['space', { id: 'has space', kind: 'service' }],
  ['bidi', { id: 'a\u202eb', kind: 'service' }],
  ['nul', { id: 'nul\u0000x', kind: 'service' }],
  ['lone surrogate', { id: 'lone\ud800x', kind: 'service' }],
  ['start_line', { id: 'svc-neg', kind: 'service', start_line: -5 }],
  ['end_line', { id: 'svc-huge', kind: 'service', end_line: 1e12 }],
];

test('a project-owned adapter\'s ids and lines obey the same rules: unusable nodes are dropped with adapter_invalid_node', async () => {
  const root = tempDir('docforge-adapter-ids-');
  for (const dir of ['docs', '.docforge']) mkdirSync(path.join(root, dir), { recursive: true });
  writeFileSync(path.join(root, 'docforge.toml'), 'schema_version = 1\n[project]\nid = "svc"\nname = "Services"\n[sources]\ncontent_roots = ["docs"]\n[adapter]\ncode = "none"\nmodule = ".docforge/adapter.mjs"\n');
  writeFileSync(path.join(root, 'docs', 'services.md'), '+++\nid = "services-doc"\nkind = "document"\ntitle = "Services"\n+++\n# Services\n');
  const nodes = [...BAD_NODES.map(([, n]) => n), { id: 'svc-good', kind: 'service', start_line: 3, end_line: 9 }];
  writeFileSync(path.join(root, '.docforge', 'adapter.mjs'), `export const version = '1.0.0';\nexport function extract() { return { nodes: ${JSON.stringify(nodes)} }; }\n`);
  const server = await useServer(root);
  const good = await server.call('docforge_get_node', { node_id: 'svc-good', include_body: false });
  assert.equal(good.ok, true, JSON.stringify(good.error));
  const invalid = (await allIssues(server)).filter((i) => i.code === 'adapter_invalid_node');
  assert.equal(invalid.length, BAD_NODES.length, JSON.stringify(invalid));
  for (const id of ['svc-neg', 'svc-huge']) {
    const r = await server.call('docforge_get_node', { node_id: id, include_body: false });
    assert.equal(r.error?.code, 'node_not_found', id);
  }
  const spaced = await server.call('docforge_get_node', { node_id: 'has space', include_body: false });
  assert.equal(spaced.ok, false, 'an id with a space is not a node');
});
