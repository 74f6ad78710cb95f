// Pins issue 31 item 3 on the document side: a mention's first segment carries what a fenced
// JavaScript/TypeScript block of the same page binds before it (require, import forms, call
// results), a later binding replaces an earlier one, a reassignment in a form not read drops it,
// and nothing is bound from spelling, from a block after the mention or from a non-script fence.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { markdownFacts } from '../src/markdown-facts.js';

function receivers(markdown: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const link of markdownFacts(markdown, 1, 'docs/page.md').links) {
    if (link.mention !== undefined) out[`${link.line}:${link.mention.text}`] = link.mention.receiver ?? null;
  }
  return out;
}

test('require, import and call-result bindings reach the mentions after them', () => {
  const page = [
    '# Page', '',
    'Before any block `P.transport()` is unbound.', '',
    '```js',
    "const P = require('pino')",
    "const { multistream, destination: dest } = require('pino')",
    "import fastify, { errorCodes as codes } from 'fastify'",
    "import * as kit from '@scope/kit'",
    'const logger = P({ level: "info" })',
    "const t = require('pino').transport({ target: 'x' })",
    '```', '',
    '`P.transport()`, `multistream()`, `dest()`, `fastify.register`, `codes.FST_ERR`, `kit.run()`, `logger.child()`, `t.end()`, `other.x`.', '',
  ].join('\n');
  assert.deepEqual(receivers(page), {
    '3:P.transport()': null,
    '14:P.transport()': { module: 'pino', path: [] },
    '14:multistream()': { module: 'pino', path: ['multistream'] },
    '14:dest()': { module: 'pino', path: ['destination'] },
    '14:fastify.register': { module: 'fastify', path: [] },
    '14:codes.FST_ERR': { module: 'fastify', path: ['errorCodes'] },
    '14:kit.run()': { module: '@scope/kit', path: [] },
    '14:logger.child()': { module: 'pino', path: [], call: true },
    '14:t.end()': { module: 'pino', path: ['transport'], call: true },
    '14:other.x': null,
  });
});

test('a rebinding replaces, an unread reassignment drops, and a non-script fence binds nothing', () => {
  const page = [
    '# Page', '',
    '```js', "const a = require('one')", "const b = require('two')", '```', '',
    '```js', "const a = require('three')", 'b = something.else', 'const c = a.make', '```', '',
    '```text', "const d = require('four')", '```', '',
    '`a.x`, `b.y`, `c.z`, `d.w`', '',
  ].join('\n');
  assert.deepEqual(receivers(page), {
    '18:a.x': { module: 'three', path: [] },
    '18:b.y': null,
    '18:c.z': null,
    '18:d.w': null,
  });
});
