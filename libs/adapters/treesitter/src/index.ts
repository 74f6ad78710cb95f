/**
 * @docforge/adapter-treesitter: the built-in code adapters of the tree-sitter family (Go first;
 * web-tree-sitter + the grammars of @vscode/tree-sitter-wasm). This one entry serves the manifests
 * (the main thread learns which files to walk from them) and loads the adapters on demand
 * ({@link loadTreeAdapters}), so a process that walks never loads a grammar.
 */
export { TREE_MANIFESTS, TREE_ADAPTER_VERSION } from './manifest.js';
export type { TreeLinkData, TreeImport, TreeCall, TreeBase, TreeDef } from './link-data.js';

/** The whole family (whole.ts): `treeAdapter(id)`, `initTreeLanguage(id)`, the link-data reader. */
export type TreeAdapterModule = typeof import('./whole.js');

/** Loads the whole family (module code; a grammar loads through an adapter's `prepare` for a file that needs it, or `initTreeLanguage(id)`). */
export function loadTreeAdapters(): Promise<TreeAdapterModule> {
  return import('./whole.js');
}
