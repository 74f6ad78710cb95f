// Pins graph resolution: duplicate ids, dangling relations, broken links (Markdown, code, anchors), relates_to/documents link edges, relation vocabulary and case variants, triple merging.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { codeId, withContentHash, type GraphEdge, type GraphNode } from '@docforge/core';
import { codeSourcePathMatcher, parseContentSource, resolveGraph, vocabularyCaseIssues, type ResolveSource } from '../src/index.js';
import { testDescriptor } from './helpers.js';

const desc = testDescriptor();

function parsed(path: string, text: string): ResolveSource {
  const result = parseContentSource({ path, text, descriptor: desc });
  return { path, nodes: result.nodes, edges: result.edges, links: result.links };
}

function codeModule(path: string): ResolveSource {
  const node: GraphNode = withContentHash({
    id: codeId(path), kind: 'module', title: path, family: null, authority: null, status: null, tags: [], summary: '', body: '',
    source_path: path, start_line: 1, end_line: 10, anchors: [], language: 'typescript', capabilities: [], origin: 'code',
  });
  const edges: GraphEdge[] = [{ source_id: node.id, relation: 'imports', target_id: 'code:src/missing.ts', source_path: path, line: 1 }];
  return { path, nodes: [node], edges, links: [] };
}

const fm = (id: string, relations = ''): string => `+++\nid = "${id}"\nkind = "requirement"\ntitle = "${id}"\n${relations}+++\nBody of ${id}.\n`;

test('duplicate ids: the first source path wins, others are errors naming both files', () => {
  const graph = resolveGraph({
    descriptor: desc,
    sources: [parsed('docs/z.md', fm('REQ-1', '[relations]\ndepends_on = "REQ-2"\n')), parsed('docs/a.md', fm('REQ-1')), parsed('docs/b.md', fm('REQ-2'))],
    codePaths: new Set(),
  });
  assert.deepEqual(graph.nodes.map((node) => [node.id, node.source_path]), [['REQ-1', 'docs/a.md'], ['REQ-2', 'docs/b.md']]);
  assert.deepEqual(graph.issues.map((item) => [item.code, item.severity, item.path, item.line, item.node_id]), [['duplicate_id', 'error', 'docs/z.md', 1, 'REQ-1']]);
  assert.match(graph.issues[0]!.message, /docs\/z\.md:1: .*docs\/a\.md:1/);
  assert.deepEqual(graph.edges, [], 'edges declared by the losing definition are dropped');
});

test('dangling relations are errors and dropped; code edges to missing nodes drop silently', () => {
  const graph = resolveGraph({
    descriptor: desc,
    sources: [parsed('docs/a.md', fm('A', '[relations]\ndepends_on = ["B", "GHOST"]\n')), parsed('docs/b.md', fm('B')), codeModule('src/x.ts')],
    codePaths: new Set(['src/x.ts']),
  });
  assert.deepEqual(graph.edges.map((edge) => [edge.source_id, edge.relation, edge.target_id, edge.line]), [['A', 'depends_on', 'B', 6]]);
  assert.deepEqual(graph.issues.map((item) => [item.code, item.path, item.line, item.node_id]), [['dangling_relation', 'docs/a.md', 6, 'A']]);
  assert.match(graph.issues[0]!.message, /"GHOST"/);
});

test('links become relates_to and documents edges; missing Markdown is a broken_link; self-links skipped', () => {
  const guide = parsed('docs/guide.md', '# Guide\n\nSee [ref](reference/api.md#listen), [code](../src/x.ts), [dir](reference/),\n[img](logo.png), [self](guide.md) and [gone](missing.md).\n');
  const api = parsed('docs/reference/api.md', `${fm('API-1')}\n## Listen\n`);
  const graph = resolveGraph({ descriptor: desc, sources: [guide, api, codeModule('src/x.ts')], codePaths: new Set(['src/x.ts']) });
  assert.deepEqual(graph.edges.map((edge) => [edge.source_id, edge.relation, edge.target_id, edge.source_path, edge.line]), [
    ['guide', 'documents', 'code:src/x.ts', 'docs/guide.md', 3],
    ['guide', 'relates_to', 'API-1', 'docs/guide.md', 3],
  ]);
  assert.deepEqual(graph.issues.map((item) => [item.code, item.severity, item.path, item.line]), [['broken_link', 'warning', 'docs/guide.md', 4]]);
  assert.match(graph.issues[0]!.message, /docs\/missing\.md/);
});

