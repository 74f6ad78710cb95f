/**
 * One build, run inside the build worker (DESIGN.md sections 1 and 4), as a session with one method
 * per step: set up, parse what changed, link code across files, resolve the graph, write a complete
 * new index file (build-write.ts), publish it, and remember what was written in the caches passed in
 * (build-caches.ts). `current.json` is read once per build and carried through every step. A step
 * that finds the build must start over from the sources returns a {@link Retry}; the session then
 * fails like any failed build and reports the cause (build.ts runs it again).
 */
import { readFileSync, rmSync } from 'node:fs';
import { appendAll, DocforgeError, errors, setOwn, sha256, type SourceIssue, type WireError } from '@docforge/core';
import { stateLayout, type StateLayout } from '@docforge/fs-safe';
import { cheapIdentity, excludeGlobOf, loadDescriptor, vocabularyCaseIssues, walkAdapterInputs, type SourceEntry, type StatIdentity } from '@docforge/project';
import { adaptersFor, adapterVersionOf, DependencyRecorder, dependencyIdentities, ensureLinkers, loadedParsers, publishedDependencies } from '@docforge/identity';
import { assertStateConfined, clearLinkCaches, isPublicationSuperseded, publicationFileIntact, readPublicationOnce, stateError, type Publication } from '@docforge/store';
import type { BuildCaches } from './build-caches.js';
import { linkCode, resolveSources, type LinkedCode } from './build-graph.js';
import { throttledProgress, type Progress } from './build-progress.js';
import { publishStep, rememberStep } from './build-publish.js';
import { isRetry, type BuildSetup, type CurrentSources, type Resolved, type Retry, type RetryCause, type SessionContext } from './build-steps.js';
import type { BuildOutcome, BuildStats, BuildTask, CachedSource } from './build-types.js';
import { writeStep } from './build-write.js';
import { recordBaseline, reviewFindings } from './build-reviews.js';
import { coverageFindings } from './build-coverage.js';
import { keptInline, parseBatch, reshaped, sameShape } from './parse.js';
import { parsesInParallel } from './parse-pool.js';
import { adapterFailure, extendGraph, identityWithInputs, projectAdapterVersionSuffix, type ProjectAdapterOutput, type ProjectAdapterReport } from './project-adapter.js';

/** What a session returns: its outcome, and the retry cause when it failed for one (else null). */
export interface SessionResult {
  outcome: BuildOutcome;
  retry: RetryCause | null;
}

function emptyStats(files: number): BuildStats {
  return {
    mode: 'full', files, parsed: 0, reused: 0, nodes: 0, edges: 0, issues: 0, logic_steps: 0,
    parse_ms: 0, link_ms: 0, resolve_ms: 0, resolve_mode: 'scratch', write_ms: 0, publish_ms: 0, total_ms: 0,
  };
}

/** One build of `task` with `caches` (see the module comment). Run it once. */
export class BuildSession implements SessionContext {
  readonly started = performance.now();
  readonly layout: StateLayout;
  readonly stats: BuildStats;
  readonly progress: Progress;
  /** What the project-owned adapter reported, once loaded. */
  private adapterReport: ProjectAdapterReport | null = null;
  /** The project-owned adapter's failure when it was published as an issue (no earlier publication), else null. */
  private adapterFailure: WireError | null = null;
  /** The new index file while it is this build's to remove (written, not yet renamed into place by publishIndex). */
  private pendingFile: string | null = null;

  constructor(readonly task: BuildTask, readonly caches: BuildCaches) {
    this.layout = stateLayout(task.stateDir, task.root);
    this.stats = emptyStats(task.entries.length);
    this.progress = throttledProgress(task.progressPort);
  }

  own(file: string | null): void {
    this.pendingFile = file;
  }

  /**
   * Runs every step. Never rejects: failures come back as `{ ok: false, error }` and nothing is
   * published; a failure for a {@link RetryCause} names it.
   */
  async run(): Promise<SessionResult> {
    try {
      const setup = await this.setup();
      const unchanged = this.unchangedByInputs(setup);
      if (unchanged !== null) return { outcome: unchanged, retry: null };
      // 0. A fresh worker starts from the previous publication's persisted parses, so the first
      // build of a new process is incremental too (unless `prepare` did this already).
      if (this.task.forceFull !== true && setup.previous !== null) {
        const { root, logicAllowed } = this.task;
        this.caches.warmStart(this.layout, setup.previous, { root, logicAllowed, descriptorHash: setup.descriptorHash, adapterVersion: setup.adapterVersion }, this.task.projectAdapter != null);
      }
      const current = await this.parse(setup);
      if (isRetry(current)) return this.retry(current);
      const linked = this.link(current, setup.descriptor.adapter.c?.include_dirs ?? [], { globs: setup.descriptor.sources.exclude, matching: excludeGlobOf(setup.descriptor) });
      if (isRetry(linked.linked)) return this.retry(linked.linked);
      const resolved = await this.resolve(setup, current, linked.linked, linked.dependencies);
      const written = await writeStep(this, setup, current, linked.linked, resolved);
      if (isRetry(written)) return this.retry(written);
      if ('unchanged' in written) {
        recordBaseline(this.layout, resolved.reviewBaseline ?? null, this.caches.reviewBaseline);
        return { outcome: written.unchanged, retry: null };
      }
      const published = await publishStep(this, setup, current, resolved, written);
      recordBaseline(this.layout, resolved.reviewBaseline ?? null, this.caches.reviewBaseline);
      rememberStep(this, setup, current, linked.linked, { ...resolved, graph: written.graph }, written, published.publication, published.receiptSide);
      return { outcome: this.finish(published.publication, written.graph, resolved, published.adopted), retry: null };
    } catch (error) {
      return { outcome: this.fail(error), retry: null };
    }
  }

