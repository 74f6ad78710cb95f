// Pins sections from the Markdown parser: GitHub slugs unique per file, setext headings, no headings from fenced code, and section text read by slug from the recorded line range.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseContentSource, sectionText, slugify } from '../src/index.js';
import { testDescriptor } from './helpers.js';

const desc = testDescriptor();

function parse(text: string, path = 'docs/page.md') {
  const parsed = parseContentSource({ path, text, descriptor: desc });
  assert.deepEqual(parsed.issues, []);
  return parsed.nodes[0]!;
}

const twoExamples = [
  '# Guide', //                        1
  '', //                               2
  '## Example', //                     3
  '', //                               4
  'The first example.', //             5
  '', //                               6
  '## Example', //                     7
  '', //                               8
  'The second example.', //            9
  '', //                               10
  '### Detail', //                     11
  'Inside the second.', //             12
  '', //                               13
  '## After', //                       14
  'Tail.', //                          15
  '',
].join('\n');

test('two "## Example" headings get example and example-1, and example-1 reads the second one', () => {
  const node = parse(twoExamples);
  assert.deepEqual(node.anchors.map((a) => [a.slug, a.level, a.line, a.end_line]), [
    ['guide', 1, 1, 15],
    ['example', 2, 3, 5],
    ['example-1', 2, 7, 12],
    ['detail', 3, 11, 12],
    ['after', 2, 14, 15],
  ]);
  const second = sectionText(node, 'example-1');
  assert.equal(second?.text, '## Example\n\nThe second example.\n\n### Detail\nInside the second.');
  assert.equal(second?.anchor.line, 7);
  assert.equal(sectionText(node, 'example')?.text, '## Example\n\nThe first example.');
  assert.equal(sectionText(node, 'after')?.text, '## After\nTail.');
  assert.equal(sectionText(node, 'no-such-slug'), null);
});

test('a setext heading is a section with its own slug', () => {
  const node = parse(['Intro', '=====', '', 'Some text.', '', 'Usage', '-----', 'Run it.', ''].join('\n'));
  assert.deepEqual(node.anchors, [
    { slug: 'intro', title: 'Intro', level: 1, line: 1, end_line: 8, aliases: [] },
    { slug: 'usage', title: 'Usage', level: 2, line: 6, end_line: 8, aliases: [] },
  ]);
  assert.equal(sectionText(node, 'intro')?.text, 'Intro\n=====\n\nSome text.\n\nUsage\n-----\nRun it.');
  assert.equal(sectionText(node, 'usage')?.text, 'Usage\n-----\nRun it.');
});

test('a heading inside a fenced code block is not a section and does not end one', () => {
  const node = parse(['# Shell', '', '```sh', '# not a heading', '## nor this', '```', '', '~~~', '# tilde fence', '~~~', 'end', ''].join('\n'));
  assert.deepEqual(node.anchors.map((a) => a.slug), ['shell']);
  assert.equal(node.anchors[0]!.end_line, 11);
  assert.ok(sectionText(node, 'shell')!.text.includes('# tilde fence'));
});

test('line ranges are source-file lines after TOML front matter and with CRLF line ends', () => {
  const text = ['+++', 'id = "D-1"', 'kind = "decision"', 'title = "D"', '+++', '# Context', '', 'Why.', '', '# Decision', 'What.', '', ''].join('\r\n');
  const node = parse(text);
  assert.deepEqual(node.anchors.map((a) => [a.slug, a.line, a.end_line]), [['context', 6, 8], ['decision', 10, 11]]);
  assert.equal(sectionText(node, 'context')?.text, '# Context\n\nWhy.');
  assert.equal(sectionText(node, 'decision')?.text, '# Decision\nWhat.');
  const noTrailingNewline = parse('+++\nid = "D-2"\nkind = "k"\ntitle = "T"\n+++\n\n## Only\nbody');
  assert.deepEqual(noTrailingNewline.anchors.map((a) => [a.line, a.end_line]), [[7, 8]]);
  assert.equal(sectionText(noTrailingNewline, 'only')?.text, '## Only\nbody');
});

test('slugs follow GitHub (github-slugger), including repeats that collide with an explicit suffix', () => {
  assert.equal(slugify('Hooks & Lifecycle: onRequest()'), 'hooks--lifecycle-onrequest');
  const node = parse(['# A', '# A', '# A-1', '# A', ''].join('\n'));
  // GitHub: "a", "a-1", then "A-1" is taken so it becomes "a-1-1", then "a-2".
  assert.deepEqual(node.anchors.map((a) => a.slug), ['a', 'a-1', 'a-1-1', 'a-2']);
});

test('explicit HTML anchors name the next heading when bare right before it, else the section they sit in', () => {
  const node = parse([
    '# Server', //                                          1
    '', //                                                  2
    '<a id="factory-http2"></a>', //                        3
    '### `http2`', //                                       4
    'Default: false.', //                                   5
    '', //                                                  6
    '### Use A Reverse Proxy', //                           7
    '<a id="reverseproxy"></a>', //                         8
    '', //                                                  9
    '| code | meaning |', //                                 10
    '| --- | --- |', //                                      11
    '| <a id="err_x">ERR_X</a> | bad |', //                 12
    '',
  ].join('\n'));
  assert.deepEqual(node.anchors.map((a) => [a.slug, a.aliases]), [['server', []], ['http2', ['factory-http2']], ['use-a-reverse-proxy', ['reverseproxy', 'err_x']]]);
  assert.equal(sectionText(node, 'factory-http2')?.text, '### `http2`\nDefault: false.');
  assert.equal(sectionText(node, 'err_x')?.anchor.slug, 'use-a-reverse-proxy');
});
