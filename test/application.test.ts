// Pins canonical application over stdio on a copy of examples/ (issue 11): every operation kind applied through the gate, the next read sees the new content at a higher revision, refusals (wrong SHA-256, stale base, writer not allowed) change nothing, and --canonical-applier fails at start without an applier the project supplies.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, readFileSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { treeHashes } from './helpers/hashes.js';
import { CLI_ENTRY, MCP_ENTRY } from './helpers/paths.js';
import { exampleProjectCopy } from './helpers/projects.js';
import { expectError, useServer, type Json } from './helpers/server.js';


/** One operation of every kind on the example. */
function everyKind(): Json[] {
  return [
    { op: 'node_create', node: { id: 'REQ-PAY-099', kind: 'requirement', title: 'Refund receipts', status: 'draft', tags: ['refund'], relations: { refines: ['REQ-PAY-005'] } }, path: 'docs/requirements/pay-099-refund-receipts.md', body: '# Refund receipts\n\nEvery refund issues a receipt.\n' },
    { op: 'node_update', node_id: 'CMP-LEDGER', set: { status: 'deprecated' }, body: '# Double-entry ledger\n\nReplaced by the new ledger.\n' },
    { op: 'node_move', node_id: 'RB-001', new_path: 'docs/runbooks/moved/rb-001-ledger-imbalance.md' },
    { op: 'relationship_update', source_id: 'CMP-REFUND-SERVICE', add: [{ relation: 'relates_to', target_id: 'REQ-PAY-099' }] },
    { op: 'node_delete', node_id: 'RB-004' },
  ];
}

/** Replaces a line of the copy's docforge.toml. */
function editDescriptor(root: string, from: string, to: string): void {
  const file = path.join(root, 'docforge.toml');
  const text = readFileSync(file, 'utf8');
  assert.ok(text.includes(from), `docforge.toml holds ${from}`);
  writeFileSync(file, text.replace(from, to));
}

test('every operation kind is applied through the gate; the next get_node returns the new content at a higher revision', async () => {
  const root = exampleProjectCopy();
  const server = await useServer(root, { proposalWriter: 'agent', canonicalApplier: 'reviewer' });
  const boot = await server.call('docforge_bootstrap');
  assert.ok(boot.result!.capabilities.tools.includes('docforge_apply_changeset'));
  assert.equal(boot.result!.capabilities.application_access.applier_id, 'reviewer');
  const registered = await server.call('docforge_register_changes', { operations: everyKind() });
  assert.equal(registered.result!.status, 'ready', JSON.stringify(registered.result!.findings));
  const { changeset_id: id, changeset_sha256: hash } = registered.result!;
  const before = await server.call('docforge_get_node', { node_id: 'CMP-LEDGER' });

  const applied = await server.call('docforge_apply_changeset', { changeset_id: id, changeset_sha256: hash });
  assert.equal(applied.ok, true, JSON.stringify(applied.error));
  const r = applied.result!;
  assert.equal(r.outcome, 'applied');
  assert.equal(r.changeset_sha256, hash);
  assert.equal(r.receipt.event, 'applied');
  assert.equal(r.receipt.changeset_sha256, hash);
  assert.deepEqual(r.changed_sources, { created: 2, updated: 2, deleted: 2 });
  assert.equal(r.derived_refresh.status, 'refreshed');
  assert.ok(r.derived_refresh.revision > before.project!.revision);
  assert.equal(applied.project!.revision, r.derived_refresh.revision, 'the project block names the refreshed publication');
  assert.equal(applied.project!.source_hash, r.derived_refresh.source_hash);
  // Declared outputs are never rendered over MCP: each view of examples/docforge.toml is reported
  // (never rendered in this copy, so its output is missing and it is stale) with the CLI command.
  assert.deepEqual(r.render, {
    outputs: [['components', 'site/components.html'], ['requirements', 'site/requirements.html'], ['traceability', 'site/traceability.html'], ['gateway-graph', 'site/gateway-graph.html']]
      .map(([view_id, output]) => ({ view_id, output, status: 'stale' })),
    output_count: 4,
    command: 'docforge render',
  });
  assert.equal(existsSync(path.join(root, 'site')), false, 'apply renders nothing');
  assert.equal(existsSync(path.join(root, '.docforge', 'application', 'journal.json')), false, 'the journal is closed');

  const after = await server.call('docforge_get_node', { node_id: 'CMP-LEDGER' });
  assert.ok(after.project!.revision > before.project!.revision);
  assert.equal(after.result!.node.status, 'deprecated');
  assert.match(after.result!.node.body, /Replaced by the new ledger\./);
  assert.equal((await server.call('docforge_get_node', { node_id: 'REQ-PAY-099' })).result!.node.title, 'Refund receipts');
  assert.equal((await server.call('docforge_get_node', { node_id: 'RB-001' })).result!.node.source_path, 'docs/runbooks/moved/rb-001-ledger-imbalance.md');
  await expectError(server.call('docforge_get_node', { node_id: 'RB-004' }), 'node_not_found');
  const refund = await server.call('docforge_backlinks', { node_id: 'REQ-PAY-099' });
  assert.ok(JSON.stringify(refund.result).includes('CMP-REFUND-SERVICE'));

  const got = await server.call('docforge_get_changeset', { changeset_id: id });
  assert.equal(got.result!.changeset.status, 'applied');
  assert.equal(got.result!.receipts.at(-1).event, 'applied');
  // Applying twice is refused, never repeated.
  const again = await expectError(server.call('docforge_apply_changeset', { changeset_id: id, changeset_sha256: hash }), 'application_refused');
  assert.equal(again.details.reason_code, 'not_ready');
});

