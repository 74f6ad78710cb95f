// Pins docforge_get_context and docforge_get_task_context end to end: spawned docforge-mcp over stdio on examples/ and fastify docs+lib, response limits, stale and corrupted cursors, and a custom context provider in process.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { pino } from 'pino';
import { createReadOnlyServer } from '@docforge/mcp-server';
import type { ToolName } from '@docforge/policy';
import { MIN_MAX_OUTPUT_CHARS } from '@docforge/project';
import { EXAMPLES_DIR } from './helpers/paths.js';
import { exampleProjectCopy, tempDir } from './helpers/projects.js';
import { sharedFastifyProject } from './helpers/shared-fixtures.js';
import { expectError, REQUEST_TIMEOUT_MS, useServer, type Envelope, type Server } from './helpers/server.js';

type Item = Record<string, any>;
const TASK_KINDS = ['change', 'implementation', 'failure', 'ownership', 'test', 'operation', 'release'] as const;
const ALIASES: Record<string, string[]> = {
  structure: ['contains', 'defined_in', 'defines', 'owns'],
  implementation: ['implemented_by', 'implements', 'inherits', 'inherits_from'],
  dependency: ['depends_on', 'imports'],
  execution: ['activates', 'calls', 'dispatches_to', 'launches'],
  data: ['reads', 'writes'],
  evidence: ['documents', 'governs', 'proves', 'tested_by', 'verifies'],
  context: ['relates_to'],
};
const REQUIRED: Record<string, string[]> = {
  change: ['structure', 'dependency', 'implementation'],
  implementation: ['implementation', 'structure'],
  failure: ['execution', 'dependency'],
  ownership: ['structure'],
  test: ['evidence'],
  operation: ['execution', 'data'],
  release: ['evidence', 'dependency'],
};

/** The version-1 alias category of a relation, computed independently of the server. */
function category(relation: string): string {
  return Object.entries(ALIASES).find(([, names]) => names.includes(relation))?.[0] ?? 'unclassified';
}

/** Calls a tool and returns the envelope plus the exact response text length. */
async function sized(s: Server, name: ToolName, args: Record<string, unknown>): Promise<{ e: Envelope; chars: number }> {
  const raw = await s.raw(name, args);
  const text = (raw.content as { text: string }[])[0]!.text;
  const e = raw.structuredContent as Envelope;
  assert.equal(JSON.stringify(e), text);
  return { e, chars: text.length };
}

/** Reads every page of one request; checks each response size and the page receipts. */
async function readAll(s: Server, name: ToolName, args: Record<string, unknown>, maxChars: number): Promise<{ items: Item[]; pages: Record<string, any>[] }> {
  const items: Item[] = [];
  const pages: Record<string, any>[] = [];
  let cursor: string | undefined;
  for (let guard = 0; guard < 500; guard += 1) {
    const { e, chars } = await sized(s, name, cursor ? { ...args, cursor } : args);
    assert.equal(e.ok, true, JSON.stringify(e.error));
    assert.ok(chars <= maxChars, `${name} response of ${chars} characters exceeds ${maxChars}`);
    const r = e.result!;
    assert.equal(r.page.offset, items.length);
    assert.equal(r.page.returned, r.items.length);
    items.push(...r.items);
    pages.push(r);
    cursor = r.page.next_cursor ?? undefined;
    assert.equal(r.page.has_more, cursor !== undefined);
    if (!cursor) {
      assert.equal(items.length, r.page.total_evidence);
      return { items, pages };
    }
  }
  throw new Error(`${name}: pagination did not terminate`);
}

function flip(cursor: string, at = 25): string {
  return cursor.slice(0, at) + (cursor[at] === 'A' ? 'B' : 'A') + cursor.slice(at + 1);
}

