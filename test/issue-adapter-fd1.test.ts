// Pins issue x45 item 1: a project-owned adapter that writes to file descriptor 1 directly
// (fs.writeSync(1, ...)) or spawns a process with inherited stdio, inside extract() in the build
// worker thread, never puts a byte between docforge-mcp's JSON-RPC frames: the launcher runs the
// server as a child whose fd 1 is the client's stderr and whose fd 3 carries the frames. A raw
// client reads the launcher's stdout: every line is a JSON-RPC frame; the adapter's bytes are on stderr.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { MCP_ENTRY } from './helpers/paths.js';
import { tempDir } from './helpers/projects.js';

const FD1_ADAPTER = [
  "import { writeSync } from 'node:fs';",
  "import { spawnSync } from 'node:child_process';",
  "export const version = '1.0.0';",
  "export const inputs = ['services/*.json'];",
  'export function extract({ files }) {',
  "  writeSync(1, 'FD1-WRITESYNC\\n');",
  // A line that looks like a JSON-RPC response must not reach the client either.
  "  writeSync(1, JSON.stringify({ jsonrpc: '2.0', id: 434343, result: {} }) + '\\n');",
  "  spawnSync('sh', ['-c', 'echo FD1-SPAWNED'], { stdio: 'inherit' });",
  "  return { nodes: files.map((f) => ({ id: 'service:' + JSON.parse(f.content).name, kind: 'service', source_path: f.path })) };",
  '}',
  '',
].join('\n');

function fd1Project(): string {
  const root = tempDir('docforge-fd1-');
  for (const dir of ['docs', 'services']) mkdirSync(path.join(root, dir), { recursive: true });
  writeFileSync(path.join(root, 'docforge.toml'), 'schema_version = 1\n[project]\nid = "fd1"\nname = "Fd1"\n[sources]\ncontent_roots = ["docs"]\n[adapter]\ncode = "none"\nmodule = "adapter.mjs"\n');
  writeFileSync(path.join(root, 'docs', 'index.md'), '# Fd1\n\nA project whose adapter writes fd 1.\n');
  writeFileSync(path.join(root, 'services', 'billing.json'), JSON.stringify({ name: 'billing' }));
  writeFileSync(path.join(root, 'adapter.mjs'), FD1_ADAPTER);
  return root;
}

interface Frame {
  jsonrpc: string;
  id?: number;
  result?: { structuredContent?: { ok: boolean; project?: { staleness: string } } };
}

test('over MCP: fd-1 writes and inherited-stdio processes of an adapter go to stderr; stdout has frames only', async () => {
  const root = fd1Project();
  const child = spawn(process.execPath, [MCP_ENTRY, '--project-root', root], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => void (stderr += chunk));
  const answered = new Map<number, Frame>();
  const waiters = new Map<number, () => void>();
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    for (const line of chunk.split('\n')) {
      if (line === '') continue;
      try {
        const frame = JSON.parse(line) as Frame;
        if (typeof frame.id === 'number') {
          answered.set(frame.id, frame);
          waiters.get(frame.id)?.();
        }
      } catch {
        // A partial chunk: the final check parses the whole stdout line by line.
      }
    }
  });
  const request = (id: number, method: string, params: object): Promise<Frame> =>
    new Promise((resolve) => {
      waiters.set(id, () => resolve(answered.get(id) as Frame));
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    });
  await request(1, 'initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'fd1-test', version: '0' } });
  child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
  const boot = await request(2, 'tools/call', { name: 'docforge_bootstrap', arguments: {} });
  assert.equal(boot.result?.structuredContent?.ok, true, JSON.stringify(boot));
  // A second build runs extract again.
  writeFileSync(path.join(root, 'services', 'ledger.json'), JSON.stringify({ name: 'ledger' }));
  await request(3, 'tools/call', { name: 'docforge_get_node', arguments: { node_id: 'service:ledger' } });
  await request(4, 'ping', {});
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  child.stdin.end();
  // The server exits when its stdin closes, and the launcher with it.
  assert.equal(await exited, 0, stderr);
  const lines = stdout.split('\n').filter((line) => line !== '');
  for (const line of lines) {
    const frame = JSON.parse(line) as Frame;
    assert.equal(frame.jsonrpc, '2.0', line);
    assert.notEqual(frame.id, 434343, 'the JSON-RPC look-alike stayed off stdout');
  }
  assert.deepEqual(lines.map((line) => (JSON.parse(line) as Frame).id), [1, 2, 3, 4]);
  for (const mark of ['FD1-WRITESYNC', 'FD1-SPAWNED', '434343']) {
    assert.ok(!stdout.includes(mark), `${mark} not on stdout`);
    assert.ok(stderr.includes(mark), `${mark} on stderr:\n${stderr}`);
  }
});
