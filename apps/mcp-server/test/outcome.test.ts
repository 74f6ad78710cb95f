// Pins issue 29 item 3: a tool's outcome is a typed value. No source of the server or of libs/retrieval attaches hidden (non-enumerable or Symbol-keyed) data to a result; every registered tool declares a fit strategy from the closed list, as docs/architecture.md tabulates it; and every tool's real handler outcome on a copy of examples/ is plain data (no symbol keys, no non-enumerable or accessor properties) whose page and body window are the result's own.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ChangesetStore, changesetSha256, genericApplierOf, type ChangesetDocument } from '@docforge/changesets';
import { IndexManager } from '@docforge/sync';
import { computeCapabilities, computeEffectivePolicy } from '@docforge/policy';
import { connectViewerManager } from '@docforge/viewer-client';
import type { ToolContext, ToolDefinition } from '../src/define-tool.js';
import { FIT_STRATEGIES, type AnyToolOutcome, type FitStrategy } from '../src/outcome.js';
import { implementedTools } from '../src/registry.js';
import { viewerManagerBin } from '../src/tools/viewer-shared.js';

const REPO = fileURLToPath(new URL('../../../../', import.meta.url));
const SCANNED = ['apps/mcp-server/src', 'libs/retrieval/src'];

/** The fit strategy of every tool, as docs/architecture.md ("A tool's outcome is a typed value") lists it. */
const EXPECTED_FIT: Record<string, FitStrategy> = {
  docforge_search: 'page',
  docforge_filter_nodes: 'page',
  docforge_backlinks: 'page',
  docforge_dependencies: 'page',
  docforge_impact: 'page',
  docforge_validate_project: 'page',
  docforge_list_changesets: 'page',
  docforge_get_context: 'page_with_omissions',
  docforge_get_task_context: 'page_with_omissions',
  docforge_get_generation_diff: 'page_with_omissions',
  docforge_get_changeset: 'page_with_omissions',
  docforge_validate_changeset: 'page_with_omissions',
  docforge_get_node: 'node_body',
  docforge_get_changeset_diff: 'chunked',
  docforge_bootstrap: 'compact',
  // Issue 30 item 8: get_contract answers its compact form at the max_output_chars floor.
  docforge_get_contract: 'compact',
  docforge_create_changeset: 'receipt',
  docforge_register_changes: 'receipt',
  docforge_rebase_changeset: 'receipt',
  docforge_abandon_changeset: 'receipt',
  docforge_propose_node_create: 'receipt',
  docforge_propose_node_update: 'receipt',
  docforge_propose_node_move: 'receipt',
  docforge_propose_relationship_update: 'receipt',
  docforge_propose_node_delete: 'receipt',
  docforge_preview_changeset: 'receipt',
  docforge_apply_changeset: 'receipt',
  docforge_sync: 'none',
  docforge_project_info: 'none',
  docforge_get_logic: 'none',
  docforge_render_status: 'none',
  docforge_visualize: 'none',
  docforge_stop_visualization: 'none',
  docforge_visualization_status: 'none',
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return /\.(c|m)?ts$/.test(name) && !name.endsWith('.d.ts') ? [full] : [];
  });
}

/** Code without comments (a comment may name what the code must not do). */
function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}

/** Every own property of plain data that is hidden from JSON: symbol keys, non-enumerable and accessor properties. */
function hiddenProperties(value: unknown, where: string, seen = new Set<object>()): string[] {
  if (typeof value !== 'object' || value === null || seen.has(value)) return [];
  seen.add(value);
  const found = Object.getOwnPropertySymbols(value).map((symbol) => `${where}[${String(symbol)}]`);
  for (const name of Object.getOwnPropertyNames(value)) {
    const descriptor = Object.getOwnPropertyDescriptor(value, name)!;
    if (!('value' in descriptor)) found.push(`${where}.${name} (accessor)`);
    else if (!descriptor.enumerable && !(Array.isArray(value) && name === 'length')) found.push(`${where}.${name} (non-enumerable)`);
    else found.push(...hiddenProperties(descriptor.value, `${where}.${name}`, seen));
  }
  return found;
}

/** What an outcome may hold; everything but `servedFrom` (a sync report) is response data. */
const OUTCOME_PARTS = new Set(['result', 'page', 'body', 'compact', 'receipt', 'servedFrom', 'project']);

