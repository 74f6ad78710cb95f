/**
 * The build session, run inside the piscina build worker (DESIGN.md sections 1 and 4): parse
 * what changed, link and resolve the graph, write a complete new index file, publish it. The
 * worker keeps per-source parses and the last written graph between builds so most builds are
 * incremental; `current.json` is read once per build and carried through every step.
 */
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { appendAll, DocforgeError, errors, sha256, type SourceIssue } from '@docforge/core';
import { stateLayout, type StateLayout } from '@docforge/fs-safe';
import {
  cheapIdentity, loadDescriptor, vocabularyCaseIssues, walkAdapterInputs, type Descriptor, type ResolvedGraph, type SourceEntry, type StatIdentity,
} from '@docforge/project';
import { adaptersFor, adapterVersionOf, ensureAdapters, ensureLinkers, loadedParsers } from '@docforge/identity';
import { DEPENDENCIES_META_KEY, DependencyRecorder, dependencyIdentities, encodeDependencies } from '@docforge/identity';
import { publishedDependencies } from '@docforge/identity';
import { takeDamagedLinkData, takeParsedLinkData } from './lazy-link-data.js';
import { linkCachesForStore, linkCode, primeResolver, resetLinkCaches, resolveSources, restoreLinkCaches, type LinkedCode } from './build-graph.js';
import { clearLinkCaches, readLinkCaches, writeLinkCaches } from '@docforge/store';
import { sourceKey, type BuildOutcome, type BuildStats, type BuildTask, type CachedSource, type PrepareTask, type WrittenState } from './build-types.js';
import { unresolvedCallsHash, writeDeltaIndex, writeFullIndex } from './rows.js';
import { parseBatch, reparseSource, reshaped, sameShape } from './parse.js';
import { throttledProgress, type Progress } from './build-progress.js';
import { edgeRow, sameEdgesAsWritten, sameMap } from './written-compare.js';
import { indexMeta } from './index-meta.js';
import { parseInParallel, parsesInParallel, prestartParsePool } from './parse-pool.js';
import { writeParseCache, type ParseCacheStamp, type ParseRow } from '@docforge/store';
import {
  adapterFailure, extendGraph, identityWithInputs, issuesHash, loadProjectAdapter, projectAdapterVersionSuffix,
  type ProjectAdapterOutput, type ProjectAdapterReport,
} from './project-adapter.js';
import { publicationFileIntact, readPublicationOnce, type PublicationRead } from '@docforge/store';
import { assertStateConfined, copyDeltaBase, ensureStateConfined, fsyncFile, isPublicationSuperseded, publishIndex, stateError } from '@docforge/store';
import { planReceipt } from '@docforge/store';
import { warmFromPublication, type WarmExpectation } from './warm.js';
import type { Publication } from '@docforge/store';
import { discardStandby, prepareStandby, STANDBY_FILE_PATTERN, takeStandby } from './standby-copy.js';

const sourceCache = new Map<string, CachedSource>();
let written: WrittenState | null = null;
/**
 * Whether `written` comes from a build of this worker (not from a warm start): then more builds are
 * likely (a long-lived process), and the incremental resolver is worth its first, fuller pass.
 * A one-shot CLI sync after a warm start resolves from scratch, as cheaply as before.
 */
let writtenByBuild = false;
/** What the last build of this worker resolved, kept for {@link primeBuildCaches} (null once primed or reset). */
let lastResolved: { root: string; descriptor: Descriptor; current: ReadonlyMap<string, CachedSource>; linked: LinkedCode } | null = null;

/** Drops all worker-side caches (tests; or after a failed delta). */
export function resetBuildCaches(): void {
  discardStandby();
  sourceCache.clear();
  written = null;
  writtenByBuild = false;
  lastResolved = null;
  resetLinkCaches();
}

/**
 * Idle-time work of a long-lived process after a build of `root` (issue 14): when that build
 * resolved the graph from scratch, the incremental resolver makes its first, fuller pass over the
 * same sources now, so the next one-file edit resolves incrementally from its first build. The
 * written state takes the primed output's token (the same graph), so that edit can also reuse the
 * edge map. Never throws; does nothing when there is nothing to prime.
 * @returns whether the resolver was primed, and the time it took in ms
 */
