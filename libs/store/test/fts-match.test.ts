/** The typed full-text match: the store builds every FTS5 expression, quoting every phrase. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ftsExpression } from '../src/index.js';

test('any, all and name-column matches build the FTS5 expressions the ranking has always run', () => {
  assert.equal(ftsExpression({ mode: 'any', phrases: ['payment'] }), '"payment"');
  assert.equal(ftsExpression({ mode: 'any', phrases: ['request', 'on request'] }), '"request" OR "on request"');
  assert.equal(ftsExpression({ mode: 'any', phrases: ['refund', 'payment'], fields: 'names' }), '{id title terms} : ("refund" OR "payment")');
  assert.equal(ftsExpression({ mode: 'all', groups: [['refund'], ['payment', 'ledger']] }), '("refund") AND ("payment" OR "ledger")');
});

test('query text never becomes FTS5 syntax: quotes are doubled, operators, stars and column filters stay inside a phrase', () => {
  assert.equal(ftsExpression({ mode: 'any', phrases: ['say "hi"'] }), '"say ""hi"""');
  assert.equal(ftsExpression({ mode: 'any', phrases: ['a OR b', 'NEAR(x y)', 'pre*', 'title : x'] }), '"a OR b" OR "NEAR(x y)" OR "pre*" OR "title : x"');
});

test('an empty match is the empty phrase, which matches nothing', () => {
  assert.equal(ftsExpression({ mode: 'any', phrases: [] }), '""');
  assert.equal(ftsExpression({ mode: 'all', groups: [] }), '""');
  assert.equal(ftsExpression({ mode: 'all', groups: [['a'], []] }), '("a") AND ("")');
});
