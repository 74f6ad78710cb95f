// Pins issue 12 item 3 (graph-browser JSON API on examples/): every endpoint answers its protocol schema, node ids travel as one encoded path segment, lists are bounded with `truncated`, Flow is semantic ancestry and Web the contributors into the focus.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  describeValidationErrors, validateGraphBrowserError, validateGraphBrowserFilter, validateGraphBrowserGraph, validateGraphBrowserLogic, validateGraphBrowserNode,
  validateGraphBrowserOverview, validateGraphBrowserSearch, validateGraphBrowserSource, type GraphBrowserFilter, type GraphBrowserGraph, type GraphBrowserLogic,
  type GraphBrowserNode, type GraphBrowserOverview, type GraphBrowserSearch, type GraphBrowserSource, type SchemaValidator,
} from '@docforge/protocol';
import { sharedExampleProject } from './helpers/projects.js';
import { openBrowserSession, workerConfig } from './helpers/graph-browser.js';

const root = sharedExampleProject();
const config = await workerConfig(root, { workerId: 'api' });
const session = await openBrowserSession(config);
const enc = encodeURIComponent;
const POST = 'code:src/ledger/ledger.ts#Ledger.post';
const LEDGER = 'code:src/ledger/ledger.ts#Ledger';

async function ok<T>(urlPath: string, validate: SchemaValidator<T>): Promise<T> {
  const { status, body } = await session.json(urlPath);
  assert.equal(status, 200, `${urlPath}: ${JSON.stringify(body)}`);
  assert.ok(validate(body), `${urlPath} fits its schema: ${JSON.stringify(describeValidationErrors(validate.errors))}`);
  return body;
}

async function fails(urlPath: string, status: number, code: string): Promise<void> {
  const answer = await session.json(urlPath);
  assert.equal(answer.status, status, `${urlPath}: ${JSON.stringify(answer.body)}`);
  assert.ok(validateGraphBrowserError(answer.body));
  assert.equal(answer.body.error.code, code, urlPath);
}

/** Every edge joins two listed nodes, the focus is listed, and keys are unique. */
function wellFormed(graph: GraphBrowserGraph): void {
  const ids = new Set(graph.nodes.map((n) => n.id));
  assert.equal(ids.size, graph.nodes.length, 'node ids are unique');
  assert.ok(ids.has(graph.focus), 'the focus is listed');
  assert.equal(new Set(graph.edges.map((e) => e.key)).size, graph.edges.length, 'edge keys are unique');
  for (const e of graph.edges) {
    assert.ok(ids.has(e.source) && ids.has(e.target), `edge ${e.relation} joins listed nodes`);
    assert.equal(e.key, `${e.source}\u0000${e.relation}\u0000${e.target}`);
  }
}

/** Upstream end of an edge in its semantic direction. */
const upstream = (e: GraphBrowserGraph['edges'][number]): string => (e.reversed ? e.target : e.source);
const downstream = (e: GraphBrowserGraph['edges'][number]): string => (e.reversed ? e.source : e.target);

test('overview names the exact snapshot, counts, facets and bounded entry nodes', async () => {
  const body: GraphBrowserOverview = await ok('/api/overview', validateGraphBrowserOverview);
  assert.deepEqual(body.signature, config.signature);
  assert.equal(body.project_id, 'acme-payments');
  assert.equal(body.counts.nodes, Object.values(body.nodes_by_kind).reduce((a, b) => a + b, 0));
  assert.ok(body.counts.edges > 0 && body.counts.logic_steps > 0);
  assert.ok(body.facets.kind.values.some((v) => v.value === 'requirement'));
  assert.ok(body.relations.some((r) => r.relation === 'implements' && r.category === 'implementation'));
  assert.ok(body.entries.length > 0 && body.entries.length <= 100);
  assert.equal(body.logic_allowed, true);
});

test('search runs one bounded lexical query; limit bounds it and says truncated', async () => {
  const body: GraphBrowserSearch = await ok('/api/search?q=ledger%20post', validateGraphBrowserSearch);
  assert.ok(body.items.some((h) => h.node.id === POST), 'Ledger.post is found');
  const one: GraphBrowserSearch = await ok('/api/search?q=ledger&limit=1', validateGraphBrowserSearch);
  assert.equal(one.items.length, 1);
  assert.equal(one.truncated, true);
  await fails('/api/search', 400, 'invalid_arguments');
  await fails(`/api/search?q=${'x'.repeat(501)}`, 400, 'invalid_arguments');
  await fails('/api/search?q=a&sql=1', 400, 'invalid_arguments');
});

