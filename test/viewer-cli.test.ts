// Pins `docforge viewer status|stop`: it never starts a manager, lists this project's workers (or every one with --all), stops this project's workers, and --all stops the manager itself.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import path from 'node:path';
import { CLI_ENTRY } from './helpers/paths.js';
import { exampleProjectCopy, removeDir, sharedExampleProject } from './helpers/projects.js';
import { useServer } from './helpers/server.js';
import { useViewerRuntime } from './helpers/viewer.js';

function cli(env: Record<string, string>, ...args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI_ENTRY, ...args], { env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d));
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

test('docforge viewer status and stop', async (t) => {
  const runtime = useViewerRuntime();
  const root = exampleProjectCopy();
  t.after(() => removeDir(root));
  const idle = await cli(runtime.env, 'viewer', 'status', '-C', root);
  assert.equal(idle.status, 0, idle.stderr);
  assert.match(idle.stdout, /viewer manager: not running/);
  assert.equal(await runtime.manager(), null, 'status never starts a manager');
  assert.match((await cli(runtime.env, 'viewer', 'stop', '-C', root)).stdout, /nothing to stop/);
  assert.equal((await cli(runtime.env, 'viewer', 'restart')).status, 2);

  const s = await useServer(root, { env: runtime.env });
  const v = await s.call('docforge_visualize', {});
  assert.equal(v.ok, true, JSON.stringify(v.error));
  const status = await cli(runtime.env, 'viewer', 'status', '-C', root, '--json');
  const parsed = JSON.parse(status.stdout) as { manager_running: boolean; workers: { worker_id: string; state: string }[] };
  assert.equal(parsed.manager_running, true);
  assert.deepEqual(parsed.workers.map((w) => [w.worker_id, w.state]), [[v.result!.worker.worker_id, 'running']]);
  assert.match((await cli(runtime.env, 'viewer', 'status', '--all')).stdout, new RegExp(`${v.result!.worker.worker_id}  running`));
  // The CLI reports freshness as docforge_visualization_status does: a source edited since the snapshot makes it stale.
  const fresh = JSON.parse((await cli(runtime.env, 'viewer', 'status', '-C', root, '--json')).stdout) as { workers: { snapshot_state: string; freshness: { index: string; source: string } }[] };
  assert.deepEqual([fresh.workers[0]!.snapshot_state, fresh.workers[0]!.freshness], ['current', { index: 'current', source: 'current' }]);
  appendFileSync(path.join(root, 'docs', 'guides', 'glossary.md'), '\nAn edit the snapshot has not seen.\n');
  const edited = await cli(runtime.env, 'viewer', 'status', '-C', root, '--json');
  const stale = (JSON.parse(edited.stdout) as typeof fresh).workers[0]!;
  assert.deepEqual([stale.snapshot_state, stale.freshness], ['stale', { index: 'current', source: 'stale' }]);
  const mcp = await s.call('docforge_visualization_status', {});
  assert.equal(mcp.result!.snapshot_state, 'stale', 'the MCP tool says the same');
  assert.match((await cli(runtime.env, 'viewer', 'status', '-C', root)).stdout, /snapshot stale \(sources changed since; run docforge sync\)/);
  // A deleted project's workers are still named by its path: status lists them, stop stops them.
  removeDir(root);
  const orphaned = await cli(runtime.env, 'viewer', 'status', '-C', root, '--json');
  assert.equal(orphaned.status, 0, orphaned.stderr);
  assert.deepEqual((JSON.parse(orphaned.stdout) as { workers: { worker_id: string }[] }).workers.map((w) => w.worker_id), [v.result!.worker.worker_id]);
  const stop = await cli(runtime.env, 'viewer', 'stop', '-C', root);
  assert.match(stop.stdout, /stopped 1 worker$/m);
  const all = await cli(runtime.env, 'viewer', 'stop', '--all', '--json');
  assert.equal((JSON.parse(all.stdout) as { manager_stopped: boolean }).manager_stopped, true);
  assert.equal(await runtime.manager(), null, 'the manager stopped');
});

test('docforge viewer open prints a one-time URL that opens the graph browser; usage errors start nothing', async (t) => {
  const runtime = useViewerRuntime();
  // Only reads the project: the run's shared fixture, current (a private copy is always built from scratch).
  const root = sharedExampleProject();
  t.after(async () => {
    await cli(runtime.env, 'viewer', 'stop', '--all');
  });
  for (const args of [['refund', '--node', 'CMP-LEDGER'], ['--depth', '2'], ['--all']]) {
    const refused = await cli(runtime.env, 'viewer', 'open', '-C', root, ...args);
    assert.equal(refused.status, 2, `${args.join(' ')}: ${refused.stderr}`);
    assert.match(refused.stderr, /Usage: docforge viewer open/);
  }
  assert.equal(await runtime.manager(), null, 'a usage error starts no manager');
  const missing = await cli(runtime.env, 'viewer', 'open', '-C', root, '--node', 'NO-SUCH-NODE');
  assert.equal(missing.status, 1);
  assert.match(missing.stderr, /node_not_found/);

  const jsonRefusal = await cli(runtime.env, 'viewer', 'open', '-C', root, 'refund', '--node', 'CMP-LEDGER', '--json');
  assert.equal(jsonRefusal.status, 2);
  assert.equal((JSON.parse(jsonRefusal.stdout) as { error: { code: string } }).error.code, 'invalid_arguments', 'with --json a usage error is JSON on stdout');

  const opened = await cli(runtime.env, 'viewer', 'open', '-C', root, '--node', 'CMP-LEDGER');
  assert.equal(opened.status, 0, opened.stderr);
  // The server the command starts runs under the caller's environment: its worker is this runtime dir's.
  const status = JSON.parse((await cli(runtime.env, 'viewer', 'status', '-C', root, '--json')).stdout) as { manager_running: boolean; workers: { worker_id: string }[] };
  assert.equal(status.manager_running, true, 'the manager of DOCFORGE_VIEWER_RUNTIME_DIR serves it');
  assert.ok(status.workers.some((w) => opened.stdout.includes(w.worker_id)), JSON.stringify(status));
  const url = opened.stdout.split('\n')[0]!;
  assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+&focus=CMP-LEDGER$/);
  assert.match(opened.stdout, /focus CMP-LEDGER; generation \d+; worker w-/);
  const first = await fetch(url, { redirect: 'manual' });
  assert.equal(first.status, 303, 'the token is exchanged for a session cookie');
  const cookie = first.headers.get('set-cookie')!.split(';')[0]!;
  const page = await fetch(new URL(first.headers.get('location')!, url), { headers: { cookie } });
  assert.equal(page.status, 200);
  assert.match(await page.text(), /<html/i);
  assert.equal((await fetch(url, { redirect: 'manual' })).status, 403, 'the token works once');

  const json = await cli(runtime.env, 'viewer', 'open', '-C', root, 'refund', '--json');
  const envelope = JSON.parse(json.stdout) as { ok: boolean; result: { mode: string; query: string; worker: { reused: boolean } } };
  assert.deepEqual([envelope.ok, envelope.result.mode, envelope.result.query, envelope.result.worker.reused], [true, 'search', 'refund', true]);
});
