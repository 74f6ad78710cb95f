/**
 * A graph-browser worker for browser tests: forks the worker's bin the way the viewer manager
 * does (DOCFORGE_WORKER_CONFIG, fork IPC), waits for `ready`, mints one-time tokens over IPC, and
 * a headless Chromium (Debian's /usr/bin/chromium through playwright-core) to open them.
 */
import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { CLI_ENTRY, REPO_ROOT } from './paths.js';

/** The compiled graph-browser worker launcher. */
export const GRAPH_BROWSER_BIN = path.join(REPO_ROOT, 'apps/graph-browser/bin/graph-browser.js');
/** The Chromium the browser tests drive (Debian package `chromium`; `.ci/run` installs it). */
export const CHROMIUM = process.env.DOCFORGE_CHROMIUM ?? '/usr/bin/chromium';
/** Where the browser tests write their screenshots (printed at the end of ops/run-tests.mjs). */
export const BROWSER_ARTIFACTS = path.join(REPO_ROOT, 'test/dist/artifacts/browser');

const READY_TIMEOUT_MS = 30_000;

/** A running worker bound to one project's published index. */
export interface RunningWorker {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** Mints a fresh one-time token; resolves with the absolute URL that trades it for the cookie. */
  tokenUrl(): Promise<string>;
  /** Stops the worker (IPC shutdown, then SIGKILL after 5 s). */
  stop(): Promise<void>;
}

/** Indexes `root` with the built CLI unless it already has a publication. */
export function ensureIndexed(root: string): void {
  if (existsSync(path.join(root, '.docforge', 'index', 'current.json'))) return;
  execFileSync(process.execPath, [CLI_ENTRY, 'sync', '-C', root], { stdio: 'pipe' });
}

/** Forks the worker on `root`'s current publication and waits until it listens. */
export async function startWorker(root: string, options: { noAst?: boolean } = {}): Promise<RunningWorker> {
  ensureIndexed(root);
  const projectRoot = realpathSync(root);
  const current = JSON.parse(readFileSync(path.join(projectRoot, '.docforge', 'index', 'current.json'), 'utf8')) as Record<string, unknown>;
  const config = {
    worker_id: `test${process.pid}${Date.now().toString(36)}`,
    project_root: projectRoot,
    project_id: String(current.project_id),
    index_path: path.join(projectRoot, '.docforge', 'index', String(current.index_file)),
    signature: {
      generation: current.generation, source_identity: current.source_identity, index_file: current.index_file,
      index_ino: current.index_ino, index_size: current.index_size,
    },
    no_ast: options.noAst ?? false,
  };
  const child: ChildProcess = fork(GRAPH_BROWSER_BIN, [], {
    env: { ...process.env, DOCFORGE_WORKER_CONFIG: JSON.stringify(config) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the graph-browser worker did not report ready')), READY_TIMEOUT_MS);
    child.on('message', (message: { type?: string; port?: number; code?: string; message?: string }) => {
      if (message.type === 'ready' && typeof message.port === 'number') {
        clearTimeout(timer);
        resolve(message.port);
      } else if (message.type === 'fatal') {
        clearTimeout(timer);
        reject(new Error(`graph-browser worker fatal: ${message.code} ${message.message}`));
      }
    });
    child.on('exit', (code) => reject(new Error(`the graph-browser worker exited with ${code}`)));
  });
  const origin = `http://127.0.0.1:${port}`;
  let counter = 0;
  return {
    origin,
    tokenUrl: () => new Promise<string>((resolve, reject) => {
      const requestId = `t${++counter}`;
      const timer = setTimeout(() => reject(new Error('no token from the worker')), READY_TIMEOUT_MS);
      const onMessage = (message: { type?: string; request_id?: string; url_path?: string }): void => {
        if (message.type !== 'token' || message.request_id !== requestId || typeof message.url_path !== 'string') return;
        clearTimeout(timer);
        child.off('message', onMessage);
        resolve(`${origin}${message.url_path}`);
      };
      child.on('message', onMessage);
      child.send({ type: 'issue_token', request_id: requestId });
    }),
    stop: () => new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      child.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      if (child.connected) child.send({ type: 'shutdown' });
      else child.kill('SIGTERM');
    }),
  };
}
