import path from 'node:path';
import { MessageChannel } from 'node:worker_threads';
import type { Piscina } from 'piscina';
import { DocforgeError, errors, toDocforgeError, type WireError } from '@docforge/core';
import {
  cheapIdentity, loadDescriptor, ProjectAdapterGuard, sourcePathClassifier, statIdentity, walkAdapterInputs, type Descriptor, type SourcePathClass, type StatIdentity,
} from '@docforge/project';
import { stateLayout, type StateLayout } from '@docforge/fs-safe';
import { identityExtra, identityWalk, walkIssueIdentities, type IdentityWalk } from './identity.js';
import { partialWalk } from './partial-walk.js';
import { adapterVersionCurrent, codeExtensionsOf } from './adapter-manifests.js';
import { resolveProjectRoot } from './project-root.js';
import type { BuildOutcome, BuildStats, BuildTask, PrimeTask } from './build-types.js';
import type { Publication } from './publication-format.js';
import { publicationFileIntact, readPublication, readPublicationOnce } from './publication.js';
import { IndexReader } from './reader.js';
import { identityWithInputs, type ProjectAdapterReport } from './project-adapter.js';
import { SourceWatch } from './source-watch.js';
import { applicationEpoch, openApplication } from './application-guard.js';
import { adapterTimeoutMs } from './adapter-timeout.js';
import { createBuildPool } from './build-pool.js';

export { resolveProjectRoot } from './project-root.js';

/** How often a sync re-reads `current.json` when the publication it was given vanished before it was opened. */
const OPEN_RETRIES = 5;

/** Progress of a long index build, forwarded as MCP progress notifications. */
export interface BuildProgress {
  stage: string;
  done: number;
  total: number;
}

/**
 * Freshness of what a response is served from (contract: staleness state). `unknown`: a canonical
 * application's journal is open, so the sources were not compared (issue 11).
 */
export type Staleness = 'current' | 'stale' | 'unknown';

/** What one synchronization found and did. */
export interface SyncReport {
  publication: Publication;
  descriptor: Descriptor;
  staleness: Staleness;
  /** Whether this call published a new generation. */
  rebuilt: boolean;
  stats: BuildStats | null;
  /** Why the sources could not be published, when the last good publication is served instead. */
  sync_error: WireError | null;
  /** Milliseconds spent walking and hashing file identities. */
  identity_ms: number;
  /**
   * Whether the project has a cheap source identity. False while a project-owned adapter is bound
   * that declares no `inputs` (or before the build worker has loaded it): every sync then runs the
   * build worker, which re-derives the graph and publishes only when its content changed.
   */
  identity_known: boolean;
  /** True when the source watcher stood in for the identity walk (nothing changed since the last trusted walk). */
  watched?: true;
  /**
   * How the sources were checked: `watched` (no walk, see {@link watched}), `partial` (only the
   * paths the watcher named were lstat'ed again; partial-walk.ts) or `full`. Absent when no walk
   * ran (descriptor error, open application).
   */
  walk?: 'full' | 'partial' | 'watched';
}

/** Options of an {@link IndexManager}. */
export interface IndexManagerOptions {
  /** Absolute project root (resolved with realpath once at construction). */
  root: string;
  /** `--no-ast`: Logic is never extracted and an index holding Logic is rejected before any read. */
  noAst: boolean;
  /** Project-relative files whose stat joins the cheap identity (a project-owned adapter's inputs). */
  extraIdentityFiles?: readonly string[];
  /** Receives warnings (e.g. a failed build); never stdout. */
  onWarning?: (message: string, details: Record<string, unknown>) => void;
  /**
   * Long-lived processes (the MCP server): watch the walked directories, so a sync with no change
   * since the last trusted walk skips the walk (source-watch.ts; issue 14 item 5). Default false.
   */
  watchSources?: boolean;
}

/**
 * Owns the synchronization of one bound project root: cheap identity check on every call, builds
 * in a single long-lived piscina worker (never on the main thread), atomic publication, and the
 * read-only connection to the current generation (DESIGN.md section 4; contract: "Every normal
 * tool call first checks current source identity and atomically rebuilds").
 */