test('a wrong SHA-256, a stale base and a writer the policy does not allow are refused and nothing changes', async () => {
  const root = exampleProjectCopy();
  editDescriptor(root, '[state]', '[proposals.appliers.reviewer]\nwriters = ["agent"]\n\n[state]');
  // The allowed writer's server is the gated one too (one server start fewer; issue 29 item 7).
  const agent = await useServer(root, { proposalWriter: 'agent', canonicalApplier: 'reviewer' });
  const intruder = await useServer(root, { proposalWriter: 'intruder' });
  const ok = (await agent.call('docforge_register_changes', { operations: [{ op: 'node_update', node_id: 'CMP-LEDGER', set: { status: 'deprecated' } }] })).result!;
  const foreign = (await intruder.call('docforge_register_changes', { operations: [{ op: 'node_update', node_id: 'CMP-AUTH-GATEWAY', set: { status: 'deprecated' } }] })).result!;
  const stale = (await agent.call('docforge_register_changes', { operations: [{ op: 'node_update', node_id: 'RB-004', set: { status: 'deprecated' } }] })).result!;
  const server = agent;
  await server.call('docforge_sync');

  // A touched node changed after the proposal: stale.
  const rb = path.join(root, (await server.call('docforge_get_node', { node_id: 'RB-004' })).result!.node.source_path);
  writeFileSync(rb, `${readFileSync(rb, 'utf8')}\nEdited by hand.\n`);
  const snapshot = treeHashes(root);

  const wrong = await expectError(server.call('docforge_apply_changeset', { changeset_id: ok.changeset_id, changeset_sha256: '0'.repeat(64) }), 'application_refused');
  assert.equal(wrong.details.reason_code, 'hash_mismatch');
  const staleErr = await expectError(server.call('docforge_apply_changeset', { changeset_id: stale.changeset_id, changeset_sha256: stale.changeset_sha256 }), 'application_refused');
  assert.equal(staleErr.details.reason_code, 'stale_base');
  const notAllowed = await expectError(server.call('docforge_apply_changeset', { changeset_id: foreign.changeset_id, changeset_sha256: foreign.changeset_sha256 }), 'application_refused');
  assert.equal(notAllowed.details.reason_code, 'writer_not_allowed');
  assert.deepEqual(treeHashes(root), snapshot, 'no canonical file changed');
  for (const cs of [ok, foreign, stale]) {
    assert.notEqual((await server.call('docforge_get_changeset', { changeset_id: cs.changeset_id })).result!.changeset.stored_status, 'applied');
  }
  // The hand edit moved the base: the allowed writer's changeset applies once rebased and re-approved by its new hash.
  const baseMoved = await expectError(server.call('docforge_apply_changeset', { changeset_id: ok.changeset_id, changeset_sha256: ok.changeset_sha256 }), 'application_refused');
  assert.equal(baseMoved.details.reason_code, 'stale_base');
  const rebased = await agent.call('docforge_rebase_changeset', { changeset_id: ok.changeset_id });
  assert.equal(rebased.ok, true, JSON.stringify(rebased.error));
  const applied = await server.call('docforge_apply_changeset', { changeset_id: ok.changeset_id, changeset_sha256: rebased.result!.changeset_sha256 });
  assert.equal(applied.ok, true, JSON.stringify(applied.error));
});