export function primeBuildCaches(root: string): { primed: boolean; ms: number } {
  const started = performance.now();
  const last = lastResolved;
  lastResolved = null;
  if (last === null || last.root !== root || !writtenByBuild || written === null || written.root !== root) return { primed: false, ms: 0 };
  const token = primeResolver(last.descriptor, last.current, last.linked);
  if (token !== null) written.graphToken = token;
  return { primed: token !== null, ms: performance.now() - started };
}

/**
 * Idle-time work of a long-lived process after a build of `root` whose state lives in `stateDir`:
 * starts the standby copy of the file this worker just published (standby-copy.ts), so the next
 * delta build does not copy the whole index on its critical path. Returns at once; never throws.
 * @returns whether a copy was started or is already there
 */
export function prepareDeltaBase(root: string, stateDir: string): boolean {
  if (!writtenByBuild || written === null || written.root !== root) return false;
  const layout = stateLayout(stateDir, root);
  prepareStandby(layout, { index_file: written.indexFile, index_ino: written.indexIno, index_size: written.indexSize });
  // The link outputs too, for a later process's first edit (a one-shot build stores them itself).
  writeLinkCaches(layout, stampOf(written), written.indexFile, linkCachesForStore());
  return true;
}

/**
 * Step 0 of a build in a fresh worker (no parses, nothing written): the previous publication's
 * persisted parses and, without a project-owned adapter, its stored link outputs
 * (link-cache-store.ts). Does nothing in a worker that already has either. Never throws.
 * @returns whether the worker now starts from that publication
 */
function warmStart(layout: StateLayout, previous: Publication, expected: WarmExpectation, projectAdapter: boolean): boolean {
  if (sourceCache.size !== 0 || written !== null) return false;
  const warm = warmFromPublication(layout, previous, expected);
  if (warm === null) return false;
  for (const [p, source] of warm.sources) sourceCache.set(p, source);
  written = warm.written;
  // With the link outputs stored for that publication, a one-file edit re-links only what it can affect.
  if (!projectAdapter) restoreLinkCaches(expected.root, readLinkCaches(layout, stampOf(warm.written), previous.index_file), warm.sources);
  return true;
}

/**
 * A build worker started because a build is coming (build-pool.ts `prestartBuildWorker`, task
 * name `prepare`): while the main thread still loads and walks, it starts from the current
 * publication ({@link warmStart}) and loads the code adapters of its sources (the TypeScript
 * compiler; only the linking halves of those not in `task.parseAdapters`), so the build task
 * finds both done. The build checks everything again: a publication
 * that changed meanwhile only means the prepared state is used as a long-lived worker uses its
 * own (per-source identities, link hashes, and a delta only onto the file it describes).
 * Does nothing for a project with a project-owned adapter, or in a worker that already built.
 * Never throws.
 * @returns whether the worker started from the publication
 */
export async function prepareBuild(task: PrepareTask): Promise<boolean> {
  try {
    if (sourceCache.size !== 0 || written !== null) return false;
    const descriptor = loadDescriptor(task.root);
    if (descriptor.adapter.module !== null) return false;
    const layout = stateLayout(task.stateDir, task.root);
    const previous = readPublicationOnce(layout).publication;
    if (previous === null) return false;
    const expected = { root: task.root, logicAllowed: task.logicAllowed, descriptorHash: sha256(readFileSync(descriptor.path)), adapterVersion: adapterVersionOf(descriptor) };
    if (!warmStart(layout, previous, expected, false)) return false;
    const adapters = new Set<string>();
    for (const source of sourceCache.values()) if (source.adapter !== null) adapters.add(source.adapter);
    // A parser (the TypeScript compiler) only where code will be parsed; linking needs only the linking halves.
    const parsing = [...adapters].filter((id) => task.parseAdapters === undefined || task.parseAdapters.includes(id));
    await ensureAdapters(parsing);
    await ensureLinkers([...adapters]);
    return true;
  } catch {
    return false;
  }
}