  /** A retry cause returned by a step: the build fails (as an internal error naming it) and reports the cause. */
  private retry(retry: Retry): SessionResult {
    return { outcome: this.fail(errors.internalError(retry.message)), retry: retry.retry };
  }

  /** Step 1, set up: descriptor, adapters (and the project-owned one, under the watchdog), caches checked, current.json read once. */
  private async setup(): Promise<BuildSetup> {
    const { task, caches } = this;
    const descriptor = loadDescriptor(task.root);
    const adapterIds = adaptersFor(descriptor, task.entries);
    // A first build without a publication to start from parses everything on every core: the parse threads start loading now.
    if (caches.empty() && (task.forceFull === true || task.prior?.publication === null) && parsesInParallel(task.entries)) {
      caches.parsePool.prestart(adapterIds);
    }
    // Linking needs only the adapters' linking halves; parsing a code file loads its whole adapter
    // (parse.ts), so a build that parses no code never loads the TypeScript compiler (issue 14).
    await ensureLinkers(adapterIds);
    // Project-owned adapter: checked against the process-start fingerprint, imported once (project-adapter-load.ts).
    // The watchdog (manager.ts with adapter-timeout.ts) is armed while adapter code runs: a hang terminates this thread.
    if (task.projectAdapter) this.watchdog(true);
    const projectAdapter = task.projectAdapter ? await caches.projectAdapter.load(task.root, task.projectAdapter) : null;
    if (task.projectAdapter) this.watchdog(false);
    this.adapterReport = projectAdapter?.report ?? null;
    // Declared inputs join the cheap identity, computed exactly as the main thread does.
    const inputFiles = projectAdapter !== null && Array.isArray(projectAdapter.report.inputs)
      ? walkAdapterInputs(task.root, projectAdapter.report.inputs, descriptor.state.dir).files : null;
    const descriptorHash = sha256(readFileSync(descriptor.path));
    const adapterVersion = adapterVersionOf(descriptor) + projectAdapterVersionSuffix(task.projectAdapter, this.adapterReport);
    // Cached parses depend on the descriptor (strategy, vocabulary, roots) and the Logic policy.
    // And on the adapters: a worker prepared while an adapter still seemed loadable keeps nothing it parsed or wrote then.
    const written = caches.written;
    if (task.forceFull === true || (written !== null && (written.descriptorHash !== descriptorHash || written.logicAllowed !== task.logicAllowed || written.adapterVersion !== adapterVersion))) {
      caches.reset();
    }
    assertStateConfined(task.root, this.layout);
    // The one read of current.json for this build (the caller's, when it passed one).
    const prior = task.prior ?? readPublicationOnce(this.layout);
    return { descriptor, adapterIds, projectAdapter, inputFiles, descriptorHash, adapterVersion, prior, previous: prior.publication };
  }

  /** Arms or disarms the caller's watchdog while adapter code runs. */
  private watchdog(armed: boolean): void {
    this.task.progressPort?.postMessage({ watchdog: armed });
  }

  /** The cheap identity of the walked sources, the task's extras and the given dependency lines (build-dependencies.ts). */
  private identityWith(setup: BuildSetup, dependencies: readonly StatIdentity[]): string {
    const extra = [...(this.task.identityExtra ?? []), ...dependencies];
    return setup.inputFiles === null ? cheapIdentity(this.task.entries, extra) : identityWithInputs(this.task.entries, extra, setup.inputFiles);
  }

