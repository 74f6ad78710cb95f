/**
 * @docforge/adapter-python: the built-in Python code adapter (web-tree-sitter + tree-sitter-python
 * WASM). This one entry serves the manifest (the main thread learns which files to walk from it)
 * and loads the adapter itself on demand ({@link loadPythonAdapter}; issue 29: one entry per lib,
 * and a process that walks never loads what it does not run).
 */
export { pythonManifest } from './manifest.js';
export type { ExtractResult } from './module-facts.js';
export type { PyLogicalLine, PyToken } from './scanner.js';
export type { PythonLexicalScan } from './lexical.js';
export type { PythonLinkData, PythonImport, PythonCall, PythonBase, PythonDef } from './link-data.js';

/** The whole adapter (whole.ts): `pythonAdapter`, `initPythonAdapter`, `extractPython`, `linkPython`, the scanners. */
export type PythonAdapterModule = typeof import('./whole.js');

/** Loads the whole Python adapter (its module code; the WASM runtime loads on `initPythonAdapter()`). */
export function loadPythonAdapter(): Promise<PythonAdapterModule> {
  return import('./whole.js');
}