test('without an applier the project supplies, --canonical-applier is refused at start (every call answers canonical_applier_unavailable); without the flag the tool is absent', async () => {
  const root = exampleProjectCopy();
  editDescriptor(root, 'canonical_applier = "generic"', '');
  // Issue 30 item 4: the refused gate no longer exits (a client saw only "Connection closed"); it starts and answers every call with the error.
  const gated = await useServer(root, { canonicalApplier: 'reviewer' });
  const refused = await expectError(gated.call('docforge_apply_changeset', { changeset_id: 'cs-x', changeset_sha256: '0'.repeat(64) }), 'canonical_applier_unavailable');
  assert.match(refused.message, /canonical_applier = "generic"/);
  assert.match(gated.stderr(), /canonical_applier = "generic"/);
  const plain = await useServer(root, { proposalWriter: 'agent' });
  const tools = (await plain.client.listTools()).tools.map((t) => t.name);
  assert.equal(tools.includes('docforge_apply_changeset'), false);
  await assert.rejects(plain.call('docforge_apply_changeset', { changeset_id: 'cs-x', changeset_sha256: '0'.repeat(64) }));
});

test('a project-owned adapter module may export the canonical applier instead', async () => {
  const root = exampleProjectCopy();
  editDescriptor(root, 'canonical_applier = "generic"', 'module = "adapter.mjs"');
  writeFileSync(path.join(root, 'adapter.mjs'), "export const version = '1.0.0';\nexport function extract() { return { nodes: [], edges: [] }; }\nexport const canonicalApplier = { interface_version: 1, stage: ({ after }) => after };\n");
  const server = await useServer(root, { proposalWriter: 'agent', canonicalApplier: 'reviewer' });
  const reg = (await server.call('docforge_register_changes', { operations: [{ op: 'node_update', node_id: 'CMP-LEDGER', set: { status: 'deprecated' } }] })).result!;
  const applied = await server.call('docforge_apply_changeset', { changeset_id: reg.changeset_id, changeset_sha256: reg.changeset_sha256 });
  assert.equal(applied.ok, true, JSON.stringify(applied.error));
  assert.equal((await server.call('docforge_get_node', { node_id: 'CMP-LEDGER' })).result!.node.status, 'deprecated');
});

test('docforge changeset apply ID --sha256 H --canonical-applier W applies the same way and refuses a wrong hash', async () => {
  const root = exampleProjectCopy();
  const writer = await useServer(root, { proposalWriter: 'agent' });
  const reg = (await writer.call('docforge_register_changes', { operations: [{ op: 'node_update', node_id: 'CMP-LEDGER', set: { status: 'deprecated' } }] })).result!;
  await writer.close();
  const cli = (args: string[]) => spawnSync(process.execPath, [CLI_ENTRY, 'changeset', 'apply', reg.changeset_id, '-C', root, ...args], { encoding: 'utf8' });
  assert.equal(cli(['--sha256', reg.changeset_sha256]).status, 2, 'the applier is required');
  const snapshot = treeHashes(root);
  const wrong = cli(['--sha256', '0'.repeat(64), '--canonical-applier', 'reviewer']);
  assert.equal(wrong.status, 1);
  assert.match(wrong.stderr, /application_refused/);
  assert.deepEqual(treeHashes(root), snapshot);
  const applied = cli(['--sha256', reg.changeset_sha256, '--canonical-applier', 'reviewer', '--json']);
  assert.equal(applied.status, 0, applied.stderr);
  const out = JSON.parse(applied.stdout);
  assert.equal(out.receipt.event, 'applied');
  assert.equal(out.receipt.changeset_sha256, reg.changeset_sha256);
  assert.equal(out.derived_refresh.status, 'refreshed');
  assert.match(readFileSync(path.join(root, out.files[0].path), 'utf8'), /status = "deprecated"/);
  // As over MCP: declared outputs are reported (never rendered) with the command that renders them.
  assert.equal(out.render.command, 'docforge render');
  assert.deepEqual(out.render.outputs.map((o: { view_id: string }) => o.view_id), ['components', 'requirements', 'traceability', 'gateway-graph']);
});

