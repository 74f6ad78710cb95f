/** The watchdog timeout of project-owned adapter code in the build worker (docs/project-adapters.md). */
/**
 * How long project-owned adapter code (module import, `extract`) may run in the build worker before
 * the worker thread is terminated and the sync answers `adapter_failed` (docs/project-adapters.md).
 * Overridable with the environment variable `DOCFORGE_ADAPTER_TIMEOUT_MS` (tests use a tiny value).
 */
export const ADAPTER_TIMEOUT_MS = 30_000;

/** The adapter timeout in force: `DOCFORGE_ADAPTER_TIMEOUT_MS` when a positive integer, else {@link ADAPTER_TIMEOUT_MS}. */
export function adapterTimeoutMs(): number {
  const raw = Number(process.env.DOCFORGE_ADAPTER_TIMEOUT_MS);
  return Number.isInteger(raw) && raw > 0 ? raw : ADAPTER_TIMEOUT_MS;
}
