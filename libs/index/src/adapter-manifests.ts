/**
 * Manifests of the built-in code adapters (id, version, extensions), imported from each adapter's
 * light `manifest` entry so the main thread learns which files to walk without loading a compiler.
 */
import type { AdapterManifest } from '@docforge/core';
import { pythonManifest } from '@docforge/adapter-python/manifest';
import { typescriptManifest } from '@docforge/adapter-typescript/manifest';

/** Every built-in code adapter's manifest. */
export const BUILTIN_ADAPTER_MANIFESTS: readonly AdapterManifest[] = Object.freeze([typescriptManifest, pythonManifest]);

/** The manifest of a built-in adapter, or null for an unknown id. */
export function builtinAdapterManifest(id: string): AdapterManifest | null {
  return BUILTIN_ADAPTER_MANIFESTS.find((m) => m.id === id) ?? null;
}

/** File extensions read by the listed adapters (`[adapter] code`), in list order; unknown ids add none. */
export function codeExtensionsOf(adapterIds: readonly string[]): string[] {
  return adapterIds.flatMap((id) => builtinAdapterManifest(id)?.extensions ?? []);
}
