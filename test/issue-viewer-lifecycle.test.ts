// Pins the visualization lifecycle end to end (issue 12): two MCP processes share one worker with their own tokens, the worker outlives the MCP process, two projects get two workers under one manager usable from one cookie jar, status separates lifecycle and freshness (stale after an edit and a sync), the next visualize starts a fresh worker, stop ends current and stale workers, diagnostics count viewer requests.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync } from 'node:fs';
import path from 'node:path';
import { exampleProjectCopy, removeDir, sharedExampleProject } from './helpers/projects.js';
import { expectError, useServer } from './helpers/server.js';
import { CookieJar, useViewerRuntime } from './helpers/viewer.js';

const NODE = 'CMP-AUTH-GATEWAY';
const GUIDE = 'getting-started.md';

// The tests that only read the project (visualize, stop) use the run's shared fixture, which is current:
// a private copy is always built from scratch (about 1.2 s of CPU, issue 29 item 7).
test('two MCP processes on one project share one worker, each with its own token; the worker keeps serving after both exit', async () => {
  const runtime = useViewerRuntime();
  const root = sharedExampleProject();
  const a = await useServer(root, { env: runtime.env });
  const b = await useServer(root, { env: runtime.env });
  const va = await a.call('docforge_visualize', {});
  assert.equal(va.ok, true, JSON.stringify(va.error));
  const vb = await b.call('docforge_visualize', { node_id: NODE });
  assert.equal(vb.ok, true, JSON.stringify(vb.error));
  assert.equal(va.result!.template, 'graph-browser@17');
  assert.equal(va.result!.mode, 'overview');
  assert.equal(vb.result!.mode, 'focus');
  assert.equal(vb.result!.worker.worker_id, va.result!.worker.worker_id, 'one shared worker');
  assert.equal(vb.result!.worker.reused, true);
  assert.notEqual(new URL(va.result!.url).searchParams.get('token'), new URL(vb.result!.url).searchParams.get('token'));
  assert.equal(new URL(vb.result!.url).searchParams.get('focus'), NODE);
  assert.equal(va.result!.snapshot.generation, va.project!.revision);
  await expectError(a.call('docforge_visualize', { node_id: 'NO-SUCH-NODE' }), 'node_not_found');
  await expectError(a.call('docforge_visualize', { node_id: NODE, query: 'ledger' }), 'invalid_arguments');
  await expectError(a.call('docforge_visualize', { port: 80 } as Record<string, unknown>), 'invalid_arguments');

  const jar = new CookieJar();
  assert.equal(await jar.open(va.result!.url), 303);
  const origin = new URL(va.result!.url).origin;
  assert.equal((await jar.get(origin, '/api/overview')).status, 200);
  await a.close();
  await b.close();
  const after = await jar.get(origin, '/api/overview');
  assert.equal(after.status, 200, 'the worker keeps serving after the MCP processes exit');
  const c = await runtime.manager();
  assert.ok(c, 'the manager outlives the MCP processes');
  const list = await c.request('list_workers', {});
  assert.equal(list.workers.filter((w) => w.state === 'running').length, 1);
  c.close();
});

test('two projects get two workers under one manager, both usable from one cookie jar', async (t) => {
  const runtime = useViewerRuntime();
  const one = sharedExampleProject();
  const two = exampleProjectCopy();
  t.after(() => removeDir(two));
  const s1 = await useServer(one, { env: runtime.env });
  const s2 = await useServer(two, { env: runtime.env });
  const v1 = (await s1.call('docforge_visualize', { query: 'ledger' })).result!;
  const v2 = (await s2.call('docforge_visualize', {})).result!;
  assert.equal(v1.mode, 'search');
  assert.notEqual(v1.worker.worker_id, v2.worker.worker_id);
  assert.notEqual(v1.worker.port, v2.worker.port);
  const jar = new CookieJar();
  assert.equal(await jar.open(v1.url), 303);
  assert.equal(await jar.open(v2.url), 303);
  assert.equal(jar.cookies.size, 2, 'each worker has its own cookie name');
  for (const v of [v1, v2]) assert.equal((await jar.get(new URL(v.url).origin, '/api/overview')).status, 200);
  const c = (await runtime.manager())!;
  const list = await c.request('list_workers', {});
  assert.deepEqual(new Set(list.workers.map((w) => w.project_root)).size, 2);
  c.close();
  const stopped = await s1.call('docforge_stop_visualization');
  assert.deepEqual(stopped.result!.stopped, [v1.worker.worker_id], 'stop touches only this project');
  assert.equal((await jar.get(new URL(v2.url).origin, '/api/overview')).status, 200);
});