test('undeclared relations warn under a closed relation vocabulary only; duplicate triples merge', () => {
  const sources = [
    parsed('docs/a.md', fm('A', '[relations]\nblesses = "B"\nimplements = "B"\n')),
    parsed('docs/b.md', fm('B')),
    { path: 'docs/c.md', nodes: [], edges: [{ source_id: 'A', relation: 'implements', target_id: 'B', source_path: 'docs/c.md', line: 3 }], links: [] },
  ];
  const open = resolveGraph({ descriptor: desc, sources, codePaths: new Set() });
  assert.deepEqual(open.issues, []);
  assert.deepEqual(open.edges.map((edge) => [edge.relation, edge.source_path, edge.line]), [['blesses', 'docs/a.md', 6], ['implements', 'docs/a.md', 7]]);
  const closed = resolveGraph({ descriptor: testDescriptor({ vocabulary: { kinds: null, authorities: null, statuses: null, relations: [] } }), sources, codePaths: new Set() });
  assert.deepEqual(closed.issues.map((item) => [item.code, item.severity, item.line]), [['undeclared_relation', 'warning', 6]]);
  const allowed = resolveGraph({ descriptor: testDescriptor({ vocabulary: { kinds: null, authorities: null, statuses: null, relations: ['blesses'] } }), sources, codePaths: new Set() });
  assert.deepEqual(allowed.issues, []);
});

test('output is deterministic regardless of source order', () => {
  const sources = [parsed('docs/a.md', fm('A', '[relations]\nrelates_to = ["B", "c"]\n')), parsed('docs/b.md', fm('B')), parsed('docs/c.md', '# C\n[a](a.md)\n')];
  const forward = resolveGraph({ descriptor: desc, sources, codePaths: new Set() });
  const backward = resolveGraph({ descriptor: desc, sources: [...sources].reverse(), codePaths: new Set() });
  assert.deepEqual(backward, forward);
  assert.deepEqual(forward.edges.map((edge) => `${edge.source_id}>${edge.target_id}`), ['A>B', 'A>c', 'c>A']);
});

test('links to missing code files under the code roots, and to missing anchors, are broken_link; existing ones are edges', () => {
  const codeDesc = testDescriptor({ sources: { content_roots: ['docs'], code_roots: ['src'], exclude: ['**/generated/**'] } });
  const isCodeSourcePath = codeSourcePathMatcher(codeDesc, ['.ts']);
  const guide = parseContentSource({
    path: 'docs/guide.md',
    descriptor: codeDesc,
    text: [
      '# Guide', //                                                                  1
      '', //                                                                         2
      '<a id="legacy-name"></a>', //                                                 3
      '## Setup steps', //                                                           4
      '', //                                                                         5
      '[code](../src/x.ts) [gone](../src/missing.ts) [hash file](../src/a%23b.ts)', // 6
      '[excluded](../src/generated/y.ts) [outside](../scripts/z.ts) [data](../src/data.json)', // 7
      '[ok](api.md#listen) [alias](api.md#old-listen) [nope](api.md#nope) [top](api.md#top) [case](api.md#Listen)', // 8
      '[self ok](#setup-steps) [self alias](#legacy-name) [self nope](#nope) [bare](#)', // 9
      '',
    ].join('\n'),
  });
  const api = parseContentSource({ path: 'docs/api.md', descriptor: codeDesc, text: '# API\n\n<a name="old-listen"></a>\n## Listen\n' });
  const sources: ResolveSource[] = [
    { path: 'docs/api.md', nodes: api.nodes, edges: [], links: api.links },
    { path: 'docs/guide.md', nodes: guide.nodes, edges: [], links: guide.links },
    codeModule('src/a#b.ts'),
    codeModule('src/x.ts'),
  ];
  const graph = resolveGraph({ descriptor: codeDesc, sources, codePaths: new Set(['src/x.ts', 'src/a#b.ts']), isCodeSourcePath });
  assert.deepEqual(graph.edges.filter((edge) => edge.source_id === 'guide').map((edge) => [edge.relation, edge.target_id]), [
    ['documents', 'code:src/a%23b.ts'],
    ['documents', 'code:src/x.ts'],
    ['relates_to', 'api'],
  ]);
  const broken = [...guide.issues, ...graph.issues].filter((item) => item.code === 'broken_link').map((item) => [item.line, item.message.replace(/^docs\/guide\.md:\d+: /, '')]);
  assert.deepEqual(broken, [
    [9, 'link to "#nope": this file has no section or anchor "nope"'],
    [6, 'link to "src/missing.ts" does not resolve to a code file under the code roots'],
    [8, 'link to "docs/api.md#Listen": that file has no section or anchor "Listen"'],
    [8, 'link to "docs/api.md#nope": that file has no section or anchor "nope"'],
  ]);
  // Without the matcher (a caller that knows no code extensions) missing code files are not judged.
  const unchecked = resolveGraph({ descriptor: codeDesc, sources, codePaths: new Set(['src/x.ts', 'src/a#b.ts']) });
  assert.equal(unchecked.issues.filter((item) => item.message.includes('missing.ts')).length, 0);
});

