// Pins content parsing: front matter nodes and relation lines, malformed front matter lines, plain Markdown ids/titles/anchors/links, TOML records, vocabulary warnings.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { withContentHash } from '@docforge/core';
import { parseContentSource, slugify } from '../src/index.js';
import { testDescriptor } from './helpers.js';

const desc = testDescriptor();

test('front matter gives a document node with relations at their lines', () => {
  const text = [
    '+++', //                                  1
    'id = "REQ-1"', //                         2
    'kind = "requirement"', //                 3
    'title = "Payments are idempotent"', //    4
    'authority = "normative"', //              5
    'status = "accepted"', //                  6
    'tags = ["payments", "api", "api"]', //    7
    '', //                                     8
    '[relations]', //                          9
    'implemented_by = "COMP-1"', //            10
    'depends_on = ["REQ-2", "REQ-3"]', //      11
    '+++', //                                  12
    '', //                                     13
    '# Idempotency', //                        14
    '', //                                     15
    'Every **charge** request carries a key.', // 16
    'See [setup](../guide/setup.md#install-it) too.', // 17
    '', //                                     18
    '## Idempotency', //                       19
    '',
  ].join('\n');
  const parsed = parseContentSource({ path: 'docs/req/req-1.md', text, descriptor: desc });
  assert.deepEqual(parsed.issues, []);
  assert.equal(parsed.nodes.length, 1);
  const node = parsed.nodes[0]!;
  assert.equal(node.id, 'REQ-1');
  assert.equal(node.kind, 'requirement');
  assert.equal(node.title, 'Payments are idempotent');
  assert.equal(node.family, null);
  assert.equal(node.authority, 'normative');
  assert.equal(node.status, 'accepted');
  assert.deepEqual(node.tags, ['api', 'payments']);
  assert.equal(node.summary, 'Every charge request carries a key. See setup too.');
  assert.equal(node.origin, 'document');
  assert.equal(node.start_line, 1);
  assert.equal(node.end_line, 19);
  assert.ok(node.body.startsWith('\n# Idempotency'));
  assert.deepEqual(node.anchors, [
    { slug: 'idempotency', title: 'Idempotency', level: 1, line: 14, end_line: 19, aliases: [] },
    { slug: 'idempotency-1', title: 'Idempotency', level: 2, line: 19, end_line: 19, aliases: [] },
  ]);
  assert.deepEqual(parsed.edges, [
    { source_id: 'REQ-1', relation: 'implemented_by', target_id: 'COMP-1', source_path: 'docs/req/req-1.md', line: 10 },
    { source_id: 'REQ-1', relation: 'depends_on', target_id: 'REQ-2', source_path: 'docs/req/req-1.md', line: 11 },
    { source_id: 'REQ-1', relation: 'depends_on', target_id: 'REQ-3', source_path: 'docs/req/req-1.md', line: 11 },
  ]);
  assert.deepEqual(parsed.links.filter((l) => l.mention === undefined), [{ from_id: 'REQ-1', target_path: 'docs/guide/setup.md', anchor: 'install-it', line: 17 }]);
  const { content_hash, ...rest } = node;
  assert.equal(withContentHash({ ...rest }).content_hash, content_hash);
});

test('malformed front matter: syntax error line is absolute, no node', () => {
  const text = '+++\nid = "A"\nkind = "x"\ntitle = "unterminated\n+++\n# Body\n';
  const parsed = parseContentSource({ path: 'docs/a.md', text, descriptor: desc });
  assert.equal(parsed.nodes.length, 0);
  assert.equal(parsed.links.length, 0);
  assert.equal(parsed.issues.length, 1);
  const found = parsed.issues[0]!;
  assert.equal(found.code, 'malformed_front_matter');
  assert.equal(found.severity, 'error');
  assert.equal(found.line, 4);
  assert.equal(found.path, 'docs/a.md');
  assert.match(found.message, /^docs\/a\.md:4: /);
});

