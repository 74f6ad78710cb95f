// Regression (issue 8 item 8): search, context and task context report every query word they do not search instead of dropping it silently.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { sharedExampleProject, tempDir } from './helpers/projects.js';
import { useServer, type Json } from './helpers/server.js';

// 40 distinct invented words; only the last one occurs in a document.
const WORDS = Array.from({ length: 40 }, (_, i) => `qterm${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}`);
const LAST = WORDS[39]!;
const root = tempDir('docforge-query-terms-');
mkdirSync(path.join(root, 'docs'));
writeFileSync(path.join(root, 'docforge.toml'), 'schema_version = 1\n[project]\nid = "query-terms"\nname = "Query terms"\n[sources]\ncontent_roots = ["docs"]\n[adapter]\ncode = "none"\n');
writeFileSync(path.join(root, 'docs', 'last.md'), `# Last word\n\nOnly ${LAST} is here.\n`);
writeFileSync(path.join(root, 'docs', 'first.md'), `# First word\n\nOnly ${WORDS[0]} is here.\n`);

describe('query words beyond the bound are reported', async () => {
  const s = await useServer(root);

  test('search: the words after the 32nd and the stop words are listed in dropped_terms', async () => {
    const e = await s.call('docforge_search', { query: `the ${WORDS.join(' ')} and ${WORDS[0]}` });
    assert.equal(e.ok, true);
    // In query order: "the", the words after the 32nd, then "and".
    assert.deepEqual(e.result!.dropped_terms, [
      { term: 'the', reason: 'stop_word' },
      ...WORDS.slice(32).map((term) => ({ term, reason: 'term_limit' })),
      { term: 'and', reason: 'stop_word' },
    ]);
    // The dropped word is honestly not searched: its only document is not a hit.
    assert.deepEqual(e.result!.items.map((i: Json) => i.id), ['first']);
    const short = await s.call('docforge_search', { query: LAST });
    assert.deepEqual(short.result!.dropped_terms, []);
    assert.deepEqual(short.result!.items.map((i: Json) => i.id), ['last']);
  });

  test('get_context: the default selection reports the same dropped words', async () => {
    const e = await s.call('docforge_get_context', { query: WORDS.join(' ') });
    assert.equal(e.ok, true, JSON.stringify(e.error));
    assert.deepEqual(e.result!.dropped_terms, WORDS.slice(32).map((term) => ({ term, reason: 'term_limit' })));
  });

  test('get_task_context: task words after the first 32 terms are listed in the plan', async () => {
    const e = await s.call('docforge_get_task_context', { task_kind: 'change', task: WORDS.join(' ') });
    assert.equal(e.ok, true, JSON.stringify(e.error));
    assert.equal(e.result!.plan.focus.query_terms, 32);
    assert.deepEqual(e.result!.plan.focus.dropped_terms, WORDS.slice(32));
    assert.equal(e.result!.plan.focus.unchecked_id_chunks, 0);
    const long = await s.call('docforge_get_task_context', { task_kind: 'change', task: Array.from({ length: 70 }, () => 'first').join(' ') });
    assert.equal(long.result!.plan.focus.unchecked_id_chunks, 6);
    assert.deepEqual(long.result!.plan.focus.dropped_terms, []);
  });
});

describe('identifiers written with underscores are found in prose', async () => {
  const s = await useServer(sharedExampleProject());

  test('refund_rejected finds the pages whose text holds it; camelCase compounds keep matching names only by their subwords', async () => {
    const e = await s.call('docforge_search', { query: 'refund_rejected', limit: 10 });
    assert.equal(e.ok, true, JSON.stringify(e.error));
    // FTS5 splits `refund_rejected` in prose into two tokens: the subword phrase is searched too.
    const ids = e.result!.items.map((i: Json) => i.id);
    assert.ok(ids.includes('RB-004') && ids.includes('CMP-REFUND-SERVICE'), ids.join(', '));
    assert.equal(e.result!.items[0]!.match, 'all_terms');
    // A camelCase compound is one token in prose, so its subword phrase stays out of the full text:
    // the runbook, which holds only `refund_rejected`, is no hit.
    const camel = await s.call('docforge_search', { query: 'refundRejected', limit: 10 });
    assert.equal(camel.ok, true);
    assert.equal(camel.result!.items.some((i: Json) => i.id === 'RB-004'), false);
  });
});
