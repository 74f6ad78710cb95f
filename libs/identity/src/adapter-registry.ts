/**
 * The code adapters available to builds in this thread: built-in adapters are loaded by id on first
 * use (the worker entries install the loader), so documentation-only projects never load a compiler
 * or a grammar and this module stays adapter-agnostic.
 */
import path from 'node:path';
import type { CodeAdapter, CodeLinker } from '@docforge/core';
import type { Descriptor } from '@docforge/project';
import { adapterVersionParts, builtinAdapterManifest } from './adapter-manifests.js';

/** Version of the document loader, part of `adapter_version`. */
export { DOCUMENT_LOADER_VERSION } from './adapter-manifests.js';

const codeAdapters = new Map<string, CodeAdapter>();
/** Linking halves loaded without their adapter's extractor ({@link ensureLinkers}). */
const codeLinkers = new Map<string, CodeLinker>();
const unavailableAdapters = new Set<string>();
/*
 * The registry is per-thread state on purpose (a justified exception, issue 29): the adapters a
 * build thread loaded stay loaded for its later builds (a compiler or grammar loads once per
 * thread), and the thread's entry (libs/sync worker.ts, libs/builder parse-worker.ts) installs the
 * loaders once, since this lib cannot import libs/builder's loader (build depends on identity).
 * Its successor is a registry object owned by the build session (libs/builder, issue 29 item 1).
 */
let adapterLoader: (id: string) => Promise<CodeAdapter | null> = () => Promise.resolve(null);
let linkerLoader: (id: string) => Promise<CodeLinker | null> = (id) => adapterLoader(id);

/**
 * Sets how built-in code adapters are loaded by id (the worker entry imports them lazily), and
 * optionally how their linking halves alone are (default: the whole adapter).
 */
export function setAdapterLoader(loader: (id: string) => Promise<CodeAdapter | null>, linkers?: (id: string) => Promise<CodeLinker | null>): void {
  adapterLoader = loader;
  linkerLoader = linkers ?? loader;
}

/** Registers a code adapter under its id (tests, or adapters loaded up front). */
export function registerCodeAdapter(adapter: CodeAdapter): void {
  codeAdapters.set(adapter.id, adapter);
}

/** Loads the adapters of these ids that are not loaded yet; an id that fails to load stays unavailable. */
export async function ensureAdapters(ids: readonly string[]): Promise<void> {
  for (const id of ids) {
    if (codeAdapters.has(id) || unavailableAdapters.has(id)) continue;
    const adapter = await adapterLoader(id).catch(() => null);
    if (adapter) codeAdapters.set(id, adapter);
    else {
      // Unavailable as a whole, its linking half too: as for a build that never loaded either.
      unavailableAdapters.add(id);
      codeLinkers.delete(id);
    }
  }
}

/** Whether each of these adapters is loaded whole or known unavailable ({@link ensureAdapters} would do nothing). */
export function adaptersSettled(ids: readonly string[]): boolean {
  return ids.every((id) => codeAdapters.has(id) || unavailableAdapters.has(id));
}

/**
 * Loads the linking halves of these adapters where neither they nor the whole adapter are loaded
 * (issue 14: a build that parses no code never loads the TypeScript compiler). An id whose linker
 * fails to load stays unavailable, as with {@link ensureAdapters}.
 */
export async function ensureLinkers(ids: readonly string[]): Promise<void> {
  for (const id of ids) {
    if (codeAdapters.has(id) || codeLinkers.has(id) || unavailableAdapters.has(id)) continue;
    const linker = await linkerLoader(id).catch(() => null);
    // A loader that gives the whole adapter (one without a linking half of its own) loads it once.
    if (linker && typeof (linker as Partial<CodeAdapter>).extract === 'function') codeAdapters.set(id, linker as CodeAdapter);
    else if (linker) codeLinkers.set(id, linker);
    else unavailableAdapters.add(id);
  }
}

/**
 * The ids of `[adapter] code` that these sources need loaded (issue 14): a built-in adapter only
 * when some source has one of its extensions, so a project without TS/JS files never loads the
 * TypeScript compiler; an id without a built-in manifest always.
 */
export function adaptersFor(descriptor: Descriptor, entries: readonly { path: string; role: string }[]): string[] {
  const extensions = new Set<string>();
  for (const entry of entries) if (entry.role === 'code') extensions.add(path.extname(entry.path).toLowerCase());
  return descriptor.adapter.code.filter((id) => {
    const manifest = builtinAdapterManifest(id);
    return manifest === null || manifest.extensions.some((ext) => extensions.has(ext));
  });
}

/** The loaded adapter with this id, or undefined. */
export function codeAdapter(id: string): CodeAdapter | undefined {
  return codeAdapters.get(id);
}

/** Ids of the code adapters loaded whole (with their parser) in this thread, sorted. */
export function loadedParsers(): string[] {
  return [...codeAdapters.keys()].sort();
}

/** The linking half of the adapter with this id: the whole adapter when it is loaded, else its loaded linker, else undefined. */
export function codeLinker(id: string): CodeLinker | undefined {
  return codeAdapters.get(id) ?? codeLinkers.get(id);
}

/** The first adapter of the descriptor's `[adapter] code` list that handles this file's extension, or null. */
export function adapterFor(descriptor: Descriptor, filePath: string): CodeAdapter | null {
  const ext = path.extname(filePath).toLowerCase();
  for (const id of descriptor.adapter.code) {
    const adapter = codeAdapters.get(id);
    if (adapter && adapter.extensions.includes(ext)) return adapter;
  }
  return null;
}

/** The composite adapter version reported in every response, e.g. `docs@1+typescript@1.0.0+strategy=ast`. */
export function adapterVersionOf(descriptor: Descriptor): string {
  // A built-in adapter not loaded because no source needs it reports its manifest's version.
  return adapterVersionParts(descriptor, (id) => codeLinker(id)?.version ?? (unavailableAdapters.has(id) ? null : builtinAdapterManifest(id)?.version ?? null)).join('+');
}
