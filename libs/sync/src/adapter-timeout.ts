/** Limits of the build worker: the watchdog timeout of project-owned adapter code (docs/project-adapters.md) and its heap. */
import { totalmem } from 'node:os';
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

/**
 * Old-generation heap limit of the build worker thread, in MiB: `DOCFORGE_BUILD_HEAP_MB` when a
 * positive integer, else half the machine's memory and at least 4,096 (V8's default for a worker
 * stopped a 1,000,000-node build with "JS heap out of memory" at about 4.6 GB RSS).
 */
export function buildHeapMb(): number {
  const raw = Number(process.env.DOCFORGE_BUILD_HEAP_MB);
  if (Number.isInteger(raw) && raw > 0) return raw;
  return Math.max(4096, Math.floor(totalmem() / 2 / 1024 / 1024));
}
