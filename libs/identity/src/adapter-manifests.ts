/**
 * Manifests of the built-in code adapters (id, version, extensions), imported from each adapter's
 * one entry, which loads neither a compiler nor a grammar, so the main thread learns which files to
 * walk without loading them.
 */
import type { AdapterManifest } from '@docforge/core';
import type { Descriptor } from '@docforge/project';
import { pythonManifest } from '@docforge/adapter-python';
import { typescriptManifest } from '@docforge/adapter-typescript';
import { TREE_MANIFESTS } from '@docforge/adapter-treesitter';

/** Every built-in code adapter's manifest. */
export const BUILTIN_ADAPTER_MANIFESTS: readonly AdapterManifest[] = Object.freeze([typescriptManifest, pythonManifest, ...TREE_MANIFESTS]);

/** The manifest of a built-in adapter, or null for an unknown id. */
export function builtinAdapterManifest(id: string): AdapterManifest | null {
  return BUILTIN_ADAPTER_MANIFESTS.find((m) => m.id === id) ?? null;
}

/** File extensions read by the listed adapters (`[adapter] code`), in list order; unknown ids add none. */
export function codeExtensionsOf(adapterIds: readonly string[]): string[] {
  return adapterIds.flatMap((id) => builtinAdapterManifest(id)?.extensions ?? []);
}

/** Version of the built-in document loader (Markdown, TOML records): the first part of every adapter version. */
export const DOCUMENT_LOADER_VERSION = 'docs@9';

/**
 * The parts of a composite adapter version (`docs@2`, `typescript@1.2.0`, …, `strategy=ast`), each
 * code adapter's version given by `versionOf` (null: `unavailable`). Joined by `+` it is the
 * `adapter_version` of a publication (adapter-registry.ts adapterVersionOf).
 */
export function adapterVersionParts(descriptor: Descriptor, versionOf: (id: string) => string | null): string[] {
  return [DOCUMENT_LOADER_VERSION, ...descriptor.adapter.code.map((id) => `${id}@${versionOf(id) ?? 'unavailable'}`), `strategy=${descriptor.adapter.strategy}`];
}

/**
 * Whether a publication's `adapter_version` was made by the adapters this program would use for
 * `descriptor` (the document loader, each built-in code adapter's manifest version, the strategy):
 * a publication of an older DocForge is rebuilt, not served as current. A part published as
 * `ID@unavailable` (the adapter could not be loaded when that build ran) matches its adapter id:
 * the build would say the same again. For descriptors with a project-owned adapter the worker adds
 * a suffix this check does not know; callers compare only without one.
 */
export function adapterVersionCurrent(published: string, descriptor: Descriptor): boolean {
  const parts = published.split('+');
  const expected = adapterVersionParts(descriptor, (id) => builtinAdapterManifest(id)?.version ?? null);
  if (parts.length !== expected.length) return false;
  return expected.every((want, i) => parts[i] === want || (parts[i]!.endsWith('@unavailable') && parts[i]!.slice(0, -'@unavailable'.length) === want.slice(0, want.indexOf('@'))));
}
