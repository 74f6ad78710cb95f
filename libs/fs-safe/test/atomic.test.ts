// Pins writeFileAtomic: new content appears whole, failures leave the old content and no temp files.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writeFileAtomic } from '../src/index.js';

function tempDir(): string {
  return mkdtempSync(path.join(os.tmpdir(), 'fs-safe-atomic-'));
}

test('replaces the content and leaves only the target in the directory', () => {
  const dir = tempDir();
  try {
    const file = path.join(dir, 'current.json');
    writeFileSync(file, 'old');
    writeFileAtomic(file, '{"new":true}\n');
    assert.equal(readFileSync(file, 'utf8'), '{"new":true}\n');
    writeFileAtomic(file, Buffer.from([0xde, 0xad]));
    assert.deepEqual([...readFileSync(file)], [0xde, 0xad]);
    assert.deepEqual(readdirSync(dir), ['current.json']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('applies the requested mode exactly, whatever the umask', () => {
  const dir = tempDir();
  const previous = process.umask(0o077);
  try {
    const file = path.join(dir, 'secret');
    writeFileAtomic(file, 'x', { mode: 0o640 });
    assert.equal(statSync(file).mode & 0o777, 0o640);
  } finally {
    process.umask(previous);
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a failed write leaves the old content intact and no temp file behind', () => {
  const dir = tempDir();
  try {
    const file = path.join(dir, 'current.json');
    writeFileSync(file, 'old content');
    // Data that cannot be written fails after the temp file was opened.
    assert.throws(() => writeFileAtomic(file, { length: 5 } as unknown as Uint8Array));
    assert.equal(readFileSync(file, 'utf8'), 'old content');
    assert.deepEqual(readdirSync(dir), ['current.json']);

    // A rename that fails (a non-empty directory stands at the target) leaves it alone too.
    const blocked = path.join(dir, 'blocked');
    mkdirSync(blocked);
    writeFileSync(path.join(blocked, 'keep'), 'kept');
    assert.throws(() => writeFileAtomic(blocked, 'new'), (error: NodeJS.ErrnoException) => typeof error.code === 'string');
    assert.equal(readFileSync(path.join(blocked, 'keep'), 'utf8'), 'kept');
    assert.deepEqual(readdirSync(dir).sort(), ['blocked', 'current.json']);

    // A missing directory is an errno error, not a silent success.
    assert.throws(() => writeFileAtomic(path.join(dir, 'absent', 'x'), 'x'), { code: 'ENOENT' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
