// Pins that query parsing reports every chunk it does not search (issue 8 item 8): stop words and phrases beyond MAX_QUERY_PHRASES for search, terms beyond MAX_QUERY_TERMS for task context.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_QUERY_PHRASES, MAX_QUERY_TERMS, parseQuery, queryPhrases, splitTaskTerms, taskTerms } from '../src/index.js';

const words = (n: number, prefix = 'w'): string[] => Array.from({ length: n }, (_, i) => `${prefix}${i}x`);

test('a query of up to MAX_QUERY_PHRASES distinct phrases drops nothing but stop words', () => {
  const query = ['the', ...words(MAX_QUERY_PHRASES), 'of'].join(' ');
  const parsed = parseQuery(query);
  assert.equal(parsed.phrases.length, MAX_QUERY_PHRASES);
  assert.deepEqual(parsed.dropped, [{ term: 'the', reason: 'stop_word' }, { term: 'of', reason: 'stop_word' }]);
});

test('phrases after the bound are listed in query order, each once, with their words', () => {
  const extra = ['N-000123', 'lib/route.js', 'N-000123', 'Tail'];
  const parsed = parseQuery([...words(MAX_QUERY_PHRASES), ...extra].join('  '));
  assert.deepEqual(parsed.phrases, words(MAX_QUERY_PHRASES).map((w) => `"${w}"`));
  assert.deepEqual(parsed.dropped, [
    { term: 'n 000123', reason: 'term_limit' },
    { term: 'lib route js', reason: 'term_limit' },
    { term: 'tail', reason: 'term_limit' },
  ]);
  assert.deepEqual(queryPhrases('a b'), parseQuery('a b').phrases);
});

test('a query of stop words only searches them and drops none', () => {
  assert.deepEqual(parseQuery('the of and'), { phrases: ['"the"', '"of"', '"and"'], dropped: [] });
  assert.deepEqual(parseQuery('  !!  '), { phrases: [], dropped: [] });
});

test('task terms after MAX_QUERY_TERMS are returned as dropped, distinct and in order', () => {
  const task = [...words(MAX_QUERY_TERMS + 3, 'term'), 'term0x', 'the', 'ab'].join(' ');
  const { terms, dropped } = splitTaskTerms(task);
  assert.deepEqual(terms, words(MAX_QUERY_TERMS, 'term'));
  assert.deepEqual(dropped, words(MAX_QUERY_TERMS + 3, 'term').slice(MAX_QUERY_TERMS));
  assert.deepEqual(taskTerms(task), terms);
});