/** Checks the provenance of task-context evidence against docforge_get_node and docforge_dependencies/impact. */
async function checkEvidence(s: Server, result: Record<string, any>, sample = 6): Promise<void> {
  const evidence = (result.items as Item[]).filter((i) => i.type === 'evidence');
  for (const item of evidence) {
    for (const hop of item.path) assert.equal(hop.category, category(hop.relation), `${item.id} hop ${hop.relation}`);
    for (const reason of item.relationship_reasons) assert.equal(reason.category, category(reason.relation));
    const unclassified = [...new Set([...item.path, ...item.relationship_reasons].filter((r: Item) => category(r.relation) === 'unclassified').map((r: Item) => r.relation))].sort();
    assert.deepEqual(item.limitations, unclassified.map((relation) => ({ code: 'unclassified_relation', relation })));
    if (item.depth > 0) assert.equal(item.path.at(-1).to, item.id);
  }
  for (const item of evidence.slice(0, sample)) {
    const node = await s.call('docforge_get_node', { node_id: item.id, include_body: false });
    assert.equal(node.ok, true);
    assert.equal(item.source_path, node.result!.node.source_path);
    assert.equal(item.content_hash, node.result!.node.content_hash);
    if (item.depth === 0) continue;
    const hop = item.path.at(-1);
    // The hop direction is relative to the preceding traversal node: an outgoing hop is one of
    // its dependencies (outgoing edges), an incoming hop one of its backlinks.
    if (hop.direction === 'outgoing') {
      const deps = await s.call('docforge_dependencies', { node_id: hop.from, depth: 1, limit: 200, relations: [hop.relation] });
      assert.ok(deps.result!.items.some((d: Item) => d.id === hop.to), `${hop.from} -${hop.relation}-> ${hop.to}`);
    } else {
      const back = await s.call('docforge_backlinks', { node_id: hop.from, limit: 200, relations: [hop.relation] });
      assert.ok(back.result!.items.some((b: Item) => b.id === hop.to), `${hop.to} -${hop.relation}-> ${hop.from}`);
    }
  }
}

