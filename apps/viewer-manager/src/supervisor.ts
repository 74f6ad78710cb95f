/**
 * The worker table of the viewer manager (DESIGN.md section 6): one graph-browser worker per
 * (project root, exact five-field publication signature), forked with an IPC channel; reused only
 * while its signature is still the published one; a stale worker keeps running but is never
 * reused; a worker that dies is recorded as dead and never restarted silently; a worker without
 * browser activity for the idle timeout is reclaimed.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { DocforgeError, errors, WORKER_CONFIG_ENV } from '@docforge/core';
import type { PublicationSignature, ViewerRequests, WorkerRecord } from '@docforge/ipc';
import { resolveServedIndex } from '@docforge/store';
import { describeValidationErrors, validateGraphBrowserWorkerMessage, type GraphBrowserWorkerMessage } from '@docforge/protocol';
import type { Logger } from 'pino';
import { sameSignature, signatureState } from './signature.js';

/** How the supervisor starts workers and when it reclaims them. */
export interface SupervisorOptions {
  /** Absolute path of the graph-browser worker launcher (`bin` of @docforge/graph-browser). */
  workerBin: string;
  /** File descriptor the workers' stdout and stderr go to (the per-user log file). */
  logFd: number;
  /** Milliseconds without browser activity before a worker is reclaimed. */
  idleTimeoutMs: number;
  /** Milliseconds a worker may take to report `ready`. */
  startTimeoutMs: number;
  logger: Logger;
}

type ExitReason = NonNullable<WorkerRecord['exit']>['reason'];

interface WorkerEntry {
  record: WorkerRecord;
  indexPath: string;
  child: ChildProcess | null;
  /** Settles once the worker reports ready (resolved) or fails to start (rejected with `worker_failed`). */
  ready: Promise<void>;
  settleReady: (error: DocforgeError | null) => void;
  lastActivityMs: number;
  /** Set when the manager asked the worker to stop: the reason its exit will be recorded with. */
  stopping: ExitReason | null;
  /** Resolves once the worker process exited and its exit is recorded. */
  exited: Promise<void>;
  markExited: () => void;
  /** Fails the start when the worker does not report ready in time (cleared on ready or exit). */
  startTimer: NodeJS.Timeout;
  log: Logger;
  tokens: Map<string, { resolve: (m: Extract<GraphBrowserWorkerMessage, { type: 'token' }>) => void; reject: (e: DocforgeError) => void; timer: NodeJS.Timeout }>;
}

/** A promise and the one call that settles it: resolved with `null`, rejected with an error (later calls are ignored). */
function settlement(): { promise: Promise<void>; settle: (error: DocforgeError | null) => void } {
  let settle: (error: DocforgeError | null) => void = () => {};
  const promise = new Promise<void>((resolve, reject) => {
    settle = (error) => (error === null ? resolve() : reject(error));
  });
  return { promise, settle };
}

/** Dead and stopped records kept for status reports (oldest dropped first). */
const MAX_ENDED_RECORDS = 64;
const TOKEN_TIMEOUT_MS = 5_000;
const STOP_GRACE_MS = 3_000;

/** The supervisor of one manager process. */
export class Supervisor {
  private readonly entries = new Map<string, WorkerEntry>();

  constructor(private readonly options: SupervisorOptions) {}

  /** Records of every known worker, newest first, with a fresh stat-only signature state. */
  list(projectRoot?: string): WorkerRecord[] {
    return [...this.entries.values()]
      .filter((e) => projectRoot === undefined || e.record.project_root === projectRoot)
      .map((e) => this.snapshot(e))
      .sort((a, b) => (a.started_at < b.started_at ? 1 : a.started_at > b.started_at ? -1 : 0));
  }

  /** Number of workers that are starting or running. */
  liveCount(): number {
    return [...this.entries.values()].filter((e) => e.child !== null).length;
  }

  /**
   * Returns a ready worker for the root and exact signature: a running one whose signature is
   * still the published one, else a freshly forked one.
   * @throws DocforgeError from {@link resolveServedIndex} (`project_root_invalid`, `descriptor_invalid`, `invalid_arguments`,
   *   `snapshot_replaced`) unless the index path is exactly the file the root's current.json publishes with that signature; `worker_failed` when the worker reports fatal, exits or misses the start timeout
   */
  async ensure(request: ViewerRequests['ensure_worker']['request']): Promise<ViewerRequests['ensure_worker']['result']> {
    const root = path.resolve(request.project_root);
    // Only the current publication of a real DocForge project is served (real paths; never any SQLite file anywhere).
    const served = resolveServedIndex(request.project_root, request.index_path, request.signature);
    const indexPath = served.indexPath;
    for (const entry of this.entries.values()) {
      if (entry.child === null || entry.stopping !== null || entry.record.project_root !== root || entry.record.no_ast !== request.no_ast) continue;
      if (!sameSignature(entry.record.signature, request.signature) || signatureState(entry.indexPath, entry.record.signature) !== 'current') continue;
      await entry.ready;
      return { worker: this.snapshot(entry), reused: true };
    }
    const entry = this.start(root, indexPath, request.project_id, request.signature, request.no_ast);
    await entry.ready;
    return { worker: this.snapshot(entry), reused: false };
  }

