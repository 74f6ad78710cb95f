// Pins foreign front matter (issue 8 item 2): Docusaurus/Jekyll YAML and Hugo TOML keep path-derived ids and give title, summary and tags; unreadable blocks are findings, never headings; front matter only on line 1.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseContentSource } from '../src/index.js';
import { testDescriptor } from './helpers.js';

const desc = testDescriptor();
const parse = (path: string, text: string) => parseContentSource({ path, text, descriptor: desc });

test('Docusaurus YAML front matter: the id stays path-derived in every folder; title, description and tags come from it', () => {
  const page = (title: string): string => [
    '---', //                                       1
    'id: intro', //                                 2
    `title: ${title}`, //                           3
    'description: How to get going quickly.', //   4
    'tags: [setup, "getting started", setup]', //  5
    'sidebar_position: 1', //                       6
    '---', //                                       7
    '', //                                          8
    '# Welcome', //                                 9
    '', //                                          10
    'First paragraph.', //                          11
    '',
  ].join('\n');
  const a = parse('docs/tutorial-basics/intro.md', page('Basics'));
  const b = parse('docs/tutorial-extras/intro.md', page('Extras'));
  assert.deepEqual([...a.issues, ...b.issues], []);
  assert.deepEqual([a.nodes[0]!.id, b.nodes[0]!.id], ['tutorial-basics/intro', 'tutorial-extras/intro']);
  const node = a.nodes[0]!;
  assert.equal(node.kind, 'document');
  assert.equal(node.origin, 'markdown');
  assert.equal(node.title, 'Basics');
  assert.equal(node.summary, 'How to get going quickly.');
  assert.deepEqual(node.tags, ['getting started', 'setup']);
  // No heading made of the raw front matter lines: the only section is the real heading at line 9.
  assert.deepEqual(node.anchors.map((anchor) => [anchor.slug, anchor.line]), [['welcome', 9]]);
  assert.equal(node.body, '\n# Welcome\n\nFirst paragraph.\n');
  assert.equal(node.end_line, 11);
});

test('Jekyll YAML: space-separated tags, "..." closing, CRLF lines; Docusaurus tag objects', () => {
  const jekyll = parse('docs/_posts/2024-01-01-hello.md', '---\r\nlayout: post\r\ntitle: "Hello: world"\r\ntags: ruby jekyll\r\n...\r\nText.\r\n');
  assert.deepEqual(jekyll.issues, []);
  assert.equal(jekyll.nodes[0]!.title, 'Hello: world');
  assert.deepEqual(jekyll.nodes[0]!.tags, ['jekyll', 'ruby']);
  assert.equal(jekyll.nodes[0]!.summary, 'Text.');
  const objects = parse('docs/x.md', '---\ntags:\n  - label: Release notes\n    permalink: /release\n  - api\n---\n# X\n');
  assert.deepEqual(objects.nodes[0]!.tags, ['Release notes', 'api']);
  assert.equal(objects.nodes[0]!.title, 'X', 'without a title field the first heading is the title');
});

test('Hugo TOML front matter without id and kind is foreign: the page is a plain document, not malformed', () => {
  const text = '+++\ntitle = "Hugo page"\ndate = 2024-01-01T10:00:00Z\ndraft = false\ntags = ["go", "hugo"]\nsummary = "A Hugo summary."\n[params]\nauthor = "x"\n+++\n\n## Section\n\nBody.\n';
  const parsed = parse('docs/posts/hugo.md', text);
  assert.deepEqual(parsed.issues, []);
  assert.equal(parsed.nodes.length, 1);
  const node = parsed.nodes[0]!;
  assert.equal(node.id, 'posts/hugo');
  assert.equal(node.kind, 'document');
  assert.equal(node.title, 'Hugo page');
  assert.equal(node.summary, 'A Hugo summary.');
  assert.deepEqual(node.tags, ['go', 'hugo']);
  assert.deepEqual(node.anchors.map((anchor) => [anchor.slug, anchor.line]), [['section', 11]]);
  assert.deepEqual(parsed.edges, []);
  // DocForge's own front matter (id and kind) still defines the node.
  const own = parse('docs/req.md', '+++\nid = "REQ-9"\nkind = "requirement"\ntitle = "Own"\n+++\nBody.\n');
  assert.equal(own.nodes[0]!.id, 'REQ-9');
  assert.equal(own.nodes[0]!.origin, 'document');
});