test('a node file that is a symlink inside the content roots is written through, never replaced by a regular file', async () => {
  const root = exampleProjectCopy();
  const server0 = await useServer(root, { proposalWriter: 'agent' });
  const rel = (await server0.call('docforge_get_node', { node_id: 'CMP-LEDGER' })).result!.node.source_path as string;
  await server0.close();
  // Move the real file elsewhere inside the content root and leave a relative symlink at its path.
  const real = path.join(root, 'docs', 'ledger-real.txt');
  renameSync(path.join(root, rel), real);
  symlinkSync(path.relative(path.dirname(path.join(root, rel)), real), path.join(root, rel));
  const server = await useServer(root, { proposalWriter: 'agent', canonicalApplier: 'reviewer' });
  const reg = (await server.call('docforge_register_changes', { operations: [{ op: 'node_update', node_id: 'CMP-LEDGER', set: { status: 'deprecated' } }] })).result!;
  assert.equal(reg.status, 'ready', JSON.stringify(reg.findings));
  const applied = await server.call('docforge_apply_changeset', { changeset_id: reg.changeset_id, changeset_sha256: reg.changeset_sha256 });
  assert.equal(applied.ok, true, JSON.stringify(applied.error));
  assert.ok(lstatSync(path.join(root, rel)).isSymbolicLink(), 'still a symlink');
  assert.match(readFileSync(real, 'utf8'), /status = "deprecated"/);
});

