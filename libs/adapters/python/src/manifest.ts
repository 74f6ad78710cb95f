import type { AdapterManifest } from '@docforge/core';

/**
 * Manifest of the built-in `python` adapter: id, version (part of `adapter_version` in every
 * response; equal to `PYTHON_ADAPTER_VERSION`) and the extensions it reads. Importable on its own
 * (through the package's one entry, whose runtime loads web-tree-sitter only when initialized)
 * without loading the grammar.
 */
export const pythonManifest: AdapterManifest = Object.freeze({
  id: 'python',
  version: '1.1.0',
  extensions: Object.freeze(['.py']),
});
