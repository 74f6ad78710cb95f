/**
 * Idle-time work an IndexManager starts after its syncs (manager.ts `afterSync`): tasks that settle
 * on their own, which tests and benchmarks can wait for, and at most one scheduled priming walk.
 */

/** The idle-time work of one IndexManager. */
export class IdleWork {
  /** Every task started so far, settled or not; settles, never rejects. */
  private work: Promise<unknown> = Promise.resolve();
  /** Whether a priming walk is scheduled and not run yet. */
  private walkScheduled = false;

  /** Adds a task (its rejection is ignored: the next sync does the same work itself). */
  add(task: Promise<unknown>): void {
    this.work = Promise.all([this.work, task.catch(() => undefined)]);
  }

  /**
   * Schedules `walk` one timer turn from now unless one is scheduled already; the timer never keeps
   * the process alive. `walk` starts the walk and returns its promise, which joins the work.
   */
  scheduleWalk(walk: () => Promise<unknown>): void {
    if (this.walkScheduled) return;
    this.walkScheduled = true;
    setTimeout(() => this.add(walk()), 0).unref();
  }

  /** The scheduled walk runs now: a later sync may schedule another. */
  walkStarted(): void {
    this.walkScheduled = false;
  }

  /** Settles once every task added so far, and every task added while waiting, has settled. Never rejects. */
  async settled(): Promise<void> {
    // A priming walk is scheduled one timer turn after its sync.
    await new Promise<void>((resolve) => setImmediate(resolve));
    await new Promise<void>((resolve) => setTimeout(resolve, 0));
    let seen: Promise<unknown> | null = null;
    while (seen !== this.work) {
      seen = this.work;
      await seen;
    }
  }
}
