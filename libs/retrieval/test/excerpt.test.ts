// Pins bounded excerpts of long bodies: about 16 words around the densest run of query terms, ellipses where text was cut, and a fixed scan bound.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EXCERPT_SCAN_CHARS, EXCERPT_TOKENS, boundedExcerpt } from '../src/index.js';

const words = (text: string): string[] => text.replace(/…/g, ' ').split(/\s+/).filter((w) => w !== '');

test('the window with both query terms wins over an earlier window with one', () => {
  const filler = Array.from({ length: 40 }, (_, i) => `w${i}`).join(' ');
  const text = `alpha ${filler} alpha beta gamma ${filler}`;
  const excerpt = boundedExcerpt(text, ['alpha', 'beta'], true);
  assert.ok(excerpt.startsWith('…'), excerpt);
  assert.ok(excerpt.endsWith('…'), excerpt);
  assert.match(excerpt, /alpha beta gamma/);
  assert.equal(words(excerpt).length, EXCERPT_TOKENS);
});

test('no matching word: the start of the text, without a leading ellipsis', () => {
  const excerpt = boundedExcerpt('one two three', ['zebra'], true);
  assert.equal(excerpt, 'one two three');
  assert.equal(boundedExcerpt('one two three', ['zebra'], false), 'one two three…', 'an incomplete head says more follows');
  assert.equal(boundedExcerpt('  \n ', ['zebra'], true), '');
});

test('stems: "payments" finds "payment"; a match past the scan bound is not seen', () => {
  assert.match(boundedExcerpt('the payment service', ['payments'], true), /payment/);
  const far = `${'x '.repeat(EXCERPT_SCAN_CHARS)}zebra`;
  assert.doesNotMatch(boundedExcerpt(far, ['zebra'], false), /zebra/);
});
