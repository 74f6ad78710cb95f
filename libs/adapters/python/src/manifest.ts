import type { AdapterManifest } from '@docforge/core';

/**
 * Manifest of the built-in `python` adapter: id, version (part of `adapter_version` in every
 * response; equal to `PYTHON_ADAPTER_VERSION`), the extensions it reads, and that it builds no Logic. Importable on its own
 * (the package's one entry serves it; the adapter loads through `loadPythonAdapter()`) without
 * loading the grammar.
 */
export const pythonManifest: AdapterManifest = Object.freeze({
  id: 'python',
  version: '1.2.0',
  extensions: Object.freeze(['.py']),
  // Python nodes carry no Logic under either strategy (extract.ts returns no steps or flows).
  logic: false,
});