function checkOutcome(tool: ToolDefinition, outcome: AnyToolOutcome & { project?: unknown }): void {
  assert.deepEqual(Object.getOwnPropertySymbols(outcome), [], `${tool.name}: the outcome has no symbol keys`);
  for (const key of Object.getOwnPropertyNames(outcome)) {
    assert.ok(OUTCOME_PARTS.has(key), `${tool.name}: unexpected outcome part ${key}`);
    assert.ok(Object.getOwnPropertyDescriptor(outcome, key)!.enumerable, `${tool.name}: outcome part ${key} is enumerable`);
  }
  const { servedFrom: _served, ...data } = outcome;
  assert.deepEqual(hiddenProperties(data, tool.name), [], `${tool.name}: the outcome is plain data`);
  assert.equal(Object.getPrototypeOf(outcome.result), Object.prototype, `${tool.name}: the result is a plain object`);
  if (outcome.page !== undefined) assert.equal(outcome.page.items, outcome.result.items, `${tool.name}: the page is the result's items`);
  if (outcome.body !== undefined) assert.equal(outcome.body.node, outcome.result.node, `${tool.name}: the body window is the result's node`);
  const part = { page: 'page', node_body: 'body', compact: 'compact', receipt: 'receipt' }[tool.fit as string];
  if (part !== undefined) assert.ok(part in outcome, `${tool.name}: fit ${tool.fit} returns its ${part}`);
}

