// Pins docforge_get_task_context: derived version-1 plans per task kind, fixed ceilings, evidence provenance and alias classification, every required gap kind, and hash-stable fail-closed pagination.
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ALIASED_RELATIONS, DocforgeError, RELATION_ALIASES, relationCategory } from '@docforge/core';
import { IndexManager } from '@docforge/sync';
import { type IndexReader } from '@docforge/store';
import {
  RELATION_CATEGORIES,
  TASK_CONTEXT_CEILINGS,
  TASK_KINDS,
  TASK_KIND_PREFERENCES,
  UNPROVABLE_FACTS,
  deriveTaskPlan,
  relationVocabulary,
  taskContextPage,
  taskTerms,
  type TaskContextOptions,
  type TaskContextPageResult,
  type TaskContextRequest,
  type TaskKind,
  estimateTokens,
  itemSha256,
} from '../src/index.js';

/** SHA-256 hex by node:crypto: expectations never use the implementation's own hash. */
function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** RFC 8785 canonical JSON of plain JSON values (undefined members dropped), written independently of @docforge/core. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

const EXAMPLES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../examples');
const POLICY = 'a'.repeat(64);
const BINDING = { project: 'acme-payments', adapter: 'test-adapter', generation: 1 };

type Item = Record<string, any>;

function expectError(fn: () => unknown, code: string, reason?: string): DocforgeError {
  let caught: unknown;
  try {
    fn();
  } catch (error) {
    caught = error;
  }
  assert.ok(caught instanceof DocforgeError, `expected DocforgeError ${code}, got ${String(caught)}`);
  assert.equal(caught.code, code, caught.message);
  if (reason !== undefined) assert.equal(caught.details.reason, reason);
  return caught;
}

async function openProject(root: string): Promise<{ manager: IndexManager; reader: IndexReader }> {
  const manager = new IndexManager({ root, noAst: false });
  await manager.sync();
  return { manager, reader: manager.reader() };
}

function options(extra: Partial<TaskContextOptions> = {}): TaskContextOptions {
  return {
    policyHash: POLICY,
    binding: BINDING,
    declaredRelations: ['mitigates'],
    roots: { content_roots: ['docs'], code_roots: ['src'] },
    limit: 1000,
    resultCharBudget: 10_000_000,
    ...extra,
  };
}

function allPages(reader: IndexReader, request: TaskContextRequest, opts: TaskContextOptions): { items: Item[]; pages: TaskContextPageResult[] } {
  const items: Item[] = [];
  const pages: TaskContextPageResult[] = [];
  let cursor: string | undefined;
  for (let guard = 0; guard < 2000; guard += 1) {
    const page = taskContextPage(reader, request, cursor ? { ...opts, cursor } : opts);
    pages.push(page);
    items.push(...page.items);
    cursor = page.page.next_cursor ?? undefined;
    if (!cursor) return { items, pages };
  }
  throw new Error('pagination did not terminate');
}

function edgeExists(reader: IndexReader, source: string, relation: string, target: string): boolean {
  return reader.hasEdge(source, relation, target);
}

/** Collects every string value (not key) of a JSON value. */
function stringValues(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) stringValues(v, out);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) stringValues(v, out);
  return out;
}