/** The parse cache's stamp of a written state (what stored caches are bound to besides the index file). */
function stampOf(state: WrittenState): ParseCacheStamp {
  return { root: state.root, descriptorHash: state.descriptorHash, logicAllowed: state.logicAllowed, adapterVersion: state.adapterVersion };
}

/** Step 1: parses what changed (in parallel when there is much of it) and reuses the rest, in the walk's order. */
async function parseStep(task: BuildTask, stats: BuildStats, progress: Progress): Promise<Map<string, CachedSource>> {
  const current = new Map<string, CachedSource>();
  const pending: SourceEntry[] = [];
  for (const entry of task.entries) {
    const cached = sourceCache.get(entry.path);
    if (cached && cached.entry.size === entry.size && cached.entry.mtime_ns === entry.mtime_ns && cached.entry.ino === entry.ino) {
      current.set(entry.path, cached);
      stats.reused += 1;
    } else {
      pending.push(entry);
    }
  }
  const knownHashes: Record<string, string> = {};
  for (const entry of pending) {
    const cached = sourceCache.get(entry.path);
    if (cached) knownHashes[entry.path] = cached.content_hash;
  }
  const batch = { root: task.root, entries: pending, knownHashes, logicAllowed: task.logicAllowed };
  const parsedItems = parsesInParallel(pending)
    ? await parseInParallel(batch, (n) => progress('parse', stats.reused + n, task.entries.length))
    : await parseBatch(batch);
  for (const item of parsedItems) {
    if (item.reuse) {
      const cached = sourceCache.get(item.entry.path)!;
      cached.entry = sameShape(item.entry);
      current.set(item.entry.path, cached);
      stats.reused += 1;
    } else {
      current.set(item.entry.path, reshaped(item.source));
      stats.parsed += 1;
    }
  }
  if (pending.length === 0) return current;
  // Keep the walk's order: resolution picks duplicate winners by path order.
  const ordered = new Map<string, CachedSource>();
  for (const entry of task.entries) ordered.set(entry.path, current.get(entry.path)!);
  return ordered;
}

/** Whether this worker's last written index is the prior publication's file, so a delta on a copy of it is exact. */
function canWriteDelta(task: BuildTask, layout: StateLayout, previous: PublicationRead['publication'], descriptorHash: string): boolean {
  return written !== null && previous !== null && written.root === task.root && written.indexFile === previous.index_file
    && written.logicAllowed === task.logicAllowed && written.descriptorHash === descriptorHash && publicationFileIntact(layout, previous)
    && previous.index_ino === written.indexIno && previous.index_size === written.indexSize;
}

/**
 * Parses changed sources, resolves the graph, writes a complete new SQLite file (a copy of the
 * previous one plus a delta when this worker wrote it, else from scratch) and publishes it
 * atomically under the publication lock (DESIGN.md section 4). Runs inside the piscina worker.
 * Never rejects: failures come back as `{ ok: false, error }` and nothing is published. A build
 * that read damaged link data from the parse cache, or found an adapter it had linked with unable
 * to load whole, runs once more from the sources alone.
 */
export async function runBuild(task: BuildTask): Promise<BuildOutcome> {
  let outcome = await buildOnce(task);
  // Link data read from the parse cache was damaged: build again from the sources alone (which
  // rewrites the whole cache), rather than fail every build that reads that row. Likewise when an
  // adapter turned out unavailable only once a file needed its parser. Each cause can happen once
  // (the retry reads no cached link data; an unavailable adapter stays so), hence two retries at most.
  for (let retry = 0; retry < 2 && !outcome.ok && (damagedLinkData || adapterUnavailableLate); retry += 1) {
    damagedLinkData = false;
    adapterUnavailableLate = false;
    outcome = await buildOnce({ ...task, forceFull: true });
  }
  return outcome;
}

/** Set when a build failed because link data it read lazily from the parse cache was damaged (lazy-link-data.ts). */
let damagedLinkData = false;
/** Set when a build failed because a code adapter loaded as a linker could not load as a whole (adapter-registry.ts `ensureLinkers`). */
let adapterUnavailableLate = false;

