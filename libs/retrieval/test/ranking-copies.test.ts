// Pins the build-copy rule of the ranking (issue 30, new-user trial on date-fns): which entries
// collapse into one hit and which never do. The real-package regression is
// test/issue-build-copies-search.test.ts (date-fns and zod).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { collapseCopies } from '../src/ranking-copies.js';
import type { RankedNode } from '../src/ranking.js';

function node(id: string, score: number, kind = 'function'): RankedNode {
  const source_path = id.slice('code:'.length).split('#')[0]!;
  return { row: { id, kind, source_path } as RankedNode['row'], score, allTerms: true, section: null };
}

function shape(ranked: RankedNode[]): [string, number, string[]][] {
  return collapseCopies(ranked).map((r) => [r.row.id, r.score, r.copies ?? []]);
}

test('dual ESM/CommonJS builds, declarations and layout folders collapse to the preferred member at the best score', () => {
  assert.deepEqual(shape([node('code:a.cjs#f', 3), node('code:a.d.cts#f', 2.5), node('code:a.js#f', 2), node('code:a.d.ts#f', 1)]), [['code:a.js#f', 3, ['code:a.cjs#f', 'code:a.d.cts#f', 'code:a.d.ts#f']]]);
  assert.deepEqual(shape([node('code:dist/cjs/v4.js#v4', 2), node('code:dist/esm/v4.js#v4', 2), node('code:src/v4.ts#v4', 1)]), [['code:src/v4.ts#v4', 2, ['code:dist/cjs/v4.js#v4', 'code:dist/esm/v4.js#v4']]]);
  // Declaration twins only: the ES declaration leads the CommonJS one.
  assert.deepEqual(shape([node('code:a.d.cts#T', 1, 'type'), node('code:a.d.ts#T', 1, 'type')]), [['code:a.d.ts#T', 1, ['code:a.d.cts#T']]]);
});

test('a bundle joins the source of the same name (renaming undone, any kind); bundles without one join each other', () => {
  assert.deepEqual(shape([node('code:cdn.js#_addDays', 5), node('code:addDays.js#addDays', 4)]), [['code:addDays.js#addDays', 5, ['code:cdn.js#_addDays']]]);
  assert.deepEqual(shape([node('code:dist/lib.min.js#Parser', 2), node('code:parser.js#Parser', 1, 'class')]), [['code:parser.js#Parser', 2, ['code:dist/lib.min.js#Parser']]]);
  assert.deepEqual(shape([node('code:cdn.js#P', 2, 'class'), node('code:fp/cdn.js#P', 2, 'class')]), [['code:cdn.js#P', 2, ['code:fp/cdn.js#P']]]);
});

test('different modules, names and non-code nodes never collapse; more than ten copies are counted', () => {
  const apart = [node('code:a.js#f', 3), node('code:b.js#f', 2), node('code:fp/a.js#f', 1.5), node('code:a.js#g', 1), node('doc:a', 0.5, 'document'), node('code:a.py#f', 0.4)];
  assert.deepEqual(shape(apart), apart.map((r) => [r.row.id, r.score, []]));
  const many = Array.from({ length: 12 }, (_, i) => node(`code:cdn.js#f$${i + 1}`, 1));
  const [one] = collapseCopies([node('code:f.js#f', 2), ...many]);
  assert.equal(one!.copies!.length, 10);
  assert.equal(one!.copies_total, 12);
});

test('two hand-written sources of one module path never collapse; their content copies and outputs do', () => {
  // Attacker trial on main: `src/parser.ts` and `lib/parser.ts` (different bodies) were one hit.
  const two = [node('code:src/parser.ts#parseQuux', 2), node('code:lib/parser.ts#parseQuux', 1)];
  assert.deepEqual(shape(two), two.map((r) => [r.row.id, r.score, []]));
  const scripts = [node('code:src/parser.js#parseQuux', 2), node('code:lib/parser.js#parseQuux', 1)];
  assert.deepEqual(shape(scripts), scripts.map((r) => [r.row.id, r.score, []]));
  // One source and its build output still collapse: tsc's emit to `lib/`, a babel build to `dist/`.
  assert.deepEqual(shape([node('code:lib/parser.js#p', 2), node('code:src/parser.ts#p', 1), node('code:lib/parser.d.ts#p', 1)]), [['code:src/parser.ts#p', 2, ['code:lib/parser.js#p', 'code:lib/parser.d.ts#p']]]);
  assert.deepEqual(shape([node('code:src/parser.js#p', 2), node('code:dist/parser.js#p', 1)]), [['code:src/parser.js#p', 2, ['code:dist/parser.js#p']]]);
  // Byte-identical sources are one file (the content rule), whatever their folders.
  const same = (path: string): string | undefined => (path === 'lib/parser.ts' ? 'src/parser.ts' : undefined);
  assert.deepEqual(collapseCopies(two, same).map((r) => [r.row.id, r.copies ?? []]), [['code:src/parser.ts#parseQuux', ['code:lib/parser.ts#parseQuux']]]);
});
