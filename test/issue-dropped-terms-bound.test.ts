// Pins that `dropped_terms` of docforge_search and docforge_get_context is bounded (break-it trial
// of issue 30): a 10,000-character query of thousands of distinct words answers with a prefix of
// the dropped words (at most 600 characters of JSON, in query order) and `dropped_terms_total`
// counting them all, instead of result_too_large that no argument can shrink.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sharedExampleProject } from './helpers/projects.js';
import { useServer } from './helpers/server.js';

/** A query of `count` distinct words (`ledger` first, then `q<base36>`), each searched word a real one. */
function manyWords(count: number): string {
  return ['ledger', ...Array.from({ length: count - 1 }, (_, i) => `q${i.toString(36)}`)].join(' ');
}

test('a query of thousands of distinct words lists a bounded prefix of dropped_terms and their total', async () => {
  const server = await useServer(sharedExampleProject());
  const query = manyWords(2200);
  assert.ok(query.length <= 10_000 && query.length > 9_000);
  const words = query.split(' ').length;
  for (const [tool, args] of [['docforge_search', { query }], ['docforge_get_context', { query }]] as const) {
    const r = await server.call(tool, args);
    assert.equal(r.ok, true, `${tool}: ${JSON.stringify(r.error)}`);
    const dropped = r.result!.dropped_terms as { term: string; reason: string }[];
    assert.ok(JSON.stringify(dropped).length <= 600, `${tool}: the listed prefix is bounded (${JSON.stringify(dropped).length})`);
    assert.ok(dropped.length > 0);
    assert.equal(dropped[0]!.reason, 'term_limit');
    assert.equal(r.result!.dropped_terms_total, words - 32, `${tool}: the total counts every word after the 32nd`);
  }
  const small = await server.call('docforge_search', { query: 'the ledger' });
  assert.equal(small.ok, true);
  assert.deepEqual(small.result!.dropped_terms, [{ term: 'the', reason: 'stop_word' }]);
  assert.equal('dropped_terms_total' in small.result!, false, 'no total when the list is whole');
});
