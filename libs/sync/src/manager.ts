/**
 * IndexManager: one sync is identity -> decide -> build -> open. Each part is a named collaborator:
 * identity `ProjectIdentity` (project-identity.ts) with the watcher's walks (watched-walks.ts);
 * decide `publicationMismatch` (libs/identity current.ts, the one decision the CLI's no-change path
 * shares); build `BuildWorkers` (build-workers.ts); open `ServedIndex` (served-index.ts). Idle-time
 * work after syncs is `IdleWork` (idle-work.ts).
 */
import { DocforgeError, errors, toDocforgeError, type WireError } from '@docforge/core';
import type { Descriptor } from '@docforge/project';
import { assertStateDir, type StateLayout } from '@docforge/fs-safe';
import { aliasedIdentity, publicationMismatch, resolveProjectRoot, type BuildDependencies, type IdentityWalk } from '@docforge/identity';
import type { BuildOutcome, BuildProgress, BuildTask, ProjectAdapterReport } from '@docforge/builder';
import {
  applicationEpoch, isPublicationSuperseded, openApplication, publicationFileIntact, publicationUnchanged, readIdentityAlias, readPublication, readPublicationOnce, SUPERSEDED_RETRIES,
  type IndexReader, type Publication, type PublicationRead,
} from '@docforge/store';
import type { IndexManagerOptions, SyncReport } from './manager-types.js';
import { WatchedWalks } from './watched-walks.js';
import { BUILD_TURN_WAIT_MS, takeBuildTurn } from './build-turn.js';
import { BuildWorkers } from './build-workers.js';
import { IdleWork } from './idle-work.js';
import { ProjectIdentity } from './project-identity.js';
import { OPEN_RETRIES, ServedIndex } from './served-index.js';

export { resolveProjectRoot } from '@docforge/identity';
export type { BuildProgress } from '@docforge/builder';
export type { IndexManagerOptions, Staleness, SyncReport } from './manager-types.js';

/** What the identity step found when the published index is not served as is: a build follows. */
interface SourcesChecked {
  prior: PublicationRead;
  walked: IdentityWalk;
  identity: string;
  identityKnown: boolean;
  identityMs: number;
  walkKind: 'full' | 'partial';
}

/** What every step of one sync knows once the descriptor loaded and no application is open. */
interface SyncScope {
  descriptor: Descriptor;
  layout: StateLayout;
  logicAllowed: boolean;
  /** The canonical application epoch read before anything else (issue 11). */
  epoch: string;
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
  private readonly onWarning: (message: string, details: Record<string, unknown>) => void;
  private readonly identity: ProjectIdentity;
  /** The directory watcher and the last walk, standing for the identity walk while nothing changes (null unless `watchSources`). */
  private readonly walks: WatchedWalks | null;
  private readonly workers: BuildWorkers;
  private readonly served: ServedIndex;
  private readonly idle = new IdleWork();
  /** Syncs and priming walks run one after another on this chain. */
  private chain: Promise<unknown> = Promise.resolve();
  /**
   * The source identity at which the project-owned adapter last timed out, with the error answered.
   * Syncs at the same identity answer that error at once instead of waiting again; any source
   * change retries (docs/project-adapters.md, "Timeouts").
   */
  private adapterTimedOut: { identity: string; error: WireError } | null = null;
  private closed = false;
  /** The longest wait for another process's build (build-turn.ts), in milliseconds. */
  private readonly buildTurnWaitMs: number;

  /** @throws DocforgeError `project_root_invalid` when the root does not exist or is not a directory. */
  constructor(options: IndexManagerOptions) {
    const root = resolveProjectRoot(options.root);
    this.root = root;
    this.noAst = options.noAst;
    this.onWarning = options.onWarning ?? (() => undefined);
    this.walks = options.watchSources === true ? new WatchedWalks(root) : null;
    this.identity = new ProjectIdentity(root, options.extraIdentityFiles ?? []);
    this.workers = new BuildWorkers(this.onWarning, options.buildPools);
    this.served = new ServedIndex(this.noAst);
    this.buildTurnWaitMs = options.buildTurnWaitMs ?? BUILD_TURN_WAIT_MS;
  }

