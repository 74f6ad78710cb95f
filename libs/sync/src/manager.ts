import path from 'node:path';
import { DocforgeError, errors, toDocforgeError, type WireError } from '@docforge/core';
import { cheapIdentity, loadDescriptor, ProjectAdapterGuard, statIdentity, walkAdapterInputs, type Descriptor } from '@docforge/project';
import { stateLayout, type StateLayout } from '@docforge/fs-safe';
import { identityWalk, type IdentityWalk } from '@docforge/identity';
import type { BuildDependencies } from '@docforge/identity';
import { publishedDependencies } from '@docforge/identity';
import { publicationMismatch } from '@docforge/identity';
import { resolveProjectRoot } from '@docforge/identity';
import type { BuildOutcome, BuildProgress, BuildTask, PrimeTask } from '@docforge/build';
import { removeStandbyFiles } from '@docforge/build';
import type { IndexManagerOptions, SyncReport } from './manager-types.js';
import { runWatchedBuild } from './build-run.js';
import type { Publication } from '@docforge/store';
import { publicationFileIntact, readPublication, readPublicationOnce } from '@docforge/store';
import { IndexReader } from '@docforge/store';
import { identityWithInputs, type ProjectAdapterReport } from '@docforge/build';
import { WatchedWalks } from './watched-walks.js';
import { applicationEpoch, openApplication } from '@docforge/store';
import { BuildPools, poolDeath, runOnPool, type BuildPool } from './build-pools.js';
import { isPublicationSuperseded, SUPERSEDED_RETRIES } from '@docforge/store';

export { resolveProjectRoot } from '@docforge/identity';

/** How often a sync re-reads `current.json` when the publication it was given vanished before it was opened. */
const OPEN_RETRIES = 5;

export type { BuildProgress } from '@docforge/build';

