import type { AdapterManifest } from '@docforge/core';

/** Version of every adapter of the tree-sitter family; part of `adapter_version` in every response. Bump when output for the same input changes. */
export const TREE_ADAPTER_VERSION = '1.2.10';

function manifest(id: string, extensions: readonly string[]): AdapterManifest {
  // Every language of the family builds function Logic under strategy "ast" (logic.ts).
  return Object.freeze({ id, version: TREE_ADAPTER_VERSION, extensions: Object.freeze([...extensions]), logic: true });
}

/**
 * Manifests of the tree-sitter family's adapters (id, version, extensions; each builds function Logic), importable without
 * loading a grammar: `go` (.go), `rust` (.rs), `java` (.java), `csharp` (.cs), `ruby` (.rb), `php` (.php), `cpp` (C and C++: .c, .h, .cc, .cpp, .cxx, .hpp, .hh, .hxx).
 */
export const TREE_MANIFESTS: readonly AdapterManifest[] = Object.freeze([
  manifest('go', ['.go']),
  manifest('rust', ['.rs']),
  manifest('java', ['.java']),
  manifest('csharp', ['.cs']),
  manifest('ruby', ['.rb']),
  manifest('php', ['.php']),
  manifest('cpp', ['.c', '.h', '.cc', '.cpp', '.cxx', '.hpp', '.hh', '.hxx']),
]);