  /**
   * Asks a running worker for a fresh one-time token (also counts as activity: a browser is about to open it).
   * @throws DocforgeError `worker_not_found` for an unknown id; `worker_failed` for a worker that is not running or does not answer
   */
  async issueToken(workerId: string): Promise<ViewerRequests['issue_token']['result']> {
    const entry = this.entries.get(workerId);
    if (entry === undefined) throw errors.workerNotFound(workerId);
    const child = entry.child;
    if (child === null || entry.stopping !== null || entry.record.state !== 'running' || entry.record.port === null) {
      throw errors.workerFailed(`Worker ${workerId} is ${entry.record.state}; call docforge_visualize again to start a fresh one.`, { worker_id: workerId, state: entry.record.state });
    }
    const port = entry.record.port;
    const requestId = randomBytes(8).toString('hex');
    const message = await new Promise<Extract<GraphBrowserWorkerMessage, { type: 'token' }>>((resolve, reject) => {
      const timer = setTimeout(() => {
        entry.tokens.delete(requestId);
        reject(errors.workerFailed(`Worker ${workerId} did not issue a token within ${TOKEN_TIMEOUT_MS} ms.`, { worker_id: workerId }));
      }, TOKEN_TIMEOUT_MS);
      entry.tokens.set(requestId, { resolve, reject, timer });
      child.send({ type: 'issue_token', request_id: requestId }, (error) => {
        if (error === null || !entry.tokens.delete(requestId)) return;
        clearTimeout(timer);
        reject(errors.workerFailed(`Worker ${workerId} cannot be reached: ${error.message}`, { worker_id: workerId }));
      });
    });
    this.touch(entry, Date.now());
    return { worker_id: workerId, port, token: message.token, url_path: message.url_path, url: `http://127.0.0.1:${port}${message.url_path}` };
  }

  /** Stops one worker, or every worker of a project root (current or stale); returns the ids stopped. */
  async stop(target: { worker_id?: string; project_root?: string }, reason: ExitReason = 'stopped'): Promise<string[]> {
    if (target.worker_id !== undefined && !this.entries.has(target.worker_id)) throw errors.workerNotFound(target.worker_id);
    const root = target.project_root === undefined ? undefined : path.resolve(target.project_root);
    const chosen = [...this.entries.values()].filter((e) => e.child !== null && (target.worker_id !== undefined ? e.record.worker_id === target.worker_id : root === undefined || e.record.project_root === root));
    await Promise.all(chosen.map((e) => this.stopEntry(e, reason)));
    return chosen.map((e) => e.record.worker_id);
  }

  /** Reclaims every running worker whose last browser activity is older than the idle timeout; returns their ids. */
  async reclaimIdle(nowMs: number = Date.now()): Promise<string[]> {
    const idle = [...this.entries.values()].filter((e) => e.child !== null && e.stopping === null && e.record.state === 'running' && nowMs - e.lastActivityMs >= this.options.idleTimeoutMs);
    for (const e of idle) this.options.logger.info({ worker_id: e.record.worker_id, idle_ms: nowMs - e.lastActivityMs }, 'reclaiming idle worker');
    await Promise.all(idle.map((e) => this.stopEntry(e, 'idle_reclaimed')));
    return idle.map((e) => e.record.worker_id);
  }

  private snapshot(entry: WorkerEntry): WorkerRecord {
    return { ...entry.record, signature_state: signatureState(entry.indexPath, entry.record.signature), last_activity_at: new Date(entry.lastActivityMs).toISOString() };
  }

  private touch(entry: WorkerEntry, atMs: number): void {
    entry.lastActivityMs = Math.max(entry.lastActivityMs, Math.min(atMs, Date.now()));
  }

