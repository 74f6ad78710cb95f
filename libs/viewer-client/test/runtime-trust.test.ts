// Pins issue 30 item 20: the viewer client refuses a runtime folder or socket it does not own (DOCFORGE_VIEWER_RUNTIME_DIR or XDG_RUNTIME_DIR owned by another uid, an ancestor writable by others and not sticky, a socket of another uid, a symlinked folder) with viewer_runtime_unsafe before it sends anything: a fake manager listening there receives no connection. The manager's ensureRuntimeDir refuses to create its folder there too.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, chownSync, existsSync, lchownSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after } from 'node:test';
import { ensureRuntimeDir } from '@docforge/ipc';
import { connectViewerManager, viewerRuntimePaths } from '../src/index.js';

const OTHER_UID = 65534;
const ROOT_NEEDED = process.getuid?.() !== 0 ? 'needs root to chown a folder to another uid' : false;

/** A fake manager on `socket` that records every connection and every byte it receives (it never answers). */
async function fakeManager(socket: string): Promise<{ server: Server; received: () => { connections: number; bytes: number } }> {
  let connections = 0;
  let bytes = 0;
  const server = createServer((conn) => {
    connections += 1;
    conn.on('data', (chunk: Buffer) => (bytes += chunk.length));
  });
  await new Promise<void>((resolve) => server.listen(socket, resolve));
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { server, received: () => ({ connections, bytes }) };
}

function base(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'dfv-trust-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Asserts that connecting (with and without spawn) is refused with viewer_runtime_unsafe and `reason`, and that the fake got nothing. */
async function refused(env: NodeJS.ProcessEnv, reason: string, received: () => { connections: number; bytes: number }): Promise<void> {
  for (const spawn of [false, true]) {
    await assert.rejects(
      connectViewerManager({ managerBin: '/nonexistent/manager.js', client: 'trust-test', spawn, env, startTimeoutMs: 500 }),
      (error: { code?: string; details?: { reason_code?: string }; message?: string }) => {
        assert.equal(error.code, 'viewer_runtime_unsafe', error.message);
        assert.equal(error.details?.reason_code, reason, error.message);
        assert.match(error.message ?? '', /Nothing was sent/);
        return true;
      },
    );
  }
  assert.deepEqual(received(), { connections: 0, bytes: 0 }, 'the fake manager received nothing');
}

test('DOCFORGE_VIEWER_RUNTIME_DIR owned by another uid: refused before connecting', { skip: ROOT_NEEDED }, async () => {
  const dir = path.join(base(), 'run');
  mkdirSync(dir, { mode: 0o700 });
  const fake = await fakeManager(path.join(dir, 'viewer.sock'));
  chownSync(dir, OTHER_UID, OTHER_UID);
  await refused({ DOCFORGE_VIEWER_RUNTIME_DIR: dir }, 'foreign_owner', fake.received);
});

test('XDG_RUNTIME_DIR owned by another uid (our own docforge folder inside it): refused', { skip: ROOT_NEEDED }, async () => {
  const xdg = path.join(base(), 'xdg');
  mkdirSync(path.join(xdg, 'docforge'), { recursive: true, mode: 0o700 });
  const fake = await fakeManager(viewerRuntimePaths({ XDG_RUNTIME_DIR: xdg }).socket);
  chownSync(xdg, OTHER_UID, OTHER_UID);
  await refused({ XDG_RUNTIME_DIR: xdg }, 'foreign_ancestor', fake.received);
});

test('a socket owned by another uid in our own folder: refused', { skip: ROOT_NEEDED }, async () => {
  const dir = path.join(base(), 'run');
  mkdirSync(dir, { mode: 0o700 });
  const socket = path.join(dir, 'viewer.sock');
  const fake = await fakeManager(socket);
  lchownSync(socket, OTHER_UID, OTHER_UID);
  await refused({ DOCFORGE_VIEWER_RUNTIME_DIR: dir }, 'foreign_owner', fake.received);
});

test('an ancestor writable by others without the sticky bit: refused; with the sticky bit it is accepted', async () => {
  const shared = path.join(base(), 'shared');
  const dir = path.join(shared, 'run');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(shared, 0o777);
  const fake = await fakeManager(path.join(dir, 'viewer.sock'));
  await refused({ DOCFORGE_VIEWER_RUNTIME_DIR: dir }, 'writable_ancestor', fake.received);
  chmodSync(shared, 0o1777);
  fake.server.close();
  const client = await connectViewerManager({ managerBin: '/nonexistent/manager.js', client: 'trust-test', spawn: false, env: { DOCFORGE_VIEWER_RUNTIME_DIR: dir } });
  assert.equal(client, null, 'a sticky shared ancestor is fine; nothing listens now');
});

test('a runtime folder writable by others, or a symbolic link to a folder: refused', async () => {
  const dir = path.join(base(), 'run');
  mkdirSync(dir, { mode: 0o700 });
  const fake = await fakeManager(path.join(dir, 'viewer.sock'));
  chmodSync(dir, 0o777);
  await refused({ DOCFORGE_VIEWER_RUNTIME_DIR: dir }, 'writable_by_others', fake.received);
  chmodSync(dir, 0o700);
  const link = path.join(path.dirname(dir), 'link');
  symlinkSync(dir, link);
  await refused({ DOCFORGE_VIEWER_RUNTIME_DIR: link }, 'not_a_directory', fake.received);
});

test('the manager never creates its runtime folder under a folder another user owns', { skip: ROOT_NEEDED }, () => {
  const foreign = path.join(base(), 'foreign');
  mkdirSync(foreign, { mode: 0o755 });
  chownSync(foreign, OTHER_UID, OTHER_UID);
  const paths = viewerRuntimePaths({ DOCFORGE_VIEWER_RUNTIME_DIR: path.join(foreign, 'run') });
  assert.throws(() => ensureRuntimeDir(paths), (error: { code?: string }) => error.code === 'viewer_runtime_unsafe');
  assert.equal(existsSync(paths.dir), false, 'nothing was created');
});
