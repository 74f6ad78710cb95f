import type { AdapterManifest } from '@docforge/core';

/**
 * Manifest of the built-in `typescript` adapter: id, version (part of `adapter_version` in every
 * MCP response; bump when output changes), the extensions it reads, and that it builds function Logic. Served by the package's one
 * entry, which never loads the TypeScript compiler (index.ts).
 */
export const typescriptManifest: AdapterManifest = Object.freeze({
  id: 'typescript',
  version: '1.7.5',
  extensions: Object.freeze(['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs']),
  logic: true,
});
