/**
 * The write step of a build session (build-session.ts): a complete new index file, as a delta on a
 * private copy of the previous publication's file when the caches wrote that file (the standby copy
 * when one is ready, standby-copy.ts), else from scratch. The rows come from rows.ts; the writer is the store's (write-rows.ts, index-writer.ts).
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import { DEPENDENCIES_META_KEY, encodeDependencies, ensureAdapters, publishedDependencies } from '@docforge/identity';
import type { ResolvedGraph } from '@docforge/project';
import { copyDeltaBase, ensureStateConfined, fsyncFile, publicationFileIntact, recordIdentityAlias, type ParseRow } from '@docforge/store';
import { resolveSources, type LinkedCode } from './build-graph.js';
import { isRetry, type BuildSetup, type CurrentSources, type Resolved, type Retry, type SessionContext, type WrittenFile } from './build-steps.js';
import { sourceKey, type BuildOutcome } from './build-types.js';
import { indexMeta } from './index-meta.js';
import { writeDeltaIndex, writeFullIndex } from './rows.js';
import { prepareParser, reparseSource } from './parse.js';
import { extendGraph, issuesHash } from './project-adapter.js';
import { edgeRow, sameEdgesAsWritten, sameMap } from './written-compare.js';

/** Whether the caches' last written index is the prior publication's file, so a delta on a copy of it is exact. */
function canWriteDelta(ctx: SessionContext, setup: BuildSetup): boolean {
  const written = ctx.caches.written;
  const previous = setup.previous;
  return written !== null && previous !== null && written.root === ctx.task.root && written.indexFile === previous.index_file
    && written.logicAllowed === ctx.task.logicAllowed && written.descriptorHash === setup.descriptorHash && publicationFileIntact(ctx.layout, previous)
    && previous.index_ino === written.indexIno && previous.index_size === written.indexSize;
}

/** Node id -> content hash, and edge key -> row, of `graph` (the written edge map as is when the resolver says no edge row changed). */
function rowMaps(ctx: SessionContext, setup: BuildSetup, graph: ResolvedGraph): { nodeMap: Map<string, string>; edgeMap: Map<string, string> } {
  const written = ctx.caches.written;
  const nodeMap = new Map<string, string>();
  for (const node of graph.nodes) nodeMap.set(node.id, node.content_hash);
  // Stamps are attached after resolution (build-reviews.ts), outside the resolver's buckets: a graph with stamps rebuilds the map.
  const reuseEdges = setup.projectAdapter === null && written !== null && written.reviewed !== true && !graph.edges.some((e) => e.reviews !== undefined)
    && sameEdgesAsWritten(graph, written);
  const edgeMap = reuseEdges ? written.edges : new Map<string, string>();
  if (!reuseEdges) {
    for (const edge of graph.edges) {
      const row = edgeRow(edge);
      edgeMap.set(row[0], row[1]);
    }
  }
  return { nodeMap, edgeMap };
}

/**
 * Whether what this build resolved is exactly the previous publication's content: same source
 * content (`source_hash`), nodes, edges, issues, Logic, adapter version and build dependencies, the
 * caches having written that very file. Then only stat fields changed (a `touch`, a `chmod`, an
 * identical rewrite): no new generation (issue 30 item 1).
 */
function contentAsPublished(
  ctx: SessionContext, setup: BuildSetup, resolved: Resolved, maps: { nodeMap: Map<string, string>; edgeMap: Map<string, string> }, meta: Record<string, string>,
): boolean {
  const written = ctx.caches.written;
  const previous = setup.previous;
  if (written === null || previous === null || !canWriteDelta(ctx, setup)) return false;
  if (previous.adapter_version !== setup.adapterVersion || meta.source_hash !== previous.source_hash || previous.logic_present !== resolved.logicSteps > 0) return false;
  // current.json itself must say what this build would publish (a record edited by hand, or left by another policy, is rewritten).
  if (previous.logic_allowed !== ctx.task.logicAllowed || previous.counts.logic_steps !== resolved.logicSteps || previous.counts.issues !== resolved.issues.length
    || previous.counts.nodes !== maps.nodeMap.size || previous.counts.edges !== maps.edgeMap.size) return false;
  if (written.issuesHash !== issuesHash(resolved.issues) || !sameMap(written.nodes, maps.nodeMap) || !sameMap(written.edges, maps.edgeMap)) return false;
  const dependencies = publishedDependencies(ctx.layout, previous);
  return dependencies !== null && encodeDependencies(dependencies) === meta[DEPENDENCIES_META_KEY];
}

/**
 * Writes the new index file (step 4). Without a cheap identity, a graph equal to the last
 * publication's answers `unchanged` (that publication stays current) and nothing is written; with
 * one, so does a build that found only stat fields changed ({@link contentAsPublished}), after
 * recording the identity it observed as the publication's alias.
 * @returns the file written, the unchanged outcome, or a retry (an adapter unavailable late)
 * @throws storage and SQLite errors (the session removes the file it owns)
 */
