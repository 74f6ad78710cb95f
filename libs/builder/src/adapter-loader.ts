import type { CodeAdapter, CodeLinker } from '@docforge/core';
import { TREE_MANIFESTS } from '@docforge/adapter-treesitter';

/**
 * Imports a built-in code adapter by id on first use, so documentation-only projects never load
 * a compiler or a grammar. Returns null for an unknown id.
 */
export async function loadBuiltinAdapter(id: string): Promise<CodeAdapter | null> {
  if (id === 'typescript') return (await (await import('@docforge/adapter-typescript')).loadTypeScriptAdapter()).typescriptAdapter;
  if (id === 'python') {
    const python = await (await import('@docforge/adapter-python')).loadPythonAdapter();
    await python.initPythonAdapter();
    return python.pythonAdapter;
  }
  if (TREE_MANIFESTS.some((manifest) => manifest.id === id)) {
    // Each grammar loads when the first file that needs it is parsed (`prepare`), so linking, strategy `lexical` and a
    // C-only project load none or only theirs.
    return (await (await import('@docforge/adapter-treesitter')).loadTreeAdapters()).treeAdapter(id);
  }
  return null;
}

/**
 * Imports the linking half of a built-in code adapter by id (issue 14): for `typescript` the
 * adapter's linking half (`loadTypeScriptLinker()`), which never loads the compiler (the whole adapter when the compiler
 * package does not resolve); for any other id the whole adapter ({@link loadBuiltinAdapter}).
 * Returns null for an unknown id.
 */
export async function loadBuiltinLinker(id: string): Promise<CodeLinker | null> {
  if (id === 'typescript') {
    const linker = await (await import('@docforge/adapter-typescript')).loadTypeScriptLinker();
    // Without a resolvable compiler the whole adapter is tried (and is unavailable), as for a parse.
    return linker.compilerResolvable() ? linker.typescriptLinker : loadBuiltinAdapter(id);
  }
  return loadBuiltinAdapter(id);
}
