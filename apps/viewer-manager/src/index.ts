/**
 * The per-user viewer-manager daemon: socket server, supervisor, worker table, idle reclaim (issue 12).
 * Started through its `bin` (`docforge-viewer-manager`); this module exposes the pieces for tests.
 */
export type { DaemonOptions } from './daemon.js';
export { runDaemon, daemonOptionsFromEnv, DEFAULT_IDLE_TIMEOUT_MS, DEFAULT_WORKER_START_TIMEOUT_MS } from './daemon.js';
export type { SignatureState } from './signature.js';
export { signatureState, sameSignature } from './signature.js';