export async function writeStep(
  ctx: SessionContext, setup: BuildSetup, current: CurrentSources, linked: LinkedCode, resolved: Resolved,
): Promise<WrittenFile | { unchanged: BuildOutcome } | Retry> {
  const { task, layout, stats } = ctx;
  const t = performance.now();
  ensureStateConfined(task.root, layout);
  const buildFile = path.join(layout.indexDir, `.build-${process.pid}-${Date.now().toString(36)}.sqlite`);
  const canDelta = canWriteDelta(ctx, setup);
  const { nodeMap, edgeMap } = rowMaps(ctx, setup, resolved.graph);
  const meta = indexMeta(task, setup.descriptor, resolved.graph, current, setup.adapterVersion, resolved.logicSteps, setup.descriptorHash);
  meta[DEPENDENCIES_META_KEY] = encodeDependencies(resolved.dependencies.dependencies());
  const written = ctx.caches.written;
  if (task.identityKnown === false && canDelta && written !== null && setup.previous!.adapter_version === setup.adapterVersion
    && written.issuesHash === issuesHash(resolved.issues) && sameMap(written.nodes, nodeMap) && sameMap(written.edges, edgeMap)
    && sameMap(written.sources, new Map([...current].map(([p, source]) => [p, sourceKey(source)])))) {
    // No cheap identity: the graph was re-derived and equals the last publication, which stays current.
    stats.total_ms = performance.now() - ctx.started;
    return { unchanged: { ok: true, publication: setup.previous!, stats, adapter: setup.projectAdapter?.report ?? null, unchanged: true } };
  }
  // Only stat fields changed: the publication stays (viewer workers stay current) and the identity
  // observed is recorded as its alias, so later checks need no build (store identity-alias.ts).
  if (task.identityKnown !== false && contentAsPublished(ctx, setup, resolved, { nodeMap, edgeMap }, meta)
    && await recordIdentityAlias(layout, setup.prior, task.sourceIdentity, task.applicationEpoch)) {
    stats.total_ms = performance.now() - ctx.started;
    return { unchanged: { ok: true, publication: setup.previous!, stats, adapter: setup.projectAdapter?.report ?? null, unchanged: true } };
  }
  const maps = { nodes: nodeMap, edges: edgeMap };
  const delta = canDelta ? await writeDelta(ctx, setup, linked, resolved, { file: buildFile, maps, current, meta }) : null;
  let file: string;
  let parses: ParseRow[];
  let graph = resolved.graph;
  if (delta !== null) {
    ({ file, parses } = delta);
  } else {
    const full = await writeFull(ctx, setup, current, linked, resolved, buildFile, meta);
    if (isRetry(full)) return full;
    ({ file, parses, graph } = full);
  }
  fsyncFile(file);
  stats.write_ms = performance.now() - t;
  return { file, parses, nodeMap, edgeMap, meta, graph };
}

/**
 * A delta on a private copy of the previous file: the standby copy when it is exact, else a copy
 * made now at `target.file`.
 * @returns the file and its parse rows, or null when a changed node's body was dropped (the copy is removed; write in full)
 */
async function writeDelta(
  ctx: SessionContext, setup: BuildSetup, linked: LinkedCode, resolved: Resolved,
  target: { file: string; maps: { nodes: Map<string, string>; edges: Map<string, string> }; current: CurrentSources; meta: Record<string, string> },
): Promise<{ file: string; parses: ParseRow[] } | null> {
  const { layout, stats } = ctx;
  const { maps, current, meta } = target;
  const previous = setup.previous!;
  // A standby copy made in idle time (standby-copy.ts) is the same file a copy now would be.
  const copyStarted = performance.now();
  let file = await ctx.caches.standby.take(layout, previous);
  if (file !== null) {
    stats.delta_base = 'standby';
  } else {
    file = target.file;
    copyDeltaBase(layout, previous.index_file, file);
    stats.delta_base = 'copy';
  }
  ctx.own(file);
  stats.copy_ms = performance.now() - copyStarted;
  const parses = writeDeltaIndex(file, ctx.caches.written!, { ...resolved.graph, unresolvedCalls: linked.unresolvedCalls }, maps, current, resolved.issues, meta);
  if (parses === null) {
    rmSync(file, { force: true });
    return null;
  }
  stats.mode = 'delta';
  return { file, parses };
}

/**
 * A complete file from scratch at `file`. Sources whose bodies were dropped after the last write
 * are parsed again, and the graph resolved again with them (a cold build has none: its graph is
 * complete).
 */
async function writeFull(
  ctx: SessionContext, setup: BuildSetup, current: CurrentSources, linked: LinkedCode, resolved: Resolved, file: string, meta: Record<string, string>,
): Promise<{ file: string; parses: ParseRow[]; graph: ResolvedGraph } | Retry> {
  const { task } = ctx;
  let graph = resolved.graph;
  let reparsed = false;
  // reparseSource needs the parsers, which a build that parsed no code has not loaded.
  if ([...current.values()].some((source) => source.stripped && source.adapter !== null)) {
    await ensureAdapters(setup.adapterIds);
    const retry = ctx.adaptersAsStarted(setup);
    if (retry !== null) return retry;
  }
  for (const [p, source] of current) {
    if (!source.stripped) continue;
    const failure = source.adapter === null ? undefined : await prepareParser(setup.descriptor, p);
    current.set(p, reparseSource(task.root, setup.descriptor, source, task.logicAllowed, failure));
    reparsed = true;
  }
  if (reparsed) {
    const rehydrated = resolveSources(ctx.caches.link, setup.descriptor, current, linked, false, resolved.dependencies);
    graph = { ...rehydrated, ...extendGraph(rehydrated, linked.capabilities, resolved.adapterOutput) };
  }
  ctx.own(file);
  const parses = writeFullIndex(file, { ...graph, unresolvedCalls: linked.unresolvedCalls }, current, resolved.issues, meta, ctx.progress);
  return { file, parses, graph };
}
