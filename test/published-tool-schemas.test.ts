// Pins issue 29 item 5 end to end: the schemas a spawned docforge-mcp publishes in tools/list are self-contained; each compiles in a FRESH `new Ajv()` (draft-07, default options, nothing added) and validates a real structuredContent of that tool, and the fresh input schema accepts the call's arguments.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Ajv } from 'ajv';
import type { ToolName } from '@docforge/policy';
import { EXAMPLES_DIR } from './helpers/paths.js';
import { removeDir, sharedExampleProject, tempCopy } from './helpers/projects.js';
import { useServer, type ServerOptions } from './helpers/server.js';

const NODE = 'CMP-AUTH-GATEWAY';

/** One valid call per tool on examples/ (tools absent here are covered by the protocol fixtures test). */
const VALID: Partial<Record<ToolName, Record<string, unknown>>> = {
  docforge_bootstrap: {},
  docforge_sync: {},
  docforge_project_info: {},
  docforge_get_contract: {},
  docforge_get_node: { node_id: NODE },
  docforge_get_logic: { node_id: 'code:src/index.ts#createApp' },
  docforge_search: { query: 'ledger' },
  docforge_filter_nodes: { kinds: ['component'], limit: 2 },
  docforge_backlinks: { node_id: NODE },
  docforge_dependencies: { node_id: NODE },
  docforge_impact: { node_id: NODE },
  docforge_get_context: { node_id: NODE },
  docforge_get_task_context: { task_kind: 'change', task: 'refund handling in the ledger' },
  docforge_validate_project: {},
  docforge_get_generation_diff: {},
  docforge_visualization_status: {},
  docforge_render_status: {},
  docforge_list_changesets: { history: true },
  docforge_register_changes: { operations: [{ op: 'node_update', node_id: 'CMP-LEDGER', set: { status: 'draft' } }] },
  docforge_propose_node_update: { node_id: 'RB-002', body: 'Rewritten.\n' },
  docforge_create_changeset: {},
  docforge_apply_changeset: { changeset_id: 'cs-missing', changeset_sha256: '0'.repeat(64) },
};

const MODES: { label: string; options: ServerOptions }[] = [
  { label: 'read', options: { mode: 'read' } },
  { label: 'proposal', options: { mode: 'proposal', proposalWriter: 'agent-1' } },
  { label: 'application', options: { mode: 'application', canonicalApplier: 'owner-1' } },
];

/** Every `$ref` value in a schema. */
function refs(node: unknown): string[] {
  if (Array.isArray(node)) return node.flatMap(refs);
  if (node === null || typeof node !== 'object') return [];
  return Object.entries(node).flatMap(([k, v]) => (k === '$ref' && typeof v === 'string' ? [v] : refs(v)));
}

for (const { label, options } of MODES) {
  describe(`tools/list of a spawned server (${label}) validates real results in a fresh Ajv`, async () => {
    // The read-mode server only reads (its tools refuse every write): the run's shared example project. The
    // proposal and application servers register changesets: private copies.
    const root = label === 'read' ? sharedExampleProject() : tempCopy(EXAMPLES_DIR, `docforge-published-${label}-`);
    if (label !== 'read') after(() => removeDir(root));
    const server = await useServer(root, options);
    const { tools } = await server.client.listTools();

    test('every listed schema is self-contained and compiles alone', () => {
      for (const tool of tools) {
        for (const schema of [tool.inputSchema, tool.outputSchema]) {
          assert.ok(schema, `${tool.name} publishes both schemas`);
          for (const ref of refs(schema)) assert.match(ref, /^#\/\$defs\//, `${tool.name}: ${ref}`);
          new Ajv().compile(schema);
        }
      }
    });

    test('each tool called once: fresh input schema accepts the arguments, fresh output schema the structuredContent', async () => {
      let called = 0;
      for (const tool of tools) {
        const args = VALID[tool.name as ToolName];
        if (args === undefined) continue;
        const input = new Ajv().compile(tool.inputSchema);
        assert.ok(input(args), `${tool.name} input: ${JSON.stringify(input.errors)}`);
        const output = new Ajv().compile(tool.outputSchema!);
        const response = await server.raw(tool.name as ToolName, args);
        assert.ok(output(response.structuredContent), `${tool.name} output: ${JSON.stringify(output.errors)}\n${JSON.stringify(response.structuredContent).slice(0, 400)}`);
        called++;
      }
      assert.ok(called >= Math.min(tools.length, 15), `${called} tools called`);
    });
  });
}
