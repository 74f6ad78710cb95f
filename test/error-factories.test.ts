// Pins the error factories (issue 7, finished in issue 8): outside libs/core no source builds a DocforgeError by code (`new DocforgeError('code', …)`); errors come from `errors.<factory>()` or, for a wire error rebuilt across a boundary, `DocforgeError.fromWire()`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { allSourceFiles, repoPath } from './helpers/source-graph.js';

test('no `new DocforgeError(` outside libs/core/src/errors.ts', () => {
  const offenders: string[] = [];
  for (const file of allSourceFiles()) {
    const rel = repoPath(file);
    if (rel === 'libs/core/src/errors.ts') continue;
    readFileSync(file, 'utf8').split('\n').forEach((line, i) => {
      if (/\bnew\s+DocforgeError\s*\(/.test(line)) offenders.push(`${rel}:${i + 1}: ${line.trim()}`);
    });
  }
  assert.ok(allSourceFiles().length > 50, 'the scan sees the sources');
  assert.deepEqual(offenders, [], 'use the errors.* factories of libs/core/src/errors.ts');
});