export class IndexManager {
  readonly root: string;
  private readonly noAst: boolean;
  private readonly extraIdentityFiles: readonly string[];
  private readonly onWarning: (message: string, details: Record<string, unknown>) => void;
  private pool: Piscina | null = null;
  private chain: Promise<unknown> = Promise.resolve();
  private descriptorCache: { key: string; descriptor: Descriptor } | null = null;
  private current: { publication: Publication; reader: IndexReader } | null = null;
  private lastGeneration = 0;
  /** Set by invalidate(): the published file is not trusted even if its identity still matches. */
  private damaged = false;
  /** Project-owned adapter: implementation fingerprint taken at construction (process start). */
  private readonly adapterGuard: ProjectAdapterGuard;
  /** What the build worker reported about the project-owned adapter (null until it loaded it). */
  private adapterReport: ProjectAdapterReport | null = null;
  /**
   * The source identity at which the project-owned adapter last timed out, with the error answered.
   * Syncs at the same identity answer that error at once instead of waiting again; any source
   * change retries (docs/project-adapters.md, "Timeouts").
   */
  private adapterTimedOut: { identity: string; error: WireError } | null = null;
  /** The directory watcher standing for the identity walk while nothing changes (null unless `watchSources`). */
  private readonly sourceWatch: SourceWatch | null;
  /** The last walk of a sync and its identity: the base of the next partial walk (null without a watcher). */
  private lastWalk: { descriptor: Descriptor; walked: IdentityWalk; identity: string } | null = null;
  /** The single-path classifier of the descriptor of the last partial walk. */
  private classifier: { descriptor: Descriptor; classify: (rel: string) => SourcePathClass } | null = null;
  /** Idle-time work started after syncs (see {@link whenIdle}); settles, never rejects. */
  private idleWork: Promise<unknown> = Promise.resolve();
  /** Whether a priming walk is scheduled and not run yet. */
  private walkPrimeScheduled = false;
  private closed = false;

  /** @throws DocforgeError `project_root_invalid` when the root does not exist or is not a directory. */
  constructor(options: IndexManagerOptions) {
    const root = resolveProjectRoot(options.root);
    this.root = root;
    this.noAst = options.noAst;
    this.extraIdentityFiles = options.extraIdentityFiles ?? [];
    this.onWarning = options.onWarning ?? (() => undefined);
    this.sourceWatch = options.watchSources === true ? new SourceWatch(root) : null;
    let adapterModule: string | null = null;
    try {
      adapterModule = this.descriptor().adapter.module;
    } catch {
      // A descriptor that does not load binds no project-owned adapter; tools report the descriptor error.
    }
    this.adapterGuard = new ProjectAdapterGuard(root, adapterModule);
  }

  /**
   * Checks the project-owned adapter against the implementation fingerprint taken at process start
   * (one lstat per adapter file; files are re-hashed only when their stat changed). Call before
   * every tool. A detected change is permanent for the process.
   * @throws DocforgeError `adapter_restart_required` (stale, remediation `restart_project_server`)
   */
  checkProjectAdapter(): void {
    let module: string | null | undefined;
    try {
      module = this.descriptor().adapter.module;
    } catch {
      module = undefined;
    }
    this.adapterGuard.check(module);
  }

  /** The bound project-owned adapter (process-start fingerprint and the worker's report), or null. */
  projectAdapter(): { module: string; fingerprint: string; files: number; report: ProjectAdapterReport | null } | null {
    const fp = this.adapterGuard.fingerprint;
    return fp === null ? null : { module: fp.module, fingerprint: fp.fingerprint, files: fp.files.length, report: this.adapterReport };
  }

  /**
   * Whether the project has a cheap source identity (DESIGN.md section 4): always without a
   * project-owned adapter; with one only once the build worker has loaded it and it declares
   * `inputs`. See {@link SyncReport.identity_known} for what syncs do without it.
   */
  identityKnown(): boolean {
    if (this.adapterGuard.fingerprint === null) return true;
    return Array.isArray(this.adapterReport?.inputs);
  }

  /** The sources walked and every extra stat identity (identity.ts, shared with the no-change fast path). */
  private identityWalk(descriptor: Descriptor): IdentityWalk {
    return identityWalk(this.root, descriptor, this.extraIdentityFiles, this.adapterGuard.fingerprint?.fingerprint ?? null);
  }

  /** Cheap identity of walked sources plus extras plus the declared adapter inputs (when known). */
  private identityOf(descriptor: Descriptor, entries: Parameters<typeof cheapIdentity>[0], extra: readonly StatIdentity[]): string {
    const inputs = this.adapterReport?.inputs;
    if (this.adapterGuard.fingerprint === null || !Array.isArray(inputs)) return cheapIdentity(entries, extra);
    return identityWithInputs(entries, extra, walkAdapterInputs(this.root, inputs, descriptor.state.dir).files);
  }

