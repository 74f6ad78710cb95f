// Pins "no source file over 500 lines" (issue 7): hand-written sources under apps/*/src, libs/**/src and protocol/src; tests, .d.ts, JSON and generated/ do not count.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { allSourceFiles, isSourceFile, repoPath } from './helpers/source-graph.js';

const MAX_LINES = 500;

/** Lines of a text as an editor numbers them (a final newline does not start a line). */
function lineCount(text: string): number {
  if (text.length === 0) return 0;
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

test('the line count and the file filter', () => {
  assert.deepEqual(['', 'a', 'a\n', 'a\nb', 'a\nb\n'].map(lineCount), [0, 1, 1, 2, 2]);
  assert.deepEqual(['x.ts', 'x.d.ts', 'x.test.ts', 'x.json', 'x.mjs'].map(isSourceFile), [true, false, false, false, true]);
});

test(`no source file has more than ${MAX_LINES} lines`, () => {
  const files = allSourceFiles();
  assert.ok(files.length > 50, `${files.length} source files`);
  const over = files.map((file) => ({ file: repoPath(file), lines: lineCount(readFileSync(file, 'utf8')) })).filter((f) => f.lines > MAX_LINES)
    .sort((a, b) => b.lines - a.lines).map((f) => `${f.file}: ${f.lines} lines`);
  assert.deepEqual(over, [], `files over ${MAX_LINES} lines:\n${over.join('\n')}`);
});
