// Pins issue 30 items 4 and 6. Item 4: a start the project cannot honour (--canonical-applier on a project that has not opted in, an adapter module that cannot be loaded, a planted journal, a descriptor that does not load) no longer ends in "Connection closed": docforge-mcp starts, answers initialize, and answers every tool call with the structured error and its remediation. Item 6: a writer or applier id outside the id grammar ('bad id!') is a usage error of docforge-mcp and of the CLI (exit 2 with usage, nothing built), and createProjectServer / createGenericServer / createApplicationServer refuse it with invalid_arguments.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pino } from 'pino';
import { createApplicationServer, createGenericServer, createProjectServer } from '@docforge/mcp-server';
import type { ToolName } from '@docforge/policy';
import { CLI_ENTRY, MCP_ENTRY } from './helpers/paths.js';
import { exampleProjectCopy, sharedExampleProject } from './helpers/projects.js';
import { treeHashes } from './helpers/hashes.js';
import { expectError, useServer } from './helpers/server.js';

const TOOLS: [ToolName, Record<string, unknown>][] = [
  ['docforge_bootstrap', {}],
  ['docforge_search', { query: 'ledger' }],
  ['docforge_get_node', { node_id: 'CMP-LEDGER' }],
  ['docforge_register_changes', { operations: [{ op: 'node_update', node_id: 'CMP-LEDGER', set: { status: 'deprecated' } }] }],
  ['docforge_apply_changeset', { changeset_id: 'cs-x', changeset_sha256: '0'.repeat(64) }],
];

function editDescriptor(root: string, from: string, to: string): void {
  const file = path.join(root, 'docforge.toml');
  const text = readFileSync(file, 'utf8');
  assert.ok(text.includes(from), `docforge.toml holds ${from}`);
  writeFileSync(file, text.replace(from, to));
}

/** Starts docforge-mcp with `--canonical-applier reviewer` and asserts every tool answers `code` with `remediation`; returns the error. */
async function refusedEverywhere(root: string, code: string, remediation: string | null): Promise<{ message: string; remediation: string }> {
  const s = await useServer(root, { proposalWriter: 'agent', canonicalApplier: 'reviewer' });
  const { tools } = await s.client.listTools();
  assert.ok(tools.some((t) => t.name === 'docforge_bootstrap'), 'tools/list answers');
  let first: { message: string; remediation: string } | null = null;
  for (const [tool, args] of TOOLS) {
    const envelope = await s.call(tool, args);
    const error = await expectError(envelope, code);
    if (remediation !== null) assert.equal(error.remediation, remediation, tool);
    assert.equal(envelope.project!.root, root);
    first ??= error;
  }
  await s.client.ping();
  assert.ok(s.stderr().includes(`docforge-mcp: ${first!.message}`), 'stderr still carries the start error');
  return first!;
}

test('--canonical-applier on a project that has not opted in: every call answers canonical_applier_unavailable with its remedy', async () => {
  const root = exampleProjectCopy();
  editDescriptor(root, 'canonical_applier = "generic"', '');
  const before = treeHashes(root);
  const error = await refusedEverywhere(root, 'canonical_applier_unavailable', null);
  assert.match(error.message, /canonical_applier = "generic"/, 'the remedy is in the message');
  assert.ok(error.remediation.length > 0);
  assert.deepEqual(treeHashes(root), before, 'nothing in the project changed');
});

test('--canonical-applier with a project-owned adapter that cannot be loaded: every call answers the adapter error', async () => {
  const root = exampleProjectCopy();
  editDescriptor(root, 'canonical_applier = "generic"', 'module = "adapter.mjs"');
  writeFileSync(path.join(root, 'adapter.mjs'), "throw new Error('adapter module broken on purpose');\n");
  const s = await useServer(root, { proposalWriter: 'agent', canonicalApplier: 'reviewer' });
  const envelope = await s.call('docforge_bootstrap');
  assert.equal(envelope.ok, false);
  assert.notEqual(envelope.error!.code, 'internal_error', envelope.error!.message);
  for (const [tool, args] of TOOLS) assert.equal((await s.call(tool, args)).error?.code, envelope.error!.code, tool);
});