test('status separates lifecycle and freshness; after an edit and a sync it is stale and the next visualize starts a fresh worker', async (t) => {
  const runtime = useViewerRuntime();
  const root = exampleProjectCopy();
  t.after(() => removeDir(root));
  const s = await useServer(root, { env: runtime.env, diagnostics: true });
  const none = await s.call('docforge_visualization_status');
  assert.equal(none.ok, true, JSON.stringify(none.error));
  assert.deepEqual([none.result!.lifecycle.manager, none.result!.lifecycle.state, none.result!.staleness], ['not_running', 'none', 'unknown']);
  assert.equal(await runtime.manager(), null, 'status never starts a manager');
  const nothing = await s.call('docforge_stop_visualization');
  assert.deepEqual(nothing.result, { stopped: [], manager_running: false });

  const first = await s.call('docforge_visualize', {});
  assert.ok(first.diagnostics!.stages.viewer_manager.count >= 1);
  assert.ok(first.diagnostics!.counters.viewer_requests >= 3, 'hello, ensure_worker, issue_token');
  const current = await s.call('docforge_visualization_status');
  assert.equal(current.result!.lifecycle.state, 'running');
  assert.deepEqual(current.result!.freshness, { index: 'current', source: 'current' });
  assert.equal(current.result!.snapshot_state, 'current');
  assert.equal(current.project!.staleness, 'current');
  assert.deepEqual(current.result!.snapshot, first.result!.snapshot);
  assert.ok(current.diagnostics!.counters.viewer_requests >= 2);

  appendFileSync(path.join(root, 'docs', 'guides', GUIDE), '\nAn edit after the visualization.\n');
  const edited = await s.call('docforge_visualization_status');
  assert.deepEqual(edited.result!.freshness, { index: 'current', source: 'stale' }, 'status never syncs');
  assert.equal(edited.result!.staleness, 'stale');

  const synced = await s.call('docforge_sync');
  assert.ok(synced.project!.revision > first.result!.snapshot.generation);
  const stale = await s.call('docforge_visualization_status');
  assert.equal(stale.result!.lifecycle.state, 'running', 'a stale worker stays running');
  assert.equal(stale.result!.freshness.index, 'stale');
  assert.equal(stale.result!.snapshot_state, 'stale');
  assert.equal(stale.project!.staleness, 'stale');

  const next = await s.call('docforge_visualize', {});
  assert.notEqual(next.result!.worker.worker_id, first.result!.worker.worker_id, 'a stale worker is never reused');
  assert.equal(next.result!.worker.reused, false);
  const fresh = await s.call('docforge_visualization_status');
  assert.equal(fresh.result!.staleness, 'current');
  assert.deepEqual(fresh.result!.lifecycle.workers.map((w: { worker_id: string; signature_state: string; state: string }) => [w.worker_id, w.state, w.signature_state]), [
    [next.result!.worker.worker_id, 'running', 'current'],
    [first.result!.worker.worker_id, 'running', 'stale'],
  ]);
  const stopped = await s.call('docforge_stop_visualization');
  assert.deepEqual([...stopped.result!.stopped].sort(), [first.result!.worker.worker_id, next.result!.worker.worker_id].sort());
  const after = await s.call('docforge_visualization_status');
  assert.equal(after.result!.lifecycle.state, 'stopped');
  assert.equal(after.result!.staleness, 'unknown');
});

test('a manager killed with SIGKILL is replaced on the next visualize (dead-owner lock, stale socket); its workers end with it', async () => {
  const runtime = useViewerRuntime();
  const root = sharedExampleProject();
  const s = await useServer(root, { env: runtime.env });
  const first = await s.call('docforge_visualize', {});
  assert.equal(first.ok, true, JSON.stringify(first.error));
  const c = (await runtime.manager())!;
  const before = await c.request('list_workers', {});
  c.close();
  const workerPid = before.workers[0]!.pid!;
  process.kill(before.manager.pid, 'SIGKILL');
  const alive = (pid: number): boolean => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  // Up to 60 s, a hang guard (it was 10 s, which a loaded machine could outlast: issue 29 item 7).
  for (const began = Date.now(); Date.now() - began < 60_000 && alive(workerPid); ) await new Promise((r) => setTimeout(r, 25));
  assert.equal(alive(workerPid), false, 'the orphaned worker exits when its manager channel closes');
  const next = await s.call('docforge_visualize', {});
  assert.equal(next.ok, true, JSON.stringify(next.error));
  assert.notEqual(next.result!.worker.worker_id, first.result!.worker.worker_id);
  const d = (await runtime.manager())!;
  assert.notEqual((await d.request('list_workers', {})).manager.pid, before.manager.pid);
  d.close();
});
