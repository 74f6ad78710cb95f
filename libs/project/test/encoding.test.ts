// Pins source decoding (issue 8 item 3): never a silent U+FFFD; Latin-1, UTF-16/32 and NUL bytes are refused with line and column of the first bad byte; UTF-8 (with or without BOM) and PEP 263 Python files decode.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeSourceText, firstInvalidUtf8, invalidEncodingIssue } from '@docforge/core';
import { loadDescriptor } from '../src/index.js';
import { removeTree, tempTree } from './helpers.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const bytes = (...parts: (string | number[])[]): Uint8Array => Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part, 'utf8') : Buffer.from(part))));

test('Latin-1 bytes are refused at the line and byte column of the first bad byte, never replaced', () => {
  // "Caf\xe9" in Latin-1 on line 3, column 6 (bytes "- Caf" then 0xE9).
  const latin1 = bytes('# Title\n\n- Caf', [0xe9], ' au lait\n');
  const decoded = decodeSourceText(latin1, 'docs/menu.md');
  assert.equal(decoded.ok, false);
  if (decoded.ok) return;
  assert.deepEqual([decoded.line, decoded.column, decoded.offset], [3, 6, 14]);
  assert.match(decoded.reason, /0xE9 is not valid UTF-8/);
  const issue = invalidEncodingIssue('docs/menu.md', decoded);
  assert.deepEqual([issue.code, issue.severity, issue.path, issue.line, issue.node_id], ['invalid_encoding', 'error', 'docs/menu.md', 3, null]);
  assert.match(issue.message, /^docs\/menu\.md:3:6: byte 0xE9 is not valid UTF-8 .*; the file is not indexed \(convert it to UTF-8\)\.$/);
});

test('UTF-16 and UTF-32 (with a byte order mark or NUL-heavy without one) are refused; a UTF-8 BOM is fine', () => {
  const text = '# Titel\nÄrger\n';
  const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
  const be = Buffer.from(le);
  be.swap16();
  for (const [data, name] of [[le, 'UTF-16 LE'], [be, 'UTF-16 BE'], [bytes([0xff, 0xfe, 0, 0], '#'), 'UTF-32 LE'], [bytes([0, 0, 0xfe, 0xff]), 'UTF-32 BE']] as const) {
    const decoded = decodeSourceText(data, 'docs/x.md');
    assert.equal(decoded.ok, false, name);
    if (!decoded.ok) {
      assert.deepEqual([decoded.line, decoded.column], [1, 1], name);
      assert.match(decoded.reason, new RegExp(name), name);
    }
  }
  const noMark = decodeSourceText(Buffer.from('ab\ncd', 'utf16le'), 'docs/x.md');
  assert.equal(noMark.ok, false);
  if (!noMark.ok) {
    assert.deepEqual([noMark.line, noMark.column], [1, 2]);
    assert.match(noMark.reason, /NUL byte.*UTF-16/);
  }
  const bom = decodeSourceText(bytes([0xef, 0xbb, 0xbf], text), 'docs/x.md');
  assert.deepEqual(bom, { ok: true, text: `\ufeff${text}` });
  assert.deepEqual(decodeSourceText(bytes(text), 'docs/x.md'), { ok: true, text });
});

test('the UTF-8 check agrees with a fatal TextDecoder on well-known bad sequences and on random bytes', () => {
  const fatal = new TextDecoder('utf-8', { fatal: true });
  const valid = (data: Uint8Array): boolean => {
    try {
      fatal.decode(data);
      return true;
    } catch {
      return false;
    }
  };
  const cases: [number[], number][] = [
    [[0xc0, 0x80], 0], // overlong NUL
    [[0x41, 0xe0, 0x80, 0x80], 1], // overlong 3-byte
    [[0xed, 0xa0, 0x80], 0], // UTF-16 surrogate
    [[0xf4, 0x90, 0x80, 0x80], 0], // above U+10FFFF
    [[0x41, 0x42, 0xe2, 0x82], 2], // truncated at the end
    [[0x80], 0], // lone continuation byte
    [[0xf0, 0x9f, 0x98, 0x80, 0xff], 4], // emoji, then 0xFF
  ];
  for (const [data, offset] of cases) {
    assert.equal(firstInvalidUtf8(Uint8Array.from(data)), offset, data.join(','));
    assert.equal(valid(Uint8Array.from(data)), false);
  }
  let seed = 42;
  const random = (): number => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  for (let round = 0; round < 3000; round += 1) {
    const data = new Uint8Array(1 + Math.floor(random() * 12));
    // Mostly bytes that start or continue multi-byte sequences, so both outcomes occur often.
    for (let index = 0; index < data.length; index += 1) data[index] = random() < 0.3 ? Math.floor(random() * 0x80) : 0x80 + Math.floor(random() * 0x80);
    const offset = firstInvalidUtf8(data);
    assert.equal(offset === -1, valid(data), Buffer.from(data).toString('hex'));
    if (offset > 0) assert.equal(valid(data.subarray(0, offset)), true, 'the bytes before the first bad byte are valid');
  }
});

test('a Python file declaring its encoding (PEP 263) decodes with it; without a declaration Latin-1 is refused', () => {
  const declared = bytes('# -*- coding: latin-1 -*-\nname = "Caf', [0xe9], '"\n');
  assert.deepEqual(decodeSourceText(declared, 'src/menu.py'), { ok: true, text: '# -*- coding: latin-1 -*-\nname = "Café"\n' });
  const second = bytes('#!/usr/bin/env python\n# vim: set fileencoding=latin-1 :\nx = "', [0xe9], '"\n');
  assert.equal(decodeSourceText(second, 'src/x.py').ok, true);
  assert.equal(decodeSourceText(declared, 'docs/menu.md').ok, false, 'only Python files declare encodings');
  assert.equal(decodeSourceText(bytes('x = "', [0xe9], '"\n'), 'src/y.py').ok, false);
});

test('docforge.toml that is not UTF-8 is descriptor_invalid naming its line (TOML requires UTF-8)', () => {
  const root = tempTree({ 'docs/a.md': '# A\n' });
  try {
    writeFileSync(join(root, 'docforge.toml'), bytes('schema_version = 1\n[project]\nid = "p"\nname = "Caf', [0xe9], '"\n'));
    assert.throws(() => loadDescriptor(root), (error: { code?: string; details?: { line?: number }; message?: string }) => {
      assert.equal(error.code, 'descriptor_invalid');
      assert.equal(error.details?.line, 4);
      assert.match(error.message ?? '', /docforge\.toml:4: not UTF-8 text at column 12 .*TOML requires UTF-8/);
      return true;
    });
  } finally {
    removeTree(root);
  }
});