test('--canonical-applier with a planted journal: every call answers application_journal_invalid and nothing changes', async () => {
  const root = exampleProjectCopy();
  const app = path.join(root, '.docforge/application');
  const { mkdirSync } = await import('node:fs');
  mkdirSync(app, { recursive: true });
  writeFileSync(path.join(app, 'journal.json'), JSON.stringify({ schema_version: 2, changeset_id: '../../../x', changeset_sha256: '0'.repeat(64), applier: 'x', step: 'committed', started_at: 'x', files: [] }));
  const before = treeHashes(root);
  await refusedEverywhere(root, 'application_journal_invalid', null);
  assert.deepEqual(treeHashes(root), before);
  assert.ok(existsSync(path.join(app, 'journal.json')));
});

test('--canonical-applier on a directory without docforge.toml: every call answers descriptor_invalid', async () => {
  const root = exampleProjectCopy();
  writeFileSync(path.join(root, 'docforge.toml'), 'schema_version = "one"\n');
  await refusedEverywhere(root, 'descriptor_invalid', null);
});

const BAD_IDS = ['bad id!', 'a/b', '-dash', 'x'.repeat(257), 'é', "quo'te", ''];

test('docforge-mcp: a malformed --proposal-writer or --canonical-applier is a usage error (exit 2 with usage)', () => {
  const root = sharedExampleProject();
  for (const option of ['--proposal-writer', '--canonical-applier']) {
    for (const id of BAD_IDS) {
      const run = spawnSync(process.execPath, [MCP_ENTRY, '--project-root', root, `${option}=${id}`], { encoding: 'utf8', input: '', timeout: 120_000 });
      assert.equal(run.status, 2, `${option} ${JSON.stringify(id)}: ${run.stderr}`);
      assert.match(run.stderr, new RegExp(`${option} .* is not a valid id`), run.stderr);
      assert.match(run.stderr, /Usage: docforge-mcp/);
      assert.equal(run.stdout, '');
    }
  }
  // The grammar's edges are accepted: 256 characters, dots, underscores and dashes.
  const ok = spawnSync(process.execPath, [MCP_ENTRY, '--project-root', root, '--proposal-writer', `a.b_c-${'x'.repeat(250)}`, '--log-level', 'error'], { encoding: 'utf8', input: '', timeout: 120_000 });
  assert.equal(ok.status, 0, ok.stderr);
});

test('docforge changeset: a malformed --writer or --canonical-applier is a usage error (exit 2), nothing built', () => {
  const root = exampleProjectCopy();
  const before = treeHashes(root);
  for (const [sub, option] of [['abandon', '--writer'], ['apply', '--canonical-applier']] as const) {
    const extra = sub === 'apply' ? ['--sha256', '0'.repeat(64)] : [];
    const run = spawnSync(process.execPath, [CLI_ENTRY, 'changeset', sub, 'cs-x', '-C', root, `${option}=bad id!`, ...extra], { encoding: 'utf8', timeout: 120_000 });
    assert.equal(run.status, 2, `${sub}: ${run.stderr}`);
    assert.match(run.stderr, new RegExp(`${option} "bad id!" is not a valid id`));
  }
  assert.deepEqual(treeHashes(root), before, 'nothing was built or written');
});

test('createProjectServer, createGenericServer and createApplicationServer refuse a malformed id with invalid_arguments', async () => {
  const root = sharedExampleProject();
  const logger = pino({ level: 'silent' });
  const policy = { operations: ['node_update' as const], paths: ['docs/**'] };
  const refused = (fn: () => unknown): void => {
    assert.throws(fn, (error: { code?: string; message?: string }) => error.code === 'invalid_arguments' && /is not a valid id/.test(error.message ?? ''));
  };
  for (const id of BAD_IDS) {
    refused(() => createProjectServer({ projectRoot: root, logger, proposals: { writer: id, policy } }));
    refused(() => createProjectServer({ projectRoot: root, logger, canonicalApplier: id }));
    refused(() => createGenericServer({ projectRoot: root, logger, proposalWriter: id }));
    await assert.rejects(createApplicationServer({ projectRoot: root, logger, canonicalApplier: id }), (error: { code?: string }) => error.code === 'invalid_arguments');
  }
  const good = createProjectServer({ projectRoot: root, logger, proposals: { writer: 'agent-1.b_c', policy } });
  assert.equal(good.policy.proposal.writer_id, 'agent-1.b_c');
  await good.close();
});