test('malformed front matter: missing fields, wrong types, unterminated block', () => {
  const missing = parseContentSource({ path: 'docs/b.md', text: '+++\nid = "B"\ntitle = "B"\n+++\n', descriptor: desc });
  assert.deepEqual(missing.issues.map((item) => [item.code, item.line]), [['malformed_front_matter', 1]]);
  assert.match(missing.issues[0]!.message, /"kind" is required/);
  const wrongType = parseContentSource({ path: 'docs/c.md', text: '+++\nid = "C"\nkind = "k"\ntitle = "C"\ntags = "one"\n+++\n', descriptor: desc });
  assert.deepEqual(wrongType.issues.map((item) => [item.code, item.line]), [['malformed_front_matter', 5]]);
  const badRelation = parseContentSource({ path: 'docs/d.md', text: '+++\nid = "D"\nkind = "k"\ntitle = "D"\n[relations]\nimplements = 3\n+++\n', descriptor: desc });
  assert.deepEqual(badRelation.issues.map((item) => [item.code, item.line]), [['malformed_front_matter', 6]]);
  const open = parseContentSource({ path: 'docs/e.md', text: '+++\nid = "E"\nkind = "k"\ntitle = "E"\n# never closed\n', descriptor: desc });
  assert.deepEqual(open.issues.map((item) => item.code), ['malformed_front_matter']);
  assert.equal(open.nodes.length, 0);
  for (const result of [missing, wrongType, badRelation, open]) assert.equal(result.nodes.length, 0);
});

test('plain Markdown: path-derived id, first heading title, anchors and resolved links', () => {
  const text = [
    'Intro text before any heading', // 1
    'with [a link](./Hooks.md "title") and', // 2
    '[ref link][r] and [code](../../lib/hooks.js) and [web](https://x.dev/a.md).', // 3
    '', // 4
    '## `onRequest` Hook & Friends!', // 5
    '', // 6
    '[spaced](My%20Doc.md?x=1#Sec%20One) [anchor only](#intro) [mail](mailto:a@b.c) [escape](../../../../etc/passwd.md)', // 7
    '', // 8
    '[r]: ../Guides/Getting-Started.md#install', // 9
  ].join('\n');
  const parsed = parseContentSource({ path: 'docs/Reference/Hooks.md', text, descriptor: desc });
  // `#intro` names no heading of this file (issue 8: same-file anchors are checked); the link out of the root is reported, never followed.
  assert.deepEqual(parsed.issues.map((item) => [item.code, item.line]), [['broken_link', 7], ['broken_link', 7]]);
  assert.ok(parsed.issues.some((item) => /"\.\.\/\.\.\/\.\.\/\.\.\/etc\/passwd\.md" leaves the project root/.test(item.message)));
  const node = parsed.nodes[0]!;
  assert.equal(node.id, 'Reference/Hooks');
  assert.equal(node.kind, 'document');
  assert.equal(node.title, 'onRequest Hook & Friends!');
  assert.equal(node.origin, 'markdown');
  assert.equal(node.end_line, 9);
  assert.deepEqual(node.tags, []);
  assert.equal(node.summary, 'Intro text before any heading with a link and ref link and code and web.');
  assert.deepEqual(node.anchors, [{ slug: 'onrequest-hook--friends', title: '`onRequest` Hook & Friends!', level: 2, line: 5, end_line: 9, aliases: [] }]);
  // Inline code spans are mentions (issue 9 item 2), resolved against code nodes later; link texts only when dotted or a path.
  assert.deepEqual(parsed.links.filter((l) => l.mention !== undefined), [
    { from_id: 'Reference/Hooks', target_path: '', anchor: null, line: 5, mention: { text: 'onRequest', section: { slug: 'onrequest-hook--friends', title: '`onRequest` Hook & Friends!', line: 5 } } },
  ]);
  assert.deepEqual(parsed.links.filter((l) => l.mention === undefined), [
    { from_id: 'Reference/Hooks', target_path: 'docs/Reference/Hooks.md', anchor: null, line: 2 },
    { from_id: 'Reference/Hooks', target_path: 'docs/Guides/Getting-Started.md', anchor: 'install', line: 3 },
    { from_id: 'Reference/Hooks', target_path: 'lib/hooks.js', anchor: null, line: 3 },
    { from_id: 'Reference/Hooks', target_path: 'docs/Reference/My Doc.md', anchor: 'Sec One', line: 7 },
  ]);
  const untitled = parseContentSource({ path: 'docs/notes/todo.markdown', text: 'just text\n', descriptor: desc });
  assert.equal(untitled.nodes[0]!.id, 'notes/todo');
  assert.equal(untitled.nodes[0]!.title, 'todo');
  const rootLevel = parseContentSource({ path: 'guide/x.md', text: '# X\n', descriptor: testDescriptor({ sources: { content_roots: ['.'], code_roots: [], exclude: [] } }) });
  assert.equal(rootLevel.nodes[0]!.id, 'guide/x');
});

