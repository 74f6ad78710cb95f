/** Build progress as the build worker posts it to its caller (build-session.ts). */
import type { MessagePort } from 'node:worker_threads';

/** Receives one progress step of a build stage: `done` of `total` units. */
export type Progress = (stage: string, done: number, total: number) => void;

/** Progress messages of one stage are at least this far apart, besides its first and last ones. */
const PROGRESS_INTERVAL_MS = 100;

/**
 * Posts build progress to the caller, at most one message per stage every `PROGRESS_INTERVAL_MS`
 * besides each stage's first and last (`done === total`) ones: a cold build of 10,000 files
 * otherwise posts one per parsed batch, thousands (issue 14).
 */
export function throttledProgress(port: MessagePort | undefined): Progress {
  let lastStage = '';
  let lastAt = 0;
  return (stage, done, total) => {
    if (port === undefined) return;
    const now = performance.now();
    if (stage === lastStage && done < total && now - lastAt < PROGRESS_INTERVAL_MS) return;
    lastStage = stage;
    lastAt = now;
    port.postMessage({ stage, done, total });
  };
}
