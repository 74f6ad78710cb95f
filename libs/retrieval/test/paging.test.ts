// Pins the one paging algorithm: the largest prefix that fits a size budget, with an honest truncation record (nothing fits, everything fits, an oversized item, the exact boundary, item limits, start offsets).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fitPrefix, longestFitting } from '../src/index.js';

const size = (s: string): number => s.length;

test('everything fits: all items kept, reason complete, used size counts separators', () => {
  const { items, truncation } = fitPrefix(['aa', 'bbb', 'c'], { budget: 100, separator: 1, sizeOf: size });
  assert.deepEqual(items, ['aa', 'bbb', 'c']);
  // 2 + 1 + 3 + 1 + 1, counted by hand.
  assert.deepEqual(truncation, { kept: 3, dropped: 0, reason: 'complete', used_size: 8, budget: 100, blocking_size: null });
});

test('nothing fits: the first item alone is over the budget', () => {
  const { items, truncation } = fitPrefix(['abcdef', 'a'], { budget: 5, sizeOf: size });
  assert.deepEqual(items, []);
  assert.deepEqual(truncation, { kept: 0, dropped: 2, reason: 'size_budget', used_size: 0, budget: 5, blocking_size: 6 });
});

test('one oversized item stops the prefix: later small items are not skipped to', () => {
  const { items, truncation } = fitPrefix(['ab', 'x'.repeat(50), 'c', 'd'], { budget: 10, separator: 1, sizeOf: size });
  assert.deepEqual(items, ['ab']);
  assert.equal(truncation.kept, 1);
  assert.equal(truncation.dropped, 3);
  assert.equal(truncation.reason, 'size_budget');
  assert.equal(truncation.blocking_size, 50);
});

test('a budget exactly at the boundary keeps the item; one less drops it', () => {
  // 'abc' + ',' + 'de' = 6 characters.
  const exact = fitPrefix(['abc', 'de', 'f'], { budget: 6, separator: 1, sizeOf: size });
  assert.deepEqual(exact.items, ['abc', 'de']);
  assert.equal(exact.truncation.used_size, 6);
  const under = fitPrefix(['abc', 'de', 'f'], { budget: 5, separator: 1, sizeOf: size });
  assert.deepEqual(under.items, ['abc']);
  assert.equal(under.truncation.blocking_size, 2);
  const empty = fitPrefix([], { budget: 0, sizeOf: size });
  assert.deepEqual(empty.truncation, { kept: 0, dropped: 0, reason: 'complete', used_size: 0, budget: 0, blocking_size: null });
  const zeroSized = fitPrefix(['', ''], { budget: 0, sizeOf: size });
  assert.equal(zeroSized.truncation.kept, 2, 'zero-size items fit a zero budget');
});

test('maxItems and start: the item limit is reported as such, and only offered items count', () => {
  const page = fitPrefix(['a', 'b', 'c', 'd', 'e'], { start: 1, maxItems: 2, budget: 100, sizeOf: size });
  assert.deepEqual(page.items, ['b', 'c']);
  assert.deepEqual([page.truncation.kept, page.truncation.dropped, page.truncation.reason], [2, 2, 'item_limit']);
  const past = fitPrefix(['a'], { start: 5, budget: 100, sizeOf: size });
  assert.deepEqual([past.items, past.truncation.dropped, past.truncation.reason], [[], 0, 'complete']);
});

test('sizeOf is called once per item, in order, never past the blocking item', () => {
  const seen: number[] = [];
  fitPrefix([5, 5, 5, 5], { budget: 10, sizeOf: (n, i) => {
    seen.push(i);
    return n;
  } });
  assert.deepEqual(seen, [0, 1, 2]);
});

test('longestFitting finds the largest n of a monotone predicate', () => {
  assert.equal(longestFitting(100, (n) => n * 3 <= 100), 33);
  assert.equal(longestFitting(10, () => true), 10);
  assert.equal(longestFitting(10, (n) => n === 0), 0);
  assert.equal(longestFitting(0, () => true), 0);
});