/** Checks graph paths, relationship reasons, alias categories and provenance of every evidence item. */
function checkEvidence(reader: IndexReader, page: TaskContextPageResult): void {
  const focusIds = new Set(page.items.filter((i) => i.type === 'evidence' && i.role === 'focus').map((i) => i.id));
  for (const item of page.items as Item[]) {
    if (item.type !== 'evidence') continue;
    const node = reader.getNode(item.id);
    if (node) {
      assert.equal(item.kind, node.kind);
      assert.equal(item.title, node.title);
      assert.equal(item.source_path, node.source_path);
      assert.equal(item.content_hash, node.content_hash);
      const fileHash = reader.sourceHash(node.source_path);
      assert.equal(item.source_file_hash, fileHash ?? null);
    }
    assert.equal(item.path.length, item.depth);
    if (item.depth > 0) {
      assert.ok(focusIds.has(item.path[0].from), `${item.id}: the path starts at a focus`);
      assert.equal(item.path.at(-1).to, item.id);
    }
    for (const [i, hop] of (item.path as Item[]).entries()) {
      if (i > 0) assert.equal(hop.from, item.path[i - 1].to, 'hops chain');
      assert.equal(hop.category, relationCategory(hop.relation));
      // Path direction is relative to the preceding traversal node.
      const stored = hop.direction === 'outgoing' ? edgeExists(reader, hop.from, hop.relation, hop.to) : edgeExists(reader, hop.to, hop.relation, hop.from);
      assert.ok(stored, `${item.id}: hop ${JSON.stringify(hop)} is a stored edge in its direction`);
    }
    for (const reason of item.relationship_reasons as Item[]) {
      assert.equal(reason.category, relationCategory(reason.relation));
      // Reason direction is relative to the evidence item itself.
      const stored = reason.direction === 'outgoing' ? edgeExists(reader, item.id, reason.relation, reason.other_id) : edgeExists(reader, reason.other_id, reason.relation, item.id);
      assert.ok(stored, `${item.id}: reason ${JSON.stringify(reason)} is a stored edge in its direction`);
    }
    const unclassified = new Set([...item.path, ...item.relationship_reasons].filter((r: Item) => r.category === 'unclassified').map((r: Item) => r.relation));
    assert.deepEqual(item.limitations, [...unclassified].sort().map((relation) => ({ code: 'unclassified_relation', relation })));
    for (const fact of item.unprovable as Item[]) assert.ok((UNPROVABLE_FACTS as readonly string[]).includes(fact.fact), fact.fact);
    const last = item.path.at(-1);
    const outside = (item.unprovable as Item[]).some((f) => f.fact === 'relation_declared_outside_node_source');
    assert.equal(outside, Boolean(last && node && last.declared_in.path !== node.source_path), `${item.id}: declared-outside fact`);
    assert.equal(item.estimated_tokens, estimateTokens(Object.fromEntries(Object.entries(item).filter(([k]) => k !== 'estimated_tokens'))));
  }
}

