/**
 * One build per project at a time, across processes: a sync that must build first takes the
 * project's build lock (`<state>/locks/index-build.lock`). When another process (a second
 * `docforge sync`, another agent's `docforge-mcp`) holds it, the sync waits its turn and then
 * decides again, so it serves what the other build published instead of building the same sources
 * a second time (before, both built and one publication was superseded: twice the CPU and memory).
 * The lock only saves work; it guards nothing: a wait that runs out, or a lock that cannot be
 * taken, builds anyway, and publication stays serialized by its own lock (libs/store).
 */
import { acquireLock, type LockHandle, type StateLayout } from '@docforge/fs-safe';
import { DocforgeError } from '@docforge/core';

/** The longest wait for another process's build, in milliseconds (a 100k-node cold build takes about two minutes). */
export const BUILD_TURN_WAIT_MS = 10 * 60 * 1000;

/** A sync's turn to build: the lock held (null when it could not be taken) and whether another process's build was waited for. */
export interface BuildTurn {
  lock: LockHandle | null;
  /** True when another process held the lock: the sources must be decided again before building. */
  waited: boolean;
}

/**
 * Takes the project's build lock: at once when it is free (or its owner is dead), else after
 * waiting for the live owner up to `waitMs`.
 * @param waitMs the longest wait, in milliseconds ({@link BUILD_TURN_WAIT_MS} by default)
 * @returns the turn; never throws (a wait that runs out or a lock that cannot be written gives
 *   `lock: null`, and the caller builds without it)
 */
export async function takeBuildTurn(layout: StateLayout, waitMs: number = BUILD_TURN_WAIT_MS): Promise<BuildTurn> {
  try {
    return { lock: await acquireLock(layout.buildLock, { timeoutMs: 0, label: 'index_build' }), waited: false };
  } catch (error) {
    if (!(error instanceof DocforgeError && error.code === 'lock_timeout')) return { lock: null, waited: false };
  }
  try {
    return { lock: await acquireLock(layout.buildLock, { timeoutMs: waitMs, label: 'index_build' }), waited: true };
  } catch {
    return { lock: null, waited: true };
  }
}
