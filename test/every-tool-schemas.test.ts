// Pins the tightened output schemas: every registered tool, in every capability mode (and --no-ast), answers valid calls and error calls (including errors before any sync and on a project that cannot load) with envelopes that conform to its own output schema, checked here with an independent ajv compile of protocol/schemas.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import { pino } from 'pino';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createGenericServer, type ProjectServer, type ProjectServerOptions } from '@docforge/mcp-server';
import { loadToolSchemas, publishedSchema } from '@docforge/protocol';
import { ChangesetStore, changesetSha256, type ChangesetDocument } from '@docforge/changesets';
import { EXAMPLES_DIR } from './helpers/paths.js';
import { removeDir, tempCopy } from './helpers/projects.js';
import type { Envelope } from './helpers/server.js';
import { useViewerRuntime } from './helpers/viewer.js';
import { undeclaredFields } from './helpers/undeclared-fields.js';

// The in-process servers spawn the viewer manager through this process's environment: a temp runtime dir, shut down after the file.
process.env.DOCFORGE_VIEWER_RUNTIME_DIR = useViewerRuntime().env.DOCFORGE_VIEWER_RUNTIME_DIR;

const ajv = new Ajv({ allErrors: true, strict: false });
// The full bundled output schemas (every `required` list and constraint): tools/list publishes only their outline (issue 30 item 13).
const outputSchemas = new Map([...loadToolSchemas().keys()].map((name) => [name, publishedSchema(`v1/tools/${name}.output.schema.json`)]));
const outputValidators = new Map<string, ValidateFunction>([...outputSchemas].map(([name, schema]) => [name, ajv.compile(schema)]));

// The request timeout of the harness (test/helpers/server.ts REQUEST_TIMEOUT_MS; not imported: that module sets the
// environment of in-process servers): a first call that syncs may outlast the SDK's 60 s on a loaded machine.
const REQUEST_TIMEOUT_MS = 600_000;

const NODE = 'CMP-AUTH-GATEWAY';
const FUNCTION = 'code:src/index.ts#createApp';

/** A valid call of each tool on examples/. */
const VALID: Record<string, Record<string, unknown>> = {
  docforge_bootstrap: {},
  docforge_sync: {},
  docforge_project_info: {},
  docforge_get_contract: {},
  docforge_get_node: { node_id: NODE },
  docforge_get_logic: { node_id: FUNCTION },
  docforge_search: { query: 'ledger' },
  docforge_filter_nodes: { kinds: ['component'], limit: 2 },
  docforge_backlinks: { node_id: NODE },
  docforge_dependencies: { node_id: NODE },
  docforge_impact: { node_id: NODE },
  docforge_get_context: { node_id: NODE },
  docforge_get_task_context: { task_kind: 'change', task: 'refund handling in the ledger' },
  docforge_validate_project: {},
  docforge_visualize: { node_id: NODE },
  docforge_stop_visualization: {},
  docforge_visualization_status: {},
  docforge_get_generation_diff: {},
  docforge_create_changeset: {},
  docforge_register_changes: { operations: [{ op: 'node_update', node_id: 'CMP-LEDGER', set: { status: 'draft' } }] },
  docforge_list_changesets: { history: true },
  docforge_get_changeset: { changeset_id: 'cs-fixture' },
  docforge_rebase_changeset: { changeset_id: 'cs-rebase' },
  docforge_abandon_changeset: { changeset_id: 'cs-abandon' },
  // Issue 11: a well-formed call the gate refuses (wrong hash); successes are pinned in test/application.test.ts.
  docforge_apply_changeset: { changeset_id: 'cs-fixture', changeset_sha256: '0'.repeat(64) },
  docforge_propose_node_create: { node: { id: 'DOC-NEW', kind: 'document', title: 'New' }, path: 'docs/new-doc.md', body: 'New.\n' },
  docforge_propose_node_update: { node_id: 'RB-002', body: 'Rewritten.\n' },
  docforge_propose_node_move: { node_id: 'RB-003', new_path: 'docs/runbooks/moved-rb-003.md' },
  docforge_propose_relationship_update: { source_id: 'RB-005', add: [{ relation: 'relates_to', target_id: 'CMP-LEDGER' }] },
  docforge_propose_node_delete: { node_id: 'ADR-008' },
  docforge_validate_changeset: { changeset_id: 'cs-fixture' },
  docforge_get_changeset_diff: { changeset_id: 'cs-fixture' },
  docforge_render_status: { deep: true },
  docforge_preview_changeset: { changeset_id: 'cs-fixture', view: 'gateway-graph' },
};

