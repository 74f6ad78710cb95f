// Pins issue 12 item 3 (graph-browser snapshot binding): once the served index file is replaced or altered every endpoint answers snapshot_replaced; a worker whose file already differs, or (under --no-ast) whose snapshot holds Logic, reports fatal before any read and exits non-zero.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { request as httpRequest } from 'node:http';
import { IndexManager } from '@docforge/sync';
import { validateGraphBrowserError, validateGraphBrowserWorkerMessage } from '@docforge/protocol';
import { exampleProjectCopy, sharedExampleProject } from './helpers/projects.js';
import { openBrowserSession, workerConfig, WorkerProcess, type BrowserSession } from './helpers/graph-browser.js';

const ID = encodeURIComponent('code:src/ledger/ledger.ts#Ledger.post');
const ENDPOINTS = ['/api/overview', '/api/search?q=ledger', '/api/filter?kind=method', `/api/nodes/${ID}`, `/api/nodes/${ID}/neighborhood`, `/api/nodes/${ID}/flow`, `/api/nodes/${ID}/web`, `/api/nodes/${ID}/logic`, `/api/nodes/${ID}/source`];

async function allReplaced(session: BrowserSession): Promise<void> {
  for (const urlPath of ENDPOINTS) {
    const { status, body } = await session.json(urlPath);
    assert.equal(status, 409, urlPath);
    assert.ok(validateGraphBrowserError(body));
    assert.equal(body.error.code, 'snapshot_replaced', urlPath);
  }
}

async function allServed(session: BrowserSession): Promise<void> {
  for (const urlPath of ENDPOINTS) assert.equal((await session.json(urlPath)).status, 200, urlPath);
}

test('after the index file is replaced (new inode, same bytes) every endpoint answers snapshot_replaced, for good', async () => {
  const config = await workerConfig(exampleProjectCopy(), { workerId: 'replaced' });
  const session = await openBrowserSession(config);
  await allServed(session);
  copyFileSync(config.index_path, `${config.index_path}.tmp`);
  renameSync(`${config.index_path}.tmp`, config.index_path);
  await allReplaced(session);
  assert.equal(await session.worker.stop(), 0);
});

test('after the index file is altered in place (times changed, same inode and size) every endpoint answers snapshot_replaced', async () => {
  const config = await workerConfig(exampleProjectCopy(), { workerId: 'altered' });
  const session = await openBrowserSession(config);
  await allServed(session);
  const st = statSync(config.index_path);
  utimesSync(config.index_path, st.atime, new Date(st.mtimeMs - 60_000));
  assert.equal(String(statSync(config.index_path).ino), config.signature.index_ino);
  await allReplaced(session);
  assert.equal(await session.worker.stop(), 0);
});

test('a sync that publishes a new generation leaves the old worker on its exact snapshot until that file is collected', async () => {
  const root = exampleProjectCopy();
  const config = await workerConfig(root, { workerId: 'resynced' });
  const session = await openBrowserSession(config);
  writeFileSync(path.join(root, 'docs/guides/added.md'), '# Added\n\nA new page.\n');
  const manager = new IndexManager({ root, noAst: false });
  try {
    await manager.sync();
  } finally {
    await manager.close();
  }
  const fresh = await workerConfig(root);
  assert.notEqual(fresh.signature.index_file, config.signature.index_file, 'the sync published another file');
  const { body } = await session.json('/api/overview');
  assert.deepEqual((body as { signature: unknown }).signature, config.signature, 'the worker still serves the exact snapshot it was started on');
  await allServed(session);
  rmSync(config.index_path, { force: true });
  await allReplaced(session);
  assert.equal(await session.worker.stop(), 0);
});

/** Waits for exit; asserts one valid fatal message with `code` and no ready. */
async function fatal(worker: WorkerProcess, code: string): Promise<void> {
  const message = await worker.next('fatal');
  assert.ok(validateGraphBrowserWorkerMessage(message));
  assert.equal(message.code, code, message.message);
  assert.equal(await worker.exited, 1);
  assert.ok(!worker.messages.some((m) => m.type === 'ready'), 'never ready');
}

// The tests below that only read the index start their worker on the run's shared example project; the ones above
// change files and need a private copy (which a sync first builds again: its index file has a new inode).
test('a worker whose index file no longer matches the signature reports fatal snapshot_replaced and exits 1', async () => {
  const config = await workerConfig(sharedExampleProject(), { workerId: 'stale' });
  await fatal(new WorkerProcess({ ...config, signature: { ...config.signature, index_size: config.signature.index_size + 1 } }), 'snapshot_replaced');
  await fatal(new WorkerProcess({ ...config, signature: { ...config.signature, index_ino: '1' } }), 'snapshot_replaced');
});

test('under no-AST a snapshot containing Logic is rejected before any read: fatal policy_violation, exit 1, no listener', async () => {
  const config = await workerConfig(sharedExampleProject(), { workerId: 'noast', noAst: true });
  await fatal(new WorkerProcess(config), 'policy_violation');
});

test('under no-AST a Logic-free snapshot is served and its Logic endpoint answers adapter_policy_forbids_logic', async () => {
  const session = await openBrowserSession(await workerConfig(exampleProjectCopy(), { workerId: 'noast-ok', noAst: true, buildNoAst: true }));
  const { status, body } = await session.json(`/api/nodes/${ID}/logic`);
  assert.equal(status, 403);
  assert.ok(validateGraphBrowserError(body));
  assert.equal(body.error.code, 'adapter_policy_forbids_logic');
  const overview = await session.json('/api/overview');
  assert.equal((overview.body as { logic_allowed: boolean }).logic_allowed, false);
  assert.equal(await session.worker.stop(), 0);
});

test('a malformed configuration is refused with fatal invalid_arguments', async () => {
  await fatal(new WorkerProcess('{"worker_id":"x"}'), 'invalid_arguments');
  await fatal(new WorkerProcess('not json'), 'invalid_arguments');
});

test('the worker exits 0 when its manager channel closes', async () => {
  const worker = new WorkerProcess(await workerConfig(sharedExampleProject(), { workerId: 'orphan' }));
  const ready = await worker.next('ready');
  worker.child.disconnect();
  assert.equal(await worker.exited, 0);
  await assert.rejects(new Promise((resolve, reject) => httpRequest({ host: '127.0.0.1', port: ready.port, path: '/' }, resolve).on('error', reject).end()));
});
