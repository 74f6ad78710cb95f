/** Shared helpers of the viewer manager tests: a temp runtime dir, a daemon with the stand-in worker, fake publications. */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { encodeFrame, IpcClient, NdjsonDecoder, viewerRuntimePaths, type PublicationSignature } from '@docforge/ipc';

const HERE = path.dirname(fileURLToPath(import.meta.url));
/** apps/viewer-manager/test/fixtures (tests run from dist/test). */
export const FIXTURES = path.resolve(HERE, '../../test/fixtures');

/** A running test daemon and its runtime dir; `stop()` always ends it and removes the dir. */
export interface TestDaemon {
  dir: string;
  socket: string;
  child: ChildProcess;
  connect(client?: string): Promise<IpcClient>;
  stop(): Promise<void>;
}

/** Starts the real daemon with the stand-in worker in a fresh temp runtime dir. */
export async function startDaemon(env: Record<string, string> = {}): Promise<TestDaemon> {
  const dir = mkdtempSync(path.join(tmpdir(), 'dfvm-'));
  const fullEnv = { ...process.env, DOCFORGE_VIEWER_RUNTIME_DIR: dir, ...env };
  const paths = viewerRuntimePaths(fullEnv);
  const child = spawn(process.execPath, [path.join(FIXTURES, 'daemon.mjs')], { env: fullEnv, stdio: ['ignore', 'ignore', 'inherit'] });
  // A hang guard, not a timing assertion: a loaded machine may take many seconds to start Node (issue 29 item 7).
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      (await IpcClient.connect(paths.socket, { client: 'probe', timeoutMs: 1000 })).close();
      break;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await sleep(20);
    }
  }
  return {
    dir,
    socket: paths.socket,
    child,
    connect: (client = 'test') => IpcClient.connect(paths.socket, { client }),
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        try {
          const c = await IpcClient.connect(paths.socket, { client: 'cleanup', timeoutMs: 2000 });
          await c.request('shutdown', {}).catch(() => {});
          c.close();
        } catch {
          /* already gone */
        }
        const exited = new Promise((resolve) => child.once('exit', resolve));
        const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
        if (child.exitCode === null && child.signalCode === null) await exited;
        clearTimeout(timer);
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Sends raw lines on a fresh connection and collects the replies until `count` arrived or the socket closed. */
export async function rawExchange(socket: string, lines: string[], count: number): Promise<{ replies: unknown[]; closed: boolean }> {
  return new Promise((resolve, reject) => {
    const s = connect(socket);
    const decoder = new NdjsonDecoder();
    const replies: unknown[] = [];
    // A hang guard, not a clock the test races: the replies or the close normally end the exchange. It was
    // 5 s, which a loaded machine's daemon could outlast before its seventh reply (issue 29 item 7).
    const timer = setTimeout(() => {
      s.destroy();
      resolve({ replies, closed: false });
    }, 60_000);
    s.on('connect', () => s.write(lines.join('')));
    s.on('error', reject);
    s.on('data', (chunk: Buffer) => {
      for (const l of decoder.push(chunk)) if (l.ok) replies.push(l.value);
      if (replies.length >= count) {
        clearTimeout(timer);
        s.destroy();
        resolve({ replies, closed: false });
      }
    });
    s.on('close', () => {
      clearTimeout(timer);
      resolve({ replies, closed: true });
    });
  });
}

/** A frame line. */
export function line(id: string, type: string, payload: object, version = 2): string {
  return encodeFrame({ protocol: 'docforge-viewer', version, id, type, payload });
}

/** A fake project with a published index (current.json + an index file) that tests can republish. */
export interface FakeProject {
  root: string;
  indexPath: string;
  signature: PublicationSignature;
  publish(generation: number): void;
  remove(): void;
}

/** Creates a fake project directory under the OS temp dir with generation `1` published. */
export function fakeProject(id = 'fake'): FakeProject {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'dfvm-proj-')));
  const indexDir = path.join(root, '.docforge', 'index');
  mkdirSync(indexDir, { recursive: true });
  // A real descriptor: the manager serves only the publication of a DocForge project.
  writeFileSync(path.join(root, 'docforge.toml'), `schema_version = 1\n\n[project]\nid = "${id}"\nname = "Fake"\n`);
  const project: FakeProject = {
    root,
    indexPath: '',
    signature: { generation: 1, source_identity: '0'.repeat(64), index_file: 'gen-1-a.sqlite', index_ino: '1', index_size: 1 },
    publish(generation: number) {
      const file = `gen-${generation}-a.sqlite`;
      const indexPath = path.join(indexDir, file);
      writeFileSync(indexPath, `index ${generation}`.padEnd(64 + generation, '.'));
      const st = statSync(indexPath, { bigint: true });
      const signature = { generation, source_identity: String(generation % 10).repeat(64), index_file: file, index_ino: String(st.ino), index_size: Number(st.size) };
      const current = {
        schema_version: 1, ...signature, source_hash: 'f'.repeat(64), index_schema_version: 1, adapter_version: 'test', logic_present: false, logic_allowed: true,
        project_id: id, counts: { sources: 0, nodes: 0, edges: 0, issues: 0, logic_steps: 0 }, published_at: new Date().toISOString(),
      };
      writeFileSync(path.join(indexDir, 'current.json'), JSON.stringify(current));
      project.indexPath = indexPath;
      project.signature = signature;
    },
    remove() {
      rmSync(root, { recursive: true, force: true });
    },
  };
  project.publish(1);
  return project;
}

/** The ensure_worker payload of a fake project's current publication. */
export function ensurePayload(p: FakeProject, id = 'fake'): { project_root: string; project_id: string; index_path: string; signature: PublicationSignature; no_ast: boolean } {
  return { project_root: p.root, project_id: id, index_path: p.indexPath, signature: p.signature, no_ast: false };
}

/** Polls `check` every 25 ms until it returns a value, up to `timeoutMs` (60 s by default: a hang guard; a loaded machine is slow, never wrong). */
export async function until<T>(check: () => Promise<T | undefined>, what: string, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}
