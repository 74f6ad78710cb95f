// Pins that query parsing reports every chunk it does not search (issue 8 item 8): stop words and words beyond MAX_QUERY_PHRASES for search, terms beyond MAX_QUERY_TERMS for task context.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_QUERY_PHRASES, MAX_QUERY_TERMS, analyseQuery, splitTaskTerms, taskTerms } from '../src/index.js';

const words = (n: number, prefix = 'w'): string[] => Array.from({ length: n }, (_, i) => `${prefix}${i}x`);

test('a query of up to MAX_QUERY_PHRASES distinct words drops nothing but stop words', () => {
  const query = ['the', ...words(MAX_QUERY_PHRASES), 'of'].join(' ');
  const analysed = analyseQuery(query);
  assert.equal(analysed.groups, MAX_QUERY_PHRASES);
  assert.deepEqual(analysed.dropped, [{ term: 'the', reason: 'stop_word' }, { term: 'of', reason: 'stop_word' }]);
});

test('words after the bound are listed in query order, each once', () => {
  const extra = ['Alpha', 'beta', 'alpha', 'Tail'];
  const analysed = analyseQuery([...words(MAX_QUERY_PHRASES), ...extra].join('  '));
  assert.equal(analysed.groups, MAX_QUERY_PHRASES);
  assert.deepEqual(analysed.dropped, [
    { term: 'alpha', reason: 'term_limit' },
    { term: 'beta', reason: 'term_limit' },
    { term: 'tail', reason: 'term_limit' },
  ]);
});

test('a query of stop words only searches them and drops none', () => {
  const analysed = analyseQuery('the of and');
  assert.equal(analysed.groups, 3);
  assert.deepEqual(analysed.dropped, []);
  assert.deepEqual(analyseQuery('  !!  ').dropped, []);
});

test('task terms after MAX_QUERY_TERMS are returned as dropped, distinct and in order', () => {
  const task = ['the', ...words(MAX_QUERY_TERMS + 3, 'term'), 'term0x', 'how'].join(' ');
  const { terms, dropped } = splitTaskTerms(task);
  assert.deepEqual(terms, words(MAX_QUERY_TERMS, 'term'));
  assert.deepEqual(dropped, words(MAX_QUERY_TERMS + 3, 'term').slice(MAX_QUERY_TERMS));
  assert.deepEqual(taskTerms(task), terms);
});