test('the compact receipt keeps the applied lifecycle, exact hash, changed-source counts and a refresh summary; an impossible receipt fails in preflight', async () => {
  const root = exampleProjectCopy();
  editDescriptor(root, 'max_output_chars = 60000', 'max_output_chars = 2000');
  // Enough changed sources that the full receipt exceeds the limit (2000, raised to the 4,000-character floor: issue 30, item 8).
  const ids = [
    'CMP-AUTH-GATEWAY', 'CMP-MEMORY-LEDGER-STORE', 'CMP-BASE-SERVICE', 'CMP-SETTLEMENT-JOB', 'CMP-LEDGER', 'CMP-REFUND-SERVICE', 'CMP-FRAUD-SCORER', 'CMP-ERRORS', 'CMP-RETRY', 'CMP-IDEMPOTENCY-STORE',
    ...['PAY-001', 'PAY-002', 'PAY-003', 'PAY-004', 'PAY-005', 'LED-001', 'LED-002', 'LED-003', 'LED-004', 'FRD-001', 'FRD-002', 'FRD-003', 'FRD-004', 'PLT-001', 'PLT-002', 'PLT-003'].map((n) => `REQ-${n}`),
  ];
  // One server registers and applies (issue 29 item 7: a writer's and then an applier's start before).
  const server = await useServer(root, { proposalWriter: 'agent', canonicalApplier: 'reviewer' });
  const reg = (await server.call('docforge_register_changes', { operations: ids.map((id) => ({ op: 'node_update', node_id: id, set: { status: 'deprecated' } })) })).result!;
  assert.equal(reg.status, 'ready');
  const applied = await server.call('docforge_apply_changeset', { changeset_id: reg.changeset_id, changeset_sha256: reg.changeset_sha256 });
  assert.equal(applied.ok, true, JSON.stringify(applied.error));
  assert.equal(applied.result!.compact, true);
  assert.deepEqual(Object.keys(applied.result!).sort(), ['changed_sources', 'changeset_id', 'changeset_sha256', 'compact', 'derived_refresh', 'outcome', 'receipt_version', 'status']);
  assert.equal(applied.result!.outcome, 'applied');
  assert.equal(applied.result!.status, 'applied');
  assert.equal(applied.result!.changeset_sha256, reg.changeset_sha256);
  assert.equal(applied.result!.changed_sources.updated + applied.result!.changed_sources.created + applied.result!.changed_sources.deleted >= ids.length / 2, true);
  assert.equal(applied.result!.derived_refresh.status, 'refreshed');
  // Full details stay readable through docforge_get_changeset.
  const receipts = (await server.call('docforge_get_changeset', { changeset_id: reg.changeset_id })).result!.receipts as Json[];
  assert.equal(receipts.at(-1)!.event, 'applied');

  // A project block that leaves no room for even the minimum receipt: refused before any write.
  const tight = exampleProjectCopy();
  editDescriptor(tight, 'max_output_chars = 60000', 'max_output_chars = 2000');
  const s2 = await useServer(tight, { proposalWriter: 'agent', canonicalApplier: 'reviewer' });
  const reg2 = (await s2.call('docforge_register_changes', { operations: [{ op: 'node_update', node_id: 'CMP-LEDGER', set: { status: 'deprecated' } }] })).result!;
  await s2.call('docforge_sync');
  editDescriptor(tight, '[limits]', `[limits]\n${'k'.repeat(1900)} = 1`);
  const before2 = treeHashes(tight);
  const refused = await expectError(s2.call('docforge_apply_changeset', { changeset_id: reg2.changeset_id, changeset_sha256: reg2.changeset_sha256 }), 'result_too_large');
  assert.equal(refused.details.stage, 'preflight');
  assert.equal(refused.details.mutation_committed, false);
  assert.deepEqual(treeHashes(tight), before2);
});

test('the refresh after application runs under the same effective policy: --no-ast publishes no Logic', async () => {
  const root = exampleProjectCopy({ state: false });
  const server = await useServer(root, { proposalWriter: 'agent', canonicalApplier: 'reviewer', noAst: true });
  const reg = (await server.call('docforge_register_changes', { operations: [{ op: 'node_update', node_id: 'CMP-LEDGER', set: { status: 'deprecated' } }] })).result!;
  const applied = await server.call('docforge_apply_changeset', { changeset_id: reg.changeset_id, changeset_sha256: reg.changeset_sha256 });
  assert.equal(applied.result!.derived_refresh.status, 'refreshed');
  const current = JSON.parse(readFileSync(path.join(root, '.docforge', 'index', 'current.json'), 'utf8'));
  assert.equal(current.generation, applied.result!.derived_refresh.revision);
  assert.equal(current.logic_allowed, false);
  assert.equal(current.logic_present, false);
});

test('metadata a plain Markdown document cannot hold is refused at validation with a clear finding', async () => {
  const root = exampleProjectCopy();
  const server = await useServer(root, { proposalWriter: 'agent' });
  const reg = (await server.call('docforge_register_changes', { operations: [{ op: 'node_update', node_id: 'guides/glossary', set: { status: 'accepted' } }] })).result!;
  assert.equal(reg.status, 'draft');
  const finding = (reg.findings as Json[]).find((f) => f.code === 'metadata_not_representable');
  assert.ok(finding, JSON.stringify(reg.findings));
  assert.equal(finding.operation_index, 0);
  assert.match(finding.message, /cannot hold status/);
  // A title is representable: its first heading.
  await server.call('docforge_abandon_changeset', { changeset_id: reg.changeset_id });
  const titled = (await server.call('docforge_register_changes', { operations: [{ op: 'node_update', node_id: 'guides/glossary', set: { title: 'Payments glossary' } }] })).result!;
  assert.equal(titled.valid, true, JSON.stringify(titled.findings));
});
