/**
 * One build task in the IndexManager's piscina pool, with the project-owned adapter's watchdog
 * (adapter-timeout.ts; docs/project-adapters.md, "Timeouts").
 */
import { MessageChannel } from 'node:worker_threads';
import { errors, toDocforgeError } from '@docforge/core';
import { runOnPool, type BuildPool } from './build-pool.js';
import type { BuildOutcome, BuildProgress, BuildTask } from '@docforge/builder';

/**
 * Runs one build in the worker. While the worker says adapter code runs (`{ watchdog: true }` on
 * the progress port), a timer of the pool's `adapterTimeoutMs` (adapter-timeout.ts) is armed; when it fires the task is
 * aborted, which terminates the worker thread (a busy loop cannot be awaited) and piscina starts a
 * fresh one for the next build. Never rejects: failures come back as `{ ok: false, error }`
 * (`adapter_failed` with `timedOut: true` after a timeout, reported to `onWarning`;
 * `index_unavailable` when the pool's thread cannot start, build-pool.ts `runOnPool`).
 */
export async function runWatchedBuild(
  pool: BuildPool, task: BuildTask, onProgress: ((progress: BuildProgress) => void) | undefined,
  onWarning: (message: string, details: Record<string, unknown>) => void,
): Promise<BuildOutcome & { timedOut?: boolean }> {
  const channel = new MessageChannel();
  const abort = new AbortController();
  const timeoutMs = pool.adapterTimeoutMs;
  let timer: NodeJS.Timeout | null = null;
  let timedOut = false;
  const disarm = (): void => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
  };
  channel.port1.on('message', (message: BuildProgress | { watchdog: boolean }) => {
    if (!('watchdog' in message)) return onProgress?.(message);
    disarm();
    if (message.watchdog) {
      timer = setTimeout(() => {
        timedOut = true;
        abort.abort();
      }, timeoutMs);
    }
  });
  try {
    return (await runOnPool(pool, { ...task, progressPort: channel.port2 }, { transferList: [channel.port2], signal: abort.signal })) as BuildOutcome;
  } catch (error) {
    if (timedOut) {
      const module = task.projectAdapter?.module ?? 'the project-owned adapter';
      const reason = `${module} did not finish within ${timeoutMs} ms (loading the module or running extract); the build worker was stopped. `
        + 'Make extract() return (or reject) promptly, then restart the server.';
      onWarning('project-owned adapter timed out', { module, timeout_ms: timeoutMs });
      return { ok: false, error: errors.adapterFailed(reason, { timeout_ms: timeoutMs }).toWire(), timedOut: true };
    }
    return { ok: false, error: toDocforgeError(error).toWire() };
  } finally {
    disarm();
    channel.port1.close();
  }
}
