// Pins the four built-in renderers' structure on hand-made graphs (parsed HTML/SVG, not snapshots) and that node bodies never become live markup.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ViewDeclaration } from '@docforge/project';
import type { GraphNode } from '@docforge/core';
import { changeMarks, renderViewHtml, nodeAnchor, nodeMatchesSelector, type RenderGraph } from '../src/index.js';
import { attr, byTag, classes, elements, parseHtml, text } from './dom.js';
import { memoryGraph, node } from './fixtures.js';

function view(over: Partial<ViewDeclaration>): ViewDeclaration {
  return { id: 'v', title: 'The view', renderer: 'page', select: {}, output: 'site/v.html', ...over };
}

async function render(v: ViewDeclaration, graph: RenderGraph): Promise<ReturnType<typeof parseHtml>> {
  return parseHtml(await renderViewHtml({ view: v, graph }));
}

const GRAPH = memoryGraph(
  [
    node('REQ-1', { title: 'First requirement', family: 'pay', tags: ['api', 'cards'], body: 'See [the second](req-2.md) and [REQ-3](REQ-3).\n\n## Details\n\nJump [down](#details).' }),
    node('REQ-2', { title: 'Second requirement', family: 'pay', status: 'draft' }),
    node('REQ-3', { title: 'Third requirement', family: null }),
    node('CMP-A', { kind: 'component', title: 'Component A', family: 'pay' }),
    node('TST-1', { kind: 'test', title: 'Test one' }),
  ],
  [['CMP-A', 'implements', 'REQ-1'], ['TST-1', 'verifies', 'REQ-2'], ['REQ-1', 'relates_to', 'REQ-2'], ['REQ-1', 'relates_to', 'REQ-9']],
);

test('catalog groups the selected nodes by kind then family, with status and tags', async () => {
  const doc = await render(view({ renderer: 'catalog', select: { kinds: ['requirement', 'component'] } }), GRAPH);
  const kinds = byTag(doc, 'section', 'kind').map((s) => attr(s, 'data-kind'));
  assert.deepEqual(kinds, ['component', 'requirement']);
  const requirement = byTag(doc, 'section', 'kind').find((s) => attr(s, 'data-kind') === 'requirement')!;
  assert.deepEqual(byTag(requirement, 'section', 'family').map((s) => attr(s, 'data-family')), ['(no family)', 'pay']);
  const items = byTag(requirement, 'li', 'node');
  assert.deepEqual(items.map((li) => attr(li, 'data-node-id')).sort(), ['REQ-1', 'REQ-2', 'REQ-3']);
  const first = items.find((li) => attr(li, 'data-node-id') === 'REQ-1')!;
  assert.deepEqual(byTag(first, 'span', 'tag').map(text), ['api', 'cards']);
  assert.equal(text(byTag(first, 'span', 'status')[0]!), 'accepted');
  assert.equal(byTag(doc, 'li', 'node').some((li) => attr(li, 'data-node-id') === 'TST-1'), false, 'unselected kinds stay out');
});

test('page holds the full text of each node with anchors, relations as links and node links resolved inside the page', async () => {
  const doc = await render(view({ renderer: 'page', select: { kinds: ['requirement'] } }), GRAPH);
  const sections = byTag(doc, 'section', 'node');
  assert.deepEqual(sections.map((s) => attr(s, 'id')), ['REQ-1', 'REQ-2', 'REQ-3'].map(nodeAnchor));
  const first = sections[0]!;
  const links = byTag(byTag(first, 'div', 'body')[0]!, 'a').map((a) => [text(a), attr(a, 'href')]);
  assert.deepEqual(links, [['the second', `#${nodeAnchor('REQ-2')}`], ['REQ-3', `#${nodeAnchor('REQ-3')}`], ['down', `#${nodeAnchor('REQ-1')}--details`]]);
  const heading = byTag(first, 'h2').find((h) => text(h) === 'Details')!;
  assert.equal(attr(heading, 'id'), `${nodeAnchor('REQ-1')}--details`, 'in-page fragment links land on the heading');
  const relations = byTag(first, 'ul', 'relations')[0]!;
  const rel = byTag(relations, 'li').map((li) => [attr(li, 'data-relation'), byTag(li, 'a')[0] ? attr(byTag(li, 'a')[0]!, 'href') : null]);
  assert.deepEqual(rel, [['relates_to', `#${nodeAnchor('REQ-2')}`], ['relates_to', null]], 'a relation to a node outside the page is text, not a dead link');
  const ids = new Set(elements(doc).map((e) => attr(e, 'id')).filter(Boolean));
  for (const a of byTag(doc, 'a')) {
    const href = attr(a, 'href')!;
    if (href.startsWith('#')) assert.ok(ids.has(href.slice(1)), `${href} resolves within the output`);
  }
});

