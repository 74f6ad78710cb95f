// Pins the adapter manifests the index walks by: each equals its adapter's own id, version and extensions.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadPythonAdapter } from '@docforge/adapter-python';
import { loadTypeScriptAdapter } from '@docforge/adapter-typescript';
import { BUILTIN_ADAPTER_MANIFESTS, builtinAdapterManifest, codeExtensionsOf } from '../src/index.js';

const { typescriptAdapter } = await loadTypeScriptAdapter();
const { pythonAdapter } = await loadPythonAdapter();

test('every built-in manifest describes its adapter exactly', () => {
  for (const adapter of [typescriptAdapter, pythonAdapter]) {
    const manifest = builtinAdapterManifest(adapter.id);
    assert.ok(manifest, adapter.id);
    assert.deepEqual({ id: manifest.id, version: manifest.version, extensions: [...manifest.extensions] }, { id: adapter.id, version: adapter.version, extensions: [...adapter.extensions] });
  }
  assert.deepEqual(BUILTIN_ADAPTER_MANIFESTS.map((m) => m.id), ['typescript', 'python', 'go', 'rust', 'java', 'csharp', 'ruby', 'php', 'cpp']);
});

test('the walked extensions follow the descriptor adapter list; unknown ids add none', () => {
  assert.deepEqual(codeExtensionsOf(['python']), ['.py']);
  assert.deepEqual(codeExtensionsOf(['python', 'typescript']), ['.py', '.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs']);
  assert.deepEqual(codeExtensionsOf(['cobol']), []);
});