  /** The caller learns the declared inputs only now: a publication with the same identity is still current (then this outcome). */
  private unchangedByInputs(setup: BuildSetup): BuildOutcome | null {
    const { task, layout } = this;
    const previous = setup.previous;
    if (setup.projectAdapter === null || task.identityKnown !== false || setup.inputFiles === null || previous === null) return null;
    task.sourceIdentity = this.identityWith(setup, dependencyIdentities(task.root, publishedDependencies(layout, previous)));
    if (previous.source_identity === task.sourceIdentity && previous.logic_allowed === task.logicAllowed && !(previous.logic_present && !task.logicAllowed)
      && previous.adapter_version === setup.adapterVersion && publicationFileIntact(layout, previous)) {
      this.stats.total_ms = performance.now() - this.started;
      return { ok: true, publication: previous, stats: this.stats, adapter: this.adapterReport, unchanged: true };
    }
    return null;
  }

  /** A retry when an adapter whose linking half loaded could not load whole once a file needed its parser; else null. */
  adaptersAsStarted(setup: BuildSetup): Retry | null {
    if (adapterVersionOf(setup.descriptor) + projectAdapterVersionSuffix(this.task.projectAdapter, this.adapterReport) === setup.adapterVersion) return null;
    return { retry: 'adapter_unavailable_late', message: 'a code adapter could not load; building again without it' };
  }

  /** Step 2, parse: what changed (in parallel when there is much of it); the rest is reused, in the walk's order. */
  private async parse(setup: BuildSetup): Promise<CurrentSources | Retry> {
    const { task, stats, caches } = this;
    const t = performance.now();
    const current = new Map<string, CachedSource>();
    const pending: SourceEntry[] = [];
    const knownHashes: Record<string, string> = {};
    for (const entry of task.entries) {
      const cached = caches.sources.get(entry.path);
      if (cached && cached.entry.size === entry.size && cached.entry.mtime_ns === entry.mtime_ns && cached.entry.ctime_ns === entry.ctime_ns && cached.entry.ino === entry.ino) {
        current.set(entry.path, cached);
        stats.reused += 1;
      } else {
        pending.push(entry);
        if (cached) setOwn(knownHashes, entry.path, cached.content_hash);
      }
    }
    const batch = { root: task.root, entries: pending, knownHashes, logicAllowed: task.logicAllowed };
    const pooled = parsesInParallel(pending);
    const parsedItems = pooled
      ? await caches.parsePool.parse(batch, (n) => this.progress('parse', stats.reused + n, task.entries.length))
      : await parseBatch(batch);
    for (const item of parsedItems) {
      if (item.reuse) {
        const cached = caches.sources.get(item.entry.path)!;
        cached.entry = sameShape(item.entry);
        current.set(item.entry.path, cached);
        stats.reused += 1;
      } else {
        // A content parse is kept as built: inline by one literal per kind, or from a parse thread's JSON (parse-pool.ts).
        current.set(item.entry.path, item.entry.role !== 'content' ? reshaped(item.source) : keptInline(item.source));
        stats.parsed += 1;
      }
    }
    // Keep the walk's order: resolution picks duplicate winners by path order.
    const ordered = pending.length === 0 ? current : new Map(task.entries.map((entry) => [entry.path, current.get(entry.path)!]));
    stats.parse_ms = performance.now() - t;
    const retry = this.adaptersAsStarted(setup);
    if (retry !== null) return retry;
    this.progress('parse', task.entries.length, task.entries.length);
    return ordered;
  }

  /** Step 3, link code across files, per adapter (`includeDirs`: the descriptor's `[adapter.c] include_dirs`); what the linkers read and resolution probes is recorded. */
  private link(current: CurrentSources, includeDirs: readonly string[], exclude: { globs: readonly string[]; matching: (rel: string) => string | null }): { linked: LinkedCode | Retry; dependencies: DependencyRecorder } {
    const { task, stats, caches } = this;
    const t = performance.now();
    const dependencies = new DependencyRecorder(task.root);
    caches.linkData.takeParsed();
    const linked = linkCode(caches.link, task.root, current, dependencies, includeDirs.length === 0 ? {} : { c: { include_dirs: [...includeDirs] } }, exclude);
    stats.link_data_parsed = caches.linkData.takeParsed();
    if (caches.linkData.takeDamaged() > 0) {
      return { linked: { retry: 'damaged_link_data', message: 'cached link data was damaged; building from the sources' }, dependencies };
    }
    stats.link_ms = performance.now() - t;
    stats.linked_files = linked.linkedFiles;
    return { linked, dependencies };
  }