  /** The descriptor, re-read only when docforge.toml's stat changed. @throws DocforgeError `descriptor_invalid`. */
  descriptor(): Descriptor {
    const id = statIdentity(path.join(this.root, 'docforge.toml'), 'docforge.toml');
    const key = id ? `${id.size}:${id.mtime_ns}:${id.ino}` : 'missing';
    if (this.descriptorCache?.key === key) return this.descriptorCache.descriptor;
    const descriptor = loadDescriptor(this.root);
    this.descriptorCache = { key, descriptor };
    return descriptor;
  }

  /** The state layout of the bound project. */
  layout(): StateLayout {
    return stateLayout(path.join(this.root, this.descriptor().state.dir), this.root);
  }

  /**
   * The cheap source identity of the sources as they are now (walk with lstat, hash; DESIGN.md
   * section 4), computed exactly as {@link sync} does but without building, opening SQLite or
   * writing (contract: status boundaries are non-repairing).
   * @returns null when the project cannot provide a cheap identity: the descriptor does not load,
   *   the walk fails, or a project-owned adapter declares no input files
   */
  cheapIdentity(): string | null {
    try {
      const descriptor = this.descriptor();
      if (!this.identityKnown()) return null;
      const { walk, extra } = this.identityWalk(descriptor);
      return this.identityOf(descriptor, walk.entries, extra);
    } catch {
      return null;
    }
  }

  /** Whether builds of this project may extract Logic (not --no-ast, strategy `ast`). */
  logicAllowed(descriptor: Descriptor = this.descriptor()): boolean {
    return !this.noAst && descriptor.adapter.strategy === 'ast';
  }

  /** The reader of the publication returned by the last successful sync. @throws DocforgeError `index_unavailable`. */
  reader(): IndexReader {
    if (!this.current) throw errors.indexUnavailable();
    return this.current.reader;
  }

  /**
   * Checks the cheap source identity against the current publication and rebuilds when it is
   * missing, stale or invalid. Calls are serialized. When sources cannot be published (for
   * example a broken descriptor), the last good publication is served with staleness `stale`.
   * @throws DocforgeError when there is no publication to serve at all.
   */
  sync(options: { onProgress?: (progress: BuildProgress) => void } = {}): Promise<SyncReport> {
    const run = this.chain.then(() => this.syncNow(options.onProgress));
    // Still inside the chain, so idle-time work is queued before the next sync can build.
    this.chain = run.then((report) => this.afterSync(report), () => undefined);
    return run;
  }

  /**
   * Settles once the idle-time work started by earlier syncs has finished (tests and benchmarks;
   * syncs never need to wait for it). Never rejects.
   */
  async whenIdle(): Promise<void> {
    // A priming walk is scheduled one timer turn after its sync.
    await new Promise<void>((resolve) => setImmediate(resolve));
    await new Promise<void>((resolve) => setTimeout(resolve, 0));
    let seen: Promise<unknown> | null = null;
    while (seen !== this.idleWork) {
      seen = this.idleWork;
      await seen;
    }
  }

  /**
   * Idle-time work of a long-lived process (`watchSources`) after a sync (issue 14: the first
   * one-file edit after start costs what later ones do):
   * - after a build, the build worker primes its incremental resolver with what it just built
   *   (build.ts primeBuildCaches), as a task queued before any later build;
   * - while the watcher does not trust the last walk yet (the first walk of a process watches its
   *   directories only after reading them), one more walk soon after, so the next sync can use the
   *   watcher or a partial walk.
   * Failures are ignored: the next sync does the same work itself.
   */
  private afterSync(report: SyncReport): void {
    if (this.sourceWatch === null || this.closed) return;
    if (report.rebuilt && this.pool !== null) {
      const primed = this.pool.run({ root: this.root } satisfies PrimeTask, { name: 'prime' }).catch(() => undefined);
      this.idleWork = Promise.all([this.idleWork, primed]);
    }
    if (this.sourceWatch.awaitsTrustedWalk() && !this.walkPrimeScheduled) {
      this.walkPrimeScheduled = true;
      setTimeout(() => {
        const walked = this.chain.then(() => this.primeWalk());
        this.chain = walked.catch(() => undefined);
        this.idleWork = Promise.all([this.idleWork, walked.catch(() => undefined)]);
      }, 0).unref();
    }
  }