describe('task context on examples/', () => {
  let root: string;
  let manager: IndexManager;
  let reader: IndexReader;

  before(async () => {
    root = mkdtempSync(path.join(os.tmpdir(), 'docforge-task-'));
    cpSync(EXAMPLES, root, { recursive: true, filter: (src) => !src.split(path.sep).includes('.docforge') });
    ({ manager, reader } = await openProject(root));
  });
  after(async () => {
    await manager.close();
    rmSync(root, { recursive: true, force: true });
  });

  const focusByKind: Record<TaskKind, string> = {
    change: 'CMP-LEDGER',
    implementation: 'REQ-PAY-002',
    failure: 'code:src/gateway/auth-gateway.ts#AuthGateway.authorize',
    ownership: 'code:src/ledger/ledger.ts',
    test: 'REQ-PAY-002',
    operation: 'RB-003',
    release: 'REQ-LED-001',
  };

  for (const kind of TASK_KINDS) {
    test(`${kind}: derived plan shape, kind preferences and evidence provenance`, () => {
      const page = taskContextPage(reader, { task_kind: kind, task: `Work on ${focusByKind[kind]}`, focus_node_id: focusByKind[kind], budget: 200_000 }, options());
      const plan = page.plan;
      assert.equal(plan.plan_version, 1);
      assert.equal(plan.task_kind, kind);
      assert.deepEqual(plan.binding, { policy_hash: POLICY, generation: 1 });
      assert.deepEqual(plan.focus, { mode: 'exact', node_id: focusByKind[kind] });
      assert.deepEqual(plan.steps.map((s) => s.op), ['focus', 'traverse', 'traverse', 'hydrate']);
      const vocabulary = relationVocabulary(reader, ['mitigates']);
      for (const step of plan.steps) {
        if (step.op === 'traverse') {
          assert.equal(step.vocabulary_hash, vocabulary.vocabulary_hash);
          assert.deepEqual(step.directions, ['outgoing', 'incoming']);
          // A change's step from the focus also runs the affected walk (issue 32 item 3).
          assert.equal(step.affected_depth, kind === 'change' && step.from === 'focus' ? 4 : undefined);
        }
      }
      assert.deepEqual(plan.required_categories, TASK_KIND_PREFERENCES[kind].primary);
      assert.deepEqual([...plan.category_order].sort(), [...RELATION_CATEGORIES].sort());
      assert.equal(plan.category_order.at(-1), 'unclassified');
      assert.deepEqual(plan.ceilings, TASK_CONTEXT_CEILINGS);
      // The plan carries no relation names, paths, SQL or Logic.
      const values = stringValues(plan);
      for (const relation of [...ALIASED_RELATIONS, 'mitigates']) assert.ok(!values.includes(relation), `plan names relation ${relation}`);
      assert.ok(!values.some((v) => /\.(md|toml|ts)$|SELECT|logic/i.test(v) && v !== focusByKind[kind]));
      assert.match(page.request_hash, /^[0-9a-f]{64}$/);
      assert.match(page.plan_hash, /^[0-9a-f]{64}$/);
      const first = page.items[0] as Item;
      assert.equal(first.id, focusByKind[kind]);
      assert.equal(first.role, 'focus');
      assert.ok(page.items.length > 1, 'related evidence found');
      checkEvidence(reader, page);
      // Related evidence is ranked by depth, then primary (required) categories first; within those
      // groups by the task's search relevance, then by the kind's category order (issue 9 item 4).
      const related = (page.items as Item[]).filter((i) => i.type === 'evidence' && i.role === 'related');
      const keys = related.map((i) => [i.depth, plan.required_categories.includes(i.path.at(-1).category) ? 0 : 1] as const);
      for (let i = 1; i < keys.length; i += 1) assert.ok(keys[i - 1]![0] < keys[i]![0] || (keys[i - 1]![0] === keys[i]![0] && keys[i - 1]![1] <= keys[i]![1]), 'rank order');
      // Depth 2 follows only primary categories.
      for (const item of related.filter((i) => i.depth === 2)) {
        assert.ok(plan.required_categories.includes(item.path[0].category));
        assert.ok(plan.required_categories.includes(item.path[1].category));
      }
      assert.deepEqual(page.gaps, [], 'examples declares every category');
      assert.deepEqual(taskContextPage(reader, { task_kind: kind, task: `Work on ${focusByKind[kind]}`, focus_node_id: focusByKind[kind], budget: 200_000 }, options()), page, 'deterministic');
    });
  }

  test('test kind ranks evidence relations first; unknown relation mitigates stays raw with an unclassified_relation limitation', () => {
    const page = taskContextPage(reader, { task_kind: 'test', task: 'Prove idempotent authorization', focus_node_id: 'REQ-PAY-002' }, options());
    const related = (page.items as Item[]).filter((i) => i.role === 'related');
    assert.equal(related[0]!.id, 'TST-PAY-001');
    assert.equal(related[0]!.path[0].relation, 'tested_by');
    assert.equal(related[0]!.path[0].category, 'evidence');
    const runbook = related.find((i) => i.id === 'RB-003')!;
    assert.ok(runbook, 'the mitigating runbook is present');
    assert.equal(runbook.path[0].relation, 'mitigates');
    assert.equal(runbook.path[0].category, 'unclassified');
    assert.equal(runbook.path[0].direction, 'incoming');
    assert.deepEqual(runbook.limitations, [{ code: 'unclassified_relation', relation: 'mitigates' }]);
    assert.equal(related.filter((i) => i.depth === 1).at(-1)!.path[0].category, 'unclassified', 'unclassified ranks last');
    // The additional verifies edge of the test qualifies it as an outgoing reason of the test itself.
    assert.deepEqual(related[0]!.relationship_reasons.find((r: Item) => r.relation === 'verifies'), {
      relation: 'verifies', category: 'evidence', direction: 'outgoing', other_id: 'REQ-PAY-002', declared_in: { path: 'docs/tests/test-catalog.toml', line: 88 },
    });
    const ownership = taskContextPage(reader, { task_kind: 'ownership', task: 'who owns it', focus_node_id: 'REQ-PAY-002' }, options());
    assert.notEqual(ownership.plan_hash, page.plan_hash);
    assert.notEqual((ownership.items[1] as Item).id === 'TST-PAY-001' && (ownership.items[1] as Item).path[0].category === 'evidence', true, 'ownership does not rank evidence first');
  });

  test('lexical focus: bm25 over task terms, the plan keeps only a hash of the query', () => {
    const task = 'Investigate the duplicate charge reported by a merchant';
    const page = taskContextPage(reader, { task_kind: 'operation', task }, options());
    assert.equal(page.plan.focus.mode, 'lexical');
    assert.ok(!JSON.stringify(page.plan).includes('duplicate'));
    const focus = (page.items as Item[]).filter((i) => i.role === 'focus');
    assert.ok(focus.length >= 1 && focus.length <= 5);
    assert.equal(focus[0]!.id, 'RB-003');
    assert.deepEqual(focus.map((f) => f.focus_rank), focus.map((_, i) => i + 1));
    assert.deepEqual(taskTerms(task), ['investigate', 'duplicate', 'charge', 'reported', 'merchant']);
    checkEvidence(reader, page);
  });

  test('fixed ceilings: never raised by options or project limits; task text ceiling; bad inputs', () => {
    const page = taskContextPage(reader, { task_kind: 'change', task: 'x', focus_node_id: 'CMP-LEDGER' }, options({ ceilings: { max_evidence_items: 5_000_000, max_examined_edges: 9_000_000, max_query_chars: 99_999 } }));
    assert.deepEqual(page.plan.ceilings, { max_evidence_items: 1000, max_examined_edges: 100_000, max_query_chars: 10_000 });
    expectError(() => taskContextPage(reader, { task_kind: 'change', task: 'x'.repeat(10_001) }, options()), 'invalid_arguments');
    assert.ok(taskContextPage(reader, { task_kind: 'change', task: `ledger ${'x'.repeat(9_990)}` }, options()));
    expectError(() => taskContextPage(reader, { task_kind: 'change', task: '   ' }, options()), 'invalid_arguments');
    expectError(() => taskContextPage(reader, { task_kind: 'deploy' as TaskKind, task: 'x' }, options()), 'invalid_arguments');
    expectError(() => taskContextPage(reader, { task_kind: 'change', task: 'x', budget: 0 }, options()), 'invalid_arguments');
    expectError(() => taskContextPage(reader, { task_kind: 'change', task: 'x', focus_node_id: 'NO-SUCH' }, options()), 'node_not_found');
  });

  test('incomplete_proof gaps: work_limit, result_limit, token_limit and response_limit are distinct causes', () => {
    const request: TaskContextRequest = { task_kind: 'change', task: 'Change the ledger', focus_node_id: 'CMP-LEDGER' };
    const work = taskContextPage(reader, request, options({ ceilings: { max_examined_edges: 3 } }));
    assert.deepEqual(work.gaps, [{ kind: 'incomplete_proof', cause: 'work_limit', stage: 'traversal', examined_edges: 3, ceiling: 3 }]);
    assert.equal(work.examined_edges, 3);
    assert.equal(work.truncated, true);
    const result = taskContextPage(reader, request, options({ ceilings: { max_evidence_items: 4 } }));
    assert.equal(result.items.length, 4);
    const resultGap = result.gaps.find((g) => g.kind === 'incomplete_proof' && g.cause === 'result_limit') as Item;
    assert.ok(resultGap && resultGap.dropped_candidates > 0 && resultGap.ceiling === 4);
    const token = taskContextPage(reader, { ...request, budget: 400 }, options());
    const tokenGap = token.gaps.find((g) => g.kind === 'incomplete_proof' && g.cause === 'token_limit') as Item;
    assert.ok(tokenGap);
    const omissions = (token.items as Item[]).filter((i) => i.type === 'omission');
    assert.equal(tokenGap.omitted_items, omissions.length);
    assert.ok(omissions.every((o) => o.reason === 'token_limit' && /^[0-9a-f]{64}$/.test(o.sha256)));
    assert.ok(token.used_tokens <= 400);
    const firstOmission = token.items.findIndex((i) => i.type === 'omission');
    assert.ok(token.items.slice(firstOmission).every((i) => i.type === 'omission'), 'selected evidence first, omissions second');
    // The omission hash identifies the full evidence item of an unbounded run.
    const full = taskContextPage(reader, { ...request, budget: 200_000 }, options());
    assert.ok(full.items.every((i) => i.type === 'evidence'));
    const byId = new Map((full.items as Item[]).map((i) => [i.id, i]));
    for (const o of omissions) assert.equal(o.sha256, itemSha256(byId.get(o.id)));
  });

  test('pagination: every page concatenated reproduces the stream once, in order, with stable hashes; cursors fail closed', () => {
    const request: TaskContextRequest = { task_kind: 'change', task: 'Change the ledger', focus_node_id: 'CMP-LEDGER', budget: 3000 };
    const whole = taskContextPage(reader, request, options());
    for (const limit of [1, 4]) {
      const { items, pages } = allPages(reader, request, options({ limit }));
      assert.deepEqual(items, whole.items);
      for (const page of pages) {
        for (const key of ['request_hash', 'plan_hash', 'collection_hash', 'capsule_hash'] as const) assert.equal(page[key], whole[key], key);
        assert.deepEqual(page.gaps, whole.gaps);
        assert.equal(page.page.total_evidence, whole.items.length);
      }
    }
    const first = taskContextPage(reader, request, options({ limit: 2 }));
    const cursor = first.page.next_cursor!;
    const flipped = cursor.slice(0, 40) + (cursor[40] === 'A' ? 'B' : 'A') + cursor.slice(41);
    expectError(() => taskContextPage(reader, request, options({ limit: 2, cursor: flipped })), 'invalid_cursor');
    expectError(() => taskContextPage(reader, { ...request, task: 'Change the ledger!' }, options({ limit: 2, cursor })), 'invalid_cursor', 'cursor_for_other_request');
    expectError(() => taskContextPage(reader, request, options({ limit: 2, cursor, binding: { ...BINDING, generation: 2 } })), 'stale_cursor', 'generation_changed');
    expectError(() => taskContextPage(reader, request, options({ limit: 2, cursor, policyHash: 'b'.repeat(64) })), 'stale_cursor', 'collection_changed');
    expectError(() => taskContextPage(reader, request, options({ limit: 2, cursor, declaredRelations: ['mitigates', 'other'] })), 'stale_cursor', 'collection_changed');
  });

  test('response limit: an oversized evidence item advances exactly once as a hash-identified response_limit omission', () => {
    const request: TaskContextRequest = { task_kind: 'test', task: 'Prove idempotent authorization', focus_node_id: 'REQ-PAY-002', budget: 50_000 };
    const whole = taskContextPage(reader, request, options());
    const sizes = (whole.items as Item[]).map((i) => JSON.stringify(i).length).sort((a, b) => b - a);
    assert.ok(sizes[0]! > sizes[1]!, 'one item is strictly the largest');
    // The smallest result budget that still fits every item; one character less leaves room for
    // every item but the largest one.
    const omissionsAt = (budget: number): number => taskContextPage(reader, request, options({ resultCharBudget: budget })).omitted_items;
    let lo = JSON.stringify({ ...whole, items: [] }).length;
    let hi = lo + 4 * sizes[0]! + 4000;
    assert.equal(omissionsAt(hi), 0);
    while (hi - lo > 1) {
      const mid = Math.floor((lo + hi) / 2);
      let fits = false;
      try {
        fits = omissionsAt(mid) === 0;
      } catch {
        fits = false;
      }
      if (fits) hi = mid;
      else lo = mid;
    }
    const resultCharBudget = hi - 1;
    const { items, pages } = allPages(reader, request, options({ limit: 50, resultCharBudget }));
    for (const page of pages) assert.ok(JSON.stringify(page).length <= resultCharBudget);
    const ids = items.map((i) => i.id);
    assert.equal(new Set(ids).size, ids.length);
    assert.equal(ids.length, whole.items.length);
    const omitted = items.filter((i) => i.type === 'omission');
    assert.equal(omitted.length, 1);
    assert.equal(omitted[0]!.reason, 'response_limit');
    const original = (whole.items as Item[]).find((i) => i.id === omitted[0]!.id)!;
    assert.equal(JSON.stringify(original).length, sizes[0]);
    assert.equal(omitted[0]!.sha256, itemSha256(original));
    assert.equal(items.at(-1)!.type, 'omission');
    const gap = pages[0]!.gaps.find((g) => g.kind === 'incomplete_proof' && g.cause === 'response_limit') as Item;
    assert.equal(gap.omitted_items, 1);
  });
});