test('no source of the server or of libs/retrieval attaches hidden or Symbol-keyed data', () => {
  const offences: string[] = [];
  for (const dir of SCANNED) {
    for (const file of sourceFiles(path.join(REPO, dir))) {
      const code = withoutComments(readFileSync(file, 'utf8'));
      for (const pattern of [/Object\.definePropert(y|ies)\s*\(/, /Reflect\.defineProperty\s*\(/, /\bSymbol(\.for)?\s*\(/, /enumerable\s*:\s*false/]) {
        if (pattern.test(code)) offences.push(`${path.relative(REPO, file)}: ${pattern}`);
      }
    }
  }
  assert.deepEqual(offences, []);
});

test('every registered tool declares a fit strategy from the closed list, as documented', () => {
  const tools = implementedTools();
  assert.deepEqual([...FIT_STRATEGIES], ['page', 'page_with_omissions', 'node_body', 'chunked', 'compact', 'receipt', 'none']);
  for (const tool of tools.values()) assert.ok((FIT_STRATEGIES as readonly string[]).includes(tool.fit), `${tool.name}: ${tool.fit}`);
  assert.deepEqual(Object.fromEntries([...tools.values()].map((t) => [t.name, t.fit]).sort()), Object.fromEntries(Object.entries(EXPECTED_FIT).sort()));
  // The list is closed but not padded: every strategy the contract names is one some tool uses.
  assert.deepEqual(new Set(Object.values(EXPECTED_FIT)), new Set(FIT_STRATEGIES));
  const docs = readFileSync(path.join(REPO, 'docs', 'architecture.md'), 'utf8');
  for (const strategy of FIT_STRATEGIES) assert.match(docs, new RegExp(`\`${strategy}\``), `docs/architecture.md names ${strategy}`);
});

/** Stores two stale changesets (unknown base) for rebase and abandon. */
function seedChangesets(root: string): void {
  const store = new ChangesetStore(path.join(root, '.docforge'));
  for (const [id, node] of [['cs-rebase', 'ADR-003'], ['cs-abandon', 'ADR-001']] as const) {
    const body = { id, writer: 'agent-1', base: '0'.repeat(64), operations: [{ op: 'node_update' as const, node_id: node, set: { status: 'draft' } }] };
    const at = '2026-11-30T12:00:00.000Z';
    const hash = changesetSha256(body);
    const doc: ChangesetDocument = { schema_version: 1, ...body, changeset_sha256: hash, status: 'draft', captured: { sources: {} }, findings: [], receipts: [{ event: 'registered', at, writer: 'agent-1', changeset_sha256: hash }], created_at: at, updated_at: at };
    store.write(doc);
  }
}

const NODE = 'CMP-AUTH-GATEWAY';

describe('every tool handler outcome on examples/ is plain data', () => {
  let root: string;
  let runtime: string;
  let manager: IndexManager;
  let ctx: ToolContext;
  const previousRuntime = process.env.DOCFORGE_VIEWER_RUNTIME_DIR;

  before(() => {
    root = mkdtempSync(path.join(os.tmpdir(), 'docforge-outcome-'));
    cpSync(path.join(REPO, 'examples'), root, { recursive: true, filter: (source) => !/[\\/](\.docforge|node_modules|site)$/.test(source) });
    seedChangesets(root);
    runtime = mkdtempSync(path.join(os.tmpdir(), 'dfv-outcome-'));
    process.env.DOCFORGE_VIEWER_RUNTIME_DIR = runtime;
    manager = new IndexManager({ root, noAst: false });
    const policy = computeEffectivePolicy({ capabilityMode: 'operator', factory: 'generic', proposalWriter: 'agent-1', canonicalApplier: 'owner-1', noAst: false, diagnostics: false, adapterStrategy: 'ast', projectAdapterModule: null });
    const tools = implementedTools();
    const capabilities = computeCapabilities(policy, new Set(tools.keys()));
    const toolList = capabilities.tools.map((name) => ({ name, description: tools.get(name)!.description, readOnly: tools.get(name)!.annotations.readOnlyHint }));
    ctx = { manager, policy, capabilities, boundAt: new Date(0).toISOString(), toolList, applier: genericApplierOf(manager.descriptor()) };
  });

  after(async () => {
    const client = await connectViewerManager({ managerBin: viewerManagerBin(), client: 'outcome-test', spawn: false }).catch(() => null);
    if (client !== null) {
      await client.shutdown().catch(() => undefined);
      client.close();
      // Bounded wait until the manager stopped listening, so nothing writes into the runtime dir afterwards.
      for (let i = 0; i < 50; i += 1) {
        const still = await connectViewerManager({ managerBin: viewerManagerBin(), client: 'outcome-test', spawn: false }).catch(() => null);
        if (still === null) break;
        still.close();
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    await manager.close();
    if (previousRuntime === undefined) delete process.env.DOCFORGE_VIEWER_RUNTIME_DIR;
    else process.env.DOCFORGE_VIEWER_RUNTIME_DIR = previousRuntime;
    rmSync(root, { recursive: true, force: true });
    rmSync(runtime, { recursive: true, force: true });
  });

  test('each tool, called for real, returns a typed outcome without hidden properties', async () => {
    const tools = implementedTools();
    const called = new Set<string>();
    const run = async (name: string, args: Record<string, unknown>): Promise<AnyToolOutcome> => {
      const tool = tools.get(name)!;
      const checked = tool.checkArguments(args);
      tool.precheck(ctx, checked);
      const outcome = tool.kind === 'status' ? await tool.runStatus(ctx, checked, null) : await tool.runSync(ctx, await manager.sync(), checked, null);
      checkOutcome(tool, outcome);
      called.add(name);
      return outcome;
    };
    for (const [name, args] of Object.entries({
      docforge_bootstrap: {}, docforge_sync: {}, docforge_project_info: {}, docforge_get_contract: {},
      docforge_get_node: { node_id: NODE }, docforge_get_logic: { node_id: 'code:src/index.ts#createApp' },
      docforge_search: { query: 'ledger' }, docforge_filter_nodes: { kinds: ['component'], limit: 2 },
      docforge_backlinks: { node_id: NODE }, docforge_dependencies: { node_id: NODE }, docforge_impact: { node_id: NODE },
      docforge_get_context: { node_id: NODE }, docforge_get_task_context: { task_kind: 'change', task: 'refund handling in the ledger' },
      docforge_validate_project: {}, docforge_render_status: {},
      docforge_visualization_status: {}, docforge_visualize: { node_id: NODE }, docforge_stop_visualization: {},
      docforge_create_changeset: {},
      docforge_propose_node_create: { node: { id: 'DOC-NEW', kind: 'document', title: 'New' }, path: 'docs/new-doc.md', body: 'New.\n' },
      docforge_propose_node_update: { node_id: 'RB-002', body: 'Rewritten.\n' },
      docforge_propose_node_move: { node_id: 'RB-003', new_path: 'docs/runbooks/moved-rb-003.md' },
      docforge_propose_relationship_update: { source_id: 'RB-005', add: [{ relation: 'relates_to', target_id: 'CMP-LEDGER' }] },
      docforge_propose_node_delete: { node_id: 'ADR-008' },
      docforge_rebase_changeset: { changeset_id: 'cs-rebase' }, docforge_abandon_changeset: { changeset_id: 'cs-abandon' },
      docforge_list_changesets: { history: true },
    })) await run(name, args);
    const registered = (await run('docforge_register_changes', { operations: [{ op: 'node_update', node_id: 'CMP-LEDGER', set: { status: 'deprecated' } }] })).result;
    const id = registered.changeset_id as string;
    for (const name of ['docforge_get_changeset', 'docforge_validate_changeset', 'docforge_get_changeset_diff']) await run(name, { changeset_id: id });
    await run('docforge_preview_changeset', { changeset_id: id, view: 'gateway-graph' });
    assert.equal(registered.status, 'ready', JSON.stringify(registered.findings));
    const applied = await run('docforge_apply_changeset', { changeset_id: id, changeset_sha256: registered.changeset_sha256 });
    assert.ok(applied.servedFrom !== undefined, 'the application is served from its refreshed publication');
    // After the application the latest generation receipt is current: a real page.
    const diff = await run('docforge_get_generation_diff', {});
    assert.equal(diff.result.receipt_state, 'current', JSON.stringify(diff.result));
    assert.deepEqual([...tools.keys()].filter((name) => !called.has(name)), [], 'every tool was called');
  });
});