  /** The priming walk of {@link afterSync}: a walk exactly as a sync makes it, with no build. */
  private primeWalk(): void {
    this.walkPrimeScheduled = false;
    const last = this.lastWalk;
    if (this.closed || this.sourceWatch === null || !this.sourceWatch.awaitsTrustedWalk() || last === null || this.descriptor() !== last.descriptor) return;
    this.sourceWatch.beginWalk();
    this.recordWalk(last.descriptor, this.identityWalk(last.descriptor));
  }

  /** Hands a finished walk to the watcher and keeps it as the base of the next partial walk; returns its identity. */
  private recordWalk(descriptor: Descriptor, walked: IdentityWalk): string {
    const { walk, extra } = walked;
    const identity = this.identityOf(descriptor, walk.entries, extra);
    if (this.sourceWatch !== null) {
      this.sourceWatch.endWalk({
        identity, directories: walk.directories, outside: walk.links > 0 || this.extraIdentityFiles.length > 0 || this.adapterGuard.fingerprint !== null,
      });
      this.lastWalk = { descriptor, walked, identity };
    }
    return identity;
  }

  private async syncNow(onProgress?: (progress: BuildProgress) => void): Promise<SyncReport> {
    const started = performance.now();
    let descriptor: Descriptor;
    try {
      descriptor = this.descriptor();
    } catch (error) {
      return this.serveStale(toDocforgeError(error, 'descriptor_invalid').toWire(), performance.now() - started);
    }
    this.checkProjectAdapter();
    const layout = stateLayout(path.join(this.root, descriptor.state.dir), this.root);
    // Issue 11: the epoch is read before anything else, then the journal; while one is open nothing is built.
    const epoch = applicationEpoch(layout);
    const open = openApplication(layout);
    if (open !== null) return this.serveDuringApplication(layout, descriptor, errors.applicationInProgress(open.changeset_id, { step: open.step }).toWire(), performance.now() - started);
    const logicAllowed = this.logicAllowed(descriptor);
    // A healthy watcher that saw nothing since the last trusted walk stands for the walk (source-watch.ts).
    const watched = this.sourceWatch !== null && this.adapterTimedOut === null ? await this.sourceWatch.unchangedIdentity() : null;
    if (watched !== null) {
      const served = this.servedCurrent(layout, readPublicationOnce(layout).publication, descriptor, watched, logicAllowed, performance.now() - started);
      if (served !== null) return { ...served, watched: true, walk: 'watched' };
    }
    const partial = this.partialWalk(descriptor);
    if (partial === null) this.sourceWatch?.beginWalk();
    const walked = partial ?? this.identityWalk(descriptor);
    const { walk, extra } = walked;
    const walkKind = partial === null ? 'full' : 'partial';
    // Without a cheap identity the published identity is never trusted: the worker re-derives the graph every time.
    const identityKnown = this.identityKnown();
    const identity = this.recordWalk(descriptor, walked);
    const identityMs = performance.now() - started;

    if (this.adapterTimedOut !== null) {
      if (this.adapterTimedOut.identity === identity) return this.serveStale(this.adapterTimedOut.error, identityMs);
      this.adapterTimedOut = null;
    }
    // The one read of current.json for this sync; the build carries it through its steps.
    const prior = readPublicationOnce(layout);
    const published = prior.publication;
    if (identityKnown) {
      const served = this.servedCurrent(layout, published, descriptor, identity, logicAllowed, identityMs);
      if (served !== null) return { ...served, walk: walkKind };
    }

    const task: BuildTask = {
      root: this.root,
      stateDir: layout.stateDir,
      entries: walk.entries,
      walkIssues: walk.issues,
      sourceIdentity: identity,
      logicAllowed,
      minGeneration: Math.max(this.lastGeneration, published?.generation ?? 0) + 1,
      prior,
      identityExtra: extra,
      identityKnown,
      projectAdapter: this.adapterGuard.fingerprint === null ? null : { module: this.adapterGuard.fingerprint.module, fingerprint: this.adapterGuard.fingerprint.fingerprint },
      forceFull: this.damaged,
      applicationEpoch: epoch,
    };
    onProgress?.({ stage: 'start', done: 0, total: walk.entries.length });
    const outcome = await this.runBuild(task, onProgress);
    if (outcome.adapter) this.adapterReport = outcome.adapter;
    if (!outcome.ok) {
      if (outcome.timedOut === true) this.adapterTimedOut = { identity, error: outcome.error };
      // The worker found the adapter files changed: never served as a mere stale sync.
      if (outcome.error.code === 'adapter_restart_required') throw DocforgeError.fromWire(outcome.error);
      if (outcome.error.code === 'application_in_progress') return this.serveDuringApplication(layout, descriptor, outcome.error, identityMs);
      this.onWarning('index build failed', { code: outcome.error.code, message: outcome.error.message });
      return this.serveStale(outcome.error, identityMs);
    }
    const served = this.openNewest(layout, outcome.publication);
    if (served === null) {
      throw errors.indexUnavailable(`The freshly published index could not be opened, nor any newer publication after ${OPEN_RETRIES} reads of current.json.`);
    }
    this.damaged = false;
    return {
      publication: served, descriptor, staleness: 'current', rebuilt: outcome.unchanged !== true, stats: outcome.stats, sync_error: null,
      identity_ms: identityMs, identity_known: this.identityKnown(), walk: walkKind,
    };
  }