test('filter: exact family/authority/status/tag and composable kind/language/capability, paged with next_after', async () => {
  const reqs: GraphBrowserFilter = await ok('/api/filter?kind=requirement', validateGraphBrowserFilter);
  assert.ok(reqs.items.length > 0 && reqs.items.every((n) => n.kind === 'requirement'));
  const family = reqs.items[0]!.family!;
  const fam: GraphBrowserFilter = await ok(`/api/filter?family=${enc(family)}`, validateGraphBrowserFilter);
  assert.ok(fam.items.length > 0 && fam.items.every((n) => n.family === family));
  const both: GraphBrowserFilter = await ok('/api/filter?kind=class&kind=method&language=typescript&capability=exported', validateGraphBrowserFilter);
  assert.ok(both.items.length > 0 && both.items.every((n) => ['class', 'method'].includes(n.kind) && n.language === 'typescript' && n.capabilities.includes('exported')));
  const tag = reqs.items.find((n) => n.tags.length > 0)!.tags[0]!;
  const tagged: GraphBrowserFilter = await ok(`/api/filter?tag=${enc(tag)}`, validateGraphBrowserFilter);
  assert.ok(tagged.items.every((n) => n.tags.includes(tag)));
  const page1: GraphBrowserFilter = await ok('/api/filter?kind=method&limit=5', validateGraphBrowserFilter);
  assert.equal(page1.items.length, 5);
  assert.equal(page1.truncated, true);
  const page2: GraphBrowserFilter = await ok(`/api/filter?kind=method&limit=5&after=${enc(page1.next_after!)}`, validateGraphBrowserFilter);
  assert.ok(page2.items[0]!.id > page1.items[4]!.id);
  await fails('/api/filter?kind=method&limit=0', 400, 'invalid_arguments');
  await fails('/api/filter?path=/etc', 400, 'invalid_arguments');
});

test('node: the full node for the inspector, relations both ways with category, source location; ids are one encoded segment', async () => {
  const body: GraphBrowserNode = await ok(`/api/nodes/${enc(POST)}`, validateGraphBrowserNode);
  assert.equal(body.node.id, POST);
  assert.equal(body.node.leaf, 'post');
  assert.equal(body.source.path, 'src/ledger/ledger.ts');
  assert.ok(body.incoming.some((r) => r.edge.source === LEDGER && r.edge.relation === 'contains' && r.edge.category === 'structure' && r.other?.id === LEDGER));
  assert.ok(body.logic_steps > 0);
  await fails(`/api/nodes/${enc('code:src/ledger/ledger.ts#Nope')}`, 404, 'node_not_found');
  // The raw (unencoded) id splits into several segments and names no endpoint.
  const rawId = await session.get(`/api/nodes/${POST}`);
  assert.ok(rawId.status === 404 || rawId.status === 400);
});

test('neighborhood: the focus and its direct neighbors in both directions, bounded', async () => {
  const body: GraphBrowserGraph = await ok(`/api/nodes/${enc(LEDGER)}/neighborhood`, validateGraphBrowserGraph);
  wellFormed(body);
  assert.equal(body.view, 'neighborhood');
  assert.ok(body.edges.every((e) => e.source === LEDGER || e.target === LEDGER));
  assert.ok(body.edges.some((e) => e.source === LEDGER && e.relation === 'contains'));
  assert.ok(body.edges.some((e) => e.target === LEDGER));
  assert.equal(body.truncated, false);
  const small: GraphBrowserGraph = await ok(`/api/nodes/${enc(LEDGER)}/neighborhood?limit=2`, validateGraphBrowserGraph);
  wellFormed(small);
  assert.ok(small.nodes.length <= 2);
  assert.equal(small.truncated, true);
});

