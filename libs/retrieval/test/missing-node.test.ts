// Pins the `node_not_found` hint (found in a new-user trial): an id written without its `code:` prefix, or a page with its `.md` extension, names the id that exists; anything else names none.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { missingNode } from '../src/index.js';

const ids = new Set(['code:lib/proto.js', 'code:lib/proto.js#child', 'guides/getting-started']);
const reader = { hasNode: (id: string): boolean => ids.has(id) };

test('a code path without its prefix, or a page with its extension, is named as the meant id', () => {
  for (const [given, meant] of [['lib/proto.js', 'code:lib/proto.js'], ['lib/proto.js#child', 'code:lib/proto.js#child'], ['guides/getting-started.md', 'guides/getting-started']]) {
    const error = missingNode(reader, given!);
    assert.equal(error.code, 'node_not_found');
    assert.deepEqual(error.details, { node_id: given, did_you_mean: meant });
    assert.equal(error.message, `No node with id ${JSON.stringify(given)} exists. Did you mean ${JSON.stringify(meant)}?`);
  }
});

test('an id with no near match keeps the plain message', () => {
  const error = missingNode(reader, 'code:lib/nothing.js');
  assert.deepEqual(error.details, { node_id: 'code:lib/nothing.js' });
  assert.equal(error.message, 'No node with id "code:lib/nothing.js" exists.');
});
