// Pins resolveConfined/readConfined: `..`, absolute paths and symlinks leading outside the root are refused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DocforgeError } from '@docforge/core';
import { readConfined, resolveConfined } from '../src/index.js';

function outsideRoot(error: unknown): boolean {
  return error instanceof DocforgeError && error.code === 'path_outside_root';
}

function fixture(): { base: string; root: string; outside: string } {
  const base = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'fs-safe-confined-')));
  const root = path.join(base, 'project');
  const outside = path.join(base, 'outside');
  mkdirSync(path.join(root, 'docs'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(path.join(root, 'docs', 'a.md'), '# A\n');
  writeFileSync(path.join(outside, 'secret.txt'), 'secret');
  symlinkSync(path.join(outside, 'secret.txt'), path.join(root, 'docs', 'leak.md'));
  symlinkSync(outside, path.join(root, 'linkdir'));
  symlinkSync(path.join(root, 'docs', 'a.md'), path.join(root, 'inner-link.md'));
  return { base, root, outside };
}

test('reads a file inside the root, also through a link that stays inside', () => {
  const { base, root } = fixture();
  try {
    assert.equal(readConfined(root, 'docs/a.md').toString('utf8'), '# A\n');
    assert.equal(readConfined(root, './docs//a.md').toString('utf8'), '# A\n');
    assert.equal(readConfined(root, 'inner-link.md').toString('utf8'), '# A\n');
    assert.equal(resolveConfined(root, 'docs/new/file.md'), path.join(root, 'docs', 'new', 'file.md'), 'a path that does not exist yet resolves in place');
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
});

test('refuses `..`, absolute paths and symlinks pointing outside', () => {
  const { base, root, outside } = fixture();
  try {
    assert.throws(() => readConfined(root, '../outside/secret.txt'), outsideRoot);
    assert.throws(() => readConfined(root, 'docs/../../outside/secret.txt'), outsideRoot);
    assert.throws(() => readConfined(root, path.join(outside, 'secret.txt')), outsideRoot);
    assert.throws(() => readConfined(root, '/etc/passwd'), outsideRoot);
    assert.throws(() => readConfined(root, 'docs/leak.md'), outsideRoot);
    assert.throws(() => readConfined(root, 'linkdir/secret.txt'), outsideRoot);
    assert.throws(() => resolveConfined(root, 'linkdir/not-yet/new.md'), outsideRoot, 'a write target under an outside link is refused too');
    assert.throws(() => readConfined(root, 'docs/a.md\0x'), outsideRoot);
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
});

test('a directory or an oversized file is not read; a missing file is an errno error', () => {
  const { base, root } = fixture();
  try {
    assert.throws(() => readConfined(root, 'docs'), (e: unknown) => e instanceof DocforgeError && e.code === 'invalid_arguments');
    assert.throws(() => readConfined(root, 'docs/a.md', { maxBytes: 2 }), (e: unknown) => e instanceof DocforgeError && e.code === 'invalid_arguments');
    assert.throws(() => readConfined(root, 'docs/missing.md'), { code: 'ENOENT' });
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
});