describe('context tools on examples/', async () => {
  const root = exampleProjectCopy();
  const s = await useServer(root);

  test('tools/list publishes both tools with input and output schemas', async () => {
    const { tools } = await s.client.listTools();
    for (const name of ['docforge_get_context', 'docforge_get_task_context']) {
      const tool = tools.find((t) => t.name === name);
      assert.ok(tool, name);
      assert.equal(tool.annotations?.readOnlyHint, true);
      assert.ok(tool.outputSchema);
    }
    const task = tools.find((t) => t.name === 'docforge_get_task_context')!;
    assert.deepEqual((task.inputSchema.properties as Item).task_kind.enum, [...TASK_KINDS]);
    assert.equal((task.inputSchema.properties as Item).task.maxLength, 10_000);
  });

  test('get_context: focus, then its neighbourhood; pages concatenate to the one-page stream within the response limit', async () => {
    const args = { node_id: 'REQ-PAY-002', query: 'idempotency key', budget: 2500 };
    const whole = await s.call('docforge_get_context', { ...args, limit: 200 });
    assert.equal(whole.ok, true, JSON.stringify(whole.error));
    const items = whole.result!.items as Item[];
    assert.equal(items[0]!.id, 'REQ-PAY-002');
    assert.equal(items[0]!.selected_by, 'focus');
    assert.ok(items.some((i) => i.selected_by === 'search'));
    const neighbour = items.find((i) => i.selected_by === 'relation')!;
    assert.equal(neighbour.relation.category, category(neighbour.relation.relation));
    const firstOmission = items.findIndex((i) => i.type === 'omission');
    assert.ok(firstOmission > 0);
    assert.ok(items.slice(firstOmission).every((i) => i.type === 'omission' && i.reason === 'token budget' && /^[0-9a-f]{64}$/.test(i.sha256)));
    assert.ok(whole.result!.used_tokens <= 2500);
    const paged = await readAll(s, 'docforge_get_context', { ...args, limit: 4 }, 60_000);
    assert.deepEqual(paged.items, items);
    assert.ok(paged.pages.every((p) => p.collection_hash === whole.result!.collection_hash));
    const none = await s.call('docforge_get_context', { query: 'zzzyxnotaword' });
    assert.equal(none.ok, true);
    assert.deepEqual(none.result!.items, []);
    assert.equal(none.result!.page.total_evidence, 0);
  });

  test('get_context bad input: neither node_id nor query, budget out of range, unknown node', async () => {
    await expectError(s.call('docforge_get_context', {}), 'invalid_arguments');
    await expectError(s.call('docforge_get_context', { query: 'x', budget: 200_001 }), 'invalid_arguments');
    await expectError(s.call('docforge_get_context', { query: 'x', sql: 'select everything' }), 'invalid_arguments');
    const missing = await s.call('docforge_get_context', { node_id: 'NO-SUCH' });
    await expectError(missing, 'node_not_found');
    assert.ok(missing.project, 'errors after sync carry the project block');
  });

  const focusByKind: Record<string, string> = {
    change: 'CMP-LEDGER',
    implementation: 'REQ-PAY-002',
    failure: 'code:src/gateway/auth-gateway.ts#AuthGateway.authorize',
    ownership: 'code:src/ledger/ledger.ts',
    test: 'REQ-LED-001',
    operation: 'RB-001',
    release: 'REQ-PAY-005',
  };

  for (const kind of TASK_KINDS) {
    test(`task context (${kind}): derived plan, ceilings, ranked evidence with provenance`, async () => {
      const e = await s.call('docforge_get_task_context', { task_kind: kind, task: `Handle a ${kind} task around ${focusByKind[kind]}`, focus_node_id: focusByKind[kind], budget: 200_000, limit: 200 });
      assert.equal(e.ok, true, JSON.stringify(e.error));
      assert.ok(e.project);
      const r = e.result!;
      assert.equal(r.task_kind, kind);
      for (const key of ['request_hash', 'plan_hash', 'collection_hash', 'capsule_hash']) assert.match(r[key], /^[0-9a-f]{64}$/);
      const plan = r.plan;
      assert.equal(plan.plan_version, 1);
      assert.deepEqual(plan.focus, { mode: 'exact', node_id: focusByKind[kind] });
      assert.deepEqual(plan.steps.map((x: Item) => x.op), ['focus', 'traverse', 'traverse', 'hydrate']);
      assert.deepEqual(plan.ceilings, { max_evidence_items: 1000, max_examined_edges: 100_000, max_query_chars: 10_000 });
      assert.deepEqual(plan.required_categories, REQUIRED[kind]);
      assert.equal(plan.binding.generation, e.project!.revision);
      const contract = await s.call('docforge_get_contract');
      assert.equal(r.vocabulary.contract_vocabulary_hash, contract.result!.relation_vocabulary.vocabulary_hash);
      assert.equal(plan.binding.policy_hash, contract.result!.effective_policy.policy_hash);
      const traverse = plan.steps.filter((x: Item) => x.op === 'traverse');
      assert.ok(traverse.every((x: Item) => /^[0-9a-f]{64}$/.test(x.vocabulary_hash) && x.vocabulary_hash === traverse[0].vocabulary_hash));
      assert.ok(!JSON.stringify(plan).match(/"(relates_to|tested_by|implements|calls|contains|mitigates)"/), 'no relation names in the plan');
      assert.equal(r.items[0].id, focusByKind[kind]);
      assert.ok(r.items.length > 1);
      assert.deepEqual(r.gaps, []);
      await checkEvidence(s, r);
    });
  }

  test('task context: lexical focus, mitigates reported raw with unclassified_relation, evidence-first for tests', async () => {
    const e = await s.call('docforge_get_task_context', { task_kind: 'test', task: 'Which tests prove that authorization requests are idempotent?', limit: 200 });
    assert.equal(e.ok, true, JSON.stringify(e.error));
    const r = e.result!;
    assert.equal(r.plan.focus.mode, 'lexical');
    assert.ok(!JSON.stringify(r.plan).includes('idempotent'), 'the plan binds the query by hash only');
    const focus = r.items.filter((i: Item) => i.role === 'focus');
    assert.ok(focus.length >= 1 && focus.length <= 5);
    const exact = await s.call('docforge_get_task_context', { task_kind: 'test', task: 'x', focus_node_id: 'REQ-PAY-002', limit: 200 });
    const related = (exact.result!.items as Item[]).filter((i) => i.role === 'related');
    assert.equal(related[0]!.path[0].category, 'evidence');
    const runbook = related.find((i) => i.id === 'RB-003')!;
    assert.deepEqual([runbook.path[0].relation, runbook.path[0].category, runbook.path[0].direction], ['mitigates', 'unclassified', 'incoming']);
    assert.deepEqual(runbook.limitations, [{ code: 'unclassified_relation', relation: 'mitigates' }]);
    await checkEvidence(s, exact.result!);
  });

  test('task context: no_selected_evidence and bad input', async () => {
    const none = await s.call('docforge_get_task_context', { task_kind: 'change', task: 'qqqzzx vvvwww' });
    assert.equal(none.ok, true);
    assert.deepEqual(none.result!.gaps, [{ kind: 'no_selected_evidence', stage: 'focus' }]);
    assert.deepEqual(none.result!.items, []);
    await expectError(s.call('docforge_get_task_context', { task_kind: 'deploy', task: 'x' }), 'invalid_arguments');
    await expectError(s.call('docforge_get_task_context', { task_kind: 'change', task: 'x'.repeat(10_001) }), 'invalid_arguments');
    await expectError(s.call('docforge_get_task_context', { task_kind: 'change', task: '' }), 'invalid_arguments');
    await expectError(s.call('docforge_get_task_context', { task_kind: 'change', task: 'x', plan: { sql: 'select everything' } }), 'invalid_arguments');
    const notFound = await s.call('docforge_get_task_context', { task_kind: 'change', task: 'x', focus_node_id: 'NO-SUCH' });
    await expectError(notFound, 'node_not_found');
    assert.ok(notFound.project, 'errors after sync carry the project block');
    const long = await s.call('docforge_get_task_context', { task_kind: 'change', task: `ledger ${'balance '.repeat(1249)}` });
    assert.equal(long.ok, true, 'a 10,000-character task is accepted');
  });

  test('task context pagination: pages concatenate once and in order, hashes stable; flipped byte and edits fail closed', async () => {
    const args = { task_kind: 'change', task: 'Change the ledger posting rules', focus_node_id: 'CMP-LEDGER', budget: 3000 };
    const whole = await s.call('docforge_get_task_context', { ...args, limit: 200 });
    const paged = await readAll(s, 'docforge_get_task_context', { ...args, limit: 3 }, 60_000);
    assert.deepEqual(paged.items, whole.result!.items);
    for (const page of paged.pages) {
      for (const key of ['request_hash', 'plan_hash', 'collection_hash', 'capsule_hash']) assert.equal(page[key], whole.result![key]);
    }
    assert.ok(whole.result!.gaps.some((g: Item) => g.kind === 'incomplete_proof' && g.cause === 'token_limit'));
    const first = await s.call('docforge_get_task_context', { ...args, limit: 3 });
    const cursor = first.result!.page.next_cursor as string;
    const bad = await s.call('docforge_get_task_context', { ...args, limit: 3, cursor: flip(cursor) });
    assert.equal(bad.ok, false);
    await expectError(bad, 'invalid_cursor');
    assert.equal(bad.error!.remediation, 'restart_pagination');
    const other = await s.call('docforge_get_task_context', { ...args, task_kind: 'failure', limit: 3, cursor });
    await expectError(other, 'invalid_cursor');
    const contextFirst = await s.call('docforge_get_context', { node_id: 'CMP-LEDGER', limit: 2 });
    const contextCursor = contextFirst.result!.page.next_cursor as string;
    await expectError(s.call('docforge_get_context', { node_id: 'CMP-LEDGER', limit: 2, cursor: flip(contextCursor) }), 'invalid_cursor');
    // An edit between pages publishes a new generation: both continuations fail as stale_cursor.
    appendFileSync(path.join(root, 'docs', 'components', 'ledger.md'), '\nEdited between pages.\n');
    const stale = await s.call('docforge_get_task_context', { ...args, limit: 3, cursor });
    assert.equal(stale.ok, false);
    await expectError(stale, 'stale_cursor');
    assert.equal(stale.error!.remediation, 'restart_pagination');
    const staleContext = await s.call('docforge_get_context', { node_id: 'CMP-LEDGER', limit: 2, cursor: contextCursor });
    await expectError(staleContext, 'stale_cursor');
    assert.ok(staleContext.project!.revision > contextFirst.project!.revision);
  });
});

