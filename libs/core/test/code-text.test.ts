// Pins collectCodeText (code-text.ts, issue 31 item 1): each line goes to the innermost node whose
// extent holds it, only owner kinds keep lines, keywords and short numbers are not words, and a
// node keeps at most MAX_CODE_TEXT_CHARS characters of lines.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { collectCodeText, MAX_CODE_TEXT_CHARS } from '../src/index.js';

const OPTIONS = { owners: new Set(['module', 'function']), keywords: new Set(['const', 'if', 'return', 'function']) };

test('lines go to the innermost owning node; lines of a non-owner declaration are left out', () => {
  const text = [
    "const top = require('x')", // 1 module
    'function outer (err) {', // 2 outer
    "  if (err.code === 'EPIPE') return 1", // 3 outer
    '  function inner () {', // 4 inner
    '    // a comment in inner', // 5 inner
    '  }', // 6 inner
    '}', // 7 outer: no word
    'interface Shape {', // 8 interface (not an owner)
    '  width: number', // 9 interface
    '}', // 10
  ].join('\n');
  const nodes = [
    { id: 'm', kind: 'module', start_line: 1, end_line: 10 },
    { id: 'm#outer', kind: 'function', start_line: 2, end_line: 7 },
    { id: 'm#outer.inner', kind: 'function', start_line: 4, end_line: 6 },
    { id: 'm#Shape', kind: 'interface', start_line: 8, end_line: 10 },
  ];
  const out = collectCodeText(text, nodes, OPTIONS);
  assert.deepEqual(out.map((c) => c.node_id), ['m', 'm#outer', 'm#outer.inner']);
  assert.equal(out[0]!.lines, "1\tconst top = require('x')");
  assert.equal(out[0]!.words, 'top require');
  assert.equal(out[1]!.lines, "2\tfunction outer (err) {\n3\tif (err.code === 'EPIPE') return 1");
  assert.equal(out[1]!.words, 'outer err code EPIPE');
  assert.equal(out[2]!.words, 'inner comment in');
});

test('numbers of fewer than 3 digits are not words; longer ones are', () => {
  const out = collectCodeText('reply.code(404) + 12', [{ id: 'm', kind: 'module', start_line: 1, end_line: 1 }], OPTIONS);
  assert.equal(out[0]!.words, 'reply code 404');
});

test('a huge node keeps at most MAX_CODE_TEXT_CHARS characters of lines', () => {
  const lines = Array.from({ length: 20_000 }, (_, i) => `push('marker${i}')`);
  const out = collectCodeText(lines.join('\n'), [{ id: 'm', kind: 'module', start_line: 1, end_line: lines.length }], OPTIONS);
  assert.ok(out[0]!.lines.length <= MAX_CODE_TEXT_CHARS);
  assert.ok(out[0]!.lines.length > MAX_CODE_TEXT_CHARS - 100);
  assert.ok(out[0]!.words.includes('marker0 ') && !out[0]!.words.includes('marker19999'));
});