async function buildOnce(task: BuildTask): Promise<BuildOutcome> {
  const started = performance.now();
  const layout = stateLayout(task.stateDir, task.root);
  let adapterReport: ProjectAdapterReport | null = null;
  /** The new index file while it is this build's to remove (written, not yet renamed into place by publishIndex). */
  let pendingFile: string | null = null;
  try {
    const descriptor = loadDescriptor(task.root);
    const adapterIds = adaptersFor(descriptor, task.entries);
    // A first build without a publication to start from parses everything on every core: the parse threads start loading now.
    if (sourceCache.size === 0 && written === null && (task.forceFull === true || task.prior?.publication === null) && parsesInParallel(task.entries)) {
      prestartParsePool(adapterIds);
    }
    // Linking needs only the adapters' linking halves; parsing a code file loads its whole adapter
    // (parse.ts), so a build that parses no code never loads the TypeScript compiler (issue 14).
    await ensureLinkers(adapterIds);
    // Project-owned adapter: checked against the process-start fingerprint, imported once (project-adapter.ts).
    // The watchdog (manager.ts with adapter-timeout.ts) is armed while adapter code runs: a hang terminates this thread.
    const watchdog = (armed: boolean): void => task.progressPort?.postMessage({ watchdog: armed });
    if (task.projectAdapter) watchdog(true);
    const projectAdapter = task.projectAdapter ? await loadProjectAdapter(task.root, task.projectAdapter) : null;
    if (task.projectAdapter) watchdog(false);
    adapterReport = projectAdapter?.report ?? null;
    // Declared inputs join the cheap identity, computed exactly as the main thread does.
    const inputFiles = projectAdapter !== null && Array.isArray(projectAdapter.report.inputs)
      ? walkAdapterInputs(task.root, projectAdapter.report.inputs, descriptor.state.dir).files : null;
    /** The cheap identity of the walked sources, the task's extras and the given dependency lines (build-dependencies.ts). */
    const identityWith = (dependencies: readonly StatIdentity[]): string => {
      const extra = [...(task.identityExtra ?? []), ...dependencies];
      return inputFiles === null ? cheapIdentity(task.entries, extra) : identityWithInputs(task.entries, extra, inputFiles);
    };
    const descriptorHash = sha256(readFileSync(descriptor.path));
    const adapterVersion = adapterVersionOf(descriptor) + projectAdapterVersionSuffix(task.projectAdapter, adapterReport);
    // Cached parses depend on the descriptor (strategy, vocabulary, roots) and the Logic policy.
    // And on the adapters: a worker prepared while an adapter still seemed loadable keeps nothing it parsed or wrote then.
    if (task.forceFull === true || (written !== null && (written.descriptorHash !== descriptorHash || written.logicAllowed !== task.logicAllowed || written.adapterVersion !== adapterVersion))) {
      resetBuildCaches();
    }
    assertStateConfined(task.root, layout);
    // The one read of current.json for this build (the caller's, when it passed one).
    const prior = task.prior ?? readPublicationOnce(layout);
    const previous = prior.publication;
    const stats: BuildStats = {
      mode: 'full', files: task.entries.length, parsed: 0, reused: 0, nodes: 0, edges: 0, issues: 0, logic_steps: 0,
      parse_ms: 0, link_ms: 0, resolve_ms: 0, resolve_mode: 'scratch', write_ms: 0, publish_ms: 0, total_ms: 0,
    };
    const progress = throttledProgress(task.progressPort);
    if (projectAdapter !== null && task.identityKnown === false && inputFiles !== null && previous !== null) {
      // The caller learns the declared inputs only now: a publication with the same identity is still current.
      task.sourceIdentity = identityWith(dependencyIdentities(task.root, publishedDependencies(layout, previous)));
      if (previous.source_identity === task.sourceIdentity && previous.logic_allowed === task.logicAllowed && !(previous.logic_present && !task.logicAllowed)
        && previous.adapter_version === adapterVersion && publicationFileIntact(layout, previous)) {
        stats.total_ms = performance.now() - started;
        return { ok: true, publication: previous, stats, adapter: adapterReport, unchanged: true };
      }
    }

    // 0. A fresh worker starts from the previous publication's persisted parses, so the first
    // build of a new process is incremental too (unless `prepare` did this already).
    if (task.forceFull !== true && previous !== null) {
      warmStart(layout, previous, { root: task.root, logicAllowed: task.logicAllowed, descriptorHash, adapterVersion }, task.projectAdapter != null);
    }

    // 1. Parse what changed; reuse the rest.
    let t = performance.now();
    const current = await parseStep(task, stats, progress);
    stats.parse_ms = performance.now() - t;
    /**
     * An adapter whose linking half loaded but which could not load as a whole when a file needed
     * its parser: build once more with it unavailable from the start, as a build that never loaded it.
     */
    const assertAdaptersAsStarted = (): void => {
      if (adapterVersionOf(descriptor) + projectAdapterVersionSuffix(task.projectAdapter, adapterReport) === adapterVersion) return;
      adapterUnavailableLate = true;
      throw errors.internalError('a code adapter could not load; building again without it');
    };
    assertAdaptersAsStarted();
    progress('parse', task.entries.length, task.entries.length);

    // 2. Link code across files, per adapter; what the linkers read and resolution probes is recorded.
    t = performance.now();
    const dependencies = new DependencyRecorder(task.root);
    takeParsedLinkData();
    const linked = linkCode(task.root, current, dependencies);
    stats.link_data_parsed = takeParsedLinkData();
    if (takeDamagedLinkData() > 0) {
      damagedLinkData = true;
      throw errors.internalError('cached link data was damaged; building from the sources');
    }
    stats.link_ms = performance.now() - t;
    stats.linked_files = linked.linkedFiles;

    // 3. Resolve ids, links and relations into one graph; add the project-owned adapter's part.
    t = performance.now();
    // Incremental when this worker built the last graph of this root (a delta build is then likely).
    let graph: ResolvedGraph = resolveSources(descriptor, current, linked, writtenByBuild && written !== null && written.root === task.root, dependencies);
    // The published identity covers the dependencies in the state this build used them (lstat before each read).
    task.sourceIdentity = identityWith(dependencies.identities());
    const issues: SourceIssue[] = [...task.walkIssues];
    for (const source of current.values()) if (source.issues.length > 0) appendAll(issues, source.issues);
    appendAll(issues, linked.issues);
    appendAll(issues, graph.issues);
    let adapterOutput: ProjectAdapterOutput | null = null;
    if (projectAdapter !== null) {
      try {
        if (projectAdapter.run === null) throw errors.adapterFailed(projectAdapter.report.error?.message);
        watchdog(true);
        try {
          adapterOutput = await projectAdapter.run({ root: task.root, descriptor, nodes: graph.nodes });
        } finally {
          watchdog(false);
        }
        appendAll(issues, adapterOutput.issues);
      } catch (error) {
        const failure = adapterFailure(error);
        // With a last publication, fail the build so it keeps being served (stale, with this error).
        if (failure.code === 'adapter_restart_required' || previous !== null) throw failure;
        issues.push({ severity: 'error', code: 'adapter_failed', message: failure.message, path: descriptor.adapter.module, line: null, node_id: null });
      }
    }
    graph = { ...graph, ...extendGraph(graph, linked.capabilities, adapterOutput) };
    appendAll(issues, vocabularyCaseIssues(graph.nodes, descriptor));
    let logicSteps = 0;
    for (const source of current.values()) logicSteps += source.logic_count ?? source.logic_steps.length;
    if (!task.logicAllowed && logicSteps > 0) {
      throw errors.policyViolation('A nonempty Logic projection was produced while the effective policy forbids Logic; nothing was published.', { logic_steps: logicSteps });
    }
    stats.resolve_ms = performance.now() - t;
    stats.resolve_mode = graph.delta?.base ? 'incremental' : 'scratch';

    // 4. Write a complete new index file.
    t = performance.now();
    ensureStateConfined(task.root, layout);
    const buildFile = path.join(layout.indexDir, `.build-${process.pid}-${Date.now().toString(36)}.sqlite`);
    let tmpFile = buildFile;
    const canDelta = canWriteDelta(task, layout, previous, descriptorHash);
    const nodeMap = new Map<string, string>();
    for (const node of graph.nodes) nodeMap.set(node.id, node.content_hash);
    // When the resolver says no edge row changed since the graph this worker wrote, that map is reused as is.
    const reuseEdges = projectAdapter === null && written !== null && sameEdgesAsWritten(graph, written);
    const edgeMap = reuseEdges ? written!.edges : new Map<string, string>();
    if (!reuseEdges) {
      for (const edge of graph.edges) {
        const row = edgeRow(edge);
        edgeMap.set(row[0], row[1]);
      }
    }
    const meta = indexMeta(task, descriptor, graph, current, adapterVersion, logicSteps, descriptorHash);
    meta[DEPENDENCIES_META_KEY] = encodeDependencies(dependencies.dependencies());
    if (task.identityKnown === false && canDelta && previous!.adapter_version === adapterVersion && written!.issuesHash === issuesHash(issues)
      && sameMap(written!.nodes, nodeMap) && sameMap(written!.edges, edgeMap) && sameMap(written!.sources, new Map([...current].map(([p, source]) => [p, sourceKey(source)])))) {
      // No cheap identity: the graph was re-derived and equals the last publication, which stays current.
      stats.total_ms = performance.now() - started;
      return { ok: true, publication: previous!, stats, adapter: adapterReport, unchanged: true };
    }
    let needFull = !canDelta;
    let parses: ParseRow[] | null = null;
    if (canDelta) {
      // A standby copy made in idle time (standby-copy.ts) is the same file a copy now would be.
      const copyStarted = performance.now();
      const spare = await takeStandby(layout, previous!);
      if (spare !== null) {
        tmpFile = spare;
        stats.delta_base = 'standby';
      } else {
        copyDeltaBase(layout, previous!.index_file, tmpFile);
        stats.delta_base = 'copy';
      }
      pendingFile = tmpFile;
      stats.copy_ms = performance.now() - copyStarted;
      parses = writeDeltaIndex(tmpFile, written!, { ...graph, unresolvedCalls: linked.unresolvedCalls }, { nodes: nodeMap, edges: edgeMap }, current, issues, meta);
      needFull = parses === null;
      if (needFull) {
        rmSync(tmpFile, { force: true });
        tmpFile = buildFile;
      }
      else stats.mode = 'delta';
    }
    if (needFull) {
      // Sources whose bodies were dropped after the last write are parsed again for a full write,
      // and the graph resolved again with them (a cold build has none: its graph is complete).
      let reparsed = false;
      // reparseSource needs the parsers, which a build that parsed no code has not loaded.
      if ([...current.values()].some((source) => source.stripped && source.adapter !== null)) {
        await ensureAdapters(adapterIds);
        assertAdaptersAsStarted();
      }
      for (const [p, source] of current) {
        if (!source.stripped) continue;
        current.set(p, reparseSource(task.root, descriptor, source, task.logicAllowed));
        reparsed = true;
      }
      if (reparsed) {
        const rehydrated = resolveSources(descriptor, current, linked, false, dependencies);
        graph = { ...rehydrated, ...extendGraph(rehydrated, linked.capabilities, adapterOutput) };
      }
      pendingFile = tmpFile;
      parses = writeFullIndex(tmpFile, { ...graph, unresolvedCalls: linked.unresolvedCalls }, current, issues, meta, progress);
    }
    fsyncFile(tmpFile);
    stats.write_ms = performance.now() - t;

    progress('publish', current.size, current.size);
    // Generation diff against the previous publication (contract: docforge_get_generation_diff).
    const receiptPlan = planReceipt({
      layout, previous, written: written !== null && written.root === task.root ? written : null, nodes: graph.nodes, nodeMap, edgeMap,
      projectId: descriptor.project.id, root: task.root, adapterVersion, sourceIdentity: task.sourceIdentity,
    });

    // 5. Publish atomically under the lock.
    t = performance.now();
    const counts = { sources: current.size, nodes: graph.nodes.length, edges: graph.edges.length, issues: issues.length, logic_steps: logicSteps };
    const { publication, adopted, receiptSide } = await publishIndex({
      root: task.root, layout, tmpFile, prior, minGeneration: task.minGeneration, receiptPlan, identityKnown: task.identityKnown, applicationEpoch: task.applicationEpoch,
      processOwned: STANDBY_FILE_PATTERN,
      fields: {
        source_identity: task.sourceIdentity, source_hash: meta.source_hash!, adapter_version: adapterVersion, logic_present: logicSteps > 0,
        logic_allowed: task.logicAllowed, project_id: descriptor.project.id, counts,
      },
    });
    // Renamed into place, or removed by publishIndex when it did not publish.
    pendingFile = null;
    // The parse cache, outside the publication (parse-cache.ts); a failure there never fails the build.
    // Both writers never throw; the guard keeps it so, since the publication above already happened.
    if (!adopted) {
      try {
        const removed = stats.mode === 'delta' ? [...written!.sources.keys()].filter((p) => !current.has(p)) : [];
        writeParseCache(layout, { root: task.root, descriptorHash, logicAllowed: task.logicAllowed, adapterVersion }, parses!, removed, stats.mode === 'full');
        if (task.storeLinkCache === true && projectAdapter === null) {
          writeLinkCaches(layout, { root: task.root, descriptorHash, logicAllowed: task.logicAllowed, adapterVersion }, publication.index_file, linkCachesForStore());
        }
      } catch {
        // a cache that cannot be written only means a later worker parses and links again
      }
    }
    stats.publish_ms = performance.now() - t;

    // 6. Remember what was written; drop bodies to bound worker memory.
    sourceCache.clear();
    for (const [p, source] of current) {
      if (!source.stripped) {
        for (const node of source.nodes) node.body = '';
        source.stripped = true;
      }
      sourceCache.set(p, source);
    }
    writtenByBuild = true;
    written = {
      root: task.root, indexFile: publication.index_file, indexIno: publication.index_ino, indexSize: publication.index_size,
      logicAllowed: task.logicAllowed, descriptorHash, adapterVersion, nodes: nodeMap, edges: edgeMap,
      sources: new Map([...current].map(([p, source]) => [p, sourceKey(source)])),
      issuesHash: issuesHash(issues),
      graphToken: graph.delta?.token ?? null, receiptSide,
      unresolvedHash: unresolvedCallsHash(linked.unresolvedCalls.size === 0 ? [] : graph.nodes.flatMap((n) => {
        const count = linked.unresolvedCalls.get(n.id);
        return count === undefined ? [] : [[n.id, count] as const];
      })),
    };
    lastResolved = graph.delta === undefined ? { root: task.root, descriptor, current, linked } : null;
    Object.assign(stats, { nodes: counts.nodes, edges: counts.edges, issues: counts.issues, logic_steps: logicSteps, parsers_loaded: loadedParsers() });
    stats.total_ms = performance.now() - started;
    // Adopted: another process published these very sources first; nothing new was published.
    return adopted ? { ok: true, publication, stats, adapter: adapterReport, unchanged: true } : { ok: true, publication, stats, adapter: adapterReport };
  } catch (error) {
    // A failed write may have left the file half written (the delta runs without a journal): never keep it.
    if (pendingFile !== null) rmSync(pendingFile, { force: true });
    discardStandby();
    // Stored link outputs are not trusted again after a failure (they may be what failed); a build
    // superseded by another process's publication failed at nothing, and those are now that process's.
    const superseded = error instanceof DocforgeError && isPublicationSuperseded(error);
    if (!superseded) clearLinkCaches(layout);
    written = null;
    writtenByBuild = false;
    lastResolved = null;
    return { ok: false, error: stateError(error, layout).toWire(), adapter: adapterReport };
  }
}