test('flow: semantic ancestry requirement -> component -> class -> method, each edge in its semantic direction', async () => {
  const body: GraphBrowserGraph = await ok(`/api/nodes/${enc(POST)}/flow`, validateGraphBrowserGraph);
  wellFormed(body);
  assert.ok(body.edges.every((e) => ['structure', 'implementation', 'dependency'].includes(e.category)), 'only structure, implementation and dependency');
  const implementsEdge = body.edges.find((e) => e.relation === 'implements');
  assert.ok(implementsEdge, 'an implements edge leads from a requirement');
  assert.equal(implementsEdge.reversed, true);
  assert.equal(body.nodes.find((n) => n.id === upstream(implementsEdge))!.kind, 'requirement');
  const contains = body.edges.find((e) => e.relation === 'contains' && e.target === POST);
  assert.equal(contains?.reversed, false);
  // Every node reaches the focus downstream (it is an ancestor).
  const down = new Map<string, string[]>();
  for (const e of body.edges) down.set(upstream(e), [...(down.get(upstream(e)) ?? []), downstream(e)]);
  for (const n of body.nodes) {
    const seen = new Set([n.id]);
    const queue = [n.id];
    while (queue.length > 0) for (const next of down.get(queue.shift()!) ?? []) if (!seen.has(next)) { seen.add(next); queue.push(next); }
    assert.ok(seen.has(POST), `${n.id} leads to the focus`);
  }
  const shallow: GraphBrowserGraph = await ok(`/api/nodes/${enc(POST)}/flow?depth=1`, validateGraphBrowserGraph);
  assert.equal(shallow.depth, 1);
  assert.equal(shallow.truncated, true, 'more ancestry lies beyond depth 1');
});

test('web: contributors into the focus plus its direct members and execution dependencies as adjacent branches', async () => {
  const body: GraphBrowserGraph = await ok(`/api/nodes/${enc(LEDGER)}/web`, validateGraphBrowserGraph);
  wellFormed(body);
  const categories = new Set(body.edges.map((e) => e.category));
  for (const c of categories) assert.ok(['structure', 'dependency', 'execution', 'evidence', 'context'].includes(c), c);
  assert.ok(body.edges.some((e) => e.source === LEDGER && e.target === POST && e.relation === 'contains'), 'a direct member is an adjacent branch');
  const memberIds = new Set(body.edges.filter((e) => e.source === LEDGER && e.relation === 'contains').map((e) => e.target));
  assert.ok(!body.edges.some((e) => memberIds.has(e.source) && e.relation === 'contains' && e.source !== LEDGER), 'members are not expanded');
  const post: GraphBrowserGraph = await ok(`/api/nodes/${enc(POST)}/web`, validateGraphBrowserGraph);
  wellFormed(post);
  assert.ok(post.edges.some((e) => e.target === POST && e.relation === 'calls'), 'callers contribute');
  assert.ok(post.edges.some((e) => e.target === POST && e.category === 'evidence'), 'evidence contributes');
});

test('logic: one exact function or method owner, bounded; other nodes get logic_not_found', async () => {
  const body: GraphBrowserLogic = await ok(`/api/nodes/${enc(POST)}/logic`, validateGraphBrowserLogic);
  assert.equal(body.owner.id, POST);
  assert.equal(body.steps.length, body.total_steps);
  const one: GraphBrowserLogic = await ok(`/api/nodes/${enc(POST)}/logic?limit=1`, validateGraphBrowserLogic);
  assert.equal(one.steps.length, 1);
  assert.equal(one.truncated, body.total_steps > 1);
  assert.ok(one.flows.every((f) => f.from_step < 1 && f.to_step < 1));
  await fails(`/api/nodes/${enc('REQ-FRD-001')}/logic`, 404, 'logic_not_found');
  await fails(`/api/nodes/${enc('nope')}/logic`, 404, 'node_not_found');
});

test("source: a bounded window of the node's indexed file with its highlight and anchors", async () => {
  const body: GraphBrowserSource = await ok(`/api/nodes/${enc(POST)}/source`, validateGraphBrowserSource);
  assert.equal(body.path, 'src/ledger/ledger.ts');
  assert.equal(body.changed, false);
  const at = body.highlight.start_line - body.first_line;
  assert.match(body.lines[at]!, /post/);
  assert.ok(body.first_line <= body.highlight.start_line && body.first_line + body.lines.length - 1 >= body.highlight.end_line);
  const doc: GraphBrowserSource = await ok(`/api/nodes/${enc('REQ-FRD-001')}/source?from=1&count=3`, validateGraphBrowserSource);
  assert.equal(doc.first_line, 1);
  assert.equal(doc.lines.length, 3);
  assert.equal(doc.truncated, true);
  assert.ok(doc.anchors.length > 0);
  await fails(`/api/nodes/${enc('REQ-FRD-001')}/source?count=5000`, 400, 'invalid_arguments');
  await fails(`/api/nodes/${enc('REQ-FRD-001')}/source?path=docforge.toml`, 400, 'invalid_arguments');
});

test('unknown API paths answer a structured 404', async () => {
  await fails('/api/nodes', 404, 'invalid_arguments');
  await fails(`/api/nodes/${enc(POST)}/sql`, 404, 'invalid_arguments');
  assert.equal(await session.worker.stop(), 0);
});
