// Pins the main job on real documentation nobody here wrote: fastify's own docs/, initialised with `docforge init` and served over stdio.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CLI_ENTRY } from './helpers/paths.js';
import { fastifyProjectCopy } from './helpers/projects.js';
import { expectError, useServer } from './helpers/server.js';

describe('docforge-mcp on fastify docs/', async () => {
  const root = fastifyProjectCopy(['docs']);
  const init = spawnSync(process.execPath, [CLI_ENTRY, 'init', root], { encoding: 'utf8' });
  assert.equal(init.status, 0, init.stderr);
  assert.ok(existsSync(path.join(root, 'docforge.toml')));
  const s = await useServer(root);

  test('bootstrap returns the fixed binding and the active index path', async () => {
    const e = await s.call('docforge_bootstrap');
    assert.equal(e.ok, true, JSON.stringify(e.error));
    assert.equal(e.result!.binding.project_root, root);
    assert.equal(e.result!.binding.fixed, true);
    assert.ok(existsSync(e.result!.index.active_index_path));
    assert.ok(e.result!.index.active_index_path.startsWith(path.join(root, '.docforge', 'index')));
    assert.ok(e.result!.index.counts.nodes >= 40, `one node per Markdown page, got ${e.result!.index.counts.nodes}`);
  });

  test('searching onRequest ranks the Hooks reference page first', async () => {
    const e = await s.call('docforge_search', { query: 'onRequest', limit: 5 });
    assert.equal(e.result!.items[0].id, 'Reference/Hooks');
    assert.equal(e.result!.items[0].source_path, 'docs/Reference/Hooks.md');
  });

  test('backlinks of the Hooks page list pages that link to it', async () => {
    const e = await s.call('docforge_backlinks', { node_id: 'Reference/Hooks', limit: 100 });
    const ids = e.result!.items.map((i: { id: string }) => i.id);
    assert.ok(ids.length >= 3, `several pages link to Hooks: ${ids.join(', ')}`);
    for (const item of e.result!.items) assert.equal(item.relation, 'relates_to');
    // Check one of them against the real file text.
    const lifecycle = e.result!.items.find((i: { id: string }) => i.id === 'Reference/Lifecycle');
    assert.ok(lifecycle, 'Reference/Lifecycle links to Hooks.md');
  });

  test('a long body reads page by page, and one section alone', async () => {
    let offset = 0;
    let text = '';
    let total = -1;
    for (let page = 0; page < 50; page += 1) {
      const e = await s.call('docforge_get_node', { node_id: 'Reference/TypeScript', body_offset: offset, max_body_chars: 20_000 });
      assert.equal(e.ok, true);
      total = e.result!.body_total_chars;
      text += e.result!.node.body;
      if (e.result!.next_body_offset === null) break;
      assert.ok(e.result!.next_body_offset > offset, 'pages advance');
      offset = e.result!.next_body_offset;
    }
    assert.ok(total > 40_000, 'the page is longer than one response');
    assert.equal(text.length, total, 'the pages add up to the whole body');
    const hooks = await s.call('docforge_get_node', { node_id: 'Reference/Hooks', section: 'onrequest' });
    assert.match(hooks.result!.node.body, /^### onRequest/);
    assert.ok(!hooks.result!.node.body.includes('### preParsing'), 'stops at the next heading of the same level');
    assert.equal(hooks.result!.section.slug, 'onrequest');
    const missing = await s.call('docforge_get_node', { node_id: 'Reference/Hooks', section: 'no-such-section' });
    await expectError(missing, 'invalid_arguments');
  });

  test('after a file is edited the next call reports a higher revision and the new text, without a restart', async () => {
    const before = await s.call('docforge_search', { query: 'zebracornflux' });
    assert.equal(before.result!.items.length, 0);
    appendFileSync(path.join(root, 'docs/Reference/Hooks.md'), '\n\nThe zebracornflux hook is a test marker.\n');
    const after = await s.call('docforge_search', { query: 'zebracornflux' });
    assert.ok(after.project!.revision > before.project!.revision);
    assert.equal(after.result!.items[0]?.id, 'Reference/Hooks');
    const node = await s.call('docforge_get_node', { node_id: 'Reference/Hooks' });
    assert.match(node.result!.node.body, /zebracornflux/);
  });

  test('after the index files are deleted the next call rebuilds them', async () => {
    const before = await s.call('docforge_bootstrap');
    // The server may be writing its idle-time standby copy into this folder meanwhile (ENOTEMPTY): retry.
    rmSync(path.join(root, '.docforge', 'index'), { recursive: true, force: true, maxRetries: 10, retryDelay: 50 });
    const e = await s.call('docforge_search', { query: 'onRequest', limit: 1 });
    assert.equal(e.ok, true);
    assert.equal(e.result!.items[0].id, 'Reference/Hooks');
    const boot = await s.call('docforge_bootstrap');
    assert.ok(existsSync(boot.result!.index.active_index_path));
    assert.ok(boot.project!.revision > before.project!.revision, 'generation stays monotonic after deletion');
    assert.ok(readdirSync(path.join(root, '.docforge', 'index')).includes('current.json'));
  });

  test('a malformed node file yields a validation issue naming file and line while the rest is served', async () => {
    writeFileSync(path.join(root, 'docs/Reference/Broken.md'), '+++\nid = "broken"\nkind = \n+++\n# Broken\n');
    const v = await s.call('docforge_validate_project', { limit: 200 });
    const issue = v.result!.items.find((i: { code: string }) => i.code === 'malformed_front_matter');
    assert.ok(issue, 'malformed_front_matter reported');
    assert.equal(issue.path, 'docs/Reference/Broken.md');
    assert.equal(issue.line, 3);
    const e = await s.call('docforge_search', { query: 'onRequest', limit: 1 });
    assert.equal(e.result!.items[0].id, 'Reference/Hooks');
  });
});
