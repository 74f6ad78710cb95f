/**
 * The whole Python adapter (web-tree-sitter + tree-sitter-python WASM), reached from outside
 * through the package's one entry, `loadPythonAdapter()` (index.ts), so importing the entry for
 * the manifest loads none of it.
 */
export { pythonAdapter, PYTHON_ADAPTER_VERSION } from './adapter.js';
export { pythonManifest } from './manifest.js';
export { initPythonAdapter, isPythonAdapterReady } from './runtime.js';
export { extractPython } from './extract.js';
export { isPythonTestPath, PYTHON_LANGUAGE } from './module-facts.js';
export type { ExtractResult } from './module-facts.js';
export { extractPythonLexical, scanPythonSource } from './lexical.js';
export { scanPythonLines } from './scanner.js';
export type { PyLogicalLine, PyToken } from './scanner.js';
export type { PythonLexicalScan } from './lexical.js';
export { linkPython } from './link.js';
export { readPythonLinkData, PYTHON_LINK_DATA_VERSION } from './link-data.js';
export type { PythonLinkData, PythonImport, PythonCall, PythonBase, PythonDef } from './link-data.js';
