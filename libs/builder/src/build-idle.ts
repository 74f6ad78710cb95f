/**
 * Work of a build worker outside its builds, on the caches a build left (build-caches.ts): priming
 * the incremental resolver and the standby copy after a build of a long-lived process, and the
 * preparation of a worker started before its build.
 */
import { readFileSync } from 'node:fs';
import { sha256 } from '@docforge/core';
import { stateLayout } from '@docforge/fs-safe';
import { adapterVersionOf, ensureAdapters, ensureLinkers } from '@docforge/identity';
import { loadDescriptor } from '@docforge/project';
import { readPublicationOnce, writeLinkCaches } from '@docforge/store';
import { stampOf, type BuildCaches } from './build-caches.js';
import { primeResolver } from './build-graph.js';
import type { PrepareTask } from './build-types.js';

/**
 * Idle-time work of a long-lived process after a build of `root` (issue 14): when that build
 * resolved the graph from scratch, the incremental resolver makes its first, fuller pass over the
 * same sources now, so the next one-file edit resolves incrementally from its first build. The
 * written state takes the primed output's token (the same graph), so that edit can also reuse the
 * edge map. Never throws; does nothing when there is nothing to prime.
 * @returns whether the resolver was primed, and the time it took in ms
 */
export function primeBuildCaches(caches: BuildCaches, root: string): { primed: boolean; ms: number } {
  const started = performance.now();
  const last = caches.lastResolved;
  caches.lastResolved = null;
  const written = caches.written;
  if (last === null || last.root !== root || !caches.writtenByBuild || written === null || written.root !== root) return { primed: false, ms: 0 };
  const token = primeResolver(caches.link, last.descriptor, last.current, last.linked);
  if (token !== null) {
    // The primed output is the same graph: the kept review and coverage findings describe it too
    // (their edge groups compare edges by content when they are other objects; build-review-links.ts).
    caches.reviewLinks.retarget(last.current, token);
    caches.coverage.retarget(last.current, token);
    written.graphToken = token;
  }
  return { primed: token !== null, ms: performance.now() - started };
}

/**
 * Idle-time work of a long-lived process after a build of `root` whose state lives in `stateDir`:
 * starts the standby copy of the file these caches just published (standby-copy.ts), so the next
 * delta build does not copy the whole index on its critical path. Returns at once; never throws.
 * @returns whether a copy was started or is already there
 */
export function prepareDeltaBase(caches: BuildCaches, root: string, stateDir: string): boolean {
  const written = caches.written;
  if (!caches.writtenByBuild || written === null || written.root !== root) return false;
  const layout = stateLayout(stateDir, root);
  caches.standby.prepare(layout, { index_file: written.indexFile, index_ino: written.indexIno, index_size: written.indexSize });
  // The link outputs too, for a later process's first edit (a one-shot build stores them itself).
  writeLinkCaches(layout, stampOf(written), written.indexFile, caches.link.forStore());
  return true;
}

/**
 * A build worker started because a build is coming (build-pool.ts `prestartBuildWorker`, task
 * name `prepare`): while the main thread still loads and walks, its caches start from the current
 * publication ({@link BuildCaches.warmStart}) and it loads the code adapters of its sources (the
 * TypeScript compiler; only the linking halves of those not in `task.parseAdapters`), so the build
 * task finds both done. The build checks everything again: a publication that changed meanwhile
 * only means the prepared state is used as a long-lived worker uses its own (per-source
 * identities, link hashes, and a delta only onto the file it describes). Does nothing for a
 * project with a project-owned adapter, or with caches a build already filled. Never throws.
 * @returns whether the caches now start from the publication
 */
export async function prepareBuild(task: PrepareTask, caches: BuildCaches): Promise<boolean> {
  try {
    if (!caches.empty()) return false;
    const descriptor = loadDescriptor(task.root);
    if (descriptor.adapter.module !== null) return false;
    const layout = stateLayout(task.stateDir, task.root);
    const previous = readPublicationOnce(layout).publication;
    if (previous === null) return false;
    const expected = { root: task.root, logicAllowed: task.logicAllowed, descriptorHash: sha256(readFileSync(descriptor.path)), adapterVersion: adapterVersionOf(descriptor) };
    if (!caches.warmStart(layout, previous, expected, false)) return false;
    const adapters = new Set<string>();
    for (const source of caches.sources.values()) if (source.adapter !== null) adapters.add(source.adapter);
    // A parser (the TypeScript compiler) only where code will be parsed; linking needs only the linking halves.
    const parsing = [...adapters].filter((id) => task.parseAdapters === undefined || task.parseAdapters.includes(id));
    await ensureAdapters(parsing);
    await ensureLinkers([...adapters]);
    return true;
  } catch {
    // A preparation that fails only means the build does this work itself.
    return false;
  }
}