  /**
   * The watcher-driven partial walk (partial-walk.ts): the last walk updated for the paths the
   * watcher saw change since it began, with the extra identities computed as
   * {@link identityWalk} does; null (nothing started) when a full walk is needed. Only without a
   * project-owned adapter or extra identity files (the watcher is off with those anyway).
   */
  private partialWalk(descriptor: Descriptor): IdentityWalk | null {
    const last = this.lastWalk;
    if (this.sourceWatch === null || last === null || last.descriptor !== descriptor || this.adapterGuard.fingerprint !== null || this.extraIdentityFiles.length > 0) return null;
    const paths = this.sourceWatch.beginPartialWalk(last.identity);
    if (paths === null) return null;
    if (this.classifier?.descriptor !== descriptor) {
      this.classifier = { descriptor, classify: sourcePathClassifier(descriptor, codeExtensionsOf(descriptor.adapter.code)) };
    }
    const walk = partialWalk(last.walked.walk, paths, this.classifier.classify);
    if (walk === null) return null;
    return { walk, extra: [...identityExtra(this.root, descriptor, this.extraIdentityFiles, null), ...walkIssueIdentities(walk.issues)] };
  }

  /** The no-change answer: `published` is current for `identity` and opens; else null (a build follows). */
  private servedCurrent(
    layout: StateLayout, published: Publication | null, descriptor: Descriptor, identity: string, logicAllowed: boolean, identityMs: number,
  ): SyncReport | null {
    if (this.damaged || !published || published.source_identity !== identity || published.logic_allowed !== logicAllowed
      || (published.logic_present && !logicAllowed) || (this.adapterGuard.fingerprint === null && !adapterVersionCurrent(published.adapter_version, descriptor))
      || !publicationFileIntact(layout, published) || !this.openPublication(layout, published)) return null;
    return { publication: published, descriptor, staleness: 'current', rebuilt: false, stats: null, sync_error: null, identity_ms: identityMs, identity_known: true };
  }

  /**
   * The last served publication reported as `stale` with `error` (e.g. `adapter_restart_required`,
   * which is stale but not synchronizable), without checking or building anything; null when
   * nothing was served yet.
   */
  staleSnapshot(error: WireError): SyncReport | null {
    return this.current && this.descriptorCache ? this.serveStale(error, 0) : null;
  }

  /**
   * While a canonical application's journal is open (issue 11): the last publication in
   * `current.json` (published before the application began; its index file is immutable) with
   * staleness `unknown` and `sync_error` naming the open application; nothing is built.
   * @throws DocforgeError `application_in_progress` when there is no publication to serve
   */
  private serveDuringApplication(layout: StateLayout, descriptor: Descriptor, error: WireError, identityMs: number): SyncReport {
    const published = readPublication(layout);
    const served = published !== null && this.openPublication(layout, published) ? published : this.current?.publication ?? null;
    if (served === null) throw DocforgeError.fromWire(error);
    return { publication: served, descriptor, staleness: 'unknown', rebuilt: false, stats: null, sync_error: error, identity_ms: identityMs, identity_known: this.identityKnown() };
  }

  private serveStale(error: WireError, identityMs: number): SyncReport {
    if (!this.current || !this.descriptorCache) {
      throw DocforgeError.fromWire(error);
    }
    return {
      publication: this.current.publication,
      descriptor: this.descriptorCache.descriptor,
      staleness: 'stale',
      rebuilt: false,
      stats: null,
      sync_error: error,
      identity_ms: identityMs,
      identity_known: this.identityKnown(),
    };
  }

