/**
 * Connecting to the per-user viewer manager, spawning it detached when none answers (so the end of
 * an MCP host's standard input or its exit closes no listener), and its typed requests.
 */
import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { DocforgeError, errors } from '@docforge/core';
import { ensureRuntimeDir, IpcClient, verifyRuntimeDir, viewerRuntimePaths, type RequestType, type ViewerRequests, type ViewerRuntimePaths } from '@docforge/ipc';

/** Options of {@link connectViewerManager}. */
export interface ViewerConnectOptions {
  /** Absolute path of the manager launcher (`bin` of @docforge/viewer-manager), resolved by the calling app. */
  managerBin: string;
  /** Client name for hello (`docforge-mcp`, `docforge`). */
  client: string;
  /** Start the manager when none answers (visualize); false only reports (status, stop). */
  spawn: boolean;
  /** Environment of the manager (runtime dir, idle timeout); default `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** Milliseconds to wait for a spawned manager to answer; default 10,000. */
  startTimeoutMs?: number;
}

function unreachable(error: unknown): boolean {
  if (!(error instanceof DocforgeError) || error.code !== 'viewer_unavailable') return false;
  const errno = error.details.errno;
  return errno === 'ENOENT' || errno === 'ECONNREFUSED';
}

/**
 * Connects to the manager of this user. With `spawn`, starts it detached (stdio to the per-user
 * log file, unref'd) when nothing listens, and waits until it answers hello. Before every connect
 * the runtime folder, its ancestors and the socket are proven to be this user's
 * (`verifyRuntimeDir`, issue 30 item 20): a manager another user could have bound never receives
 * a project root, an index path or a signature, and never hands back a URL.
 * @returns the greeted client, or null when `spawn` is false and no manager runs
 * @throws DocforgeError `viewer_runtime_unsafe` (nothing sent), `viewer_unavailable` (spawned manager never answered; details.log), `protocol_version_unsupported`
 */
export async function connectViewerManager(options: ViewerConnectOptions): Promise<ViewerManagerClient | null> {
  const env = options.env ?? process.env;
  const paths = viewerRuntimePaths(env);
  try {
    verifyRuntimeDir(paths);
    return new ViewerManagerClient(await IpcClient.connect(paths.socket, { client: options.client }), paths, false);
  } catch (error) {
    if (!unreachable(error) || !options.spawn) {
      if (unreachable(error)) return null;
      throw error;
    }
  }
  ensureRuntimeDir(paths);
  const logFd = openSync(paths.log, 'a', 0o600);
  try {
    const child = spawn(process.execPath, [options.managerBin], { detached: true, stdio: ['ignore', logFd, logFd], env });
    child.unref();
  } finally {
    closeSync(logFd);
  }
  const deadline = Date.now() + (options.startTimeoutMs ?? 10_000);
  let last: unknown = null;
  while (Date.now() < deadline) {
    try {
      verifyRuntimeDir(paths);
      return new ViewerManagerClient(await IpcClient.connect(paths.socket, { client: options.client, timeoutMs: Math.max(100, deadline - Date.now()) }), paths, true);
    } catch (error) {
      if (!unreachable(error)) throw error;
      last = error;
      await sleep(15);
    }
  }
  throw errors.viewerUnavailable(`The viewer manager did not start within ${options.startTimeoutMs ?? 10_000} ms; see ${paths.log}.`, { log: paths.log, cause: last instanceof Error ? last.message : null });
}

/** One greeted connection to the manager with typed requests. Close it when done. */
export class ViewerManagerClient {
  /** Requests sent on this connection, hello included (diagnostics counter `viewer_requests`). */
  requests = 1;

  /** @internal use {@link connectViewerManager} */
  constructor(private readonly ipc: IpcClient, readonly paths: ViewerRuntimePaths, readonly spawned: boolean) {}

  /** The manager's hello result (pid, start time). */
  get manager(): ViewerRequests['hello']['result'] {
    return this.ipc.hello!;
  }

  private send<T extends RequestType>(type: T, payload: ViewerRequests[T]['request'], timeoutMs?: number): Promise<ViewerRequests[T]['result']> {
    this.requests += 1;
    return this.ipc.request(type, payload, timeoutMs);
  }

  /** `ensure_worker`: a ready worker of this root and exact signature (reused while current). Waits up to 30 s. */
  ensureWorker(payload: ViewerRequests['ensure_worker']['request']): Promise<ViewerRequests['ensure_worker']['result']> {
    return this.send('ensure_worker', payload, 30_000);
  }

  /** `issue_token`: a fresh one-time token and the loopback URL that trades it. */
  issueToken(workerId: string): Promise<ViewerRequests['issue_token']['result']> {
    return this.send('issue_token', { worker_id: workerId });
  }

  /** `worker_status`: the workers of one project root, newest first. */
  workerStatus(projectRoot: string): Promise<ViewerRequests['worker_status']['result']> {
    return this.send('worker_status', { project_root: projectRoot });
  }

  /** `stop_worker`: stops one worker or every worker of a project root. */
  stopWorker(target: { worker_id: string } | { project_root: string }): Promise<ViewerRequests['stop_worker']['result']> {
    return this.send('stop_worker', target, 30_000);
  }

  /** `list_workers`: every worker and the manager itself. */
  listWorkers(): Promise<ViewerRequests['list_workers']['result']> {
    return this.send('list_workers', {});
  }

  /** `shutdown`: stops every worker, then the manager. */
  shutdown(): Promise<ViewerRequests['shutdown']['result']> {
    return this.send('shutdown', {}, 30_000);
  }

  /** Closes the connection (the manager and its workers keep running). */
  close(): void {
    this.ipc.close();
  }
}