test('matrix marks hits by relation in either direction and uncovered rows', async () => {
  const doc = await render(view({ renderer: 'matrix', select: {}, rows: { kinds: ['requirement'] }, columns: { kinds: ['component', 'test'] }, relations: ['implements', 'verifies'] }), GRAPH);
  const rows = byTag(doc, 'tr').filter((tr) => attr(tr, 'data-row-id') !== null);
  assert.deepEqual(rows.map((tr) => [attr(tr, 'data-row-id'), classes(tr)[0]]), [['REQ-1', 'covered'], ['REQ-2', 'covered'], ['REQ-3', 'uncovered']]);
  assert.deepEqual(byTag(doc, 'th').map((th) => attr(th, 'data-column-id')).filter(Boolean), ['CMP-A', 'TST-1']);
  const hit = (row: string): string[] => byTag(rows.find((tr) => attr(tr, 'data-row-id') === row)!, 'td', 'hit').map((td) => `${attr(td, 'data-column-id')}:${attr(td, 'data-relations')}`);
  assert.deepEqual(hit('REQ-1'), ['CMP-A:implements']);
  assert.deepEqual(hit('REQ-2'), ['TST-1:verifies']);
});

test('graph draws the focus neighbourhood to the declared depth as an SVG laid out by elkjs', async () => {
  const v = view({ renderer: 'graph', select: {}, focus: 'REQ-1', depth: 1 });
  const doc = await render(v, GRAPH);
  const svg = byTag(doc, 'svg', 'graph');
  assert.equal(svg.length, 1);
  const nodes = byTag(svg[0]!, 'g', 'node');
  assert.deepEqual(nodes.map((g) => attr(g, 'data-node-id')).sort(), ['CMP-A', 'REQ-1', 'REQ-2'], 'depth 1: direct neighbours only (REQ-9 does not exist)');
  assert.deepEqual(nodes.filter((g) => classes(g).includes('focus')).map((g) => attr(g, 'data-node-id')), ['REQ-1']);
  const edges = byTag(svg[0]!, 'path', 'edge').map((p) => `${attr(p, 'data-source')} ${attr(p, 'data-relation')} ${attr(p, 'data-target')}`).sort();
  assert.deepEqual(edges, ['CMP-A implements REQ-1', 'REQ-1 relates_to REQ-2']);
  const positions = new Set(nodes.map((g) => attr(g, 'transform')));
  assert.equal(positions.size, nodes.length, 'the layout gives every node its own place');
  const deeper = await render({ ...v, depth: 2 }, GRAPH);
  assert.ok(byTag(deeper, 'g', 'node').some((g) => attr(g, 'data-node-id') === 'TST-1'), 'depth 2 reaches TST-1 through REQ-2');
  await assert.rejects(renderViewHtml({ view: { ...v, focus: 'NOPE' }, graph: GRAPH }), /render_failed|focus node "NOPE"/);
});

test('rendering is deterministic: the same graph and view give the same bytes', async () => {
  for (const renderer of ['catalog', 'page', 'matrix', 'graph'] as const) {
    const v = view({ renderer, rows: renderer === 'matrix' ? {} : undefined, columns: renderer === 'matrix' ? {} : undefined, relations: renderer === 'matrix' ? ['implements'] : undefined, focus: renderer === 'graph' ? 'REQ-1' : undefined });
    assert.equal(await renderViewHtml({ view: v, graph: GRAPH }), await renderViewHtml({ view: v, graph: GRAPH }), renderer);
  }
});

const HOSTILE = [
  'Intro <script>alert(1)</script> text',
  '<img src=x onerror="alert(2)">',
  '[click](javascript:alert(3)) and [again](JaVaScRiPt:alert(4)) and [ent](&#106;avascript:alert(5))',
  '<a href="javascript:alert(6)">raw anchor</a>',
  '[data](data:text/html;base64,PHNjcmlwdD5hbGVydCg3KTwvc2NyaXB0Pg==) and <iframe src="https://evil.example"></iframe>',
  '![img](javascript:alert(8))',
].join('\n\n');