/** Proposal tools that write (they answer proposal_access_disabled without a writer). */
const PROPOSAL_MUTATIONS = new Set(['docforge_create_changeset', 'docforge_register_changes', 'docforge_rebase_changeset', 'docforge_abandon_changeset', 'docforge_propose_node_create', 'docforge_propose_node_update', 'docforge_propose_node_move', 'docforge_propose_relationship_update', 'docforge_propose_node_delete']);

/** Stores changesets the valid calls name (`cs-fixture` to read, `cs-rebase` and `cs-abandon` for the proposal mode's mutations), each with an unknown base, so reads see it stale. */
function seedChangesets(root: string): void {
  const store = new ChangesetStore(path.join(root, '.docforge'));
  for (const [id, node] of [['cs-fixture', 'ADR-002'], ['cs-rebase', 'ADR-003'], ['cs-abandon', 'ADR-001']] as const) {
    const body = { id, writer: 'agent-1', base: '0'.repeat(64), operations: [{ op: 'node_update' as const, node_id: node, set: { status: 'draft' } }] };
    const at = '2026-11-30T12:00:00.000Z';
    const hash = changesetSha256(body);
    const doc: ChangesetDocument = { schema_version: 1, ...body, changeset_sha256: hash, status: 'draft', captured: { sources: {} }, findings: [], receipts: [{ event: 'registered', at, writer: 'agent-1', changeset_sha256: hash }], created_at: at, updated_at: at };
    store.write(doc);
  }
}

/** Error-producing calls of each tool: a schema error for all, plus the tool's own failures. */
function errorCalls(name: string): Record<string, unknown>[] {
  const calls: Record<string, unknown>[] = [{ ...VALID[name], unexpected_argument: true }];
  const input = loadToolSchemas().get(name)!.input as { properties?: Record<string, unknown> };
  const props = input.properties ?? {};
  if ('limit' in props) calls.push({ ...VALID[name], limit: 0 }, { ...VALID[name], limit: 10_000 });
  if ('cursor' in props) calls.push({ ...VALID[name], cursor: 'not-a-cursor' });
  if ('node_id' in props) calls.push({ ...VALID[name], node_id: 'NO-SUCH-NODE' });
  if (name === 'docforge_get_task_context') calls.push({ task_kind: 'rewrite', task: 'x' });
  if (name === 'docforge_get_node') calls.push({ node_id: NODE, section: 'no-such-section' });
  if (name === 'docforge_get_logic') calls.push({ node_id: NODE });
  if ('changeset_id' in props) calls.push({ ...VALID[name], changeset_id: 'cs-missing' });
  if ('view' in props) calls.push({ ...VALID[name], view: 'no-such-view' });
  return calls;
}

interface Harness {
  project: ProjectServer;
  client: Client;
  tools: string[];
}

async function connect(options: Omit<ProjectServerOptions, 'logger'>): Promise<Harness> {
  const project = createGenericServer({ ...options, logger: pino({ level: 'silent' }), validateOutput: true });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await project.server.connect(serverTransport);
  const client = new Client({ name: 'every-tool', version: '1.0.0' });
  await client.connect(clientTransport);
  const tools = (await client.listTools()).tools.map((t) => t.name);
  return { project, client, tools };
}

async function call(h: Harness, name: string, args: Record<string, unknown>): Promise<Envelope> {
  const response = (await h.client.callTool({ name, arguments: args }, undefined, { timeout: REQUEST_TIMEOUT_MS })) as { structuredContent?: unknown; isError?: boolean };
  const envelope = response.structuredContent as Envelope;
  const validate = outputValidators.get(name)!;
  assert.ok(validate(envelope), `${name}(${JSON.stringify(args)}) conforms to its output schema: ${JSON.stringify(validate.errors)}\n${JSON.stringify(envelope).slice(0, 600)}`);
  assert.equal(Boolean(response.isError), !envelope.ok, `${name}: isError matches ok`);
  // Issue 30 item 13: the output schema declares every field the tool returned, under `/result` and in the rest of
  // the envelope. Exempt: the subtree of `/error/details`, a per-code open object that the envelope declares as
  // `object` (its fields differ by error code; docs/errors.md lists them).
  const undeclared = undeclaredFields(outputSchemas.get(name)!, envelope).filter((p) => !p.startsWith('/error/details/'));
  assert.deepEqual(undeclared, [], `${name}(${JSON.stringify(args)}): every returned field is declared in its output schema`);
  assert.ok(envelope.project, `${name}: every response carries project`);
  return envelope;
}

const MODES: { label: string; options: Omit<ProjectServerOptions, 'logger' | 'projectRoot'> }[] = [
  { label: 'read', options: { capabilityMode: 'read' } },
  { label: 'proposal', options: { capabilityMode: 'proposal', proposalWriter: 'agent-1' } },
  { label: 'application', options: { capabilityMode: 'application', canonicalApplier: 'owner-1' } },
  { label: 'operator', options: { capabilityMode: 'operator' } },
  { label: 'read --no-ast', options: { capabilityMode: 'read', noAst: true } },
];