describe('task context gaps on a small project without evidence relations', () => {
  let root: string;
  let manager: IndexManager;
  let reader: IndexReader;

  before(async () => {
    root = mkdtempSync(path.join(os.tmpdir(), 'docforge-task-gaps-'));
    mkdirSync(path.join(root, 'docs'));
    writeFileSync(path.join(root, 'docforge.toml'), 'schema_version = 1\n[project]\nid = "gaps"\nname = "Gaps"\n[sources]\ncontent_roots = ["docs"]\ncode_roots = []\n[adapter]\ncode = "none"\n');
    const node = (id: string, title: string, relations: string, body: string): string => `+++\nid = "${id}"\nkind = "document"\ntitle = "${title}"\n\n[relations]\n${relations}\n+++\n# ${title}\n\n${body}\n`;
    writeFileSync(path.join(root, 'docs', 'a.md'), node('A', 'Alpha service', 'depends_on = ["B"]\nhardens = ["C"]', 'Alpha calls beta.'));
    writeFileSync(path.join(root, 'docs', 'b.md'), node('B', 'Beta store', 'relates_to = ["A"]', 'Beta stores things here.'));
    writeFileSync(path.join(root, 'docs', 'c.md'), node('C', 'Gamma notes', '', 'Gamma stands alone.'));
    writeFileSync(path.join(root, 'docs', 'd.md'), `+++\nid = "D"\nkind = "document"\ntitle = "${'Very long title '.repeat(300)}"\n\n[relations]\ndepends_on = ["A"]\n+++\nno heading here\n`);
    writeFileSync(path.join(root, 'docs', 'lonely.md'), node('LONELY', 'Lonely page', '', 'Nothing links here.'));
    ({ manager, reader } = await openProject(root));
  });
  after(async () => {
    await manager.close();
    rmSync(root, { recursive: true, force: true });
  });

  const opts = (extra: Partial<TaskContextOptions> = {}): TaskContextOptions => options({ declaredRelations: null, roots: { content_roots: ['docs'], code_roots: [] }, binding: { ...BINDING, project: 'gaps' }, ...extra });

  test('undeclared_relation_category: the kind requires a category the project has no edges for', () => {
    const vocabulary = relationVocabulary(reader, null);
    assert.deepEqual(vocabulary.relations, ['depends_on', 'hardens', 'relates_to']);
    assert.deepEqual(vocabulary.categories_with_edges, ['dependency', 'context', 'unclassified']);
    assert.equal(vocabulary.contract_vocabulary_hash, sha256Hex(canonical({ aliases: RELATION_ALIASES, extra_relations: null, open: true })));
    const test = taskContextPage(reader, { task_kind: 'test', task: 'x', focus_node_id: 'A' }, opts());
    // Changed on purpose (issue 30, helper fx30): the test task also says that no test of A was found.
    assert.deepEqual(test.gaps, [
      { kind: 'undeclared_relation_category', category: 'evidence', task_kind: 'test' },
      { kind: 'no_selected_evidence', stage: 'traversal', category: 'evidence', task_kind: 'test', relations: ['tested_by', 'verifies', 'proves'] },
    ]);
    const operation = taskContextPage(reader, { task_kind: 'operation', task: 'x', focus_node_id: 'A' }, opts());
    assert.deepEqual(operation.gaps.map((g) => g.kind === 'undeclared_relation_category' && g.category), ['execution', 'data']);
    const release = taskContextPage(reader, { task_kind: 'release', task: 'x', focus_node_id: 'A' }, opts());
    assert.deepEqual(release.gaps, [{ kind: 'undeclared_relation_category', category: 'evidence', task_kind: 'release' }], 'dependency has edges');
    // The unknown relation is still followed and reported raw.
    const hardened = (test.items as Item[]).find((i) => i.id === 'C')!;
    assert.equal(hardened.path[0].relation, 'hardens');
    assert.equal(hardened.path[0].category, 'unclassified');
    assert.deepEqual(hardened.limitations, [{ code: 'unclassified_relation', relation: 'hardens' }]);
    checkEvidence(reader, test);
  });

  test('no_selected_evidence: a completed lexical search or traversal that selects nothing', () => {
    const none = taskContextPage(reader, { task_kind: 'change', task: 'zyxwvut qqqqq' }, opts());
    assert.deepEqual(none.gaps.filter((g) => g.kind === 'no_selected_evidence'), [{ kind: 'no_selected_evidence', stage: 'focus' }]);
    assert.equal(none.items.length, 0);
    assert.equal(none.page.total_evidence, 0);
    assert.equal(none.page.has_more, false);
    const stop = taskContextPage(reader, { task_kind: 'change', task: 'the and for' }, opts());
    assert.deepEqual(stop.gaps.filter((g) => g.kind === 'no_selected_evidence'), [{ kind: 'no_selected_evidence', stage: 'focus' }]);
    const lonely = taskContextPage(reader, { task_kind: 'change', task: 'x', focus_node_id: 'LONELY' }, opts());
    assert.deepEqual(lonely.gaps.filter((g) => g.kind === 'no_selected_evidence'), [{ kind: 'no_selected_evidence', stage: 'traversal' }]);
    assert.deepEqual(lonely.items.map((i) => i.id), ['LONELY']);
  });

  test('lexical focus: verbatim node ids first, then the search ranking within the candidate window; a windowed ranking is an incomplete proof', () => {
    const page = taskContextPage(reader, { task_kind: 'change', task: 'Look at (LONELY) and the beta store' }, opts());
    assert.equal(page.plan.focus.mode, 'lexical');
    assert.deepEqual(page.plan.focus, { mode: 'lexical', ranking: 'id_mention_then_search_ranking', common_term_ranking: 'search_ranking', query_sha256: page.plan.focus.mode === 'lexical' ? page.plan.focus.query_sha256 : '', query_terms: 4, dropped_terms: [], unchecked_id_chunks: 0, candidate_window: 200, max_focus_nodes: 5 });
    const focus = (page.items as Item[]).filter((i) => i.role === 'focus');
    assert.equal(focus[0]!.id, 'LONELY');
    assert.equal(focus[0]!.score, null);
    assert.equal(focus[0]!.focus_basis, 'id_mention');
    assert.equal(focus[1]!.id, 'B', 'Beta store matches title and body best');
    assert.equal(typeof focus[1]!.score, 'number');
    assert.equal(focus[1]!.focus_basis, 'bm25');
    assert.ok(!page.gaps.some((g) => g.kind === 'incomplete_proof'));
    const windowed = taskContextPage(reader, { task_kind: 'change', task: 'beta' }, opts({ lexicalWindow: 1 }));
    assert.deepEqual(windowed.gaps.filter((g) => g.kind === 'incomplete_proof'), [{ kind: 'incomplete_proof', cause: 'work_limit', stage: 'focus', examined_candidates: 1, ceiling: 1 }]);
    const windowedFocus = (windowed.items as Item[]).filter((i) => i.role === 'focus');
    assert.equal(windowedFocus.length, 1);
    // The focus uses the search ranking (issue 9 item 4) inside the window, so its basis stays bm25.
    assert.equal(windowedFocus[0]!.focus_basis, 'bm25');
    const common = taskContextPage(reader, { task_kind: 'change', task: 'beta here' }, opts({ lexicalWindow: 1 }));
    assert.equal((common.items as Item[]).filter((i) => i.role === 'focus')[0]!.id, 'B', 'the Beta store page ranks first');
    const selective = taskContextPage(reader, { task_kind: 'change', task: 'gamma' }, opts({ lexicalWindow: 1 }));
    assert.deepEqual((selective.items as Item[]).filter((i) => i.role === 'focus').map((i) => [i.id, i.focus_basis]), [['C', 'bm25']]);
    assert.equal(windowed.truncated, true);
  });

  test('unprovable provenance facts are reported, not guessed', () => {
    const page = taskContextPage(reader, { task_kind: 'change', task: 'x', focus_node_id: 'A' }, opts({ roots: { content_roots: ['elsewhere'], code_roots: [] } }));
    const b = (page.items as Item[]).find((i) => i.id === 'B')!;
    assert.deepEqual(b.path[0], { from: 'A', relation: 'depends_on', category: 'dependency', direction: 'outgoing', to: 'B', declared_in: { path: 'docs/a.md', line: 7 } });
    assert.ok(b.unprovable.some((f: Item) => f.fact === 'relation_declared_outside_node_source' && f.declared_in === 'docs/a.md'));
    assert.ok(b.unprovable.some((f: Item) => f.fact === 'source_outside_declared_roots' && f.expected === 'content_roots'));
    // B relates_to A: an additional reason of B, outgoing from B.
    assert.deepEqual(b.relationship_reasons.map((r: Item) => [r.relation, r.direction, r.other_id]), [['relates_to', 'outgoing', 'A']]);
    const d = (page.items as Item[]).find((i) => i.id === 'D')!;
    assert.equal(d.path[0].direction, 'incoming');
    assert.ok(!d.unprovable.some((f: Item) => f.fact === 'relation_declared_outside_node_source'), 'D declares its own edge');
    assert.ok(d.unprovable.some((f: Item) => f.fact === 'no_recognized_anchor'));
    const focus = (page.items as Item[])[0]!;
    assert.ok(!focus.unprovable.some((f: Item) => f.fact === 'no_recognized_anchor'), 'A has a heading anchor');
  });

  test('an evidence item larger than any page becomes one response_limit omission', () => {
    const request: TaskContextRequest = { task_kind: 'change', task: 'x', focus_node_id: 'A' };
    const whole = taskContextPage(reader, request, opts());
    const frame = JSON.stringify({ ...whole, items: [] }).length;
    const { items, pages } = allPages(reader, request, opts({ limit: 10, resultCharBudget: frame + 1500 }));
    const d = items.find((i) => i.id === 'D')!;
    assert.equal(d.type, 'omission');
    assert.equal(d.reason, 'response_limit');
    assert.equal(items.filter((i) => i.id === 'D').length, 1);
    assert.ok(pages.every((p) => JSON.stringify(p).length <= frame + 1500));
  });

  test('deriveTaskPlan is pure and bound to policy and generation', () => {
    const vocabulary = relationVocabulary(reader, null);
    const a = deriveTaskPlan({ task_kind: 'failure', task: 'x' }, vocabulary, POLICY, 3);
    assert.deepEqual(deriveTaskPlan({ task_kind: 'failure', task: 'x' }, vocabulary, POLICY, 3), a);
    assert.notDeepEqual(deriveTaskPlan({ task_kind: 'failure', task: 'x' }, vocabulary, POLICY, 4), a);
    assert.notDeepEqual(deriveTaskPlan({ task_kind: 'failure', task: 'x' }, vocabulary, 'c'.repeat(64), 3), a);
    assert.equal(a.token_budget, 8000);
  });
});
