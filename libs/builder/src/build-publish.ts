/**
 * The last steps of a build session (build-session.ts): publish the written file atomically under
 * the lock with its generation receipt (libs/store publish.ts, receipts), store the parse and link
 * caches beside the publication, and remember in the build caches what was written.
 */
import { planReceipt, publishIndex, writeLinkCaches, writeParseCache, type Publication, type ReceiptSide } from '@docforge/store';
import type { LinkedCode } from './build-graph.js';
import type { BuildSetup, CurrentSources, Resolved, SessionContext, WrittenFile } from './build-steps.js';
import { sourceKey } from './build-types.js';
import { unresolvedCallsHash } from './rows.js';
import { issuesHash } from './project-adapter.js';
import { STANDBY_FILE_PATTERN } from './standby-copy.js';

/**
 * Step 5, publish: the generation diff against the previous publication (contract:
 * docforge_get_generation_diff), then the file renamed into place under the lock; then the parse
 * cache (and, for a one-shot process, the link caches), outside the publication. A failure there
 * never fails the build.
 * @returns the publication, whether it was adopted (another process published these very sources first), and the receipt's committed side hashes
 * @throws what publishIndex throws (the file is then removed by it or by the session)
 */
export async function publishStep(
  ctx: SessionContext, setup: BuildSetup, current: CurrentSources, resolved: Resolved, written: WrittenFile,
): Promise<{ publication: Publication; adopted: boolean; receiptSide: ReceiptSide | null }> {
  const { task, layout, stats, caches } = ctx;
  const { graph } = written;
  ctx.progress('publish', current.size, current.size);
  const last = caches.written !== null && caches.written.root === task.root ? caches.written : null;
  const receiptPlan = planReceipt({
    layout, previous: setup.previous, written: last, nodes: graph.nodes, nodeMap: written.nodeMap, edgeMap: written.edgeMap,
    projectId: setup.descriptor.project.id, root: task.root, adapterVersion: setup.adapterVersion, sourceIdentity: task.sourceIdentity,
  });
  const t = performance.now();
  const counts = { sources: current.size, nodes: graph.nodes.length, edges: graph.edges.length, issues: resolved.issues.length, logic_steps: resolved.logicSteps };
  const { publication, adopted, receiptSide } = await publishIndex({
    root: task.root, layout, tmpFile: written.file, prior: setup.prior, minGeneration: task.minGeneration, receiptPlan, identityKnown: task.identityKnown,
    applicationEpoch: task.applicationEpoch, processOwned: STANDBY_FILE_PATTERN,
    fields: {
      source_identity: task.sourceIdentity, source_hash: written.meta.source_hash!, adapter_version: setup.adapterVersion, logic_present: resolved.logicSteps > 0,
      logic_allowed: task.logicAllowed, project_id: setup.descriptor.project.id, counts,
    },
  });
  // Renamed into place, or removed by publishIndex when it did not publish.
  ctx.own(null);
  if (!adopted) storeCaches(ctx, setup, current, written, publication);
  stats.publish_ms = performance.now() - t;
  return { publication, adopted, receiptSide };
}

/** The parse cache (parse-cache.ts) and, when the task asks, the link caches: both writers never throw; the guard keeps it so. */
function storeCaches(ctx: SessionContext, setup: BuildSetup, current: CurrentSources, written: WrittenFile, publication: Publication): void {
  const { task, layout, stats, caches } = ctx;
  const stamp = { root: task.root, descriptorHash: setup.descriptorHash, logicAllowed: task.logicAllowed, adapterVersion: setup.adapterVersion };
  try {
    const removed = stats.mode === 'delta' ? [...caches.written!.sources.keys()].filter((p) => !current.has(p)) : [];
    writeParseCache(layout, stamp, written.parses, removed, stats.mode === 'full');
    if (task.storeLinkCache === true && setup.projectAdapter === null) writeLinkCaches(layout, stamp, publication.index_file, caches.link.forStore());
  } catch {
    // a cache that cannot be written only means a later worker parses and links again (the publication above already happened)
  }
}

/** Step 6, remember what was written in the caches; drop bodies to bound worker memory. */
export function rememberStep(
  ctx: SessionContext, setup: BuildSetup, current: CurrentSources, linked: LinkedCode, resolved: Resolved, written: WrittenFile, publication: Publication, receiptSide: ReceiptSide | null,
): void {
  const { task, caches } = ctx;
  const { graph } = resolved;
  caches.sources.clear();
  for (const [p, source] of current) {
    if (!source.stripped) {
      for (const node of source.nodes) node.body = '';
      source.code_text = [];
      source.stripped = true;
    }
    caches.sources.set(p, source);
  }
  caches.writtenByBuild = true;
  caches.written = {
    root: task.root, indexFile: publication.index_file, indexIno: publication.index_ino, indexSize: publication.index_size,
    logicAllowed: task.logicAllowed, descriptorHash: setup.descriptorHash, adapterVersion: setup.adapterVersion, nodes: written.nodeMap, edges: written.edgeMap,
    sources: new Map([...current].map(([p, source]) => [p, sourceKey(source)])),
    issuesHash: issuesHash(resolved.issues),
    reviewed: graph.edges.some((e) => e.reviews !== undefined),
    graphToken: graph.delta?.token ?? null,
    receiptSide,
    unresolvedHash: unresolvedCallsHash(linked.unresolvedCalls.size === 0 ? [] : graph.nodes.flatMap((n) => {
      const count = linked.unresolvedCalls.get(n.id);
      return count === undefined ? [] : [[n.id, count] as const];
    })),
  };
  caches.lastResolved = graph.delta === undefined ? { root: task.root, descriptor: setup.descriptor, current, linked } : null;
}