test('summary is capped at 400 characters', () => {
  const long = 'word '.repeat(200);
  const parsed = parseContentSource({ path: 'docs/long.md', text: `# T\n\n${long}\n`, descriptor: desc });
  assert.ok(parsed.nodes[0]!.summary.length <= 400);
  assert.ok(parsed.nodes[0]!.summary.startsWith('word word'));
});

test('slugify follows GitHub rules', () => {
  assert.equal(slugify('Hello World'), 'hello-world');
  assert.equal(slugify('Hooks & Lifecycle: onRequest()'), 'hooks--lifecycle-onrequest');
  assert.equal(slugify('snake_case and-dash'), 'snake_case-and-dash');
  assert.equal(slugify('Ünïcode Tëxt 42'), 'ünïcode-tëxt-42');
  assert.equal(slugify('.listen()'), 'listen');
});

test('TOML records: one node per [[node]] with line spans, relations and per-entry errors', () => {
  const text = [
    '# Components', //                    1
    '[[node]]', //                        2
    'id = "COMP-1"', //                   3
    'kind = "component"', //              4
    'title = "Ledger"', //                5
    'body = """', //                      6
    'The ledger stores entries.', //      7
    '[[node]] inside a string', //        8
    '"""', //                             9
    '[node.relations]', //                10
    'implements = "REQ-1"', //            11
    '', //                                12
    '[[node]]', //                        13
    'id = "COMP-2"', //                   14
    'title = "No kind"', //               15
    '', //                                16
    '[[node]]', //                        17
    'id = "COMP-3"', //                   18
    'kind = "component"', //              19
    'title = "Gateway"', //               20
    'summary = "Routes requests."', //    21
    'tags = ["edge"]', //                 22
    'relations = { depends_on = ["COMP-1"] }', // 23
    '',
  ].join('\n');
  const parsed = parseContentSource({ path: 'docs/components.toml', text, descriptor: desc });
  assert.deepEqual(parsed.nodes.map((node) => [node.id, node.start_line, node.end_line, node.origin]), [
    ['COMP-1', 2, 11, 'record'],
    ['COMP-3', 17, 23, 'record'],
  ]);
  assert.equal(parsed.nodes[0]!.body, 'The ledger stores entries.\n[[node]] inside a string\n');
  assert.equal(parsed.nodes[0]!.summary, 'The ledger stores entries. [[node]] inside a string');
  assert.equal(parsed.nodes[1]!.summary, 'Routes requests.');
  assert.deepEqual(parsed.nodes[1]!.anchors, []);
  assert.deepEqual(parsed.edges, [
    { source_id: 'COMP-1', relation: 'implements', target_id: 'REQ-1', source_path: 'docs/components.toml', line: 11 },
    { source_id: 'COMP-3', relation: 'depends_on', target_id: 'COMP-1', source_path: 'docs/components.toml', line: 23 },
  ]);
  assert.deepEqual(parsed.issues.map((item) => [item.code, item.line, item.severity]), [['malformed_record', 13, 'error']]);
  assert.match(parsed.issues[0]!.message, /^docs\/components\.toml:13: .*"kind" is required/);
});

