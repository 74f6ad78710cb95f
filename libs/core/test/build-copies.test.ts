// Pins which files of one twin key are copies of one source (attacker trial on main, 2026-12-08):
// `src/parser.ts` and `lib/parser.ts`, two hand-written sources of different content exporting
// `parseQuux`, were one search hit and one mention target. Paths are those of the trial and of the
// real packages the copies rule was built on (date-fns, zod, lru-cache).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { canonicalCopyPaths, oneOfCopies, oneSource } from '../src/index.js';

const none = (): string | undefined => undefined;

test('a mention of a name two hand-written sources declare stays ambiguous', () => {
  const two = ['code:src/parser.ts#parseQuux', 'code:lib/parser.ts#parseQuux'];
  assert.deepEqual(oneOfCopies(two, none), two);
  const scripts = ['code:src/parser.js#parseQuux', 'code:lib/parser.js#parseQuux'];
  assert.deepEqual(oneOfCopies(scripts, none), scripts);
  // Byte-identical files are one file: the kept one is named.
  const same = canonicalCopyPaths([['src/parser.ts', 'ab12'], ['lib/parser.ts', 'ab12']]);
  assert.deepEqual(oneOfCopies(two, (path) => same.get(path)), ['code:lib/parser.ts#parseQuux']);
});

test('one source and its build output are one name', () => {
  assert.deepEqual(oneOfCopies(['code:v4/core/api.js#_string', 'code:src/v4/core/api.ts#_string', 'code:v4/core/api.d.cts#_string'], none), ['code:src/v4/core/api.ts#_string']);
  assert.deepEqual(oneOfCopies(['code:addDays.cjs#addDays', 'code:addDays.js#addDays'], none), ['code:addDays.js#addDays']);
  assert.equal(oneSource(['dist/esm/v4.js', 'dist/cjs/v4.js', 'src/v4.ts']), true);
  assert.equal(oneSource(['src/x.ts', 'lib/x.js', 'lib/x.d.ts']), true);
  assert.equal(oneSource(['src/x.js', 'dist/x.js']), true);
  assert.equal(oneSource(['src/x.ts', 'lib/x.ts', 'dist/x.js']), false);
  assert.equal(oneSource(['x.ts', 'x.mts']), false);
});