test('kinds and statuses differing only in case warn under an open vocabulary, naming both spellings', () => {
  const node = (id: string, kind: string, status: string, extra = ''): ResolveSource => parsed(`docs/${id}.md`, `+++\nid = "${id}"\nkind = "${kind}"\ntitle = "${id}"\nstatus = "${status}"\n${extra}+++\n`);
  const sources = [node('A', 'requirement', 'draft'), node('B', 'requirement', 'Draft'), node('C', 'Requirement', 'draft'), node('D', 'component', 'DRAFT')];
  const graph = resolveGraph({ descriptor: desc, sources, codePaths: new Set() });
  const issues = vocabularyCaseIssues(graph.nodes, desc);
  assert.deepEqual(issues.map((item) => [item.code, item.severity, item.node_id, item.path, item.line]), [
    ['vocabulary_case_mismatch', 'warning', 'C', 'docs/C.md', 1],
    ['vocabulary_case_mismatch', 'warning', 'B', 'docs/B.md', 1],
    ['vocabulary_case_mismatch', 'warning', 'D', 'docs/D.md', 1],
  ]);
  assert.match(issues[0]!.message, /kind "Requirement" of node "C" differs only in case from kind "requirement" \(2 nodes, e\.g\. "A"\)/);
  assert.match(issues[1]!.message, /status "Draft" .* status "draft"/);
  // A closed list already flags the other spelling (undeclared_kind): no second warning for kinds.
  const closed = testDescriptor({ vocabulary: { kinds: ['requirement', 'component'], authorities: null, statuses: null, relations: null } });
  assert.deepEqual(vocabularyCaseIssues(graph.nodes, closed).map((item) => item.message.split(': ')[1]!.split(' ')[0]), ['status', 'status']);
  // Ties prefer the all-lowercase spelling.
  const tie = resolveGraph({ descriptor: desc, sources: [node('E', 'Decision', 'x'), node('F', 'decision', 'x')], codePaths: new Set() });
  assert.deepEqual(vocabularyCaseIssues(tie.nodes, desc).map((item) => item.node_id), ['E']);
});

function codeFile(path: string, names: string[], exported: string[]): ResolveSource {
  const make = (id: string, kind: string, title: string): GraphNode => withContentHash({
    id, kind, title, family: null, authority: null, status: null, tags: [], summary: '', body: '',
    source_path: path, start_line: 1, end_line: 10, anchors: [], language: 'javascript', capabilities: [], origin: 'code',
  });
  const nodes = [make(`code:${path}`, 'module', path), ...names.map((n) => make(`code:${path}#${n}`, n.includes('.') ? 'method' : 'function', n.split('.').pop()!))];
  const edges: GraphEdge[] = exported.map((n) => ({ source_id: `code:${path}`, relation: 'defines', target_id: `code:${path}#${n}`, source_path: path, line: 1 }));
  return { path, nodes, edges, links: [] };
}

