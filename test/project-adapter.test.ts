// Pins project-owned adapters over stdio: nodes and edges from `.docforge/adapter.mjs`, declared inputs in the cheap identity, unknown identity without them, and `adapter_restart_required` on every tool after the adapter's files change.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { tempDir } from './helpers/projects.js';
import { expectError, useServer, type Envelope, type Server } from './helpers/server.js';

const HELPER = "export function serviceId(name) { return 'service:' + name; }\n";

function adapterSource(withInputs: boolean): string {
  return [
    "import { serviceId } from './lib/helper.mjs';",
    "export const version = '1.2.0';",
    withInputs ? "export const inputs = ['services/*.json'];" : '',
    "export const proposalOperations = ['node_update'];",
    'export function extract({ files, nodes }) {',
    '  const out = { nodes: [], edges: [] };',
    '  for (const file of files) {',
    '    const service = JSON.parse(file.content);',
    "    if (service.crash) throw new Error('cannot read ' + file.path);",
    "    out.nodes.push({ id: serviceId(service.name), kind: 'service', title: service.title, summary: 'Service ' + service.name, source_path: file.path });",
    "    if (nodes.some((n) => n.id === 'services-doc')) out.edges.push({ source_id: 'services-doc', relation: 'documents', target_id: serviceId(service.name) });",
    "    for (const callee of service.calls ?? []) out.edges.push({ source_id: serviceId(service.name), relation: 'calls', target_id: serviceId(callee) });",
    '  }',
    "  out.nodes.push({ id: 'adapter-summary', kind: 'document', title: 'Seen ' + nodes.length + ' nodes' });",
    '  return out;',
    '}',
    '',
  ].join('\n');
}

function adapterProject(withInputs: boolean): string {
  const root = tempDir('docforge-adapter-');
  for (const dir of ['docs', 'services', '.docforge/lib']) mkdirSync(path.join(root, dir), { recursive: true });
  writeFileSync(path.join(root, 'docforge.toml'), 'schema_version = 1\n[project]\nid = "svc"\nname = "Services"\n[sources]\ncontent_roots = ["docs"]\n[adapter]\ncode = "none"\nmodule = ".docforge/adapter.mjs"\n');
  writeFileSync(path.join(root, 'docs', 'services.md'), '+++\nid = "services-doc"\nkind = "document"\ntitle = "Services"\n+++\n# Services\n\nThe service catalogue.\n');
  writeFileSync(path.join(root, 'services', 'billing.json'), JSON.stringify({ name: 'billing', title: 'Billing' }));
  writeFileSync(path.join(root, 'services', 'ledger.json'), JSON.stringify({ name: 'ledger', title: 'Ledger', calls: ['billing', 'ghost'] }));
  writeFileSync(path.join(root, '.docforge', 'adapter.mjs'), adapterSource(withInputs));
  writeFileSync(path.join(root, '.docforge', 'lib', 'helper.mjs'), HELPER);
  return root;
}

async function assertRestartRequired(e: Envelope, file: string): Promise<void> {
  const error = await expectError(e, 'adapter_restart_required');
  assert.equal(error.remediation, 'restart_project_server');
  assert.equal(error.details.path, file);
  assert.equal(e.project?.staleness, 'stale', 'reported as stale, not synchronized');
}

