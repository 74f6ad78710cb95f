// Pins issue 8 item 6: a wrong --project-root (missing, a file, relative) no longer kills docforge-mcp; it answers initialize and every tool call with project_root_invalid naming the root; a missing flag still exits with usage.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ToolName } from '@docforge/policy';
import { CLI_ENTRY, MCP_ENTRY } from './helpers/paths.js';
import { tempDir } from './helpers/projects.js';
import { expectError, useServer } from './helpers/server.js';

const TOOLS: ToolName[] = ['docforge_bootstrap', 'docforge_project_info', 'docforge_search', 'docforge_get_node', 'docforge_validate_project'];
const ARGS: Partial<Record<ToolName, Record<string, unknown>>> = { docforge_search: { query: 'x' }, docforge_get_node: { node_id: 'x' } };

function wrongRoots(): { label: string; root: string; problem: RegExp }[] {
  const base = tempDir('docforge-root-');
  const file = path.join(base, 'a-file.txt');
  writeFileSync(file, 'not a directory\n');
  return [
    { label: 'a missing directory', root: path.join(base, 'no-such-dir'), problem: /does not exist/ },
    { label: 'a file', root: file, problem: /is not a directory/ },
    { label: 'a relative path', root: 'examples', problem: /is not an absolute path/ },
  ];
}

for (const { label, root, problem } of wrongRoots()) {
  test(`--project-root naming ${label}: the server starts and every tool answers project_root_invalid`, async () => {
    const s = await useServer(root);
    const { tools } = await s.client.listTools();
    assert.ok(tools.some((t) => t.name === 'docforge_bootstrap'), 'tools/list answers with the usual tools');
    for (const tool of TOOLS) {
      const envelope = await s.call(tool, ARGS[tool] ?? {});
      const error = await expectError(envelope, 'project_root_invalid');
      assert.equal(error.remediation, 'fix_project_root');
      assert.equal(error.details.root, root);
      assert.ok(error.message.includes(JSON.stringify(root)), `the message names the root: ${error.message}`);
      assert.match(error.message, problem);
      assert.match(error.message, /--project-root/);
      assert.deepEqual(envelope.project, { id: null, root, revision: 0, source_hash: null, adapter_version: null, staleness: 'unknown' });
    }
    // The server keeps running after every failed call, and stderr carries the start error line.
    await s.client.ping();
    assert.ok(s.stderr().includes(`docforge-mcp: ${(await s.call('docforge_sync')).error!.message}`), s.stderr());
  });
}

test('a directory without docforge.toml starts bound and answers descriptor_invalid', async () => {
  const root = tempDir('docforge-nodesc-');
  const s = await useServer(root);
  const envelope = await s.call('docforge_bootstrap');
  await expectError(envelope, 'descriptor_invalid');
  assert.equal(envelope.project!.revision, 0);
  assert.equal(envelope.project!.staleness, 'unknown');
});

test('without --project-root the server prints its usage and exits with status 2', () => {
  const run = spawnSync(process.execPath, [MCP_ENTRY], { encoding: 'utf8', input: '' });
  assert.equal(run.status, 2);
  assert.match(run.stderr, /--project-root ABSOLUTE_DIR is required/);
  assert.match(run.stderr, /Usage: docforge-mcp/);
  assert.equal(run.stdout, '', 'nothing on stdout');
});

test('the command line reports the same project_root_invalid for a missing -C directory', () => {
  const missing = path.join(tempDir('docforge-root-'), 'gone');
  const run = spawnSync(process.execPath, [CLI_ENTRY, 'sync', '-C', missing], { encoding: 'utf8', input: '' });
  assert.equal(run.status, 1);
  assert.match(run.stderr, new RegExp(`project_root_invalid: Project root "${missing.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}" does not exist`));
});
