// Regression (new-user trial): every search hit shows an excerpt of its own text, all-term matches rank first, stop words and FTS5 syntax are inert.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sharedFastifyProject } from './helpers/shared-fixtures.js';
import { useServer } from './helpers/server.js';

describe('search hits on fastify docs', async () => {
  // Reads only: the run's shared built copy (test/helpers/shared-fixtures.ts).
  const root = sharedFastifyProject(['docs'], 'schema_version = 1\n[project]\nid = "fastify-docs"\nname = "Fastify docs"\n[sources]\ncontent_roots = ["docs"]\n[adapter]\ncode = "none"\n');
  const s = await useServer(root);

  test('each excerpt comes from the hit\'s own source and contains a query word', async () => {
    for (const query of ['logger', 'how to test routes', 'content type parser']) {
      const e = await s.call('docforge_search', { query, limit: 8 });
      assert.ok(e.result!.items.length >= 3, query);
      const excerpts = new Set<string>();
      for (const hit of e.result!.items) {
        const text = readFileSync(path.join(root, hit.source_path), 'utf8').replace(/\s+/g, ' ').toLowerCase();
        const fragment = hit.excerpt.replace(/…/g, ' ').replace(/\s+/g, ' ').trim().toLowerCase().slice(0, 40).trim();
        assert.ok(text.includes(fragment), `${query}: excerpt of ${hit.id} is from its own file: ${fragment}`);
        excerpts.add(hit.excerpt);
      }
      assert.ok(excerpts.size > 1, `${query}: excerpts differ between hits`);
    }
  });

  test('a hit that names a section shows an excerpt from that section\'s lines', async () => {
    let checked = 0;
    for (const query of ['log level threshold', 'validate the request body', 'close the server gracefully', 'register a plugin with options', 'custom error handler', 'hook lifecycle reply']) {
      const e = await s.call('docforge_search', { query, limit: 10 });
      for (const hit of e.result!.items) {
        if (!hit.section) continue;
        const got = await s.call('docforge_get_node', { node_id: hit.id, section: hit.section.slug });
        assert.equal(got.ok, true, JSON.stringify(got.error));
        const flat = (text: string): string => text.replace(/…/g, ' ').replace(/\s+/g, ' ').trim().toLowerCase();
        // The excerpt starts in the section (a window may run on past its last line).
        const longest = hit.excerpt.split('…').map(flat).sort((a: string, b: string) => b.length - a.length)[0].slice(0, 40).trim();
        assert.ok(flat(got.result!.node.body).includes(longest), `${query}: excerpt of ${hit.id} starts in section ${hit.section.slug}: ${longest}`);
        checked += 1;
      }
    }
    assert.ok(checked >= 10, `enough sectioned hits checked (${checked})`);
  });

  test('titles and headings count; matching every term is a ranking signal, not a hard tier (issue 9: one ranking)', async () => {
    const e = await s.call('docforge_search', { query: 'error handling', limit: 20 });
    assert.equal(e.result!.items[0].id, 'Reference/Errors');
    assert.equal(e.result!.items[0].match, 'all_terms');
    const scores = e.result!.items.map((i: { score: number }) => i.score);
    for (let i = 1; i < scores.length; i += 1) assert.ok(scores[i] <= scores[i - 1], 'scores decrease in the order shown');
    const hooks = await s.call('docforge_search', { query: 'onRequest', limit: 1 });
    assert.equal(hooks.result!.items[0].section.slug, 'onrequest');
    assert.equal(typeof hooks.result!.items[0].section.line, 'number');
  });

  test('stop words and FTS5 syntax are treated as plain text', async () => {
    const plain = await s.call('docforge_search', { query: 'the logger', limit: 3 });
    const bare = await s.call('docforge_search', { query: 'logger', limit: 3 });
    assert.deepEqual(plain.result!.items.map((i: { id: string }) => i.id), bare.result!.items.map((i: { id: string }) => i.id));
    for (const query of ['"', 'NEAR(a b)', 'title:hooks', 'a AND OR', '*', '-x', '^start', '(((']) {
      const e = await s.call('docforge_search', { query });
      assert.equal(e.ok, true, `${query}: ${JSON.stringify(e.error)}`);
    }
  });
});