  /** Step 4, resolve ids, links and relations into one graph; add the project-owned adapter's part. */
  private async resolve(setup: BuildSetup, current: CurrentSources, linked: LinkedCode, dependencies: DependencyRecorder): Promise<Resolved> {
    const { task, caches } = this;
    const t = performance.now();
    const written = caches.written;
    // Incremental when these caches built the last graph of this root (a delta build is then likely).
    const resolved = resolveSources(caches.link, setup.descriptor, current, linked, caches.writtenByBuild && written !== null && written.root === task.root, dependencies);
    // The published identity covers the dependencies in the state this build used them (lstat before each read).
    task.sourceIdentity = this.identityWith(setup, dependencies.identities());
    const issues: SourceIssue[] = [...task.walkIssues];
    for (const source of current.values()) if (source.issues.length > 0) appendAll(issues, source.issues);
    appendAll(issues, linked.issues);
    appendAll(issues, resolved.issues);
    const adapterOutput = await this.runProjectAdapter(setup, resolved.nodes, issues);
    const graph = { ...resolved, ...extendGraph(resolved, linked.capabilities, adapterOutput) };
    appendAll(issues, vocabularyCaseIssues(graph.nodes, setup.descriptor));
    // Coverage (issue 32 item 4): severity info; kept between builds, recomputed where the graph changed (build-coverage.ts).
    appendAll(issues, coverageFindings(this.caches.coverage, graph, adapterOutput !== null, current));
    // Suspect links and unreviewed drift (issue 32): against the review hashes of this graph.
    const reviews = reviewFindings(graph, current, this.layout, this.caches.reviewBaseline, this.caches.reviewLinks);
    appendAll(issues, reviews.issues);
    let logicSteps = 0;
    for (const source of current.values()) logicSteps += source.logic_count ?? source.logic_steps.length;
    if (!task.logicAllowed && logicSteps > 0) {
      throw errors.policyViolation('A nonempty Logic projection was produced while the effective policy forbids Logic; nothing was published.', { logic_steps: logicSteps });
    }
    this.stats.resolve_ms = performance.now() - t;
    this.stats.resolve_mode = graph.delta?.base ? 'incremental' : 'scratch';
    this.stats.review_groups_computed = reviews.computed;
    return { graph, issues, adapterOutput, logicSteps, dependencies, reviewBaseline: reviews.baseline };
  }

  /**
   * Runs the project-owned adapter on the resolved nodes, under the watchdog; its issues join `issues`.
   * @throws DocforgeError when it fails and there is a last publication to keep serving (or a restart is required);
   *   without one, its failure becomes an `adapter_failed` issue
   */
  private async runProjectAdapter(setup: BuildSetup, nodes: Resolved['graph']['nodes'], issues: SourceIssue[]): Promise<ProjectAdapterOutput | null> {
    const projectAdapter = setup.projectAdapter;
    if (projectAdapter === null) return null;
    try {
      if (projectAdapter.run === null) throw errors.adapterFailed(projectAdapter.report.error?.message);
      this.watchdog(true);
      let output: ProjectAdapterOutput;
      try {
        output = await projectAdapter.run({ root: this.task.root, descriptor: setup.descriptor, nodes });
      } finally {
        this.watchdog(false);
      }
      appendAll(issues, output.issues);
      return output;
    } catch (error) {
      const failure = adapterFailure(error);
      // With a last publication, fail the build so it keeps being served (stale, with this error).
      if (failure.code === 'adapter_restart_required' || setup.previous !== null) throw failure;
      issues.push({ severity: 'error', code: 'adapter_failed', message: failure.message, path: setup.descriptor.adapter.module, line: null, node_id: null });
      this.adapterFailure = failure.toWire();
      return null;
    }
  }

  /** The successful outcome: final counts and timings. Adopted: another process published these very sources first. */
  private finish(publication: Publication, graph: Resolved['graph'], resolved: Resolved, adopted: boolean): BuildOutcome {
    const { stats } = this;
    Object.assign(stats, {
      nodes: graph.nodes.length, edges: graph.edges.length, issues: resolved.issues.length, logic_steps: resolved.logicSteps, parsers_loaded: loadedParsers(),
    });
    stats.total_ms = performance.now() - this.started;
    const failure = this.adapterFailure === null ? {} : { adapter_failure: this.adapterFailure };
    return adopted ? { ok: true, publication, stats, adapter: this.adapterReport, unchanged: true, ...failure } : { ok: true, publication, stats, adapter: this.adapterReport, ...failure };
  }

  /** A failed build: its file removed, the standby dropped, the written graph forgotten; the error as a wire error. */
  private fail(error: unknown): BuildOutcome {
    const { caches, layout } = this;
    // A failed write may have left the file half written (the delta runs without a journal): never keep it.
    if (this.pendingFile !== null) rmSync(this.pendingFile, { force: true });
    caches.standby.discard();
    // Stored link outputs are not trusted again after a failure (they may be what failed); a build
    // superseded by another process's publication failed at nothing, and those are now that process's.
    const superseded = error instanceof DocforgeError && isPublicationSuperseded(error);
    if (!superseded) clearLinkCaches(layout);
    caches.forgetWritten();
    return { ok: false, error: stateError(error, layout).toWire(), adapter: this.adapterReport };
  }
}