test('mentions (issue 9 item 2): path, qualified and module.export forms link; bare leaves and ambiguous names are counted, never linked', () => {
  const guide = parsed('docs/guide.md', [
    '# Guide',
    '',
    '## Transport',
    '',
    'Call `pino.transport({ target })` or `pino.transport()`; see `lib/transport.js` and `Worker.start()`.',
    '',
    '## Never',
    '',
    'A bare `transport`, the ambiguous `Twice.run` and unknown `pino.nothing` link nowhere.',
    '',
  ].join('\n'));
  const sources = [
    guide,
    codeFile('lib/transport.js', ['transport', 'Worker', 'Worker.start'], []),
    codeFile('lib/a.js', ['Twice', 'Twice.run'], []),
    codeFile('lib/b.js', ['Twice', 'Twice.run'], []),
    codeFile('pino.js', ['transport'], ['transport']),
  ].sort((a, b) => (a.path < b.path ? -1 : 1));
  const graph = resolveGraph({ descriptor: desc, sources, codePaths: new Set(['lib/transport.js', 'lib/a.js', 'lib/b.js', 'pino.js']) });
  const mentions = graph.edges.filter((e) => e.mention !== undefined);
  assert.deepEqual(mentions.map((e) => [e.source_id, e.relation, e.target_id, e.mention!.sections.map((x) => x.slug)]), [
    ['guide', 'documents', 'code:lib/transport.js', ['transport']],
    ['guide', 'documents', 'code:lib/transport.js#Worker.start', ['transport']],
    ['guide', 'documents', 'code:pino.js#transport', ['transport']],
  ]);
  // `pino.transport(...)` and `pino.transport()` are one edge (one section listed once).
  assert.deepEqual(graph.mentions, { edges: 3, linked: 4, bare_leaf: 1, ambiguous: 1 });
});

test('links leaving the root are broken_link findings and never become edges', () => {
  const text = '# Leaky\n\n[a](../../../../etc/passwd)\n[b](%2e%2e/%2e%2e/secret.md)\n[c](/etc/passwd)\n[d](../../outside.md#x)\n';
  const result = parseContentSource({ path: 'docs/leaky.md', text, descriptor: desc });
  const outside = result.issues.filter((item) => item.code === 'broken_link');
  assert.deepEqual(outside.map((item) => item.line), [3, 4, 6]);
  assert.match(outside[0]!.message, /^docs\/leaky\.md:3: link to "\.\.\/\.\.\/\.\.\/\.\.\/etc\/passwd" leaves the project root/);
  assert.match(outside[1]!.message, /"%2e%2e\/%2e%2e\/secret\.md" leaves the project root/);
  assert.ok(outside.every((item) => item.severity === 'warning' && item.path === 'docs/leaky.md'));
  assert.ok(!result.links.some((link) => link.target_path.includes('passwd') && link.target_path !== 'etc/passwd'));
  // `/etc/passwd` is root-relative (`etc/passwd`): a missing extensionless target is a broken_link.
  const graph = resolveGraph({ descriptor: desc, sources: [parsed('docs/leaky.md', text)], codePaths: new Set(), pathExists: () => false });
  const broken = graph.issues.filter((item) => item.code === 'broken_link');
  assert.deepEqual(broken.map((item) => item.line), [5]);
  assert.match(broken[0]!.message, /link to "etc\/passwd" does not resolve to a page/);
  assert.deepEqual(graph.edges, []);
});

test('Docusaurus-style links without .md resolve to <path>.md, <path>/index.md or README.md; a missing one is broken_link', () => {
  const links = '# Home\n\n[e](guides/install)\n[f](guides/install#step-two)\n[g](reference/)\n[h](./reference)\n[i](guides/nope)\n[j](assets)\n';
  const sources = [
    parsed('docs/home.md', links),
    parsed('docs/guides/install.md', '# Install\n\n## Step two\n'),
    parsed('docs/reference/README.md', '# Reference\n'),
  ];
  const graph = resolveGraph({ descriptor: desc, sources, codePaths: new Set(), pathExists: (p) => p === 'docs/assets' });
  const targets = graph.edges.filter((edge) => edge.source_path === 'docs/home.md').map((edge) => [edge.line, edge.target_id]);
  const installId = sources[1]!.nodes[0]!.id;
  const referenceId = sources[2]!.nodes[0]!.id;
  assert.deepEqual(targets, [[3, installId], [5, referenceId]], 'merged triples keep the first line of each');
  const broken = graph.issues.filter((item) => item.code === 'broken_link');
  assert.deepEqual(broken.map((item) => item.line), [7], '[j](assets) names an existing directory: no finding');
  assert.match(broken[0]!.message, /link to "docs\/guides\/nope" does not resolve to a page \(tried "docs\/guides\/nope\.md", .*"docs\/guides\/nope\/README\.md"\)/);
  // A missing anchor on an extensionless link is checked against the page it names.
  const anchored = resolveGraph({ descriptor: desc, sources: [parsed('docs/home.md', '# Home\n\n[x](guides/install#nope)\n'), sources[1]!], codePaths: new Set() });
  assert.match(anchored.issues.find((item) => item.code === 'broken_link')!.message, /"docs\/guides\/install\.md#nope": that file has no section or anchor "nope"/);
});

