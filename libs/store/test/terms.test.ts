// Identifier subwords (terms.ts), after the break-it trial of issue 30: a node title of 80,000 capital
// letters took 28 s to index (3 MB: hours), because the acronym rule backtracked over a run of
// capitals. The rule is now a fixed-width lookahead; these tests pin that it splits exactly as
// before, against a reference scanner written from the documented rule, on the shapes that matter
// and on long runs of every kind.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { identifierWords, nodeTerms } from '../src/index.js';

/** The documented rule, by hand: split between a lower-case letter or digit and a capital, and before the last capital of a run that a lower-case letter follows. */
function reference(chunk: string): string[] {
  const chars = [...chunk];
  const isUpper = (c: string | undefined): boolean => c !== undefined && /\p{Lu}/u.test(c);
  const isLower = (c: string | undefined): boolean => c !== undefined && /\p{Ll}/u.test(c);
  const isDigit = (c: string | undefined): boolean => c !== undefined && /\p{N}/u.test(c);
  const words: string[] = [];
  let word = '';
  chars.forEach((c, i) => {
    const prev = chars[i - 1];
    const boundary = word !== '' && isUpper(c) && (isLower(prev) || isDigit(prev) || (isUpper(prev) && isLower(chars[i + 1])));
    if (boundary) (words.push(word.toLowerCase()), (word = ''));
    word += c;
  });
  if (word !== '') words.push(word.toLowerCase());
  return words;
}

test('camelCase, PascalCase and acronyms split as documented', () => {
  assert.deepEqual(identifierWords('HTTPServer'), ['http', 'server']);
  assert.deepEqual(identifierWords('parseURLToHTML'), ['parse', 'url', 'to', 'html']);
  assert.deepEqual(identifierWords('requestRefund'), ['request', 'refund']);
  assert.deepEqual(identifierWords('src/cfg-validator.ts'), ['src', 'cfg', 'validator', 'ts']);
  assert.deepEqual(identifierWords('ÉtatCivilXMLParser2Go'), ['état', 'civil', 'xml', 'parser2', 'go']);
});

test('the lookahead rule splits every generated identifier as the reference scanner does', () => {
  const alphabet = ['A', 'B', 'a', 'b', '1', 'É', 'é'];
  let seed = 33;
  const next = (): number => ((seed = (seed * 1103515245 + 12345) % 2147483648), seed);
  for (let i = 0; i < 20_000; i++) {
    const length = 1 + (next() % 14);
    let s = '';
    for (let j = 0; j < length; j++) s += alphabet[next() % alphabet.length];
    assert.deepEqual(identifierWords(s), reference(s), JSON.stringify(s));
  }
});

test('long runs of capitals index as one word each, with the acronym rule at their end', () => {
  const caps = 'A'.repeat(400_000);
  assert.deepEqual(identifierWords(caps), [caps.toLowerCase()]);
  assert.deepEqual(identifierWords(`${caps}Bc`), [caps.toLowerCase(), 'bc']);
  assert.equal(nodeTerms('BI-HUGE', caps), `bi huge ${caps.toLowerCase()}`);
});

test('an ASCII text splits by the one-scan path exactly as the general path splits it (issue 35)', () => {
  // A trailing non-ASCII word sends the same text down the general (Unicode) path; the ASCII
  // words before it must come out the same, and equal the reference scanner chunk by chunk.
  const alphabet = ['A', 'B', 'Z', 'a', 'b', 'z', '0', '9', '_', '-', '.', '/', ' ', '#', '@', '~', '\t'];
  let seed = 35;
  const next = (): number => ((seed = (seed * 1103515245 + 12345) % 2147483648), seed);
  for (let i = 0; i < 20_000; i++) {
    const length = 1 + (next() % 18);
    let s = '';
    for (let j = 0; j < length; j++) s += alphabet[next() % alphabet.length];
    const fast = identifierWords(s);
    assert.deepEqual([...fast, 'é'], identifierWords(`${s} é`), JSON.stringify(s));
    assert.deepEqual(fast, s.split(/[^A-Za-z0-9]+/).filter((c) => c !== '').flatMap(reference), JSON.stringify(s));
  }
  assert.deepEqual(identifierWords('docs/api-v2/HTTPServer_config.md'), ['docs', 'api', 'v2', 'http', 'server', 'config', 'md']);
  assert.equal(nodeTerms('REQ-0042', 'parseURLToHTML x'), 'req 0042 parse url to html x');
});