describe('every registered tool against its tightened output schema', () => {
  let root: string;
  before(() => {
    root = tempCopy(EXAMPLES_DIR, 'docforge-every-tool-');
    seedChangesets(root);
  });
  after(() => removeDir(root));

  test('errors raised before any sync carry the pre-sync project block (revision 0, null source hash, staleness unknown)', async () => {
    const h = await connect({ projectRoot: root, capabilityMode: 'read' });
    try {
      for (const name of h.tools) {
        const e = await call(h, name, { ...VALID[name], unexpected_argument: true });
        assert.equal(e.ok, false, name);
        assert.equal(e.error!.code, 'invalid_arguments', name);
        // The refusal names the unknown property and every property the tool accepts.
        const declared = Object.keys((loadToolSchemas().get(name)!.input as { properties?: Record<string, unknown> }).properties ?? {});
        if (declared.length > 0) {
          assert.deepEqual(e.error!.details.errors[0].allowed_properties, declared, name);
          assert.ok(e.error!.message.includes(`must NOT have additional properties: unexpected_argument (allowed: ${declared.join(', ')})`), `${name}: ${e.error!.message}`);
        }
        assert.deepEqual({ id: e.project!.id, revision: e.project!.revision, source_hash: e.project!.source_hash, staleness: e.project!.staleness }, { id: 'acme-payments', revision: 0, source_hash: null, staleness: 'unknown' }, name);
      }
      const enumError = await call(h, 'docforge_get_task_context', { task_kind: 'rewrite', task: 'x' });
      assert.equal(enumError.error!.code, 'invalid_arguments');
      for (const kind of ['change', 'implementation', 'failure', 'ownership', 'test', 'operation', 'release']) assert.match(enumError.error!.message, new RegExp(`"${kind}"`), 'the message lists the allowed values');
      assert.deepEqual(enumError.error!.details.errors[0].allowed_values, ['change', 'implementation', 'failure', 'ownership', 'test', 'operation', 'release']);
    } finally {
      await h.project.close();
    }
  });

  for (const mode of MODES) {
    test(`${mode.label}: valid and error calls of every registered tool conform`, async () => {
      const h = await connect({ projectRoot: root, ...mode.options });
      try {
        assert.ok(h.tools.length >= 15, 'every read tool is registered');
        for (const name of h.tools) {
          assert.ok(VALID[name], `a valid call is known for ${name}`);
          const ok = await call(h, name, VALID[name]!);
          if (mode.options.noAst && name === 'docforge_get_logic') assert.equal(ok.error!.code, 'adapter_policy_forbids_logic');
          else if (PROPOSAL_MUTATIONS.has(name) && !mode.options.proposalWriter) assert.equal(ok.error!.code, 'proposal_access_disabled', name);
          else if (name === 'docforge_apply_changeset') assert.equal(ok.error!.code, 'application_refused', name);
          else assert.equal(ok.ok, true, `${name}: ${JSON.stringify(ok.error)}`);
          for (const args of errorCalls(name)) {
            const e = await call(h, name, args);
            assert.equal(e.ok, false, `${name}(${JSON.stringify(args)}) fails`);
          }
        }
        // After a publication, a schema error (before sync) reports the last published revision.
        const published = await call(h, 'docforge_search', { query: '' });
        assert.equal(published.ok, false);
        assert.ok(published.project!.revision >= 1 && typeof published.project!.source_hash === 'string', 'the last publication is reported');
        assert.equal(published.project!.staleness, 'unknown');
      } finally {
        await h.project.close();
      }
    });
  }

  test('a project without docforge.toml: every tool answers a conforming error with revision 0 and a null id', async () => {
    const empty = mkdtempSync(path.join(os.tmpdir(), 'docforge-no-descriptor-'));
    const h = await connect({ projectRoot: empty, capabilityMode: 'read' });
    try {
      for (const name of h.tools) {
        const e = await call(h, name, VALID[name]!);
        if (name === 'docforge_get_generation_diff') {
          assert.equal(e.result!.receipt_state, 'unknown');
        } else if (name === 'docforge_visualization_status' || name === 'docforge_stop_visualization') {
          assert.equal(e.ok, true, `${name} reports without a project load`);
        } else {
          assert.equal(e.ok, false, name);
        }
        assert.deepEqual({ id: e.project!.id, revision: e.project!.revision, source_hash: e.project!.source_hash }, { id: null, revision: 0, source_hash: null }, name);
      }
    } finally {
      await h.project.close();
      removeDir(empty);
    }
  });
});