test('a link from the site root (/commands/npm-install, as npm\'s and Docusaurus pages write them) names the page under the linking page\'s content root when nothing is there from the project root', () => {
  const site = testDescriptor({ sources: { content_roots: ['docs/content', 'guides'], code_roots: ['lib'], exclude: [] } });
  const parse = (path: string, text: string): ResolveSource => {
    const result = parseContentSource({ path, text, descriptor: site });
    return { path, nodes: result.nodes, edges: result.edges, links: result.links };
  };
  const sources = [
    parse('docs/content/commands/npm-ci.md', '# npm ci\n\nSee [npm install](/commands/npm-install), [the config](/using-npm/config#ci-name), [gone](/commands/npm-gone) and [lib](/lib/ci.js).\n'),
    parse('docs/content/commands/npm-install.md', '# npm install\n'),
    parse('docs/content/using-npm/config.md', '# config\n\n## ci-name\n'),
    // A page of another content root: its site root is that root.
    parse('guides/start.md', '# Start\n\n[install](/commands/npm-install)\n'),
    codeModule('lib/ci.js'),
  ].sort((a, b) => (a.path < b.path ? -1 : 1));
  const graph = resolveGraph({ descriptor: site, sources, codePaths: new Set(['lib/ci.js']), pathExists: () => false });
  const from = (path: string): string[] => graph.edges.filter((e) => e.source_path === path).map((e) => `${e.relation} ${e.target_id}`).sort();
  // `/lib/ci.js` names a project file from the project root: that reading wins.
  assert.deepEqual(from('docs/content/commands/npm-ci.md'), ['documents code:lib/ci.js', 'relates_to commands/npm-install', 'relates_to using-npm/config']);
  assert.deepEqual(from('guides/start.md'), []);
  const broken = graph.issues.filter((item) => item.code === 'broken_link').map((item) => `${item.path}:${item.message}`);
  assert.equal(broken.length, 2, broken.join('\n'));
  assert.match(broken[0]!, /docs\/content\/commands\/npm-ci\.md:.*"commands\/npm-gone" does not resolve to a page/);
  assert.match(broken[1]!, /guides\/start\.md:.*"commands\/npm-install" does not resolve to a page/);
});

test('mentions: a distinctive compound name of exactly one top-level declaration links; plain words, member names and shared names do not', () => {
  const guide = parsed('docs/guide.md', [
    '# Guide',
    '',
    'Rates come from `lookupVatRate` and `read_base_url()`; totals from `InvoiceTotals`.',
    '',
    '## Never',
    '',
    'A plain `refund`, a `Ledger`, the member name `startWorker`, the twice defined `sharedHelper` and the `onRouteHook` option link nowhere.',
    '',
  ].join('\n'));
  const sources = [
    guide,
    codeFile('src/tax.ts', ['lookupVatRate', 'read_base_url', 'InvoiceTotals', 'refund', 'Ledger', 'sharedHelper'], []),
    codeFile('src/other.ts', ['sharedHelper', 'startWorker', 'Pool', 'Pool.startWorker'], []),
    // A test's own top-level function of a name the page uses for something else.
    testFile(codeFile('test/hooks.test.ts', ['onRouteHook'], [])),
  ].sort((a, b) => (a.path < b.path ? -1 : 1));
  const graph = resolveGraph({ descriptor: desc, sources, codePaths: new Set(['src/tax.ts', 'src/other.ts', 'test/hooks.test.ts']) });
  const linked = graph.edges.filter((e) => e.mention !== undefined).map((e) => e.target_id).sort();
  assert.deepEqual(linked, ['code:src/tax.ts#InvoiceTotals', 'code:src/tax.ts#lookupVatRate', 'code:src/tax.ts#read_base_url']);
  // refund, Ledger, startWorker, sharedHelper (two nodes) and onRouteHook (only a test's) are leaves of code nodes: counted as bare.
  assert.deepEqual(graph.mentions, { edges: 3, linked: 3, bare_leaf: 5, ambiguous: 0 });
});

/** The same code file as a test source: every node carries the `test` capability. */
function testFile(source: ReturnType<typeof codeFile>): ReturnType<typeof codeFile> {
  return { ...source, nodes: source.nodes.map((n) => ({ ...n, capabilities: ['test'] })) };
}
