// Pins the defined-constant bridge of the TypeScript code text (issue 31 item 2, @docforge/core
// defined-constants.ts) on a real package nobody here wrote: markdown-it's lib/index.mjs tests links
// with `BAD_PROTO_RE.test(str)`, where `const BAD_PROTO_RE = /^(vbscript|javascript|file|data):/` is
// declared at the top level, so `validateLink` gets "javascript" and "data" as searchable code words
// while its lines (the excerpts) stay its own; a constant whose value is code (a function, a
// `require`) carries nothing, the comment above a constant is not carried, and a function that
// reads no constant gains nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { extractTypeScript } from '../src/adapter.js';
import { definedConstants } from '@docforge/core';

const require = createRequire(import.meta.url);
const indexPath = require.resolve('markdown-it/lib/index.mjs');
const source = readFileSync(indexPath, 'utf8');

function codeText(path: string, content: string): Map<string, { words: string[]; lines: string }> {
  const extracted = extractTypeScript({ path, content, strategy: 'ast', logic: false });
  return new Map((extracted.code_text ?? []).map((c) => [c.node_id, { words: c.words.split(' '), lines: c.lines }]));
}

test("markdown-it validateLink: the function reading BAD_PROTO_RE carries the regex literal's words, its lines unchanged", () => {
  const constants = definedConstants(source);
  assert.deepEqual(constants.get('BAD_PROTO_RE'), ['vbscript', 'javascript', 'file', 'data']);
  assert.deepEqual(constants.get('RECODE_HOSTNAME_FOR'), ['http', 'https', 'mailto']);
  // `const config = { default: defaultPreset, ... }` states no literal; imports are not constants.
  assert.equal(constants.has('config'), false);
  const text = codeText('lib/index.mjs', source);
  const validate = text.get('code:lib/index.mjs#validateLink');
  assert.ok(validate !== undefined, [...text.keys()].join(', '));
  assert.ok(validate.words.includes('BAD_PROTO_RE'));
  assert.ok(!/javascript/.test(validate.lines), validate.lines);
  assert.ok(validate.words.includes('javascript') && validate.words.includes('vbscript'), validate.words.join(' '));
  // normalizeLinkText reads RECODE_HOSTNAME_FOR, not BAD_PROTO_RE.
  const linkText = text.get('code:lib/index.mjs#normalizeLinkText');
  assert.ok(linkText !== undefined);
  assert.ok(linkText.words.includes('mailto') && !linkText.words.includes('vbscript'), linkText.words.join(' '));
});

test('a constant whose value is code, or holds no literal, carries nothing; a literal constant carries its literals, not the comment above it', () => {
  const content = [
    "const debug = require('debug')('app:router')",
    "const handler = (req) => req.url === '/health'",
    'const limit = 1024 * 1024',
    '// Hop-by-hop headers are never forwarded',
    "const HOP_HEADERS = ['connection', 'keep-alive',",
    "  'proxy-authenticate', 'upgrade']",
    'function strip(headers) {',
    '  for (const name of HOP_HEADERS) delete headers[name]',
    '  debug(limit)',
    '}',
    'function other(x) { return x + 1 }',
  ].join('\n');
  const constants = definedConstants(content);
  assert.deepEqual([...constants.keys()], ['HOP_HEADERS']);
  // A value over two lines is read until its brackets close.
  assert.deepEqual(constants.get('HOP_HEADERS'), ['connection', 'keep', 'alive', 'proxy', 'authenticate', 'upgrade']);
  const text = codeText('lib/proxy.js', content);
  const strip = text.get('code:lib/proxy.js#strip')!;
  assert.ok(strip.words.includes('authenticate') && strip.words.includes('upgrade'), strip.words.join(' '));
  assert.ok(!strip.words.includes('forwarded'), strip.words.join(' '));
  assert.ok(!strip.words.includes('health'), strip.words.join(' '));
  const other = text.get('code:lib/proxy.js#other')!;
  assert.ok(!other.words.includes('upgrade'), other.words.join(' '));
});