export type { IndexManagerOptions, Staleness, SyncReport } from './manager-types.js';

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
  private pool: BuildPool | null = null;
  private readonly pools: BuildPools; // the pool the CLI prestarted first, then new ones (build-pools.ts)
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
  /** The directory watcher and the last walk, standing for the identity walk while nothing changes (null unless `watchSources`). */
  private readonly walks: WatchedWalks | null;
  /** The build dependency list of the last publication asked for (by index file and inode; null: unreadable). */
  private dependencyCache: { key: string; dependencies: BuildDependencies } | null = null;
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
    this.walks = options.watchSources === true ? new WatchedWalks(root) : null;
    this.pools = options.buildPools ?? new BuildPools();
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

  /**
   * The sources walked, every extra stat identity and the state of `dependencies` (identity.ts,
   * shared with the no-change fast path).
   */
  private identityWalk(descriptor: Descriptor, dependencies: BuildDependencies | null): IdentityWalk {
    return identityWalk(this.root, descriptor, this.extraIdentityFiles, this.adapterGuard.fingerprint?.fingerprint ?? null, dependencies);
  }

  /** Cheap identity of walked sources plus extras plus build dependencies plus the declared adapter inputs (when known). */
  private identityOf(descriptor: Descriptor, walked: IdentityWalk): string {
    const inputs = this.adapterReport?.inputs;
    const extra = [...walked.extra, ...walked.dependencies];
    if (this.adapterGuard.fingerprint === null || !Array.isArray(inputs)) return cheapIdentity(walked.walk.entries, extra);
    return identityWithInputs(walked.walk.entries, extra, walkAdapterInputs(this.root, inputs, descriptor.state.dir).files);
  }

  /** {@link publishedDependencies} of `publication`, cached per index file and inode (a null answer is not cached). */
  private publishedDependencies(layout: StateLayout, publication: Publication | null): BuildDependencies | null {
    const key = publication === null ? '' : `${publication.index_file}\u0000${publication.index_ino}`;
    if (this.dependencyCache?.key === key) return this.dependencyCache.dependencies;
    const dependencies = publishedDependencies(layout, publication, this.current);
    if (dependencies !== null) this.dependencyCache = { key, dependencies };
    return dependencies;
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
      const layout = stateLayout(path.join(this.root, descriptor.state.dir), this.root);
      // Compared with the current publication's identity, so it covers that build's dependencies.
      const dependencies = this.publishedDependencies(layout, readPublication(layout));
      return this.identityOf(descriptor, this.identityWalk(descriptor, dependencies));
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
    // The standby copy runs in the worker's I/O threads after its task returned (standby-copy.ts).
    if (this.pool !== null && !this.closed) await runOnPool(this.pool, {}, { name: 'awaitStandby' }).catch(() => undefined);
  }

  /**
   * Idle-time work of a long-lived process (`watchSources`) after a sync (issue 14: the first
   * one-file edit after start costs what later ones do):
   * - after a build, the build worker primes its incremental resolver with what it just built
   *   (build.ts primeBuildCaches), as a task queued before any later build, and starts the standby
   *   copy of the new index file that the next delta build writes to (standby-copy.ts);
   * - while the watcher does not trust the last walk yet (the first walk of a process watches its
   *   directories only after reading them), one more walk soon after, so the next sync can use the
   *   watcher or a partial walk.
   * Failures are ignored: the next sync does the same work itself.
   */
  private afterSync(report: SyncReport): void {
    if (this.walks === null || this.closed) return;
    if (report.rebuilt && this.pool !== null) {
      let stateDir: string;
      try {
        stateDir = this.layout().stateDir;
      } catch {
        return;
      }
      const primed = runOnPool(this.pool, { root: this.root, stateDir } satisfies PrimeTask, { name: 'prime' }).catch(() => undefined);
      this.idleWork = Promise.all([this.idleWork, primed]);
    }
    if (this.walks.awaitsTrustedWalk() && !this.walkPrimeScheduled) {
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
    const descriptor = this.walks?.lastDescriptor() ?? null;
    if (this.closed || this.walks === null || !this.walks.awaitsTrustedWalk() || descriptor === null || this.descriptor() !== descriptor) return;
    const layout = stateLayout(path.join(this.root, descriptor.state.dir), this.root);
    const dependencies = this.publishedDependencies(layout, readPublication(layout));
    this.walks.beginWalk();
    this.recordWalk(descriptor, this.identityWalk(descriptor, dependencies), dependencies);
  }

  /**
   * Hands a finished walk to the watcher and keeps it as the base of the next partial walk; returns
   * its identity. The watcher also watches every directory on the way to a build dependency of
   * `dependencies` (the list the identity covers), and trusts no walk when one cannot be watched.
   */
  private recordWalk(descriptor: Descriptor, walked: IdentityWalk, dependencies: BuildDependencies | null): string {
    const identity = this.identityOf(descriptor, walked);
    this.walks?.record(descriptor, walked, identity, dependencies, this.extraIdentityFiles.length > 0 || this.adapterGuard.fingerprint !== null);
    return identity;
  }

  /**
   * One sync: walk, then serve the current publication or build and publish; a build another process's publication
   * superseded (publish.ts) published nothing, so walk and build again, {@link SUPERSEDED_RETRIES} times at most.
   */
  private async syncNow(onProgress?: (progress: BuildProgress) => void, superseded = 0): Promise<SyncReport> {
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
    const watched = this.walks !== null && this.adapterTimedOut === null ? await this.walks.unchangedIdentity() : null;
    // The one read of current.json for this sync (the build carries it through its steps): the
    // identity is compared with it, so it covers what its build read or probed (build-dependencies.ts).
    const prior = readPublicationOnce(layout);
    const published = prior.publication;
    if (watched !== null) {
      const served = this.servedCurrent(layout, published, descriptor, watched, logicAllowed, performance.now() - started);
      if (served !== null) return { ...served, watched: true, walk: 'watched' };
    }
    const dependencies = this.publishedDependencies(layout, published);
    // A partial walk only without a project-owned adapter or extra identity files (the watcher is off with those anyway).
    const partial = this.adapterGuard.fingerprint === null && this.extraIdentityFiles.length === 0 ? this.walks?.partial(descriptor, dependencies) ?? null : null;
    if (partial === null) this.walks?.beginWalk();
    const walked = partial ?? this.identityWalk(descriptor, dependencies);
    const { walk, extra } = walked;
    const walkKind = partial === null ? 'full' : 'partial';
    // Without a cheap identity the published identity is never trusted: the worker re-derives the graph every time.
    const identityKnown = this.identityKnown();
    const identity = this.recordWalk(descriptor, walked, dependencies);
    const identityMs = performance.now() - started;

    if (this.adapterTimedOut !== null) {
      if (this.adapterTimedOut.identity === identity) return this.serveStale(this.adapterTimedOut.error, identityMs);
      this.adapterTimedOut = null;
    }
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
      // A one-shot manager's worker ends with it: it stores its link outputs at once (a long-lived one in idle time).
      storeLinkCache: this.walks === null,
    };
    onProgress?.({ stage: 'start', done: 0, total: walk.entries.length });
    const outcome = await this.runBuild(task, onProgress);
    if (outcome.adapter) this.adapterReport = outcome.adapter;
    if (!outcome.ok && isPublicationSuperseded(outcome.error) && superseded < SUPERSEDED_RETRIES && !this.closed) return this.syncNow(onProgress, superseded + 1);
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

  /** The no-change answer: `published` is current for `identity` and opens; else null (a build follows). */
  private servedCurrent(
    layout: StateLayout, published: Publication | null, descriptor: Descriptor, identity: string, logicAllowed: boolean, identityMs: number,
  ): SyncReport | null {
    const expected = { descriptor, logicAllowed, checkAdapterVersion: this.adapterGuard.fingerprint === null, identity };
    if (this.damaged || published === null || publicationMismatch(published, expected) !== null
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

  /** The last served publication, `stale` with `error`. @throws DocforgeError from `error` when nothing was served yet. */
  private serveStale(error: WireError, identityMs: number): SyncReport {
    if (!this.current || !this.descriptorCache) throw DocforgeError.fromWire(error);
    return {
      publication: this.current.publication, descriptor: this.descriptorCache.descriptor, staleness: 'stale', rebuilt: false, stats: null, sync_error: error,
      identity_ms: identityMs, identity_known: this.identityKnown(),
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
   * Runs one build in the worker pool, under the project-owned adapter's watchdog (build-run.ts).
   * A pool whose thread could not start (build-pool.ts `poolDeath`) is dropped, so the next build
   * starts a new one; when the bundled worker was the one that failed, the build runs once more
   * at once on the compiled worker (a damaged or half-written bundle must not stop syncs).
   */
  private async runBuild(task: BuildTask, onProgress?: (progress: BuildProgress) => void): Promise<BuildOutcome & { timedOut?: boolean }> {
    for (let attempt = 0; ; attempt++) {
      // Once closed, what a pool being destroyed reports (a task result racing the destroy: piscina's
      // "Unexpected message from Worker") is no warning.
      const pool = (this.pool ??= this.pools.create((error: unknown) => {
        if (!this.closed) this.onWarning('index worker error', { message: error instanceof Error ? error.message : String(error) });
      }));
      const outcome = await runWatchedBuild(pool, task, onProgress, this.onWarning);
      const death = poolDeath(pool);
      if (death === null) return outcome;
      if (this.pool === pool) this.pool = null;
      pool.destroy().catch(() => undefined);
      if (!death.bundled || attempt > 0 || this.closed) return outcome;
      this.onWarning('the bundled build worker could not start; running the compiled worker', { worker_file: death.file, message: death.message });
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
    this.walks?.close();
    this.current?.reader.close();
    this.current = null;
    const pool = this.pool;
    this.pool = null;
    const threadIds = pool === null ? [] : pool.threads.map((thread) => thread.threadId);
    if (pool) await pool.destroy();
    // The worker's standby copy is of no use once it is gone (standby-copy.ts).
    try {
      if (threadIds.length > 0) removeStandbyFiles(this.layout().indexDir, threadIds);
    } catch {
      // no descriptor: no state directory of ours to clean
    }
  }
}
