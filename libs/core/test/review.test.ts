// Pins the review hash (issue 32 item 1): what moves a hash and what never does, and the stamp comment form.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { codeReviewHashes, documentReviewHash, formatStampComment, parseStampComment, reviewHash, reviewState } from '../src/index.js';

const FILE = [
  '/** Adds two numbers. */',
  'export function add(a: number, b: number): number {',
  '  return a + b;',
  '}',
  '',
  'export function sub(a: number, b: number): number {',
  '  return a - b;',
  '}',
].join('\n');

function nodesOf(text: string): { id: string; start_line: number; end_line: number }[] {
  const lines = text.split('\n');
  const out: { id: string; start_line: number; end_line: number }[] = [];
  lines.forEach((line, i) => {
    const m = /function (\w+)/.exec(line);
    if (m !== null) out.push({ id: m[1]!, start_line: i + 1, end_line: lines.indexOf('}', i) + 1 });
  });
  return out;
}

function hashes(text: string): Map<string, string> {
  return new Map(codeReviewHashes(text, nodesOf(text)).map((h) => [h.node_id, h.hash]));
}

test('reviewHash is the first 16 hex characters of SHA-256 over the text', () => {
  assert.equal(reviewHash('abc'), createHash('sha256').update('abc').digest('hex').slice(0, 16));
});

test('a code hash ignores position and whitespace, and follows a changed statement under an unchanged doc comment', () => {
  const before = hashes(FILE);
  // Moved down the file (sub first): same hashes.
  const moved = FILE.split('\n').slice(5).concat([''], FILE.split('\n').slice(0, 4)).join('\n');
  assert.deepEqual(hashes(moved), before);
  // Re-indented: same.
  assert.equal(hashes(FILE.replace('  return a + b;', '\treturn   a +  b;')).get('add'), before.get('add'));
  // A changed statement, doc comment unchanged: add changes, sub does not.
  const edited = hashes(FILE.replace('return a + b;', 'return a + b + 0;'));
  assert.notEqual(edited.get('add'), before.get('add'));
  assert.equal(edited.get('sub'), before.get('sub'));
});

test('a document hash covers title and body but never stamp comments', () => {
  const node = { title: 'Guide', body: '# Guide\n\nText.\n' };
  const stamped = { title: 'Guide', body: '# Guide\n<!-- docforge-reviewed: code:a.js#f=0123456789abcdef -->\n\nText.\n' };
  assert.equal(documentReviewHash(stamped), documentReviewHash(node));
  assert.equal(documentReviewHash(node), reviewHash('Guide\n# Guide\n\nText.\n'));
  assert.notEqual(documentReviewHash({ ...node, title: 'Other' }), documentReviewHash(node));
});

test('stamp comments split pairs at the last "=" and round-trip', () => {
  const line = formatStampComment([{ target: 'docs/x=y.md', hash: '0123456789abcdef' }, { target: 'code:a.js#f', hash: 'fedcba9876543210' }]);
  assert.equal(line, '<!-- docforge-reviewed: code:a.js#f=fedcba9876543210 docs/x=y.md=0123456789abcdef -->');
  assert.deepEqual(parseStampComment(line), [{ target: 'code:a.js#f', hash: 'fedcba9876543210' }, { target: 'docs/x=y.md', hash: '0123456789abcdef' }]);
  assert.equal(parseStampComment('<!-- other -->'), null);
  const bad = parseStampComment('<!-- docforge-reviewed: a=XYZ -->');
  assert.ok(bad !== null && 'problem' in bad[0]!);
});

test('review state: none is unreviewed, all matching reviewed, any other suspect', () => {
  assert.equal(reviewState(undefined, 'a'), 'unreviewed');
  assert.equal(reviewState([{ section: null, hash: 'a', line: 1 }], 'a'), 'reviewed');
  assert.equal(reviewState([{ section: null, hash: 'a', line: 1 }, { section: 's', hash: 'b', line: 2 }], 'a'), 'suspect');
  assert.equal(reviewState([{ section: null, hash: 'a', line: 1 }], null), 'suspect');
});