describe('task context on fastify docs and lib', async () => {
  // Reads only: the run's shared built copy (test/helpers/shared-fixtures.ts).
  const root = sharedFastifyProject(['docs', 'lib'], [
    'schema_version = 1',
    '[project]', 'id = "fastify"', 'name = "Fastify"',
    '[sources]', 'content_roots = ["docs"]', 'code_roots = ["lib"]',
    '[adapter]', 'code = "typescript"', '',
  ].join('\n'));
  const s = await useServer(root);

  test('every task kind: plan, gaps that match the project vocabulary, evidence provenance', async () => {
    const routeModule = (await s.call('docforge_get_node', { node_id: 'code:lib/route.js', include_body: false }));
    assert.equal(routeModule.ok, true, 'the adapter indexed lib/route.js');
    const focus: Record<string, string> = {
      change: 'code:lib/route.js',
      implementation: 'code:lib/reply.js',
      failure: 'code:lib/error-handler.js',
      ownership: 'code:lib/hooks.js',
      test: 'Reference/Hooks',
      operation: 'Reference/Server',
      release: 'Reference/Errors',
    };
    let undeclared = 0;
    for (const kind of TASK_KINDS) {
      for (const args of [{ focus_node_id: focus[kind] }, {}]) {
        const e = await s.call('docforge_get_task_context', { task_kind: kind, task: `${kind}: request lifecycle hooks and reply serialization`, budget: 200_000, limit: 200, ...args });
        assert.equal(e.ok, true, `${kind}: ${JSON.stringify(e.error)}`);
        const r = e.result!;
        const present: string[] = r.vocabulary.categories_with_edges;
        const expected = REQUIRED[kind]!.filter((c) => !present.includes(c));
        assert.deepEqual(r.gaps.filter((g: Item) => g.kind === 'undeclared_relation_category').map((g: Item) => g.category), expected, `${kind} gaps`);
        undeclared += expected.length;
        assert.ok(r.items.length > 0, `${kind}: evidence`);
        for (const item of r.items as Item[]) {
          assert.ok(item.source_path === null || /^(docs|lib)\//.test(item.source_path), item.source_path);
        }
        await checkEvidence(s, r, 3);
      }
    }
    assert.ok(undeclared > 0, 'fastify has no edges for some required category (e.g. data)');
  });

  test('code evidence reaches documentation and back through typed relations', async () => {
    const e = await s.call('docforge_get_task_context', { task_kind: 'change', task: 'change route registration', focus_node_id: 'code:lib/route.js', limit: 200, budget: 200_000 });
    const items = e.result!.items as Item[];
    assert.ok(items.some((i) => i.path.length > 0 && i.path[0].category === 'structure'), 'module members via contains/defines');
    assert.ok(items.some((i) => i.path.length > 0 && i.path[0].category === 'dependency'), 'imports');
  });
});

describe('response size limits', async () => {
  const descriptor = (max: number): string => readFileSync(path.join(EXAMPLES_DIR, 'docforge.toml'), 'utf8').replace(/max_output_chars\s*=\s*\d+/, `max_output_chars = ${max}`);
  const root = exampleProjectCopy();
  writeFileSync(path.join(root, 'docforge.toml'), descriptor(2000));
  // A huge body: its get_context entry cannot fit one page at 2000 characters.
  writeFileSync(path.join(root, 'docs', 'huge.md'), `+++\nid = "HUGE-1"\nkind = "document"\ntitle = "Huge idempotency notes"\n\n[relations]\nrelates_to = ["REQ-PAY-002"]\n+++\n# Huge\n\n${'Idempotency keys and ledger balance details. '.repeat(3000)}\n`);
  // A huge body under a long title, related to nothing: its get_context entry (title and a 1,500-character
  // excerpt) cannot fit one page at the 4,000-character floor (the huge body alone now fits, excerpted).
  writeFileSync(path.join(root, 'docs', 'huge-entry.md'), `+++\nid = "HUGE-ENTRY-1"\nkind = "document"\ntitle = "${'Huge idempotency notes entry '.repeat(90)}"\n+++\n# Huge entry\n\n${'Idempotency keys and ledger balance details. '.repeat(3000)}\n`);
  // A huge title: its metadata-only task-context evidence item cannot fit one page at 5000 characters.
  writeFileSync(path.join(root, 'docs', 'long-title.md'), `+++\nid = "LONG-TITLE-1"\nkind = "document"\ntitle = "${'An extremely long title about idempotency '.repeat(60)}"\n\n[relations]\nrelates_to = ["REQ-PAY-002"]\n+++\n# Long\n\nShort body.\n`);
  const s = await useServer(root);
  // A configured 2000 is raised to the floor (issue 30, item 8): the responses keep within that effective limit.
  const effective = MIN_MAX_OUTPUT_CHARS;

  test('get_context at max_output_chars = 2000 (raised to the floor): an oversized entry advances exactly once and no response exceeds the limit', async () => {
    assert.equal((await s.call('docforge_bootstrap')).result!.session_contract.limits.max_output_chars, effective);
    for (const args of [{ node_id: 'HUGE-ENTRY-1', budget: 20_000 }, { query: 'huge idempotency notes', budget: 20_000 }]) {
      const { items } = await readAll(s, 'docforge_get_context', args, effective);
      const ids = items.map((i) => i.id);
      assert.equal(new Set(ids).size, ids.length, 'each entry exactly once');
      const huge = items.filter((i) => i.id === 'HUGE-ENTRY-1');
      assert.equal(huge.length, 1);
      assert.equal(huge[0]!.type, 'omission');
      assert.equal(huge[0]!.reason, 'response size limit');
      assert.match(huge[0]!.sha256, /^[0-9a-f]{64}$/);
      assert.deepEqual(huge[0]!.retrieval, { tool: 'docforge_get_node', node_id: 'HUGE-ENTRY-1' });
    }
    // A huge body alone is excerpted: at the floor its entry fits, once, as focus and as a neighbour.
    for (const args of [{ node_id: 'HUGE-1', budget: 20_000 }, { node_id: 'REQ-PAY-002', budget: 20_000, limit: 10 }]) {
      const { items } = await readAll(s, 'docforge_get_context', args, effective);
      const ids = items.map((i) => i.id);
      assert.equal(new Set(ids).size, ids.length, 'each entry exactly once');
      assert.deepEqual(items.filter((i) => i.id === 'HUGE-1').map((i) => i.type), ['entry']);
    }
    // Targeted retrieval remains available for the omitted node.
    const node = await sized(s, 'docforge_get_node', { node_id: 'HUGE-ENTRY-1' });
    assert.ok(node.chars <= effective);
    assert.equal(node.e.result!.node.id, 'HUGE-ENTRY-1');
  });

  test('task context at max_output_chars = 2000 (raised to the floor) answers within the limit, its plan included; with more room it pages and omits the oversized item once', async () => {
    // Issue 30 item 8: at 2000 the plan did not fit (result_too_large); at the floor every page answers.
    const { items: small, pages: smallPages } = await readAll(s, 'docforge_get_task_context', { task_kind: 'change', task: 'x', focus_node_id: 'HUGE-1' }, effective);
    assert.equal(smallPages[0]!.plan.focus.node_id, 'HUGE-1');
    assert.equal(new Set(small.map((i) => i.id)).size, small.length, 'each item exactly once');
    assert.ok(small.some((i) => i.id === 'HUGE-1'));
    writeFileSync(path.join(root, 'docforge.toml'), descriptor(5000));
    const { items, pages } = await readAll(s, 'docforge_get_task_context', { task_kind: 'change', task: 'x', focus_node_id: 'REQ-PAY-002', budget: 200_000 }, 5000);
    const huge = items.filter((i) => i.id === 'LONG-TITLE-1');
    assert.equal(huge.length, 1);
    assert.deepEqual([huge[0]!.type, huge[0]!.reason], ['omission', 'response_limit']);
    assert.ok(items.some((i) => i.id === 'HUGE-1' && i.type === 'evidence'), 'a huge body does not make metadata evidence oversized');
    assert.match(huge[0]!.sha256, /^[0-9a-f]{64}$/);
    assert.ok(pages[0]!.gaps.some((g: Item) => g.kind === 'incomplete_proof' && g.cause === 'response_limit' && g.omitted_items === 1));
    assert.equal(new Set(items.map((i) => i.id)).size, items.length);
    assert.ok(pages.length > 1);
  });
});

describe('fixed ceilings on a dense generated project with broad project limits', async () => {
  const root = tempDir('docforge-ceilings-');
  mkdirSync(path.join(root, 'docs'));
  writeFileSync(path.join(root, 'docforge.toml'), 'schema_version = 1\n[project]\nid = "dense"\nname = "Dense"\n[sources]\ncontent_roots = ["docs"]\n[adapter]\ncode = "none"\n[limits]\nmax_results = 10000\nmax_output_chars = 10000000\n');
  // 400 nodes that all depend on each other: 159,600 dependency edges.
  const clique = Array.from({ length: 400 }, (_, i) => `W-${String(i).padStart(3, '0')}`);
  let text = '';
  for (const id of clique) text += `[[node]]\nid = "${id}"\nkind = "component"\ntitle = "Dense ${id}"\nbody = "dense"\n[node.relations]\ndepends_on = [${clique.filter((x) => x !== id).map((x) => `"${x}"`).join(', ')}]\n\n`;
  writeFileSync(path.join(root, 'docs', 'clique.toml'), text);
  // One hub related to 1,200 leaves.
  const leaves = Array.from({ length: 1200 }, (_, i) => `L-${String(i).padStart(4, '0')}`);
  text = `[[node]]\nid = "HUB"\nkind = "document"\ntitle = "Hub"\nbody = "hub"\n[node.relations]\nrelates_to = [${leaves.map((x) => `"${x}"`).join(', ')}]\n\n`;
  for (const id of leaves) text += `[[node]]\nid = "${id}"\nkind = "document"\ntitle = "Leaf ${id}"\nbody = "leaf"\n\n`;
  writeFileSync(path.join(root, 'docs', 'hub.toml'), text);
  const s = await useServer(root);

  test('the 100,000 examined-edge ceiling holds although max_results is 10,000: work_limit', async () => {
    const e = await s.call('docforge_get_task_context', { task_kind: 'change', task: 'x', focus_node_id: 'W-000', budget: 200_000, limit: 10 });
    assert.equal(e.ok, true, JSON.stringify(e.error));
    const r = e.result!;
    assert.deepEqual(r.plan.ceilings, { max_evidence_items: 1000, max_examined_edges: 100_000, max_query_chars: 10_000 });
    assert.equal(r.examined_edges, 100_000);
    assert.deepEqual(r.gaps.filter((g: Item) => g.cause === 'work_limit'), [{ kind: 'incomplete_proof', cause: 'work_limit', stage: 'traversal', examined_edges: 100_000, ceiling: 100_000 }]);
    assert.equal(r.page.total_evidence, 400, 'the whole clique is reached at depth 1');
    assert.equal(r.truncated, true);
  });

  test('the 1,000 evidence-item ceiling holds although max_results is 10,000: result_limit', async () => {
    const e = await s.call('docforge_get_task_context', { task_kind: 'change', task: 'x', focus_node_id: 'HUB', budget: 200_000, limit: 10_000 });
    assert.equal(e.ok, true, JSON.stringify(e.error));
    const r = e.result!;
    assert.equal(r.page.total_evidence, 1000);
    assert.equal(r.items.length, 1000);
    assert.deepEqual(r.gaps.filter((g: Item) => g.kind === 'incomplete_proof'), [{ kind: 'incomplete_proof', cause: 'result_limit', ceiling: 1000, dropped_candidates: 201 }]);
    assert.deepEqual(r.items.slice(1, 4).map((i: Item) => i.id), ['L-0000', 'L-0001', 'L-0002'], 'ranked by category, direction, relation, then id');
  });
});

describe('a read-only server with a custom context provider (in process)', () => {
  test('get_context uses the provider before pagination; get_task_context is task_context_unavailable without synchronizing', async () => {
    // No prebuilt state: the test proves that nothing is synchronized.
    const root = exampleProjectCopy({ state: false });
    const calls: Item[] = [];
    const server = createReadOnlyServer({
      projectRoot: root,
      logger: pino({ level: 'silent' }),
      contextProvider: (reader, request, limits) => {
        calls.push({ request, limits });
        const ids = ['ADR-001', 'ADR-002', 'ADR-003', 'ADR-004'];
        return ids.map((id) => {
          const node = reader.getNode(id)!;
          return { id, kind: node.kind, title: node.title, source_path: node.source_path, selected_by: 'team-policy', excerpt: node.summary, owner: 'ledger-team' };
        });
      },
    });
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    await server.server.connect(serverTransport);
    const client = new Client({ name: 'custom-provider-test', version: '1.0.0' });
    await client.connect(clientTransport);
    const call = async (name: string, args: Record<string, unknown>): Promise<Envelope> => (await client.callTool({ name, arguments: args }, undefined, { timeout: REQUEST_TIMEOUT_MS })).structuredContent as Envelope;
    try {
      const { tools } = await client.listTools();
      const names = tools.map((t) => t.name);
      assert.ok(names.includes('docforge_get_context') && names.includes('docforge_get_task_context'));
      assert.ok(!names.includes('docforge_register_changes'), 'read-only surface');

      const unavailable = await call('docforge_get_task_context', { task_kind: 'change', task: 'anything' });
      assert.equal(unavailable.ok, false);
      await expectError(unavailable, 'task_context_unavailable');
      assert.equal(unavailable.error!.remediation, 'use_get_context');
      assert.equal(existsSync(path.join(root, '.docforge', 'index')), false, 'no synchronization happened');
      assert.equal(calls.length, 0, 'the custom projection was not loaded');

      const items: Item[] = [];
      let cursor: string | undefined;
      do {
        const e = await call('docforge_get_context', { query: 'ledger decisions', budget: 5000, limit: 1, ...(cursor ? { cursor } : {}) });
        assert.equal(e.ok, true, JSON.stringify(e.error));
        assert.equal(e.result!.provider, 'custom');
        items.push(...e.result!.items);
        cursor = e.result!.page.next_cursor ?? undefined;
      } while (cursor);
      assert.deepEqual(items.map((i) => i.id), ['ADR-001', 'ADR-002', 'ADR-003', 'ADR-004']);
      assert.ok(items.every((i) => i.type === 'entry' && i.owner === 'ledger-team' && i.selected_by === 'team-policy'));
      assert.deepEqual(calls[0], { request: { query: 'ledger decisions', budget: 5000 }, limits: { max_results: 200 } });
      const stillUnavailable = await call('docforge_get_task_context', { task_kind: 'test', task: 'anything' });
      await expectError(stillUnavailable, 'task_context_unavailable');
    } finally {
      await client.close();
      await server.close();
    }
  });
});
