// Pins appendAll (arrays.ts): appends in order, returns its target, takes any iterable and more
// elements than `push(...items)` can pass as arguments.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendAll } from '../src/index.js';

test('appendAll appends in order and returns its target', () => {
  const target = [1, 2];
  assert.equal(appendAll(target, [3, 4]), target);
  assert.deepEqual(target, [1, 2, 3, 4]);
  assert.deepEqual(appendAll(target, new Set([5])), [1, 2, 3, 4, 5]);
  assert.deepEqual(appendAll([], []), []);
});

test('appendAll takes more elements than a spread into push can', () => {
  const many = Array.from({ length: 1_000_000 }, (_, i) => i);
  assert.throws(() => [].push(...(many as never[])), RangeError);
  const target: number[] = [];
  appendAll(target, many);
  assert.equal(target.length, many.length);
  assert.equal(target[999_999], 999_999);
});
