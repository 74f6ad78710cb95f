/**
 * The "build" end of a sync (IndexManager, manager.ts): the manager's pool of one build
 * worker (build-pool.ts; the CLI's prestarted pool first, build-pools.ts), the builds run on it under the project-owned adapter's watchdog
 * (build-run.ts), its idle-time tasks, and its closing.
 */
import { removeStandbyFiles, type BuildOutcome, type BuildProgress, type BuildTask, type PrimeTask } from '@docforge/builder';
import { runWatchedBuild } from './build-run.js';
import { BuildPools, poolDeath, runOnPool, type BuildPool } from './build-pools.js';

/** Receives warnings (never stdout). */
export type WarningSink = (message: string, details: Record<string, unknown>) => void;

/** The build worker pool of one IndexManager, started on its first build. */
export class BuildWorkers {
  private pool: BuildPool | null = null;
  private closed = false;

  /**
   * @param onWarning receives warnings
   * @param pools where pools come from: the pool the CLI prestarted first, then new ones
   */
  constructor(private readonly onWarning: WarningSink, private readonly pools: BuildPools = new BuildPools()) {}

  /** Whether a pool is running (a build ran and its thread is alive). */
  running(): boolean {
    return this.pool !== null && !this.closed;
  }

  /**
   * Runs one build in the worker pool, under the project-owned adapter's watchdog (build-run.ts).
   * A pool whose thread could not start (build-pool.ts `poolDeath`) is dropped, so the next build
   * starts a new one; when the bundled worker was the one that failed, the build runs once more
   * at once on the compiled worker (a damaged or half-written bundle must not stop syncs).
   */
  async run(task: BuildTask, onProgress?: (progress: BuildProgress) => void): Promise<BuildOutcome & { timedOut?: boolean }> {
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
   * Idle-time work after a build (worker.ts `prime`): the worker primes its incremental resolver and
   * starts the standby copy of the new index file. Settles, never rejects; nothing without a pool.
   */
  prime(task: PrimeTask): Promise<unknown> {
    if (this.pool === null) return Promise.resolve();
    return runOnPool(this.pool, task, { name: 'prime' }).catch(() => undefined);
  }

  /** Settles once the worker's standby copy (if any) is finished (worker.ts `awaitStandby`). Never rejects. */
  async awaitStandby(): Promise<void> {
    if (this.pool !== null && !this.closed) await runOnPool(this.pool, {}, { name: 'awaitStandby' }).catch(() => undefined);
  }

  /**
   * Destroys the pool, then removes the standby copies its threads owned in the index directory
   * `indexDir()` names (of no use once they are gone; standby-copy.ts).
   * @param indexDir the index directory, or throws when there is none (no descriptor): nothing to clean
   */
  async close(indexDir: () => string): Promise<void> {
    this.closed = true;
    const pool = this.pool;
    this.pool = null;
    const threadIds = pool === null ? [] : pool.threads.map((thread) => thread.threadId);
    if (pool) await pool.destroy();
    try {
      if (threadIds.length > 0) removeStandbyFiles(indexDir(), threadIds);
    } catch {
      // no descriptor: no state directory of ours to clean
    }
  }
}
