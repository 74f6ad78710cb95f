/** Starts real graph-browser workers the way the viewer manager does (fork of the committed bin with DOCFORGE_WORKER_CONFIG and an IPC channel) and talks HTTP to them. */
import { fork, type ChildProcess } from 'node:child_process';
import { after } from 'node:test';
import path from 'node:path';
import { IndexManager } from '@docforge/sync';
import { readPublication } from '@docforge/store';
import type { GraphBrowserWorkerConfig, GraphBrowserWorkerMessage } from '@docforge/protocol';
import { REPO_ROOT } from './paths.js';

/** The committed launcher the manager forks. */
export const GRAPH_BROWSER_BIN = path.join(REPO_ROOT, 'apps/graph-browser/bin/graph-browser.js');

const children = new Set<ChildProcess>();
// A worker left running by a failed assertion would keep the test process alive: kill them all after the file's tests.
after(() => {
  for (const child of children) child.kill('SIGKILL');
});

/**
 * The worker configuration of the project's current publication, after a sync (which republishes
 * a copied project, whose index file has a new inode, and builds one without state). `noAst` is the
 * worker's binding; `buildNoAst` the binding of that sync (a Logic-free index).
 */
export async function workerConfig(root: string, options: { noAst?: boolean; buildNoAst?: boolean; workerId?: string } = {}): Promise<GraphBrowserWorkerConfig> {
  const manager = new IndexManager({ root, noAst: options.buildNoAst === true });
  try {
    // A no-op on a current index; a copied project (new inodes) or one without state gets published first.
    await manager.sync();
    const publication = readPublication(manager.layout());
    if (publication === null) throw new Error(`no publication in ${root}`);
    const { generation, source_identity, index_file, index_ino, index_size } = publication;
    return {
      worker_id: options.workerId ?? 'test-worker',
      project_root: root,
      project_id: publication.project_id,
      index_path: path.join(manager.layout().indexDir, index_file),
      signature: { generation, source_identity, index_file, index_ino, index_size },
      no_ast: options.noAst === true,
    };
  } finally {
    await manager.close();
  }
}

/** A forked worker with its IPC messages. */
export class WorkerProcess {
  readonly child: ChildProcess;
  readonly messages: GraphBrowserWorkerMessage[] = [];
  readonly exited: Promise<number | null>;
  /** The worker's log (stderr, pino JSON lines at level info), at most 1 MB kept. */
  log = '';
  #waiters: (() => void)[] = [];
  #request = 0;

  constructor(config: GraphBrowserWorkerConfig | string) {
    const text = typeof config === 'string' ? config : JSON.stringify(config);
    this.child = fork(GRAPH_BROWSER_BIN, [], { env: { ...process.env, DOCFORGE_WORKER_CONFIG: text, DOCFORGE_LOG_LEVEL: 'info' }, stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
    children.add(this.child);
    this.child.stderr?.setEncoding('utf8');
    this.child.stderr?.on('data', (chunk: string) => {
      if (this.log.length < 1_000_000) this.log += chunk;
    });
    this.child.on('message', (message) => {
      this.messages.push(message as GraphBrowserWorkerMessage);
      for (const wake of this.#waiters.splice(0)) wake();
    });
    this.exited = new Promise((resolve) => this.child.on('exit', (code) => {
      children.delete(this.child);
      for (const wake of this.#waiters.splice(0)) wake();
      resolve(code);
    }));
  }

  /** The first message of `type` (after `from` earlier messages); rejects when the worker exits first. */
  async next<T extends GraphBrowserWorkerMessage['type']>(type: T, predicate: (m: Extract<GraphBrowserWorkerMessage, { type: T }>) => boolean = () => true): Promise<Extract<GraphBrowserWorkerMessage, { type: T }>> {
    for (;;) {
      const found = this.messages.find((m): m is Extract<GraphBrowserWorkerMessage, { type: T }> => m.type === type && predicate(m as Extract<GraphBrowserWorkerMessage, { type: T }>));
      if (found) return found;
      if (this.child.exitCode !== null || this.child.signalCode !== null) throw new Error(`worker exited (${this.child.exitCode}) before a ${type} message: ${JSON.stringify(this.messages)}`);
      await new Promise<void>((resolve) => this.#waiters.push(resolve));
    }
  }

  /** Asks for a one-time token as the manager does. */
  async token(): Promise<Extract<GraphBrowserWorkerMessage, { type: 'token' }>> {
    const request_id = `r${++this.#request}`;
    this.child.send({ type: 'issue_token', request_id });
    return this.next('token', (m) => m.request_id === request_id);
  }

  /** Sends shutdown and waits for the exit code. */
  async stop(): Promise<number | null> {
    if (this.child.connected) this.child.send({ type: 'shutdown' });
    return this.exited;
  }
}

/** A running worker plus an HTTP client that holds its session cookie. */
export interface BrowserSession {
  worker: WorkerProcess;
  port: number;
  base: string;
  cookieName: string;
  /** `name=value` of the session cookie. */
  cookie: string;
  /** GET with the session cookie (extra headers override). */
  get(urlPath: string, headers?: Record<string, string>): Promise<Response>;
  /** GET returning status and parsed JSON. */
  json(urlPath: string): Promise<{ status: number; body: unknown }>;
}

/** Starts a worker on `config`, trades one token for the cookie, and returns the session. */
export async function openBrowserSession(config: GraphBrowserWorkerConfig): Promise<BrowserSession> {
  const worker = new WorkerProcess(config);
  const ready = await worker.next('ready');
  const base = `http://127.0.0.1:${ready.port}`;
  const token = await worker.token();
  const traded = await fetch(base + token.url_path, { redirect: 'manual' });
  if (traded.status !== 303) throw new Error(`token trade answered ${traded.status}`);
  const cookie = (traded.headers.get('set-cookie') ?? '').split(';')[0]!;
  const get = (urlPath: string, headers: Record<string, string> = {}): Promise<Response> => fetch(base + urlPath, { redirect: 'manual', headers: { cookie, ...headers } });
  return {
    worker,
    port: ready.port,
    base,
    cookieName: ready.cookie_name,
    cookie,
    get,
    async json(urlPath) {
      const response = await get(urlPath);
      return { status: response.status, body: (await response.json()) as unknown };
    },
  };
}
