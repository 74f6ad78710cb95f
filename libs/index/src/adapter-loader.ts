import type { CodeAdapter } from '@docforge/core';

/**
 * Imports a built-in code adapter by id on first use, so documentation-only projects never load
 * a compiler or a grammar. Returns null for an unknown id.
 */
export async function loadBuiltinAdapter(id: string): Promise<CodeAdapter | null> {
  if (id === 'typescript') return (await import('@docforge/adapter-typescript')).typescriptAdapter;
  if (id === 'python') {
    const python = await import('@docforge/adapter-python');
    await python.initPythonAdapter();
    return python.pythonAdapter;
  }
  return null;
}
