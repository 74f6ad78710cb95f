// Pins issue 8 item 4: a project-owned adapter that writes to stdout (console.log, console.info, process.stdout.write, on import and in extract) never reaches the MCP stream or `docforge sync --json`; the lines land in the stderr log.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CLI_ENTRY } from './helpers/paths.js';
import { tempDir } from './helpers/projects.js';
import { useServer } from './helpers/server.js';

const NOISY_ADAPTER = [
  "console.log('NOISY-IMPORT console.log');",
  "export const version = '1.0.0';",
  "export const inputs = ['services/*.json'];",
  'export function extract({ files }) {',
  "  console.log('NOISY-EXTRACT console.log', files.length);",
  "  console.info('NOISY-EXTRACT console.info');",
  "  process.stdout.write('NOISY-EXTRACT stdout.write\\n');",
  // A line that looks like a JSON-RPC response must not reach the client either.
  "  console.log(JSON.stringify({ jsonrpc: '2.0', id: 424242, result: {} }));",
  "  return { nodes: files.map((f) => ({ id: 'service:' + JSON.parse(f.content).name, kind: 'service', source_path: f.path })) };",
  '}',
  '',
].join('\n');

function noisyProject(): string {
  const root = tempDir('docforge-noisy-');
  for (const dir of ['docs', 'services', '.docforge']) mkdirSync(path.join(root, dir), { recursive: true });
  writeFileSync(path.join(root, 'docforge.toml'), 'schema_version = 1\n[project]\nid = "noisy"\nname = "Noisy"\n[sources]\ncontent_roots = ["docs"]\n[adapter]\ncode = "none"\nmodule = ".docforge/adapter.mjs"\n');
  writeFileSync(path.join(root, 'docs', 'index.md'), '# Noisy\n\nA project whose adapter prints.\n');
  writeFileSync(path.join(root, 'services', 'billing.json'), JSON.stringify({ name: 'billing' }));
  writeFileSync(path.join(root, '.docforge', 'adapter.mjs'), NOISY_ADAPTER);
  return root;
}

const MARKS = ['NOISY-IMPORT console.log', 'NOISY-EXTRACT console.log 1', 'NOISY-EXTRACT console.info', 'NOISY-EXTRACT stdout.write', '"id":424242'];

test('over MCP: the client sees no stray line and keeps working; stderr has every line', async () => {
  const root = noisyProject();
  const s = await useServer(root);
  const protocolErrors: Error[] = [];
  s.client.onerror = (error) => protocolErrors.push(error);
  const boot = await s.call('docforge_bootstrap');
  assert.equal(boot.ok, true, JSON.stringify(boot.error));
  // Rebuild twice more (extract runs on every build) and keep calling.
  writeFileSync(path.join(root, 'services', 'ledger.json'), JSON.stringify({ name: 'ledger' }));
  const node = await s.call('docforge_get_node', { node_id: 'service:ledger' });
  assert.equal(node.ok, true, JSON.stringify(node.error));
  await s.client.ping();
  assert.deepEqual(protocolErrors.map((e) => e.message), [], 'no protocol error reached the client');
  for (const mark of MARKS.slice(0, 4)) assert.ok(s.stderr().includes(mark), `${mark} in stderr:\n${s.stderr()}`);
  assert.ok(s.stderr().includes('424242'), 'the JSON-RPC look-alike went to stderr');
});

test('docforge sync --json: stdout stays one JSON document; the adapter lines go to stderr', () => {
  const root = noisyProject();
  const run = spawnSync(process.execPath, [CLI_ENTRY, 'sync', '--json', '-C', root], { encoding: 'utf8', input: '' });
  assert.equal(run.status, 0, run.stderr);
  const report = JSON.parse(run.stdout) as { rebuilt: boolean };
  assert.equal(report.rebuilt, true);
  for (const mark of MARKS.slice(0, 4)) {
    assert.ok(!run.stdout.includes(mark), `${mark} not on stdout`);
    assert.ok(run.stderr.includes(mark), `${mark} in stderr:\n${run.stderr}`);
  }
});
