/**
 * The recovery half of the application gate of a `--canonical-applier` start, run lazily (break-it
 * trial ap2, F1). Start-up resolves the canonical applier at once; recovering an interrupted
 * application needs the application lock, which another process may hold for as long as its
 * application runs. The server therefore answers `initialize` at once whatever the lock, and the
 * gate is passed before the first tool call and, while it keeps failing, before every later one:
 * each try waits for the lock at most {@link GATE_LOCK_WAIT_MS}, so a call never hangs for long,
 * and the server serves its project as soon as the lock is free and recovery succeeds. Until then
 * every tool call answers the gate's error (`lock_timeout`, `application_journal_invalid`,
 * `application_recovery_conflict`, `application_in_progress`) with the last publication's project
 * block. No restart is ever needed.
 */
import path from 'node:path';
import type { Logger } from 'pino';
import { ChangesetStore, loadCanonicalApplier, recoverApplication, type CanonicalApplier } from '@docforge/changesets';
import { readDocforgeConfig, toDocforgeError } from '@docforge/core';
import { loadDescriptor } from '@docforge/project';
import { resolveProjectRoot } from '@docforge/sync';

/** Longest wait for the application lock, in milliseconds, of one gate try before a tool call. */
export const GATE_LOCK_WAIT_MS = 5_000;

/** Longest wait for the application lock, in milliseconds, of the try at start (initialize is never held up longer). */
export const GATE_START_WAIT_MS = 200;

/** The recovery gate of an application-enabled server (see the module comment). */
export interface ApplicationGate {
  /**
   * Resolves once recovery has run to completion (at once ever after); otherwise tries it again,
   * waiting at most `lockWaitMs` for the application lock. Concurrent calls share one try.
   * @throws DocforgeError the error of this try (nothing is remembered: the next call tries again)
   */
  pass(lockWaitMs?: number): Promise<void>;
}

/**
 * Resolves the canonical applier the project supplies and creates its recovery gate, trying it once
 * with a short lock wait ({@link GATE_START_WAIT_MS}); a failed try is logged (and written to stderr as
 * `docforge-mcp: MESSAGE`, as a refused start is) and left for the next
 * tool call.
 * @param projectRoot absolute project root
 * @throws DocforgeError `canonical_applier_unavailable`, `descriptor_invalid`, `project_root_invalid`
 *   (the start is refused: nothing recovers them)
 */
export async function openApplicationGate(projectRoot: string, logger: Logger): Promise<{ applier: CanonicalApplier; gate: ApplicationGate }> {
  const root = resolveProjectRoot(projectRoot);
  const descriptor = loadDescriptor(root);
  const applier = await loadCanonicalApplier(descriptor);
  const store = new ChangesetStore(path.join(root, descriptor.state.dir), root, { faults: readDocforgeConfig().testFaults });
  let passed = false;
  let running: Promise<void> | null = null;
  const attempt = async (lockWaitMs: number): Promise<void> => {
    const recovered = await recoverApplication(store, descriptor, { lockTimeoutMs: lockWaitMs });
    if (recovered !== null) logger.warn(recovered, 'recovered an interrupted canonical application');
    passed = true;
  };
  const gate: ApplicationGate = {
    pass(lockWaitMs = GATE_LOCK_WAIT_MS) {
      if (passed) return Promise.resolve();
      running ??= attempt(lockWaitMs).finally(() => void (running = null));
      return running;
    },
  };
  await gate.pass(GATE_START_WAIT_MS).catch((error: unknown) => {
    // Reported as a refused start is (stderr carries the error), but the server still binds the project.
    const wire = toDocforgeError(error).toWire();
    logger.error({ err: wire }, 'application gate not passed at start: every tool call tries it again first');
    process.stderr.write(`docforge-mcp: ${wire.message}\n`);
  });
  return { applier, gate };
}