test('security: a body with <script>, raw HTML and javascript: links renders none of them as live markup', async () => {
  const hostile = memoryGraph([node('EVIL-1', { title: '<script>alert("title")</script>', body: HOSTILE, tags: ['<b>x</b>'] })], []);
  for (const renderer of ['page', 'catalog', 'graph'] as const) {
    const html = await renderViewHtml({ view: view({ renderer, focus: renderer === 'graph' ? 'EVIL-1' : undefined }), graph: hostile });
    const doc = parseHtml(html);
    const all = elements(doc);
    for (const tag of ['script', 'iframe', 'img', 'object', 'embed']) assert.deepEqual(all.filter((e) => e.tagName === tag), [], `${renderer}: no <${tag}>`);
    for (const e of all) {
      for (const a of e.attrs ?? []) {
        assert.ok(!/^on/i.test(a.name), `${renderer}: no event handler attribute (${a.name})`);
        if (a.name === 'href' || a.name === 'src') assert.ok(!/^\s*(javascript|data|vbscript):/i.test(a.value), `${renderer}: ${a.name}=${a.value}`);
      }
    }
    if (renderer === 'page') {
      assert.ok(text(doc).includes('<script>alert(1)</script>'), 'the script tag is shown as text');
      assert.ok(text(doc).includes('raw anchor'));
    }
  }
});

test('preview marks: added, changed and removed nodes and relations against the published content graph', () => {
  const before = { nodes: [node('A'), node('B'), node('C')], edges: [{ source_id: 'A', relation: 'relates_to', target_id: 'B', source_path: 'x', line: 0 }] };
  const after = { nodes: [node('A', { title: 'A2' }), node('B'), node('D')], edges: [{ source_id: 'A', relation: 'relates_to', target_id: 'D', source_path: 'x', line: 0 }] };
  const { marks, counts } = changeMarks(before, after);
  assert.deepEqual(Object.fromEntries(marks.nodes), { A: 'changed', D: 'added', C: 'removed' });
  assert.deepEqual([...marks.edges.values()].sort(), ['added', 'removed']);
  assert.deepEqual(counts, { nodes_added: 1, nodes_changed: 1, nodes_removed: 1, relations_added: 1, relations_removed: 1 });
});

/** A render graph of these nodes (code ones included) and `[source, relation, target]` edges. */
function plainGraph(nodes: GraphNode[], edges: [string, string, string][]): RenderGraph {
  const list = edges.map(([source_id, relation, target_id]) => ({ source_id, relation, target_id }));
  return {
    select: (selector) => ({ nodes: nodes.filter((n) => nodeMatchesSelector(n, selector)).sort((a, b) => (a.id < b.id ? -1 : 1)), truncated: false }),
    node: (id) => nodes.find((n) => n.id === id) ?? null,
    edges: (id, direction) => list.filter((e) => (direction === 'outgoing' ? e.source_id : e.target_id) === id),
  };
}

test('matrix coverage mode: each row against the code and tests it reaches through the relations, up to 3 steps', async () => {
  // Code nodes come from the published graph under the preview overlay: a plain graph here.
  const graph = plainGraph(
    [
      node('REQ-1', { title: 'Traced' }), node('REQ-2', { title: 'Tested only' }), node('REQ-3', { title: 'Untraced' }),
      node('CMP-A', { kind: 'component', title: 'Component A' }), node('TST-1', { kind: 'test', title: 'Test one' }), node('TST-2', { kind: 'test', title: 'Test two' }),
      node('code:src/a.ts#f', { kind: 'function', title: 'f' }),
    ],
    [['CMP-A', 'implements', 'REQ-1'], ['CMP-A', 'defines', 'code:src/a.ts#f'], ['TST-1', 'verifies', 'REQ-1'], ['TST-2', 'verifies', 'REQ-2'], ['REQ-3', 'relates_to', 'TST-2']],
  );
  const v = view({ renderer: 'matrix', mode: 'coverage', select: {}, rows: { kinds: ['requirement'] }, columns: { kinds: ['test', 'function'] }, relations: ['implements', 'verifies', 'defines'] });
  const doc = await render(v, graph);
  const rows = byTag(doc, 'tr').filter((tr) => attr(tr, 'data-row-id') !== null);
  assert.deepEqual(rows.map((tr) => [attr(tr, 'data-row-id'), classes(tr)[0]]), [['REQ-1', 'covered'], ['REQ-2', 'partial'], ['REQ-3', 'uncovered']]);
  const listed = (row: string, kind: string): (string | null)[] => byTag(byTag(rows.find((tr) => attr(tr, 'data-row-id') === row)!, 'td', kind)[0]!, 'a').map((a) => attr(a, 'data-node-id'));
  assert.deepEqual(listed('REQ-1', 'code'), ['code:src/a.ts#f'], 'requirement <- component -> code: two steps');
  assert.deepEqual(listed('REQ-1', 'tests'), ['TST-1']);
  assert.deepEqual(listed('REQ-2', 'code'), []);
  assert.deepEqual(listed('REQ-2', 'tests'), ['TST-2']);
  assert.deepEqual(listed('REQ-3', 'tests'), [], 'relates_to is not a listed relation');
  assert.match(text(byTag(doc, 'p', 'meta')[0]!), /3 rows: 1 covered \(code and tests\), 1 partial, 1 uncovered/);
});