test('TOML files without nodes yield nothing; syntax errors yield malformed_record with the line', () => {
  assert.deepEqual(parseContentSource({ path: 'docs/config.toml', text: '[tool]\nx = 1\n', descriptor: desc }), { nodes: [], edges: [], links: [], issues: [], reviews: [] });
  const broken = parseContentSource({ path: 'docs/bad.toml', text: '[[node]]\nid = "A"\nkind = = "x"\n', descriptor: desc });
  assert.equal(broken.nodes.length, 0);
  assert.deepEqual(broken.issues.map((item) => [item.code, item.line]), [['malformed_record', 3]]);
});

test('closed vocabularies warn about undeclared kinds, authorities and statuses but keep the node', () => {
  const closed = testDescriptor({ vocabulary: { kinds: ['requirement'], authorities: ['normative'], statuses: ['draft'], relations: null } });
  const parsed = parseContentSource({ path: 'docs/x.md', text: '+++\nid = "X"\nkind = "decision"\ntitle = "X"\nauthority = "normative"\nstatus = "accepted"\n+++\n', descriptor: closed });
  assert.equal(parsed.nodes.length, 1);
  assert.deepEqual(parsed.issues.map((item) => [item.code, item.severity, item.node_id]), [
    ['undeclared_kind', 'warning', 'X'],
    ['undeclared_status', 'warning', 'X'],
  ]);
});

test('real fastify docs parse without issues and with anchors and links', () => {
  const path = 'docs/Reference/Hooks.md';
  const text = readFileSync(new URL('../../../../node_modules/fastify/docs/Reference/Hooks.md', import.meta.url), 'utf8');
  const parsed = parseContentSource({ path, text, descriptor: desc });
  assert.deepEqual(parsed.issues, []);
  const node = parsed.nodes[0]!;
  assert.equal(node.id, 'Reference/Hooks');
  assert.equal(node.title, 'Hooks');
  assert.ok(node.anchors.length > 20);
  assert.ok(node.anchors.some((anchor) => anchor.slug === 'onrequest'));
  const lines = text.split('\n');
  for (const anchor of node.anchors) assert.match(lines[anchor.line - 1] ?? '', /^#{1,6} /, `anchor ${anchor.slug} at line ${anchor.line}`);
  assert.ok(parsed.links.length > 5);
  for (const link of parsed.links) assert.ok(!link.target_path.startsWith('..'));
});

test('a page with more links than a call can take as arguments parses whole (no push of a spread)', () => {
  // 150,000 links: `push(...links)` overflows the stack of a main thread past ~120,000 elements.
  const count = 150_000;
  const lines = ['# Many links', ''];
  for (let i = 0; i < count; i += 1) lines.push(`- [m${i}](./missing-${i}.md)`);
  const parsed = parseContentSource({ path: 'docs/many-links.md', text: `${lines.join('\n')}\n`, descriptor: desc });
  assert.equal(parsed.links.length, count);
  assert.equal(parsed.links[count - 1]!.target_path, `docs/missing-${count - 1}.md`);
});

test('a plain Markdown file whose name holds a control, bidi or invisible character gives no node, with unsafe_file_name (break-it trial)', () => {
  for (const [path, code] of [['docs/new\nline.md', 'U+000A'], ['docs/tab\there\u001b[31m.md', 'U+0009'], ['docs/rtl\u202Eevil.md', 'U+202E'], ['docs/zero\u200Bwidth.md', 'U+200B']] as const) {
    const result = parseContentSource({ path, text: '# Title\n\nBody.\n', descriptor: desc });
    assert.deepEqual(result.nodes, [], path);
    const issue = result.issues.find((i) => i.code === 'unsafe_file_name');
    assert.ok(issue !== undefined, JSON.stringify(result.issues));
    assert.equal(issue.severity, 'error');
    assert.ok(issue.message.includes(code), issue.message);
    assert.equal(issue.path, path, 'the finding is located at the file (its real name)');
  }
  assert.equal(parseContentSource({ path: 'docs/plain name.md', text: '# T\n', descriptor: desc }).nodes.length, 1, 'a space is no such character');
});