  private start(root: string, indexPath: string, projectId: string, signature: PublicationSignature, noAst: boolean): WorkerEntry {
    const workerId = `w-${randomBytes(8).toString('hex')}`;
    const now = Date.now();
    const config = { worker_id: workerId, project_root: root, project_id: projectId, index_path: indexPath, signature, no_ast: noAst };
    const log = this.options.logger.child({ worker_id: workerId });
    const child = fork(this.options.workerBin, [], {
      env: { ...process.env, [WORKER_CONFIG_ENV]: JSON.stringify(config) },
      stdio: ['ignore', this.options.logFd, this.options.logFd, 'ipc'],
    });
    const record: WorkerRecord = {
      worker_id: workerId, project_root: root, project_id: projectId, state: 'starting', signature_state: 'current', pid: child.pid ?? null, port: null,
      signature, no_ast: noAst, started_at: new Date(now).toISOString(), last_activity_at: new Date(now).toISOString(), exit: null, fatal: null,
    };
    const ready = settlement();
    ready.promise.catch(() => {});
    const exited = settlement();
    const entry: WorkerEntry = {
      record, indexPath, child, ready: ready.promise, settleReady: ready.settle, lastActivityMs: now, stopping: null, exited: exited.promise, markExited: () => exited.settle(null),
      startTimer: setTimeout(() => this.startTimedOut(entry), this.options.startTimeoutMs), log, tokens: new Map(),
    };
    this.entries.set(workerId, entry);
    log.info({ project_root: root, generation: signature.generation, pid: child.pid }, 'worker forked');
    child.on('message', (raw: unknown) => this.onMessage(entry, raw));
    child.on('error', (error) => log.error({ err: error }, 'worker process error'));
    child.on('exit', (code, signal) => this.onExit(entry, code, signal));
    return entry;
  }

  /** A worker still starting when its start timeout fires fails and is stopped. */
  private startTimedOut(entry: WorkerEntry): void {
    if (entry.record.state !== 'starting') return;
    entry.settleReady(errors.workerFailed(`The graph-browser worker did not report ready within ${this.options.startTimeoutMs} ms.`, { worker_id: entry.record.worker_id }));
    void this.stopEntry(entry, 'start_failed');
  }

  /** One IPC message from a worker: `ready`, `activity`, `token` (answers a waiting issueToken) or `fatal`. */
  private onMessage(entry: WorkerEntry, raw: unknown): void {
    const { record, log } = entry;
    if (!validateGraphBrowserWorkerMessage(raw)) {
      log.warn({ errors: describeValidationErrors(validateGraphBrowserWorkerMessage.errors) }, 'ignored a malformed worker message');
      return;
    }
    const message = raw;
    if (message.type === 'ready') {
      if (record.state !== 'starting') return;
      clearTimeout(entry.startTimer);
      record.state = 'running';
      record.port = message.port;
      log.info({ port: message.port }, 'worker ready');
      entry.settleReady(null);
    } else if (message.type === 'activity') {
      this.touch(entry, message.at_ms);
    } else if (message.type === 'token') {
      const waiting = entry.tokens.get(message.request_id);
      if (waiting === undefined) return;
      entry.tokens.delete(message.request_id);
      clearTimeout(waiting.timer);
      waiting.resolve(message);
    } else {
      record.fatal = { code: message.code.slice(0, 64), message: message.message.slice(0, 2000) };
      log.error({ code: message.code, message: message.message }, 'worker reported fatal');
    }
  }

  /** Records a worker's exit (stopped when the manager asked, else dead), fails whoever still waits on it. */
  private onExit(entry: WorkerEntry, code: number | null, signal: NodeJS.Signals | null): void {
    const { record, log } = entry;
    const workerId = record.worker_id;
    clearTimeout(entry.startTimer);
    const wasStarting = record.state === 'starting';
    const reason: ExitReason = entry.stopping ?? (record.fatal !== null ? 'fatal' : wasStarting ? 'start_failed' : 'crashed');
    record.state = entry.stopping !== null ? 'stopped' : 'dead';
    record.port = null;
    record.exit = { code, signal, at: new Date().toISOString(), reason };
    entry.child = null;
    log[record.state === 'dead' ? 'error' : 'info']({ code, signal, reason }, `worker ${record.state}`);
    const failure = errors.workerFailed(
      record.fatal !== null ? `The graph-browser worker failed: ${record.fatal.code}: ${record.fatal.message}` : `The graph-browser worker exited (${signal ?? `code ${code}`}) before it was ready.`,
      { worker_id: workerId, worker_code: record.fatal?.code ?? null },
    );
    entry.settleReady(failure);
    for (const [id, waiting] of entry.tokens) {
      clearTimeout(waiting.timer);
      waiting.reject(errors.workerFailed(`Worker ${workerId} exited before it issued a token.`, { worker_id: workerId }));
      entry.tokens.delete(id);
    }
    this.pruneEnded();
    entry.markExited();
  }

  private async stopEntry(entry: WorkerEntry, reason: ExitReason): Promise<void> {
    const child = entry.child;
    if (child === null) return;
    entry.stopping ??= reason;
    if (child.connected) child.send({ type: 'shutdown' }, () => {});
    else child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
    await entry.exited;
    clearTimeout(timer);
  }

  private pruneEnded(): void {
    const ended = [...this.entries.values()].filter((e) => e.child === null);
    for (const e of ended.slice(0, Math.max(0, ended.length - MAX_ENDED_RECORDS))) this.entries.delete(e.record.worker_id);
  }
}