describe('a project-owned adapter with declared inputs', async () => {
  const root = adapterProject(true);
  let s: Server = await useServer(root);

  test('its nodes and edges join the graph; its capabilities are reported', async () => {
    const boot = await s.call('docforge_bootstrap');
    assert.equal(boot.ok, true, JSON.stringify(boot.error));
    assert.match(boot.project!.adapter_version, /\+project@1\.2\.0#[0-9a-f]{12}$/);
    assert.equal(boot.result!.effective_policy.adapter.project_owned, true);
    const pa = boot.result!.capabilities.project_adapter;
    assert.deepEqual({ ...pa, fingerprint: typeof pa.fingerprint }, {
      bound: true, fingerprint: 'string', files: 2, loaded: true, version: '1.2.0', inputs_declared: true, identity_known: true, proposal_operations: ['node_update'],
    });
    const ledger = await s.call('docforge_get_node', { node_id: 'service:ledger' });
    assert.deepEqual({ kind: ledger.result!.node.kind, title: ledger.result!.node.title, origin: ledger.result!.node.origin, source_path: ledger.result!.node.source_path },
      { kind: 'service', title: 'Ledger', origin: 'adapter', source_path: 'services/ledger.json' });
    const outgoing = await s.call('docforge_dependencies', { node_id: 'service:ledger', depth: 1 });
    assert.deepEqual(outgoing.result!.items.map((i: { id: string; relation: string }) => `${i.relation} ${i.id}`), ['calls service:billing']);
    const documented = await s.call('docforge_backlinks', { node_id: 'service:billing' });
    assert.deepEqual(documented.result!.items.map((i: { id: string; relation: string }) => `${i.id} ${i.relation}`), ['service:ledger calls', 'services-doc documents']);
    const summary = await s.call('docforge_get_node', { node_id: 'adapter-summary' });
    assert.equal(summary.result!.node.title, 'Seen 1 nodes', 'extract saw the resolved graph nodes');
    const search = await s.call('docforge_search', { query: 'Ledger' });
    assert.equal(search.result!.items[0].id, 'service:ledger');
    const issues = await s.call('docforge_validate_project');
    assert.deepEqual(issues.result!.items.map((i: { code: string; message: string }) => i.code), ['dangling_relation']);
    assert.match(issues.result!.items[0].message, /service:ghost/);
  });

  test('declared input files join the cheap identity: unchanged inputs reuse the generation, a changed one rebuilds', async () => {
    const first = await s.call('docforge_sync');
    const again = await s.call('docforge_sync');
    assert.equal(again.result!.rebuilt, false);
    assert.equal(again.project!.revision, first.project!.revision);
    writeFileSync(path.join(root, 'services', 'audit.json'), JSON.stringify({ name: 'audit', title: 'Audit' }));
    const changed = await s.call('docforge_get_node', { node_id: 'service:audit' });
    assert.equal(changed.ok, true, JSON.stringify(changed.error));
    assert.ok(changed.project!.revision > first.project!.revision);
    // A file outside the declared inputs does not count.
    writeFileSync(path.join(root, 'services', 'notes.txt'), 'not an input');
    const after = await s.call('docforge_sync');
    assert.equal(after.result!.rebuilt, false);
  });

  test('editing a module the adapter imports answers adapter_restart_required on every next call, status tools included', async () => {
    appendFileSync(path.join(root, '.docforge', 'lib', 'helper.mjs'), '// edited while the server runs\n');
    for (const [tool, args] of [['docforge_search', { query: 'Ledger' }], ['docforge_bootstrap', {}], ['docforge_get_generation_diff', {}], ['docforge_get_node', { node_id: 'nope' }]] as const) {
      await assertRestartRequired(await s.call(tool, args), '.docforge/lib/helper.mjs');
    }
    // Reverting the edit does not help: the process never reloads project code.
    writeFileSync(path.join(root, '.docforge', 'lib', 'helper.mjs'), HELPER);
    await assertRestartRequired(await s.call('docforge_sync'), '.docforge/lib/helper.mjs');
    await s.close();
    // A new process binds the (reverted) adapter again.
    s = await useServer(root);
    const boot = await s.call('docforge_bootstrap');
    assert.equal(boot.ok, true);
    await s.close();
  });
});

describe('a project-owned adapter without declared inputs', async () => {
  const root = adapterProject(false);
  let s: Server = await useServer(root);

  test('the cheap identity is unknown: status tools say so, normal tools re-derive and verify the graph', async () => {
    const boot = await s.call('docforge_bootstrap');
    assert.equal(boot.ok, true, JSON.stringify(boot.error));
    assert.equal(boot.result!.capabilities.project_adapter.inputs_declared, false);
    assert.equal(boot.result!.capabilities.project_adapter.identity_known, false);
    const status = await s.call('docforge_get_generation_diff');
    assert.equal(status.result!.receipt_state, 'unknown');
    assert.equal(status.project!.staleness, 'unknown');
    // Every sync runs the adapter again; an identical graph keeps the generation.
    const a = await s.call('docforge_sync');
    const b = await s.call('docforge_sync');
    assert.equal(b.result!.rebuilt, false);
    assert.equal(b.project!.revision, a.project!.revision);
    assert.notEqual(b.result!.build, null, 'the build worker verified the graph instead of trusting the identity');
    appendFileSync(path.join(root, 'docs', 'services.md'), '\nMore text.\n');
    const c = await s.call('docforge_sync');
    assert.equal(c.result!.rebuilt, true);
    assert.ok(c.project!.revision > b.project!.revision);
  });

  test('editing the adapter module itself answers adapter_restart_required', async () => {
    appendFileSync(path.join(root, '.docforge', 'adapter.mjs'), '// edited\n');
    await assertRestartRequired(await s.call('docforge_project_info'), '.docforge/adapter.mjs');
    await s.close();
  });
});

describe('a project-owned adapter that throws', () => {
  test('its failure is an adapter_failed issue; the documents are still served', async () => {
    const root = adapterProject(true);
    writeFileSync(path.join(root, 'services', 'broken.json'), JSON.stringify({ name: 'broken', crash: true }));
    const s = await useServer(root);
    const issues = await s.call('docforge_validate_project');
    assert.equal(issues.ok, true);
    const failure = issues.result!.items.find((i: { code: string }) => i.code === 'adapter_failed');
    assert.ok(failure, JSON.stringify(issues.result!.items));
    assert.match(failure.message, /cannot read services\/broken\.json/);
    const doc = await s.call('docforge_get_node', { node_id: 'services-doc' });
    assert.equal(doc.ok, true);
    // Once a generation is published, a failing adapter keeps it served (stale, with the error).
    writeFileSync(path.join(root, 'docs', 'more.md'), '# More\n');
    const stale = await s.call('docforge_search', { query: 'More' });
    assert.equal(stale.project!.staleness, 'stale');
    assert.equal(stale.project!.sync_error?.code, 'adapter_failed');
  });
});

describe('a project-owned adapter that fails in a new process (issue 30 item 7)', () => {
  test('a new process serves the last valid publication, marked stale with adapter_failed, as the same process does', async () => {
    const root = adapterProject(true);
    const first = await useServer(root);
    const published = await first.call('docforge_get_node', { node_id: 'service:ledger' });
    assert.equal(published.ok, true, JSON.stringify(published.error));
    await first.close();
    // The adapter now throws on an input: every build of the next process fails.
    writeFileSync(path.join(root, 'services', 'broken.json'), JSON.stringify({ name: 'broken', crash: true }));
    const fresh = await useServer(root);
    for (const [tool, args] of [['docforge_search', { query: 'Ledger' }], ['docforge_get_node', { node_id: 'service:ledger' }], ['docforge_bootstrap', {}]] as const) {
      const answer = await fresh.call(tool, args);
      assert.equal(answer.ok, true, `${tool}: ${JSON.stringify(answer.error)}`);
      assert.equal(answer.project!.staleness, 'stale', tool);
      assert.equal(answer.project!.sync_error?.code, 'adapter_failed', tool);
      assert.equal(answer.project!.revision, published.project!.revision, `${tool}: the last valid generation is served`);
    }
    const issues = await fresh.call('docforge_validate_project');
    assert.equal(issues.project!.sync_error?.code, 'adapter_failed');
    await fresh.close();
    // A third process without the failure publishes again.
    rmSync(path.join(root, 'services', 'broken.json'));
    const healed = await useServer(root);
    const current = await healed.call('docforge_search', { query: 'Ledger' });
    assert.equal(current.project!.staleness, 'current');
    await healed.close();
  });
});
