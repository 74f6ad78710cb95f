/**
 * The build the build worker runs for each task (DESIGN.md sections 1 and 4): one build session
 * (build-session.ts) with the worker's caches (build-caches.ts), run again from the sources alone
 * when it returns a retry cause.
 */
import type { BuildCaches } from './build-caches.js';
import { BuildSession } from './build-session.js';
import type { BuildOutcome, BuildTask } from './build-types.js';

/**
 * Parses changed sources, resolves the graph, writes a complete new SQLite file (a copy of the
 * previous one plus a delta when these caches wrote it, else from scratch) and publishes it
 * atomically under the publication lock (DESIGN.md section 4). Runs inside the piscina worker.
 * Never rejects: failures come back as `{ ok: false, error }` and nothing is published. A build
 * that read damaged link data from the parse cache, or found an adapter it had linked with unable
 * to load whole, runs once more from the sources alone.
 * @param caches the caches of the worker (or test) running the build; they keep what this build wrote
 */
export async function runBuild(task: BuildTask, caches: BuildCaches): Promise<BuildOutcome> {
  let result = await new BuildSession(task, caches).run();
  // Each cause can happen once (the retry reads no cached link data; an unavailable adapter stays
  // so), hence two retries at most.
  for (let retry = 0; retry < 2 && result.retry !== null; retry += 1) {
    result = await new BuildSession({ ...task, forceFull: true }, caches).run();
  }
  return result.outcome;
}
