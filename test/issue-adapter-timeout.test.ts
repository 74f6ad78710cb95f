// Pins issue 8 follow-up 1: a project-owned adapter whose extract() never settles (pending promise) or busy-loops is stopped after DOCFORGE_ADAPTER_TIMEOUT_MS; the call answers adapter_failed, the server keeps answering, and the next sync at the same sources answers the same error at once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { tempDir } from './helpers/projects.js';
import { expectError, useServer } from './helpers/server.js';

function hangingProject(body: string): string {
  const root = tempDir('docforge-hang-');
  for (const dir of ['docs', 'tools']) mkdirSync(path.join(root, dir), { recursive: true });
  writeFileSync(path.join(root, 'docforge.toml'), 'schema_version = 1\n[project]\nid = "hang"\nname = "Hang"\n[sources]\ncontent_roots = ["docs"]\n[adapter]\ncode = "none"\nmodule = "tools/adapter.mjs"\n');
  writeFileSync(path.join(root, 'docs', 'index.md'), '# Hang\n\nA project whose adapter never finishes.\n');
  writeFileSync(path.join(root, 'tools', 'adapter.mjs'), `export const version = '1.0.0';\nexport function extract() {\n  ${body}\n}\n`);
  return root;
}

for (const [name, body] of [['never-resolving promise', 'return new Promise(() => {});'], ['busy loop', 'for (;;) {}']] as const) {
  test(`a ${name} in extract() answers adapter_failed and the server keeps working`, async () => {
    const root = hangingProject(body);
    const s = await useServer(root, { env: { DOCFORGE_ADAPTER_TIMEOUT_MS: '300' } });
    const failed = await expectError(s.call('docforge_bootstrap'), 'adapter_failed');
    assert.match(failed.message, /did not finish within 300 ms/);
    assert.ok(s.stderr().includes('project-owned adapter timed out'), s.stderr());
    await s.client.ping();
    // Same sources: the same error at once (no second wait); every other call still answers.
    await expectError(s.call('docforge_search', { query: 'hang' }), 'adapter_failed');
    // get_contract reports the session's limits from a publication: with none yet it answers the sync error, promptly.
    const contract = await s.call('docforge_get_contract');
    assert.ok(contract.ok || contract.error?.code === 'adapter_failed', JSON.stringify(contract.error));
    // A source change retries in a fresh worker (and times out again).
    writeFileSync(path.join(root, 'docs', 'more.md'), '# More\n');
    await expectError(s.call('docforge_get_node', { node_id: 'doc:index' }), 'adapter_failed');
    await s.client.ping();
  });
}
