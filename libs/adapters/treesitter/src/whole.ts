/**
 * The whole tree-sitter adapter family, reached from outside through the package's one entry,
 * `loadTreeAdapters()` (index.ts), so importing the entry for the manifests loads none of it.
 */
import { errors, type CodeAdapter } from '@docforge/core';
import { initTreeAdapter, makeTreeAdapter } from './adapter.js';
import { GO_SPEC } from './lang/go.js';
import { RUST_SPEC } from './lang/rust.js';
import { JAVA_SPEC } from './lang/java.js';
import { CSHARP_SPEC } from './lang/csharp.js';
import { RUBY_SPEC } from './lang/ruby.js';
import { PHP_SPEC } from './lang/php.js';
import { CPP_SPEC } from './lang/cpp.js';
import { TREE_ADAPTER_VERSION } from './manifest.js';
import type { LanguageSpec } from './spec.js';

export { TREE_ADAPTER_VERSION, TREE_MANIFESTS } from './manifest.js';
export { readTreeLinkData, TREE_LINK_DATA_VERSION } from './link-data.js';
export type { TreeLinkData, TreeImport, TreeCall, TreeBase, TreeDef } from './link-data.js';
export { maskSource } from './lexical.js';
export { goModulePath } from '@docforge/module-resolution';
export { cargoLibName } from '@docforge/module-resolution';
export { flattenUse } from './lang/rust.js';
export { isGrammarReady } from './runtime.js';

/** The languages of the family by adapter id. */
const SPECS: ReadonlyMap<string, LanguageSpec> = new Map([GO_SPEC, RUST_SPEC, JAVA_SPEC, CSHARP_SPEC, RUBY_SPEC, PHP_SPEC, CPP_SPEC].map((spec) => [spec.id, spec]));

/** Adapter ids of the family, in manifest order. */
export const TREE_ADAPTER_IDS: readonly string[] = Object.freeze([...SPECS.keys()]);

/** The adapter of a family id (strategy `ast` needs its `prepare` for each file, or {@link initTreeLanguage}, first), or null for another id. */
export function treeAdapter(id: string): CodeAdapter | null {
  const spec = SPECS.get(id);
  return spec === undefined ? null : makeTreeAdapter(spec, TREE_ADAPTER_VERSION);
}

/**
 * Loads every grammar of a family id on this thread (idempotent); a build loads them per file through `prepare` instead.
 * @throws DocforgeError `internal_error` for an id outside the family, or when the grammar cannot be loaded.
 */
export async function initTreeLanguage(id: string): Promise<void> {
  const spec = SPECS.get(id);
  if (spec === undefined) throw errors.internalError(`not a tree-sitter adapter id: ${id}`);
  await initTreeAdapter(spec);
}