  /**
   * Opens `first`, or, when its file vanished (another process published after it and collected
   * it), the publication `current.json` names now: re-read up to {@link OPEN_RETRIES} times. One
   * file is opened whole, so answers never mix generations.
   * @returns the publication now served, or null when none could be opened
   */
  private openNewest(layout: StateLayout, first: Publication): Publication | null {
    if (this.openPublication(layout, first)) return first;
    let tried = first;
    for (let attempt = 0; attempt < OPEN_RETRIES; attempt += 1) {
      const now = readPublication(layout);
      if (now === null) return null;
      if (now.index_file === tried.index_file && now.index_ino === tried.index_ino) return null; // the same file again: it is broken
      if (this.openPublication(layout, now)) return now;
      tried = now;
    }
    return null;
  }

  /** Opens (or keeps) the reader for a publication; false when the file is not a valid index. */
  private openPublication(layout: StateLayout, publication: Publication): boolean {
    if (this.current && this.current.publication.index_file === publication.index_file && this.current.publication.index_ino === publication.index_ino) {
      this.current.publication = publication;
      return true;
    }
    let reader: IndexReader;
    try {
      reader = new IndexReader(path.join(layout.indexDir, publication.index_file));
    } catch {
      return false;
    }
    if (this.noAst && reader.count('logic_steps') > 0) {
      // Contract (Preserved no-AST bindings): a pre-existing index containing Logic is rejected before any read.
      reader.close();
      return false;
    }
    this.current?.reader.close();
    this.current = { publication, reader };
    this.lastGeneration = Math.max(this.lastGeneration, publication.generation);
    return true;
  }

  /**
   * Runs one build in the worker. While the worker says adapter code runs (`{ watchdog: true }` on
   * the progress port), a timer of {@link adapterTimeoutMs} is armed; when it fires the task is
   * aborted, which terminates the worker thread (a busy loop cannot be awaited) and piscina starts a
   * fresh one for the next build.
   */
  private async runBuild(task: BuildTask, onProgress?: (progress: BuildProgress) => void): Promise<BuildOutcome & { timedOut?: boolean }> {
    // The pool prestarted by the CLI when it already knew a build was coming is adopted here (build-pool.ts).
    this.pool ??= createBuildPool((error: unknown) => this.onWarning('index worker error', { message: error instanceof Error ? error.message : String(error) }));
    const channel = new MessageChannel();
    const abort = new AbortController();
    const timeoutMs = adapterTimeoutMs();
    let timer: NodeJS.Timeout | null = null;
    let timedOut = false;
    const disarm = (): void => {
      if (timer !== null) clearTimeout(timer);
      timer = null;
    };
    channel.port1.on('message', (message: BuildProgress | { watchdog: boolean }) => {
      if (!('watchdog' in message)) return onProgress?.(message);
      disarm();
      if (message.watchdog) {
        timer = setTimeout(() => {
          timedOut = true;
          abort.abort();
        }, timeoutMs);
      }
    });
    try {
      return (await this.pool.run({ ...task, progressPort: channel.port2 }, { transferList: [channel.port2], signal: abort.signal })) as BuildOutcome;
    } catch (error) {
      if (timedOut) {
        const module = task.projectAdapter?.module ?? 'the project-owned adapter';
        const reason = `${module} did not finish within ${timeoutMs} ms (loading the module or running extract); the build worker was stopped. `
          + 'Make extract() return (or reject) promptly, then restart the server.';
        this.onWarning('project-owned adapter timed out', { module, timeout_ms: timeoutMs });
        return { ok: false, error: errors.adapterFailed(reason, { timeout_ms: timeoutMs }).toWire(), timedOut: true };
      }
      return { ok: false, error: toDocforgeError(error).toWire() };
    } finally {
      disarm();
      channel.port1.close();
    }
  }

  /**
   * Forgets the open publication (after SQLite reported the file damaged), so the next sync
   * validates it again and rebuilds when it does not open.
   */
  invalidate(): void {
    this.current?.reader.close();
    this.current = null;
    this.damaged = true;
  }

  /** Closes the reader and the worker pool. */
  async close(): Promise<void> {
    this.closed = true;
    this.sourceWatch?.close();
    this.current?.reader.close();
    this.current = null;
    const pool = this.pool;
    this.pool = null;
    if (pool) await pool.destroy();
  }
}