  /**
   * Checks the project-owned adapter against the implementation fingerprint taken at process start
   * (one lstat per adapter file; files are re-hashed only when their stat changed). Call before
   * every tool. A detected change is permanent for the process.
   * @throws DocforgeError `adapter_restart_required` (stale, remediation `restart_project_server`)
   */
  checkProjectAdapter(): void {
    this.identity.checkProjectAdapter();
  }

  /** The bound project-owned adapter (process-start fingerprint and the worker's report), or null. */
  projectAdapter(): { module: string; fingerprint: string; files: number; report: ProjectAdapterReport | null } | null {
    return this.identity.projectAdapter();
  }

  /**
   * Whether the project has a cheap source identity (DESIGN.md section 4): always without a
   * project-owned adapter; with one only once the build worker has loaded it and it declares
   * `inputs`. See {@link SyncReport.identity_known} for what syncs do without it.
   */
  identityKnown(): boolean {
    return this.identity.identityKnown();
  }

  /** The descriptor, re-read only when docforge.toml's stat changed. @throws DocforgeError `descriptor_invalid`. */
  descriptor(): Descriptor {
    return this.identity.descriptor();
  }

  /** The state layout of the bound project. */
  layout(): StateLayout {
    return this.identity.layoutOf(this.descriptor());
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
      const layout = this.identity.layoutOf(descriptor);
      // Compared with the current publication's identity, so it covers that build's dependencies.
      const published = readPublication(layout);
      const dependencies = this.identity.publishedDependencies(layout, published, this.served.served());
      return aliasedIdentity(published, this.identity.identityOf(descriptor, this.identity.walk(descriptor, dependencies)), () => readIdentityAlias(layout));
    } catch {
      // No descriptor, or the walk failed: no cheap identity (status answers `unknown`).
      return null;
    }
  }

  /** Whether builds of this project may extract Logic (not --no-ast, strategy `ast`). */
  logicAllowed(descriptor: Descriptor = this.descriptor()): boolean {
    return !this.noAst && descriptor.adapter.strategy === 'ast';
  }

  /** The reader of the publication returned by the last successful sync. @throws DocforgeError `index_unavailable`. */
  reader(): IndexReader {
    const served = this.served.served();
    if (!served) throw errors.indexUnavailable();
    return served.reader;
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
    await this.idle.settled();
    // The standby copy runs in the worker's I/O threads after its task returned (standby-copy.ts).
    if (!this.closed) await this.workers.awaitStandby();
  }

  /**
   * Idle-time work of a long-lived process (`watchSources`) after a sync (issue 14: the first
   * one-file edit after start costs what later ones do):
   * - after a build, the build worker primes its incremental resolver with what it just built
   *   (build-idle.ts primeBuildCaches), as a task queued before any later build, and starts the
   *   standby copy of the new index file that the next delta build writes to (standby-copy.ts);
   * - while the watcher does not trust the last walk yet (the first walk of a process watches its
   *   directories only after reading them), one more walk soon after, so the next sync can use the
   *   watcher or a partial walk.
   * Failures are ignored: the next sync does the same work itself.
   */
  private afterSync(report: SyncReport): void {
    if (this.walks === null || this.closed) return;
    if (report.rebuilt && this.workers.running()) {
      let stateDir: string;
      try {
        stateDir = this.layout().stateDir;
      } catch {
        // The descriptor broke since the sync: nothing to prime for.
        return;
      }
      this.idle.add(this.workers.prime({ root: this.root, stateDir }));
    }
    if (this.walks.awaitsTrustedWalk()) {
      this.idle.scheduleWalk(() => {
        const walked = this.chain.then(() => this.primeWalk());
        this.chain = walked.catch(() => undefined);
        return walked;
      });
    }
  }

  /** The priming walk of {@link afterSync}: a walk exactly as a sync makes it, with no build. */
  private primeWalk(): void {
    this.idle.walkStarted();
    const descriptor = this.walks?.lastDescriptor() ?? null;
    if (this.closed || this.walks === null || !this.walks.awaitsTrustedWalk() || descriptor === null || this.descriptor() !== descriptor) return;
    const layout = this.identity.layoutOf(descriptor);
    const published = readPublication(layout);
    const dependencies = this.identity.publishedDependencies(layout, published, this.served.served());
    this.walks.beginWalk();
    this.recordWalk(descriptor, this.identity.walk(descriptor, dependencies), dependencies, { layout, published });
  }

  /**
   * Hands a finished walk to the watcher and keeps it as the base of the next partial walk; returns
   * its identity. The watcher also watches every directory on the way to a build dependency of
   * `dependencies` (the list the identity covers), and trusts no walk when one cannot be watched.
   * The identity is the one `published`'s alias stands for when the walk is its observed identity
   * (a metadata-only change, store identity-alias.ts), so the watcher keeps standing for later walks.
   */
  private recordWalk(
    descriptor: Descriptor, walked: IdentityWalk, dependencies: BuildDependencies | null, against: { layout: StateLayout; published: Publication | null },
  ): string {
    const identity = aliasedIdentity(against.published, this.identity.identityOf(descriptor, walked), () => readIdentityAlias(against.layout));
    this.walks?.record(descriptor, walked, identity, dependencies, this.identity.extraIdentityFiles.length > 0 || this.identity.hasProjectAdapter());
    return identity;
  }

  /**
   * One sync: identity (walk), decide (serve the current publication), or build and open; a build another process's
   * publication superseded (publish.ts) published nothing, so walk and build again, {@link SUPERSEDED_RETRIES} times at most.
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
    const layout = this.identity.layoutOf(descriptor);
    // The state dir replaced by a file or a link while this process runs (the descriptor, read
    // once, checked it at start): named as such, never an ENOTDIR of a later step (break-it trial 50).
    try {
      assertStateDir(layout.root, layout.stateDir);
    } catch (error) {
      return this.serveStale(toDocforgeError(error).toWire(), performance.now() - started);
    }
    // Issue 11: the epoch is read before anything else, then the journal; while one is open nothing is built.
    const epoch = applicationEpoch(layout);
    const open = openApplication(layout);
    if (open !== null) return this.serveDuringApplication(layout, descriptor, errors.applicationInProgress(open.changeset_id, { step: open.step }).toWire(), performance.now() - started);
    const scope: SyncScope = { descriptor, layout, logicAllowed: this.logicAllowed(descriptor), epoch };
    let checked = await this.checkSources(scope, started);
    if ('report' in checked) return checked.report;
    // One build per project at a time: after waiting for another process's build, or when another
    // process published between this decision and the turn (its build ended just before the lock
    // was tried), decide again.
    const turn = await takeBuildTurn(layout, this.buildTurnWaitMs);
    let outcome: BuildOutcome & { timedOut?: boolean };
    try {
      if (turn.waited || !publicationUnchanged(layout, checked.prior)) {
        checked = await this.checkSources(scope, started);
        if ('report' in checked) return checked.report;
      }
      onProgress?.({ stage: 'start', done: 0, total: checked.walked.walk.entries.length });
      outcome = await this.runBuild(this.buildTask(scope, checked), onProgress);
    } finally {
      turn.lock?.release();
    }
    if (outcome.adapter) this.identity.recordAdapterReport(outcome.adapter);
    if (!outcome.ok && isPublicationSuperseded(outcome.error) && superseded < SUPERSEDED_RETRIES && !this.closed) return this.syncNow(onProgress, superseded + 1);
    return this.openBuilt(scope, checked, outcome);
  }

  /**
   * Identity, then decide: the watcher's word or a (partial) walk gives the source identity, and a
   * publication current for it is served as is (a report); otherwise what the build needs.
   */
  private async checkSources(scope: SyncScope, started: number): Promise<{ report: SyncReport } | SourcesChecked> {
    const { descriptor, layout, logicAllowed } = scope;
    // A healthy watcher that saw nothing since the last trusted walk stands for the walk (source-watch.ts).
    const watched = this.walks !== null && this.adapterTimedOut === null ? await this.walks.unchangedIdentity() : null;
    // The one read of current.json for this sync (the build carries it through its steps): the
    // identity is compared with it, so it covers what its build read or probed (build-dependencies.ts).
    const prior = readPublicationOnce(layout);
    const published = prior.publication;
    if (watched !== null) {
      const served = this.servedCurrent(layout, published, descriptor, watched, logicAllowed, performance.now() - started);
      if (served !== null) return { report: { ...served, watched: true, walk: 'watched' } };
    }
    const dependencies = this.identity.publishedDependencies(layout, published, this.served.served());
    // A partial walk only without a project-owned adapter or extra identity files (the watcher is off with those anyway).
    const partialAllowed = !this.identity.hasProjectAdapter() && this.identity.extraIdentityFiles.length === 0;
    const partial = partialAllowed ? this.walks?.partial(descriptor, dependencies) ?? null : null;
    if (partial === null) this.walks?.beginWalk();
    const walked = partial ?? this.identity.walk(descriptor, dependencies);
    // Without a cheap identity the published identity is never trusted: the worker re-derives the graph every time.
    const identityKnown = this.identityKnown();
    const identity = this.recordWalk(descriptor, walked, dependencies, { layout, published });
    const identityMs = performance.now() - started;
    const walkKind = partial === null ? 'full' : 'partial';
    if (this.adapterTimedOut !== null) {
      if (this.adapterTimedOut.identity === identity) return { report: this.serveStale(this.adapterTimedOut.error, identityMs, layout) };
      this.adapterTimedOut = null;
    }
    if (identityKnown) {
      const served = this.servedCurrent(layout, published, descriptor, identity, logicAllowed, identityMs);
      if (served !== null) return { report: { ...served, walk: walkKind } };
    }
    return { prior, walked, identity, identityKnown, identityMs, walkKind };
  }

  /** The build task for the sources checked. */
  private buildTask(scope: SyncScope, checked: SourcesChecked): BuildTask {
    const { walk, extra } = checked.walked;
    return {
      root: this.root,
      stateDir: scope.layout.stateDir,
      entries: walk.entries,
      // Descriptor warnings (a raised max_output_chars) are stored with the findings validation reports.
      walkIssues: scope.descriptor.warnings ? [...scope.descriptor.warnings, ...walk.issues] : walk.issues,
      sourceIdentity: checked.identity,
      logicAllowed: scope.logicAllowed,
      minGeneration: Math.max(this.served.lastGeneration(), checked.prior.publication?.generation ?? 0) + 1,
      prior: checked.prior,
      identityExtra: extra,
      identityKnown: checked.identityKnown,
      projectAdapter: this.identity.adapterTask(),
      forceFull: this.served.damaged(),
      applicationEpoch: scope.epoch,
      // A one-shot manager's worker ends with it: it stores its link outputs at once (a long-lived one in idle time).
      storeLinkCache: this.walks === null,
    };
  }

  /** Open: the build's publication served, or what a failed build leaves served (stale, or during an application). */
  private openBuilt(scope: SyncScope, checked: SourcesChecked, outcome: BuildOutcome & { timedOut?: boolean }): SyncReport {
    const { identityMs } = checked;
    if (!outcome.ok) {
      if (outcome.timedOut === true) this.adapterTimedOut = { identity: checked.identity, error: outcome.error };
      // The worker found the adapter files changed: never served as a mere stale sync.
      if (outcome.error.code === 'adapter_restart_required') throw DocforgeError.fromWire(outcome.error);
      if (outcome.error.code === 'application_in_progress') return this.serveDuringApplication(scope.layout, scope.descriptor, outcome.error, identityMs);
      this.onWarning('index build failed', { code: outcome.error.code, message: outcome.error.message });
      return this.serveStale(outcome.error, identityMs, scope.layout);
    }
    const served = this.served.openNewest(scope.layout, outcome.publication);
    if (served === null) {
      throw errors.indexUnavailable(`The freshly published index could not be opened, nor any newer publication after ${OPEN_RETRIES} reads of current.json.`);
    }
    this.served.trust();
    // Published without the project-owned adapter (it failed with no earlier publication): served, but
    // stale with adapter_failed, as every later sync reports it (break-it trial of stop 45); the CLI exits 1.
    const adapterFailure = outcome.adapter_failure ?? null;
    if (adapterFailure !== null) this.onWarning('index published without the project-owned adapter', { code: adapterFailure.code, message: adapterFailure.message });
    return {
      publication: served, descriptor: scope.descriptor, staleness: adapterFailure === null ? 'current' : 'stale', rebuilt: outcome.unchanged !== true, stats: outcome.stats,
      sync_error: adapterFailure, identity_ms: identityMs, identity_known: this.identityKnown(), walk: checked.walkKind,
    };
  }

  /** Decide: the no-change answer when `published` is current for `identity` (`publicationMismatch`) and opens; else null (a build follows). */
  private servedCurrent(
    layout: StateLayout, published: Publication | null, descriptor: Descriptor, identity: string, logicAllowed: boolean, identityMs: number,
  ): SyncReport | null {
    const expected = { descriptor, logicAllowed, checkAdapterVersion: !this.identity.hasProjectAdapter(), identity };
    if (this.served.damaged() || published === null || publicationMismatch(published, expected) !== null
      || !publicationFileIntact(layout, published) || !this.served.open(layout, published)) return null;
    return { publication: published, descriptor, staleness: 'current', rebuilt: false, stats: null, sync_error: null, identity_ms: identityMs, identity_known: true };
  }

  /**
   * The last served publication reported as `stale` with `error` (e.g. `adapter_restart_required`,
   * which is stale but not synchronizable), without checking or building anything; null when
   * nothing was served yet.
   */
  staleSnapshot(error: WireError): SyncReport | null {
    return this.served.served() && this.identity.lastDescriptor() ? this.serveStale(error, 0) : null;
  }

  /**
   * While a canonical application's journal is open (issue 11): the last publication in
   * `current.json` (published before the application began; its index file is immutable) with
   * staleness `unknown` and `sync_error` naming the open application; nothing is built.
   * @throws DocforgeError `application_in_progress` when there is no publication to serve
   */
  private serveDuringApplication(layout: StateLayout, descriptor: Descriptor, error: WireError, identityMs: number): SyncReport {
    const published = readPublication(layout);
    const served = published !== null && this.served.open(layout, published) ? published : this.served.served()?.publication ?? null;
    if (served === null) throw DocforgeError.fromWire(error);
    return { publication: served, descriptor, staleness: 'unknown', rebuilt: false, stats: null, sync_error: error, identity_ms: identityMs, identity_known: this.identityKnown() };
  }

  /**
   * The last served publication, `stale` with `error`. A process that has served nothing yet serves
   * the last valid publication in `layout`'s `current.json` (intact and opening), so a new process
   * answers as the process whose build failed would (issue 30 item 7).
   * @throws DocforgeError from `error` when there is no publication to serve
   */
  private serveStale(error: WireError, identityMs: number, layout?: StateLayout): SyncReport {
    if (this.served.served() === null && layout !== undefined) this.openLastPublished(layout);
    const served = this.served.served();
    const descriptor = this.identity.lastDescriptor();
    if (!served || !descriptor) throw DocforgeError.fromWire(error);
    return {
      publication: served.publication, descriptor, staleness: 'stale', rebuilt: false, stats: null, sync_error: error,
      identity_ms: identityMs, identity_known: this.identityKnown(),
    };
  }

  /** Opens the publication `current.json` names when its file is intact and opens as an index of this schema (and binding); else serves nothing. */
  private openLastPublished(layout: StateLayout): void {
    const published = readPublication(layout);
    if (published !== null && publicationFileIntact(layout, published)) this.served.open(layout, published);
  }

  /** Build: one build in the worker pool (build-workers.ts); a method of its own so tests can wrap it. */
  private runBuild(task: BuildTask, onProgress?: (progress: BuildProgress) => void): Promise<BuildOutcome & { timedOut?: boolean }> {
    return this.workers.run(task, onProgress);
  }

  /**
   * Forgets the open publication (after SQLite reported the file damaged), so the next sync
   * validates it again and rebuilds when it does not open.
   */
  invalidate(): void {
    this.served.invalidate();
  }

  /** Closes the reader and the worker pool. */
  async close(): Promise<void> {
    this.closed = true;
    this.walks?.close();
    this.served.close();
    await this.workers.close(() => this.layout().indexDir);
  }
}