test('a YAML block that cannot be read is an error at its file line; the page is kept and no heading is made of its lines', () => {
  const text = [
    '---', //                               1
    'title: Broken', //                     2
    'tags: [a, b', //                       3 (flow sequence never closed)
    'description: x', //                    4
    '---', //                               5
    '# Real title', //                      6
    'Body.', //                             7
    '',
  ].join('\n');
  const parsed = parse('docs/broken.md', text);
  assert.equal(parsed.issues.length, 1);
  const issue = parsed.issues[0]!;
  assert.equal(issue.code, 'malformed_front_matter');
  assert.equal(issue.severity, 'error');
  assert.equal(issue.path, 'docs/broken.md');
  assert.ok(issue.line! >= 3 && issue.line! <= 5, `line ${issue.line} lies in the block`);
  assert.match(issue.message, new RegExp(`^docs/broken\\.md:${issue.line}: YAML front matter cannot be read`));
  const node = parsed.nodes[0]!;
  assert.equal(node.id, 'broken');
  assert.equal(node.title, 'Real title');
  assert.deepEqual(node.anchors.map((anchor) => anchor.slug), ['real-title']);
  assert.equal(node.body, '# Real title\nBody.\n');
  const list = parse('docs/list.md', '---\n- a\n- b\n---\nText.\n');
  assert.deepEqual(list.issues.map((item) => [item.code, item.line]), [['malformed_front_matter', 2]]);
  assert.equal(list.nodes[0]!.title, 'list');
  assert.equal(list.nodes[0]!.summary, 'Text.');
});

test('an unreadable +++ block without id or kind keeps the page; with them it stays a DocForge error without a node', () => {
  const hugo = parse('docs/h.md', '+++\ntitle = "unterminated\ndate = 2024-01-01\n+++\n# H\n');
  assert.deepEqual(hugo.issues.map((item) => [item.code, item.line]), [['malformed_front_matter', 2]]);
  assert.deepEqual(hugo.nodes.map((node) => [node.id, node.title]), [['h', 'H']]);
  const open = parse('docs/o.md', '+++\ntitle = "x"\n# Comment, not a heading\nBody\n');
  assert.deepEqual(open.issues.map((item) => [item.code, item.line]), [['malformed_front_matter', 1]]);
  assert.deepEqual(open.nodes.map((node) => [node.id, node.title, node.summary]), [['o', 'o', '']], 'the unclosed block gives no title or summary');
  const ours = parse('docs/r.md', '+++\nid = "R"\nkind = "requirement"\ntitle = "unterminated\n+++\n# R\n');
  assert.deepEqual(ours.issues.map((item) => [item.code, item.line]), [['malformed_front_matter', 4]]);
  assert.equal(ours.nodes.length, 0);
});

test('a used field of the wrong shape is a warning at its line and is ignored', () => {
  const parsed = parse('docs/w.md', '---\ntitle:\n  nested: true\ntags: 7\ndescription: 12\n---\n# Heading\n');
  assert.deepEqual(parsed.issues.map((item) => [item.code, item.severity, item.line]), [
    ['malformed_front_matter', 'warning', 2],
    ['malformed_front_matter', 'warning', 4],
  ]);
  assert.equal(parsed.nodes[0]!.title, 'Heading');
  assert.equal(parsed.nodes[0]!.summary, '12', 'a number is text');
  assert.deepEqual(parsed.nodes[0]!.tags, []);
});

test('front matter only on line 1: a block after a blank first line is body text with a warning, never the title', () => {
  const toml = parse('docs/late.md', '\n+++\nid = "LATE"\nkind = "requirement"\ntitle = "Late"\n+++\n# Late page\nBody text.\n');
  assert.deepEqual(toml.issues.map((item) => [item.code, item.severity, item.line]), [['misplaced_front_matter', 'warning', 2]]);
  const node = toml.nodes[0]!;
  assert.equal(node.id, 'late', 'not the id of the misplaced block');
  assert.equal(node.title, 'Late page');
  assert.equal(node.summary, 'Body text.');
  assert.ok(node.body.includes('id = "LATE"'), 'the block stays in the body');
  const yaml = parse('docs/late-yaml.md', '\n\n---\ntitle: Late\nid: x\n---\nBody.\n');
  assert.deepEqual(yaml.issues.map((item) => [item.code, item.line]), [['misplaced_front_matter', 3]]);
  assert.equal(yaml.nodes[0]!.title, 'late-yaml', 'the setext heading made of "id: x" is not the title');
  assert.equal(yaml.nodes[0]!.summary, 'Body.');
  // A thematic break after a blank line, and a closed block holding no YAML mapping, are plain Markdown.
  const rule = parse('docs/rule.md', '\n---\nJust a paragraph.\n\n---\n');
  assert.deepEqual(rule.issues, []);
  const unclosed = parse('docs/hr.md', '---\n# Title\nText\n');
  assert.deepEqual(unclosed.issues, []);
  assert.equal(unclosed.nodes[0]!.title, 'Title', 'an unclosed --- is a thematic break, not front matter');
});

test('YAML front matter naming DocForge-only fields (kind, relations) warns at the first such key: the page stays plain, the fields are ignored (break-it trial 50)', () => {
  const text = ['---', 'id: Y-1', 'title: Ledger', 'kind: component', 'relations:', '  depends_on: [CMP-RETRY]', '---', '', 'Body.', ''].join('\n');
  const result = parse('docs/ledger.md', text);
  assert.equal(result.nodes[0]!.id, 'ledger');
  assert.equal(result.nodes[0]!.title, 'Ledger');
  assert.deepEqual(result.edges.filter((e) => e.relation === 'depends_on'), []);
  assert.deepEqual(result.issues.map((i) => [i.severity, i.code, i.line]), [['warning', 'malformed_front_matter', 4]]);
  assert.match(result.issues[0]!.message, /"kind", "relations", which DocForge reads only in TOML front matter/);
});
