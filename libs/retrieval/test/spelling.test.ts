// British and American spellings stem alike and search for each other (issue 31, ranking): "coloured" finds `color`,
// "initialize" finds "initialise", and a spelling the index does not hold adds no weight.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { americanSpelling, analyseQuery, spellingVariants, wordStem } from '../src/index.js';

test('British forms map to American ones; other words are kept', () => {
  const pairs: [string, string][] = [
    ['colour', 'color'], ['coloured', 'colored'], ['colours', 'colors'], ['behaviour', 'behavior'], ['honour', 'honor'],
    ['initialise', 'initialize'], ['initialisation', 'initialization'], ['serialised', 'serialized'], ['normalising', 'normalizing'],
    ['analyse', 'analyze'], ['centre', 'center'], ['centred', 'centered'], ['cancelled', 'canceled'], ['labelling', 'labeling'],
    ['licence', 'license'], ['catalogue', 'catalog'], ['grey', 'gray'],
  ];
  for (const [british, american] of pairs) assert.equal(americanSpelling(british), american, british);
  for (const word of ['four', 'hour', 'source', 'your', 'rise', 'wise', 'called', 'filled', 'installed', 'color', 'initialize', 'license']) {
    assert.equal(americanSpelling(word), word, word);
  }
});

test('each spelling of a word has the other as its variant, and both stem alike', () => {
  for (const [a, b] of [['colour', 'color'], ['initialise', 'initialize'], ['behaviours', 'behaviors'], ['cancelling', 'canceling'], ['centre', 'center']]) {
    assert.ok(spellingVariants(a!).includes(b!), `${a} -> ${b}`);
    assert.ok(spellingVariants(b!).includes(a!), `${b} -> ${a}`);
    assert.equal(wordStem(a!), wordStem(b!));
  }
  assert.deepEqual(spellingVariants('request'), []);
});

test('a query word brings its other spelling as a term of the same group, at full weight, not as a word of its own', () => {
  const analysed = analyseQuery('how are ANSI colour codes ignored');
  const colour = analysed.terms.find((t) => t.word === 'colour')!;
  const color = analysed.terms.find((t) => t.word === 'color')!;
  assert.equal(color.group, colour.group);
  assert.equal(color.weight, 1);
  assert.equal(color.variant, true);
  assert.equal(analysed.groups, 4);
  assert.equal(analysed.wanted, 'ansi colour codes ignored');
});
