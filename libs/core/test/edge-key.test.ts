// Pins the edge identity key: the exact triple joined by NUL, and its inverse.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { edgeIdentityKey, parseEdgeIdentityKey } from '../src/index.js';

test('the key is source, relation and target joined by NUL, and parses back', () => {
  const edge = { source_id: 'code:src/a.ts#f', relation: 'calls', target_id: 'code:src/b.ts#g' };
  assert.equal(edgeIdentityKey(edge), 'code:src/a.ts#f\u0000calls\u0000code:src/b.ts#g');
  assert.deepEqual(parseEdgeIdentityKey(edgeIdentityKey(edge)), edge);
  assert.notEqual(edgeIdentityKey({ source_id: 'a', relation: 'b c', target_id: 'd' }), edgeIdentityKey({ source_id: 'a b', relation: 'c', target_id: 'd' }));
  assert.throws(() => parseEdgeIdentityKey('a\u0000b'));
});
