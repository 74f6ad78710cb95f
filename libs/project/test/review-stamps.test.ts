// Pins review stamps as sources declare them (issue 32 item 1): TOML `[[reviews]]`, YAML `reviews:`, plain-Markdown stamp comments with their sections and lines, and matching them to relations.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { GraphEdge } from '@docforge/core';
import { attachReviews } from '@docforge/core';
import { parseContentSource } from '../src/index.js';
import { testDescriptor } from './helpers.js';

const desc = testDescriptor();
const H1 = '0123456789abcdef';
const H2 = 'fedcba9876543210';

test('TOML front matter [[reviews]] entries become stamps at their lines; a malformed one is a warning', () => {
  const text = [
    '+++', //                                   1
    'id = "CMP-1"', //                          2
    'kind = "component"', //                    3
    'title = "One"', //                         4
    '[relations]', //                           5
    'defines = ["code:src/a.ts#f"]', //         6
    '', //                                      7
    '[[reviews]]', //                           8
    'relation = "defines"', //                  9
    'target = "code:src/a.ts#f"', //            10
    `hash = "${H1}"`, //                        11
    '', //                                      12
    '[[reviews]]', //                           13
    'relation = "documents"', //                14
    'target = "code:src/a.ts#g"', //            15
    'hash = "not-a-hash"', //                   16
    '+++', //                                   17
    '# One',
  ].join('\n');
  const parsed = parseContentSource({ path: 'docs/one.md', text, descriptor: desc });
  assert.deepEqual(parsed.reviews, [{ source_id: 'CMP-1', relation: 'defines', target_id: 'code:src/a.ts#f', section: null, hash: H1, path: 'docs/one.md', line: 8 }]);
  assert.deepEqual(parsed.issues.map((i) => [i.code, i.line]), [['malformed_review_stamp', 13]]);
  assert.equal(parsed.issues.some((i) => i.code === 'unknown_field'), false);
});

test('YAML front matter reviews and stamp comments after headings of plain Markdown', () => {
  const text = [
    '---', //                                   1
    'title: Guide', //                          2
    'reviews:', //                              3
    '  - relation: relates_to', //              4
    '    target: other', //                     5
    `    hash: "${H1}"`, //                     6
    '---', //                                   7
    `<!-- docforge-reviewed: docs/top.md=${H2} -->`, // 8
    '# Guide', //                               9
    '', //                                      10
    '## Usage', //                              11
    `<!-- docforge-reviewed: code:src/a.ts#f=${H1} code:src/b.ts=${H2} -->`, // 12
    'Call `f`.', //                             13
    '```', //                                   14
    `<!-- docforge-reviewed: code:src/c.ts=${H1} -->`, // 15 (inside a fence: not a stamp)
    '```', //                                   16
  ].join('\n');
  const parsed = parseContentSource({ path: 'docs/guide.md', text, descriptor: desc });
  assert.deepEqual(parsed.reviews.map((s) => [s.relation, s.target_id, s.section, s.hash, s.line]), [
    ['relates_to', 'other', null, H1, 4],
    [null, 'docs/top.md', null, H2, 8],
    [null, 'code:src/a.ts#f', 'usage', H1, 12],
    [null, 'code:src/b.ts', 'usage', H2, 12],
  ]);
});

test('a section that is not an anchor slug, and a stamp comment naming no pair, are malformed (break-it trial)', () => {
  const toml = ['+++', 'id = "CMP-2"', 'kind = "component"', 'title = "Two"', '', '[[reviews]]', 'relation = "depends_on"', 'target = "x"', `hash = "${H1}"`, 'section = "../../etc"', '', '[[reviews]]', 'relation = "depends_on"', 'target = "x"', `hash = "${H1}"`, 'section = "usage-notes"', '+++', '# Two'].join('\n');
  const parsed = parseContentSource({ path: 'docs/two.md', text: toml, descriptor: desc });
  assert.deepEqual(parsed.issues.map((i) => [i.code, i.line]), [['malformed_review_stamp', 6]]);
  assert.deepEqual(parsed.reviews.map((r) => [r.section, r.line]), [['usage-notes', 12]]);
  const plain = parseContentSource({ path: 'docs/three.md', text: '# Three\n<!-- docforge-reviewed: -->\n<!-- docforge-reviewed:    -->\n', descriptor: desc });
  assert.deepEqual(plain.issues.map((i) => [i.code, i.line]), [['malformed_review_stamp', 2], ['malformed_review_stamp', 3]]);
  assert.deepEqual(plain.reviews, []);
});

test('attachReviews stamps the named relations, covers sections of mention edges, and reports unmatched stamps', () => {
  const edges: GraphEdge[] = [
    { source_id: 'guide', relation: 'documents', target_id: 'code:src/a.ts#f', source_path: 'docs/guide.md', line: 13, mention: { sections: [{ slug: 'usage', title: 'Usage', line: 13 }] } },
    { source_id: 'guide', relation: 'relates_to', target_id: 'other', source_path: 'docs/guide.md', line: 2 },
    { source_id: 'x', relation: 'calls', target_id: 'y', source_path: 'src/x.ts', line: 1 },
  ];
  const stamp = { source_id: 'guide', path: 'docs/guide.md' };
  const out = attachReviews(edges, [
    { ...stamp, relation: null, target_id: 'code:src/a.ts#f', section: 'usage', hash: H1, line: 12 },
    { ...stamp, relation: null, target_id: 'code:src/a.ts#f', section: 'other-section', hash: H1, line: 20 },
    { ...stamp, relation: 'relates_to', target_id: 'other', section: null, hash: H2, line: 4 },
  ]);
  assert.equal(out.stamped, 2);
  assert.deepEqual(out.edges[0]!.reviews, [{ section: 'usage', hash: H1, line: 12 }]);
  assert.deepEqual(out.edges[1]!.reviews, [{ section: null, hash: H2, line: 4 }]);
  assert.equal(out.edges[2], edges[2]);
  assert.equal(edges[0]!.reviews, undefined, 'edges are never mutated');
  assert.deepEqual(out.issues.map((i) => [i.code, i.line]), [['review_stamp_unmatched', 20]]);
});
