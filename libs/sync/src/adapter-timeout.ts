/** Limits of the build worker: the watchdog timeout of project-owned adapter code (docs/project-adapters.md) and its heap. */
import { totalmem } from 'node:os';
import type { DocforgeConfig } from '@docforge/core';

/**
 * How long project-owned adapter code (module import, `extract`) may run in the build worker before
 * the worker thread is terminated and the sync answers `adapter_failed` (docs/project-adapters.md).
 * Overridable with the environment variable `DOCFORGE_ADAPTER_TIMEOUT_MS` (tests use a tiny value;
 * read by libs/core config.ts).
 */
export const ADAPTER_TIMEOUT_MS = 30_000;

/** The adapter timeout in force: `config.adapterTimeoutMs` (`DOCFORGE_ADAPTER_TIMEOUT_MS`) when set, else {@link ADAPTER_TIMEOUT_MS}. */
export function adapterTimeoutMs(config: Pick<DocforgeConfig, 'adapterTimeoutMs'>): number {
  return config.adapterTimeoutMs ?? ADAPTER_TIMEOUT_MS;
}

/**
 * Old-generation heap limit of the build worker thread, in MiB: `config.buildHeapMb`
 * (`DOCFORGE_BUILD_HEAP_MB`) when set, else half the machine's memory and at least 4,096 (V8's
 * default for a worker stopped a 1,000,000-node build with "JS heap out of memory" at about 4.6 GB RSS).
 */
export function buildHeapMb(config: Pick<DocforgeConfig, 'buildHeapMb'>): number {
  return config.buildHeapMb ?? Math.max(4096, Math.floor(totalmem() / 2 / 1024 / 1024));
}
