// Pins SHA-256, RFC 8785 canonical JSON, node content hashes and the version-1 relation alias map.
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ALIASED_RELATIONS, canonicalJson, domainHash, hashJson, relationCategory, sha256, withContentHash } from '../src/index.js';

test('sha256 and canonical JSON follow the standards', () => {
  assert.equal(sha256('abc'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  assert.equal(canonicalJson({ b: [1, 'x', null], a: 1.5e2, c: { z: true, y: false } }), '{"a":150,"b":[1,"x",null],"c":{"y":false,"z":true}}');
  // Expected digests by node:crypto over canonical text written out by hand.
  const digest = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');
  assert.equal(hashJson({ b: 2, a: 1 }), digest('{"a":1,"b":2}'));
  assert.equal(domainHash('one', { a: 1 }), digest('one\u0000{"a":1}'));
  assert.notEqual(domainHash('one', { a: 1 }), domainHash('two', { a: 1 }));
  assert.throws(() => canonicalJson(undefined), TypeError);
});

test('content_hash covers every core node field', () => {
  const base = { id: 'A', kind: 'document', title: 'T', family: null, authority: null, status: null, tags: [], summary: '', body: 'b', source_path: 'docs/a.md', start_line: 1, end_line: 2, anchors: [], language: null, capabilities: [], origin: 'markdown' as const };
  const h = withContentHash({ ...base }).content_hash;
  assert.match(h, /^[0-9a-f]{64}$/);
  for (const [key, value] of Object.entries({ title: 'U', body: 'c', start_line: 3, tags: ['x'], status: 'draft', source_path: 'docs/b.md' })) {
    assert.notEqual(withContentHash({ ...base, [key]: value }).content_hash, h, key);
  }
});

test('the version-1 alias map has exactly 22 names and everything else is unclassified', () => {
  assert.equal(ALIASED_RELATIONS.length, 22);
  assert.equal(relationCategory('tested_by'), 'evidence');
  assert.equal(relationCategory('relates_to'), 'context');
  assert.equal(relationCategory('mitigates'), 'unclassified');
  assert.equal(relationCategory('Calls'), 'unclassified');
});
